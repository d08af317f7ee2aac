# SPDX-License-Identifier: BSD-2-Clause
# tests/lab/cases/valgrind.sh - sourced by tests/lab/all.sh in the lab
# guest: one server/client pair of each of ib_write_bw, ib_send_lat and
# ib_read_bw on rxe, both sides under valgrind memcheck (--leak-check=full,
# --error-exitcode=99). A pair passes when both sides exit 0, and each
# side when valgrind reports no error and no definitely/indirectly lost
# block; what libibverbs, librdmacm and the providers keep for the life of
# the process is in tests/valgrind.supp. Valgrind adds what ASan cannot
# (uninitialised reads, the real allocator), so it runs on a release build:
# tests/run-lab.sh runs this file in its release boot. Logs stay in
# $LAB_OUT/valgrind/. Iterations are tiny (VALGRIND_ITERS, default 20):
# under TCG valgrind runs ~50x slower than natively.
# Also: scripts/valgrind-lab.sh [TOOL...].
# shellcheck shell=bash

VG_DIR=${LAB_OUT:-/tmp}/valgrind
VG_TOOLS=(${VALGRIND_TOOLS:-ib_write_bw ib_send_lat ib_read_bw})

# shellcheck disable=SC2317 # run by lab_pair
vg() { # LOG CMD...: CMD under memcheck
	local log=$1
	shift
	valgrind -q --leak-check=full --show-leak-kinds=definite,indirect \
		--errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
		--num-callers=30 --gen-suppressions=all \
		--suppressions=tests/valgrind.supp --log-file="$log" "$@"
}

# what a valgrind log says, or nothing when it is clean
vg_verdict() { # NAME LOG
	local text
	_lab_read text "$2"
	if [[ $text =~ (Invalid|uninitialised|Mismatched|overlap|definitely\ lost|indirectly\ lost|Syscall\ param) ]]; then
		lab_fail "$1" "valgrind: ${BASH_REMATCH[0]} (log $2)"
		_lab_show "$2" "$text"
		return 1
	fi
	lab_pass "$1"
}

if ! command -v valgrind >/dev/null; then
	lab_skip valgrind "valgrind not installed (apt-get install valgrind)"
elif ! lab_have rxe; then
	lab_skip valgrind "no rxe0 in this guest"
elif ldd "$B/ib_write_bw" | grep -q libasan; then
	lab_fail valgrind "$B is a sanitizer build: valgrind needs a release build (RDMABENCH_BUILD=build)"
else
	mkdir -p "$VG_DIR"
	vg_port=18700
	for t in "${VG_TOOLS[@]}"; do
		vg_port=$((vg_port + 1))
		lab_wants "valgrind.$t" || continue
		# valgrind makes start-up and every poll slow: generous deadlines
		lab_pair "valgrind.$t" -t 600 -g 120 \
			vg "$VG_DIR/$t.server.vg" "$B/$t" -p "$vg_port" --timeout 120 -- \
			vg "$VG_DIR/$t.client.vg" "$B/$t" -p "$vg_port" "$LAB_RXE_IP" \
			--connect-timeout 240 --timeout 120 -n "${VALGRIND_ITERS:-20}"
		vg_verdict "valgrind.$t.server" "$VG_DIR/$t.server.vg"
		vg_verdict "valgrind.$t.client" "$VG_DIR/$t.client.vg"
	done
fi
