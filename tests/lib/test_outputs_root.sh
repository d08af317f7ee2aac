#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/lib/test_outputs_root.sh - outputs never harm a host (issue #24: as
# root, "--json /dev/null" replaced /dev/null with a regular file). As
# root, in a private mount namespace on a scratch tmpfs (never the host's
# own /dev), a bench's --json, --junit and --prom and ib_doctor's --json
# are written into: a character device node (mknod null c 1 3), a FIFO
# with a reader, a symlink to the device, and /dev/stdout. Afterwards
# each node is still what it was (stat -c %F), the FIFO's reader got each
# document (the JSON ones parse), and /dev/stdout carried the document.
# Also: a directory and one path named twice are refused (exit 2).
# The bench fails at once on any host (-d naming no device) and still
# writes its documents (verdict "error"). Skipped (77) when not root or
# when unshare cannot make a mount namespace.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${RDMABENCH_BUILD:-build}
case $B in /*) ;; *) B=$PWD/$B ;; esac

if [ "$(id -u)" != 0 ]; then
	echo "not root: mknod and a private mount namespace need root"
	exit 77
fi
if ! unshare -m true 2>/dev/null; then
	echo "unshare -m failed: no private mount namespace here"
	exit 77
fi
for t in ib_write_bw ib_doctor; do
	[ -x "$B/$t" ] || { echo "FAIL $B/$t not built"; exit 1; }
done

export B SRC=$PWD
# shellcheck disable=SC2016 # the script runs in the new namespace
exec unshare -m --propagation private bash -c '
set -u
failed=0
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
S=$(mktemp -d) || exit 1
mount -t tmpfs -o mode=0700 rdmabench-scratch "$S" || {
	echo "mount tmpfs failed"; exit 77; }
cd "$S" || exit 1
mknod null c 1 3 && mkfifo fifo && ln -s null link && mkdir dir ||
	{ echo "FAIL making the scratch nodes"; exit 1; }

kinds() { stat -c "%n %F" null fifo link dir; }
kinds > before

bench() { timeout 20 "$B/ib_write_bw" -d rdmabench_none 127.0.0.1 "$@"; }
doctor() { timeout 20 "$B/ib_doctor" --root "$SRC/tests/fixtures/doctor/healthy" "$@"; }

# one document into a FIFO whose reader is started first (and has the
# FIFO open: a writer finding no reader is refused, not left hanging);
# the reader gets it whole. $1: the kind (json, xml, prom); the rest: the
# command.
via_fifo() {
	local kind=$1 rc reader i; shift
	rm -f got
	cat fifo > got &
	reader=$!
	for i in $(seq 100); do
		ls -l /proc/$reader/fd 2>/dev/null | grep -q "/fifo$" && break
		sleep 0.05
	done
	"$@" > out 2>&1; rc=$?
	# a command that never opened the FIFO: end the reader
	for i in $(seq 100); do
		kill -0 "$reader" 2>/dev/null || break
		sleep 0.05
	done
	kill "$reader" 2>/dev/null
	wait "$reader"
	case $kind in
	json) python3 -m json.tool got > /dev/null 2>&1 ||
		fail "$*: the FIFO reader got no valid JSON (exit $rc): $(head -c 200 got; tail -n 3 out)" ;;
	xml) grep -q "^<testsuites" got ||
		fail "$*: the FIFO reader got no JUnit XML (exit $rc): $(head -c 200 got; tail -n 3 out)" ;;
	prom) grep -q "^rdmabench_" got ||
		fail "$*: the FIFO reader got no Prometheus text (exit $rc): $(head -c 200 got; tail -n 3 out)" ;;
	esac
}

for opt in json junit prom; do
	case $opt in json) k=json ;; junit) k=xml ;; prom) k=prom ;; esac
	for node in null link; do
		bench --$opt "$node" > out 2>&1; rc=$?
		# 1: no RDMA device here; 2: devices, but not that one
		[ $rc = 1 ] || [ $rc = 2 ] ||
			fail "bench --$opt $node: exit $rc: $(tail -n 2 out)"
		grep -q "error: $node" out && fail "bench --$opt $node: $(grep error: out)"
	done
	via_fifo "$k" bench --$opt fifo
	bench --$opt /dev/stdout 2> err > got
	case $k in
	json) python3 -m json.tool got > /dev/null 2>&1 ||
		fail "bench --json /dev/stdout: no JSON on stdout: $(head -c 200 got)" ;;
	*) [ -s got ] || fail "bench --$opt /dev/stdout: nothing on stdout" ;;
	esac
	grep -q "verdict: error" err ||
		fail "bench --$opt /dev/stdout: the text did not go to stderr"
done
# every document at once, each into its own output
via_fifo json bench --json fifo --junit null --prom /dev/stderr
# the device and a link to it are one output: refused
bench --junit null --prom link > out 2>&1; rc=$?
[ $rc = 2 ] && grep -q "both name" out ||
	fail "--junit null --prom link: exit $rc, want 2: $(cat out)"

for node in null link; do
	doctor --json "$node" > out 2>&1 || fail "ib_doctor --json $node: exit $?: $(tail -n 2 out)"
done
via_fifo json doctor --json fifo
doctor --json /dev/stdout 2> /dev/null > got
python3 -m json.tool got > /dev/null 2>&1 || fail "ib_doctor --json /dev/stdout: no JSON on stdout"

# refused at option time, nothing written, exit 2
bench --json dir > out 2>&1; rc=$?
[ $rc = 2 ] && grep -q "dir: is a directory" out ||
	fail "--json dir: exit $rc, want 2 and why: $(cat out)"
bench --json x --junit ./x > out 2>&1; rc=$?
[ $rc = 2 ] && grep -q "both name" out && [ ! -e x ] ||
	fail "--json x --junit ./x: exit $rc, want 2 and why: $(cat out)"
bench --json - --prom /dev/stdout > out 2>&1; rc=$?
[ $rc = 2 ] && grep -q "same output stream" out ||
	fail "--json - --prom /dev/stdout: exit $rc, want 2: $(cat out)"
doctor --json dir > out 2>&1; rc=$?
[ $rc = 2 ] || fail "ib_doctor --json dir: exit $rc, want 2: $(cat out)"

kinds > after
if ! cmp -s before after; then
	fail "a node changed kind:"; diff before after
fi
[ "$(readlink link)" = null ] || fail "the symlink was replaced"
ls -A | grep -q "\.tmp\." && fail "a temporary file stayed: $(ls -A)"
cd / && umount "$S" && rmdir "$S"
[ $failed = 0 ] || exit 1
echo "outputs: device, FIFO, symlink, /dev/stdout kept; folder and twice refused"
'
