#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/report/test_perftest_shape.sh - our renderers' golden output
# (tests/golden/report_*.txt, perftest_json_*.json) read by the same field
# rules as perftest's own output, taken in the lab
# (tests/golden/perftest/, made by its capture.sh): the column names, the
# row field counts, the [B] markers and the JSON keys must be the same;
# perftest's -b pairs must pass the -b rules that outputs.sh applies to ours.
# The tail rule (issue 26): in each of perftest's files with rows, the line
# before the last is a row, and a note after the last row is refused (the
# lab's outputs.shape holds ours, mode by mode, to perftest's last five
# lines, class by class).
# The rules are also shown the old layout (a 6th field, a bare MTU), which
# they must refuse. tests/lab/cases/outputs.sh does the same for the real
# tools in the lab.
set -u
cd "$(dirname "$0")/../.." || exit 1
if ! command -v python3 >/dev/null; then
	echo "skipped: python3 not installed"
	exit 77
fi
SHAPE=tests/tools/perftest_shape.py
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
python3 "$SHAPE" unit tests/golden/perftest tests/golden || exit 1
# issue 26: in every mode of every tool where perftest prints rows, the
# line before the last of its stdout is a row (scripts read it so)
python3 "$SHAPE" tail tests/golden/perftest > "$tmp/tail.out" || {
	cat "$tmp/tail.out"; exit 1; }
tail -n 1 "$tmp/tail.out"
# ... and a note after the last row (ours before issue 26) is refused,
# for the tail rule, in both layouts
for f in write_lat.default.client write_bw.a.client; do
	sed '$i\ # server: t_min 1.00, t_typical 2.00, t_max 3.00 [usec]' \
		"tests/golden/perftest/$f.txt" > "$tmp/$f.txt"
	if python3 "$SHAPE" files "tests/golden/perftest/$f.txt" \
		"$tmp/$f.txt" > "$tmp/note.out" ||
	   ! grep -q "tail -n 2 | head -n 1 is other, not a row" "$tmp/note.out" ||
	   ! grep -q "last 5 lines" "$tmp/note.out"; then
		echo "FAIL: a note after the last row of $f passed the tail rule:"
		cat "$tmp/note.out"
		exit 1
	fi
done
echo "tail rule refuses a note after the last row: ok"
# perftest's own -b output obeys the -b rules (the same sum on both sides)
python3 "$SHAPE" bidir tests/golden/perftest || exit 1
{
	echo " Active MTU     : 1024"
	grep '#bytes' tests/golden/perftest/write_bw.default.client.txt
	echo " 65536      200            9.50               9.40                 0.018000         9.30"
} > "$tmp/old.txt"
if python3 "$SHAPE" files tests/golden/perftest/write_bw.default.client.txt \
	"$tmp/old.txt" > "$tmp/old.out"; then
	echo "FAIL: the old 6-field layout passed the rules"
	exit 1
fi
grep -q "row field counts \[6\], perftest \[5\]" "$tmp/old.out" &&
	grep -q "no \[B\] after" "$tmp/old.out" ||
	{ echo "FAIL: the old layout failed for the wrong reasons:"; cat "$tmp/old.out"; exit 1; }
echo "shape rules refuse the old layout: ok"
# -q 2 -n 100: perftest counts 200 iterations; a row that counts per QP fails
sed 's/^ 65536      200 / 65536      100 /' \
	tests/golden/perftest/write_bw.q.client.txt > "$tmp/q.client.txt"
if python3 "$SHAPE" files tests/golden/perftest/write_bw.q.client.txt \
	"$tmp/q.client.txt" > "$tmp/q.out" ||
   ! grep -q "#iterations \['100'\], perftest \['200'\]" "$tmp/q.out"; then
	echo "FAIL: the rules took a per-QP #iterations for perftest's n x q:"
	cat "$tmp/q.out"
	exit 1
fi
echo "shape rules refuse a per-QP #iterations: ok"
