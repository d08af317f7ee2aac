#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# scripts/bench/callgrind-null.sh [-b BUILD] [-p PORT] BIN N [ARG...] - the
# client's instructions per operation of one pair on the null device
# (docs/nulldev.md): the server runs plain, the client under
# valgrind --tool=callgrind with -n N and ARGs; prints "BIN ARGS: IR IR/op".
# Instruction counts repeat under load where wall time does not (a shared
# host): a loop's cost is compared by them. BIN is a path (/usr/bin/
# ib_read_bw runs as perftest: no --oob; build/ib_read_bw gets --oob tcp).
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
B=build PORT=18777
while [ $# -gt 0 ]; do
	case $1 in
	-b) B=$2; shift 2 ;;
	-p) PORT=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || { echo "usage: callgrind-null.sh [-b B] [-p P] BIN N [ARG...]" >&2; exit 2; }
bin=$1 n=$2
shift 2
extra=()
case $bin in /usr/*) ;; *) extra=(--oob tcp) ;; esac
run=("$here/tests/nulldev/nulldev-run.sh" -b "$B")
out=$(mktemp -d)
trap '[ -n "${CG_KEEP:-}" ] && cp "$out/cg" "$CG_KEEP"; rm -rf "$out"' EXIT
"${run[@]}" "$bin" -d nulldev0 -p "$PORT" "${extra[@]}" -n "$n" "$@" \
	> "$out/server" 2>&1 &
spid=$!
for _ in $(seq 200); do
	ss -ltn 2>/dev/null | grep -q ":$PORT " && break
	sleep 0.05
done
"${run[@]}" valgrind --tool=callgrind --callgrind-out-file="$out/cg" \
	"$bin" -d nulldev0 -p "$PORT" "${extra[@]}" -n "$n" "$@" 127.0.0.1 \
	> "$out/client" 2>&1
crc=$?
wait $spid
src=$?
if [ $crc != 0 ] || [ $src != 0 ]; then
	echo "callgrind-null: client $crc, server $src" >&2
	tail -5 "$out/client" "$out/server" >&2
	exit 1
fi
ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out/cg")
[ -n "$ir" ] || ir=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$out/cg")
echo "$(basename "$bin") $* -n $n: $ir $((ir / n))"
