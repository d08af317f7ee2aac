#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/nulldev/test_nulldev_watch.sh - the loops' watch on this host's
# clock (issue 27). Where the CPU has an invariant TSC, the bandwidth and
# latency loops learn whether a look is due (stop, --timeout, -D's window,
# the control channel) from one rdtsc against a deadline in ticks, aimed
# again at each look (common/xfer/xfer_int.h); the lab's TCG guests have
# no invariant TSC, so this host is where that path runs. On the null
# device (a stand-in NIC: tests/nulldev/, docs/nulldev.md), ours only:
#   -D 1 of write_bw with a list of 16, write_lat and send_bw end in time
#     with their row on both sides (the -D window is opened and closed by
#     looks);
#   an -n send_bw's server row has a rate (its first and last receive's
#     clock, read once each);
#   a write_lat client whose server is stopped (SIGSTOP) ends with its
#     "no progress" message within --timeout plus a few seconds.
# Skipped (77) without a mount namespace (tests/nulldev/nulldev-run.sh).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/nulldev/prologue.sh
spid=
cleanup() {
	[ -n "$spid" ] && kill -CONT $spid 2>/dev/null
	[ -n "$spid" ] && kill -KILL $spid 2>/dev/null
	rm -rf "$NULLDEV_SYS"
}
trap cleanup EXIT
tests/nulldev/nulldev-run.sh -b "$B" true || exit $?
grep -qw constant_tsc /proc/cpuinfo && grep -qw nonstop_tsc /proc/cpuinfo &&
	echo "this CPU: invariant TSC (the watch's rdtsc path)" ||
	echo "this CPU: no invariant TSC (the watch's clock_gettime path)"
# Ports: 23400-23599 (test_nulldev 20000-22999, budget 23000-23999 by
# $$ % 1000: a clash only when both draw the same)
failed=0 port=$((23400 + $$ % 20 * 10))
ROW='^ +[0-9]+ +[0-9]+ +[0-9.]+'

fail() {
	echo "FAIL $1"
	[ -n "${2:-}" ] && sed 's/^/  | /' <<< "$2" | tail -15
	failed=$((failed + 1))
}

# timed NAME MAX_S TOOL ARGS...: a pair that must end within MAX_S with a
# row on the client's and on the server's side
timed() {
	local name=$1 max=$2 tool=$3 out rc t0 dt
	shift 3
	port=$((port + 1))
	t0=$(date +%s)
	out=$(tests/nulldev/pair.sh -b "$B" -p $port -t 30 "$B/$tool" "$@" \
		--oob tcp 2>&1)
	rc=$?
	dt=$(($(date +%s) - t0))
	if [ $rc != 0 ] || [ $dt -gt "$max" ] ||
	   ! grep -Eq "$ROW" <<< "${out%%== server*}" ||
	   ! grep -Eq "$ROW" <<< "${out#*== server}"; then
		fail "$name (exit $rc, ${dt} s, at most $max)" "$out"
	else
		echo "ok $name (${dt} s)"
	fi
	last=$out
}

timed "write_bw -D 1 -l 16" 12 ib_write_bw -D 1 --post_list 16
timed "write_lat -D 1" 12 ib_write_lat -D 1
timed "send_bw -D 1" 12 ib_send_bw -D 1
timed "send_bw -n 100000" 12 ib_send_bw -n 100000
# the server's row: bytes, iterations, peak, average, rate; a rate of 0
# would be a receive window of no time
srow=$(grep -E "$ROW" <<< "${last#*== server}" | tail -1)
awk '{ exit !($4 > 0 && $5 > 0) }' <<< "$srow" &&
	echo "ok send_bw server row has a rate: $srow" ||
	fail "send_bw server row without a rate: '$srow'"

# A stopped server: the client's wait for its pong must end by --timeout.
port=$((port + 1))
so=$(mktemp) co=$(mktemp)
timeout 40 tests/nulldev/nulldev-run.sh -b "$B" "$B/ib_write_lat" \
	-d nulldev0 -p $port -n 20000000 --timeout 3 --oob tcp > "$so" 2>&1 &
disown
for _ in $(seq 100); do
	grep -qi "^ *[0-9]*: [0-9A-F]*:$(printf %04X $port) [0-9A-F:]* 0A " \
		/proc/net/tcp /proc/net/tcp6 2>/dev/null && break
	sleep 0.05
done
t0=$(date +%s)
timeout 40 tests/nulldev/nulldev-run.sh -b "$B" "$B/ib_write_lat" \
	-d nulldev0 -p $port -n 20000000 --timeout 3 --oob tcp 127.0.0.1 \
	> "$co" 2>&1 &
cpid=$!
sleep 1
# the server's own process (not its wrappers): argv[0] is the binary
spid=$(pgrep -f "^$B/ib_write_lat -d nulldev0 -p $port .*tcp\$" | head -1)
if [ -z "$spid" ]; then
	fail "stopped server: no server process found" "$(cat "$so" "$co")"
else
	kill -STOP "$spid"
	wait $cpid
	crc=$?
	dt=$(($(date +%s) - t0))
	if [ $crc = 0 ] || [ $crc = 124 ] || [ $dt -gt 12 ] ||
	   ! grep -q "no progress for 3 s" "$co"; then
		fail "stopped server: client exit $crc after ${dt} s" "$(cat "$co")"
	else
		echo "ok stopped server: client exit $crc after ${dt} s: $(grep -m1 "no progress" "$co")"
	fi
fi
rm -f "$so" "$co"
[ $failed = 0 ] || { echo "$failed case(s) failed"; exit 1; }
echo "6 cases of the watch on nulldev0"
