#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# scripts/regen-examples.sh - regenerate results/example-lab/ from a lab run,
# never by hand: boots the Soft-RoCE lab (scripts/lab/run.sh), runs each
# example client with its server on rxe0 in one guest (both write JSON and
# their terminal output), then draws the plots with scripts/compare.py.
#
# Usage: scripts/regen-examples.sh [OUT]      (default results/example-lab;
#   a relative OUT is taken from the repository's root)
#   Build first (make -s -j2 all). OUT's *.json, *.txt, *.xml, *.prom,
#   *.png and *.svg are replaced by the new run's; nothing is written there
#   when the lab run fails. The runs (commands also in results/README.md):
#     ib_write_bw  -a -n 20 --report_gbits, JSON + JUnit + Prometheus
#     ib_write_lat -a -n 10, three repetitions (the plot's min-p50-p99 band)
#     ib_read_lat  -a -n 10 (the read server is passive: client rows only)
#   Internal: --guest DIR is the part that runs inside the lab guest.
# Exit status: 0 done, 1 a run failed (its output is shown), 2 usage,
#   77 the lab cannot run here (scripts/lab/run.sh's), 124/125 lab timeout
#   or failure.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
B=${RDMABENCH_BUILD:-build}
IP=198.18.0.1
LAT_REPS=3

# SERVER_PORT NAME TOOL ARGS...: server and client of TOOL in this guest;
# NAME.json / NAME.txt (client), NAME.server.json / .server.txt (server)
guest_pair() {
	local port=$1 name=$2 tool=$3 spid rc src
	shift 3
	"$B/$tool" -p "$port" --json "$DIR/$name.server.json" \
		> "$DIR/$name.server.txt" 2>&1 &
	spid=$!
	sleep 1
	"$B/$tool" -p "$port" "$IP" "$@" --json "$DIR/$name.json" \
		> "$DIR/$name.txt" 2>&1
	rc=$?
	wait "$spid"
	src=$?
	if [ "$rc" != 0 ] || [ "$src" != 0 ]; then
		echo "regen-examples: $name: client exit $rc, server exit $src" >&2
		cat "$DIR/$name.txt" "$DIR/$name.server.txt" >&2
		return 1
	fi
	echo "regen-examples: $name done"
}

guest() {
	local r name
	guest_pair 18711 ib_write_bw ib_write_bw -a -n 20 --report_gbits \
		--expect-gbps 0.000001 --junit "$DIR/ib_write_bw.xml" \
		--prom "$DIR/ib_write_bw.prom" || return 1
	for r in $(seq 1 "$LAT_REPS"); do
		name=ib_write_lat
		[ "$r" = 1 ] || name=ib_write_lat.rep$r
		guest_pair $((18720 + r)) "$name" ib_write_lat -a -n 10 \
			--expect-p99-us 10000000 || return 1
	done
	guest_pair 18731 ib_read_lat ib_read_lat -a -n 10 || return 1
}

if [ "${1:-}" = --guest ]; then
	[ $# = 2 ] || { echo "usage: $0 --guest DIR" >&2; exit 2; }
	DIR=$2
	guest
	exit
fi
if [ $# -gt 1 ]; then
	echo "usage: $0 [OUT] (default results/example-lab)" >&2
	exit 2
fi
out=${1:-results/example-lab}
for t in ib_write_bw ib_write_lat ib_read_lat; do
	[ -x "$B/$t" ] && continue
	echo "regen-examples: no $B/$t: run 'make -s -j2 all' first" >&2
	exit 2
done
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/out"
RDMABENCH_LAB_OUT=$tmp/out scripts/lab/run.sh scripts/regen-examples.sh \
	--guest "$tmp/out"
rc=$?
if [ "$rc" != 0 ]; then
	echo "regen-examples: the lab run failed (exit $rc); $out unchanged" >&2
	exit "$rc"
fi
mkdir -p "$out"
for ext in json txt xml prom png svg; do
	rm -f "$out"/*."$ext"
done
cp "$tmp"/out/*.json "$tmp"/out/*.txt "$tmp"/out/*.xml "$tmp"/out/*.prom \
	"$out"/ || exit 1
chmod 0644 "$out"/*
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3	# Debian's, with matplotlib
"$py" scripts/compare.py --expect none --out "$out" "$out" \
	> "$tmp/compare.txt"
rc=$?
cat "$tmp/compare.txt"
# exit 1 is "no matplotlib": the results are there, the plots are not
if [ "$rc" != 0 ]; then
	echo "regen-examples: scripts/compare.py exit $rc" >&2
	exit 1
fi
echo "regen-examples: $out regenerated"
