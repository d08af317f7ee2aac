#!/bin/bash
# tests/sum-results.sh - the one place that adds up test summaries: reads
# text on stdin, takes every line that is one runner's summary
# ("NAME: N passed, N failed" with an optional ", N skipped", e.g.
# "unit: 3 passed, 0 failed, 1 skipped") and prints their sum as
# "N passed, N failed, N skipped". Unprefixed lines are totals of other
# sums and are not counted again. Exit 0 only if nothing failed and at
# least one summary was read.
set -u
awk '
/^[a-z0-9_-]+: [0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$/ {
	line = $0
	sub(/^[a-z0-9_-]+: /, "", line)
	split(line, f, /[ ,]+/)
	p += f[1]; x += f[3]; if (f[5] != "") s += f[5]; n++
}
END {
	printf "%d passed, %d failed, %d skipped\n", p, x, s
	exit (n > 0 && x == 0) ? 0 : 1
}'
