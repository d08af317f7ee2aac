#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/nulldev/test_nulldev.sh - the eight tools on the null device
# (docs/nulldev.md, tests/nulldev/): perftest 4.5's own binaries
# (/usr/bin/ib_*) against each other, then ours (BUILD/ib_*, --oob tcp: the
# device has no rdma_cm), one bandwidth and one latency pair of each,
# --report_gbits, -a on write_bw and send_lat; each pair must exit 0 on
# both sides and print its result row. No QEMU; nothing on the host's
# /sys, /etc or /dev changes (tests/nulldev/nulldev-run.sh). The device is
# a stand-in for a NIC: it proves the tools run their verbs end to end on
# a real provider, not any figure. Skipped (77) without perftest or
# without a mount namespace.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/nulldev/prologue.sh
trap 'rm -rf "$NULLDEV_SYS"' EXIT
[ -x /usr/bin/ib_write_bw ] || { echo "perftest not installed (apt-get install perftest)"; exit 77; }
tests/nulldev/nulldev-run.sh -b "$B" true || exit $?
# Ports: 20000-22999, twenty a run; the other tests that open ports take
# ranges of their own below 32768 (Linux's first ephemeral port).
failed=0 port=$((20000 + $$ % 150 * 20))

# pair WHO TOOL ARGS...: one pair, its result row checked
pair() {
	local who=$1 tool=$2 bin out rc
	shift 2
	bin=/usr/bin/$tool
	[ "$who" = ours ] && bin=$B/$tool && set -- "$@" --oob tcp
	port=$((port + 1))
	out=$(tests/nulldev/pair.sh -b "$B" -p $port -t 60 "$bin" "$@" 2>&1)
	rc=$?
	if [ $rc != 0 ] || ! grep -Eq '^ +[0-9]+ +[0-9]+ +[0-9.]+' <<< "$out"; then
		echo "FAIL $who $tool $* (exit $rc)"
		sed 's/^/  | /' <<< "$out" | tail -15
		failed=$((failed + 1))
	else
		echo "ok $who $tool $*"
	fi
}

for who in perftest ours; do
	pair $who ib_write_bw -n 20 -a --report_gbits
	pair $who ib_write_lat -n 100 --report_gbits
	pair $who ib_read_bw -n 100 --report_gbits
	pair $who ib_read_lat -n 100 --report_gbits
	pair $who ib_send_bw -n 100 --report_gbits
	pair $who ib_send_lat -n 20 -a --report_gbits
	pair $who ib_atomic_bw -n 100 --report_gbits
	pair $who ib_atomic_lat -n 100 --report_gbits
done
[ $failed = 0 ] || { echo "$failed pair(s) failed"; exit 1; }
echo "16 pairs on nulldev0"
