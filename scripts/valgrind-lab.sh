#!/bin/bash
# scripts/valgrind-lab.sh [TOOL...] - one server/client pair of each TOOL
# (default: ib_write_bw ib_send_lat ib_read_bw) on rxe in the lab guest, both
# sides under valgrind memcheck: --leak-check=full, --error-exitcode=99. A
# pair passes when both sides exit 0 and valgrind reports no error and no
# definitely/indirectly lost block; what libibverbs, librdmacm and the
# providers keep for the life of the process is in tests/valgrind.supp.
#
# On the host it re-runs itself in the guest (scripts/lab/run.sh); the
# valgrind logs stay in $LAB_OUT/valgrind/ (RDMABENCH_LAB_OUT to keep them).
# Iterations are tiny: under TCG valgrind runs ~50x slower than natively.
# Environment: RDMABENCH_BUILD (default build), VALGRIND_ITERS (default 20).
# Last line: "lab: N passed, N failed, N skipped"; exit 0 when none failed.
set -u
cd "$(dirname "$0")/.." || exit 1
if [ "${LAB_GUEST:-}" != 1 ]; then
	export RDMABENCH_LAB_TIMEOUT=${RDMABENCH_LAB_TIMEOUT:-1500}
	exec scripts/lab/run.sh scripts/valgrind-lab.sh "$@"
fi
source tests/lab/harness.sh
B=${RDMABENCH_BUILD:-build}
N=${VALGRIND_ITERS:-20}
VG_DIR=${LAB_OUT:-/tmp}/valgrind
mkdir -p "$VG_DIR"
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(ib_write_bw ib_send_lat ib_read_bw)

if ! command -v valgrind >/dev/null; then
	lab_skip valgrind "valgrind not installed (apt-get install valgrind)"
	lab_summary
fi
if ! lab_have rxe; then
	lab_skip valgrind "no rxe0 in this guest"
	lab_summary
fi

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

port=18700
for t in "${tools[@]}"; do
	port=$((port + 1))
	args=(-n "$N")
	# valgrind makes start-up and every poll slow: generous deadlines
	lab_pair "valgrind.$t" -t 600 -g 120 \
		vg "$VG_DIR/$t.server.vg" "$B/$t" -p "$port" --timeout 120 -- \
		vg "$VG_DIR/$t.client.vg" "$B/$t" -p "$port" "$LAB_RXE_IP" \
		--connect-timeout 240 --timeout 120 "${args[@]}"
	vg_verdict "valgrind.$t.server" "$VG_DIR/$t.server.vg"
	vg_verdict "valgrind.$t.client" "$VG_DIR/$t.client.vg"
done
lab_summary
