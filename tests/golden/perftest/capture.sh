#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/golden/perftest/capture.sh - run in the lab guest: every one of the
# eight tools in every output mode (default, -a, -D, -b, -b --report-both,
# -q 2, --report_gbits, --output=..., --out_json), a server and a client
# on rxe0, by perftest (/usr/bin) or by ours (build/); saves each side's
# stdout and, for --out_json, the file each side wrote. The perftest files in this folder
# were made by it:
#
#   RDMABENCH_LAB_OUT=/tmp/pg RDMABENCH_LAB_TIMEOUT=1800 \
#     scripts/lab/run.sh tests/golden/perftest/capture.sh perftest
#   cp /tmp/pg/perftest/* tests/golden/perftest/
#
# WHO: perftest or ours; TOOLS: which (default all eight); CAPTURE_MODES:
# which modes (default all: default a D b both q gbits output json); files
# go to ${CAPTURE_OUT:-$LAB_OUT}/WHO/TOOL.MODE.{client,server}.txt (and
# .json), the commands to $LAB_OUT/WHO/commands.txt. (The both and q
# goldens were added later with CAPTURE_MODES="both q", commands.txt
# "(added)".) tests/lab/cases/outputs.sh runs ours the same
# way and compares the shapes (tests/tools/perftest_shape.py).
# shellcheck shell=bash

WHO=${1:-perftest}
shift
TOOLS=("$@")
[ ${#TOOLS[@]} -gt 0 ] || TOOLS=(write_bw read_bw send_bw atomic_bw
	write_lat read_lat send_lat atomic_lat)
OUT=${CAPTURE_OUT:-${LAB_OUT:?run in the lab guest (scripts/lab/run.sh)}}/$WHO
B=${RDMABENCH_BUILD:-build}
ROOT=$PWD
IP=${LAB_RXE_IP:?no rxe0 in this guest}
PORT=21000
mkdir -p "$OUT"

# The modes: name and the client's flags (perftest: the server's too).
capture_modes() { # KIND
	echo "default -n 100"
	echo "a -a -n 5"
	echo "D -D 2"
	if [ "$1" = bw ]; then
		echo "b -b -n 100"
		echo "both -b --report-both -n 100"
		echo "q -q 2 -n 100"
		echo "gbits --report_gbits -n 100"
		echo "output --output=bandwidth -n 100"
	else
		echo "output --output=latency -n 100"
	fi
	echo "json --out_json -n 100"
}

# Flags our server takes too: what prints, not what runs.
capture_local_flags() {
	local f
	for f in "$@"; do
		case $f in --output=* | --out_json | --report-both) echo "$f" ;; esac
	done
}

capture_one() { # TOOL MODE FLAGS...
	local tool=$1 mode=$2 name=$1.$2 dir srv_pid rc=1 i t0=$SECONDS
	local -a srv cli loc
	shift 2
	PORT=$((PORT + 1))
	dir=$(mktemp -d)
	mkdir -p "$dir/s" "$dir/c"
	if [ "$WHO" = perftest ]; then
		srv=("/usr/bin/ib_$tool" -d "$LAB_RXE_DEV" -x "$LAB_RXE_GID"
		     -p "$PORT" "$@")
		cli=("${srv[@]}" "$IP")
	else
		mapfile -t loc < <(capture_local_flags "$@")
		srv=("$ROOT/$B/ib_$tool" -p "$PORT" "${loc[@]}")
		cli=("$ROOT/$B/ib_$tool" -p "$PORT" "$@" "$IP")
	fi
	echo "$name: server: ${srv[*]}" >> "$OUT/commands.txt"
	echo "$name: client: ${cli[*]}" >> "$OUT/commands.txt"
	(cd "$dir/s" && exec timeout 120 "${srv[@]}" < /dev/null \
		> ../srv.out 2> ../srv.err) &
	srv_pid=$!
	# perftest's server needs its second to listen; ours is waited for by
	# the retries below
	sleep "${CAPTURE_START_S:-1}"
	# perftest's server prints nothing under --output: retry a refused
	# client while the server lives
	for ((i = 0; i < 20; i++)); do
		(cd "$dir/c" && exec timeout 120 "${cli[@]}" < /dev/null > ../cli.out \
			2> ../cli.err)
		rc=$?
		# 2: the command line was refused (atomic -a): no retry
		[ $rc = 0 ] || [ $rc = 2 ] && break
		kill -0 $srv_pid 2>/dev/null || break
		sleep 0.5
	done
	# a client that never ran leaves the server waiting: end it
	[ $rc = 0 ] || { sleep 1; kill $srv_pid 2>/dev/null; }
	wait $srv_pid
	echo "$name: client rc $rc, server rc $?" >> "$OUT/commands.txt"
	cp "$dir/cli.out" "$OUT/$name.client.txt"
	cp "$dir/srv.out" "$OUT/$name.server.txt"
	cat "$dir/cli.err" "$dir/srv.err" >> "$OUT/stderr.txt"
	[ -e "$dir/c/perftest_out.json" ] &&
		cp "$dir/c/perftest_out.json" "$OUT/$name.client.json"
	[ -e "$dir/s/perftest_out.json" ] &&
		cp "$dir/s/perftest_out.json" "$OUT/$name.server.json"
	rm -rf "$dir"
	echo "[capture] $WHO $name: rc $rc, $((SECONDS - t0)) s" >&2
}

for tool in "${TOOLS[@]}"; do
	while read -r mode flags; do
		[ -n "${CAPTURE_MODES:-}" ] &&
			[[ " $CAPTURE_MODES " != *" $mode "* ]] && continue
		# shellcheck disable=SC2086
		capture_one "$tool" "$mode" $flags
	done < <(capture_modes "${tool#*_}")
done
