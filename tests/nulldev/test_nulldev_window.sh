#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/nulldev/test_nulldev_window.sh - the server's bandwidth window holds
# the client's. The server times what arrived from READY to the last byte,
# so its rate can never exceed the client's (first post to last
# completion, inside that window). Both sides of each pair run on one CPU:
# the client, woken by READY, takes the CPU from the server at once, the
# case a server whose clock started after sending READY got wrong (a rate
# hundreds of times the link's). Ours only (--oob tcp), on the null device:
# a stand-in for a NIC (docs/nulldev.md), chosen because it is fast enough
# that a server which misses its CPU misses most of the data; the fix
# itself (run/measure.c) is the same code on every device, and the lab
# runs every bandwidth tool's server on rxe and siw. No QEMU. Skipped (77)
# without a mount namespace.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/nulldev/prologue.sh
trap 'rm -rf "$NULLDEV_SYS"' EXIT
tests/nulldev/nulldev-run.sh -b "$B" true || exit $?
port=$((32000 + $$ % 70 * 10)) # its own range: see test_nulldev.sh
# the first CPU this test may use (a container's cpuset need not hold 0)
cpu=$(taskset -pc $$ | sed 's/.*: //; s/[,-].*//')
failed=0

# write and read thrice: the server loses its CPU at READY about half the
# time, so a regression shows in nearly every run of this test
for tool in ib_write_bw ib_read_bw ib_write_bw ib_read_bw ib_write_bw \
	    ib_read_bw ib_send_bw ib_atomic_bw; do
	port=$((port + 1))
	size=(-s 64) # small: a long run of posts, which the server sat out
	[ $tool = ib_atomic_bw ] && size=()
	out=$(PAIR_PIN="$cpu $cpu" tests/nulldev/pair.sh -b "$B" -p $port -t 60 \
		"$B/$tool" "${size[@]}" -n 100000 --oob tcp 2>&1)
	rc=$?
	# the client's row, then (after "== server") the server's: MsgRate
	rates=$(awk '/^[ \t]+[0-9]+[ \t]+[0-9]+[ \t]+[0-9.]+[ \t]+[0-9.]+[ \t]+[0-9.]+/ { print $5 }' \
		<<< "$out" | head -2 | tr '\n' ' ')
	read -r client server <<< "$rates"
	if [ $rc != 0 ] || [ -z "${server:-}" ]; then
		echo "FAIL $tool: exit $rc, rows '$rates'"
		sed 's/^/  | /' <<< "$out" | tail -12
		failed=$((failed + 1))
	elif awk -v c="$client" -v s="$server" 'BEGIN { exit !(s > c * 1.001) }'; then
		echo "FAIL $tool: the server's $server Mpps is beyond the client's $client"
		failed=$((failed + 1))
	else
		echo "ok $tool: client $client Mpps, server $server"
	fi
done
[ $failed = 0 ] || { echo "$failed pair(s) failed"; exit 1; }
