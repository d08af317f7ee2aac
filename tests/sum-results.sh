#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/sum-results.sh - the one place that reads test summaries. A summary
# line is "NAME: N passed, N failed" with an optional ", N skipped" (e.g.
# "unit: 3 passed, 0 failed, 1 skipped"); a line with no "NAME: " is a
# total of other summaries. Every runner (tests/run-checks.sh,
# tests/run-lab.sh, scripts/test.sh, .ci/run) goes through it:
#
#   tests/sum-results.sh < TEXT
#       sums every NAME: summary of TEXT (totals are not counted again) and
#       prints "N passed, N failed, N skipped"; exit 0 only if nothing
#       failed and at least one summary was read.
#   tests/sum-results.sh --last NAME LABEL < TEXT
#       one run's result: the LAST "NAME: ..." summary of TEXT (NAME "" =
#       the last total line), printed as "LABEL: N passed, N failed, N
#       skipped". A run may print several (a lab guest's exit trap after
#       its summary): only its last one counts. A run with none prints
#       "LABEL: 0 passed, 1 failed, 0 skipped" (it died before its summary)
#       and a note on stderr. Exit 0 only if one was found with 0 failed.
set -u
mode=sum name="" label=""
if [ "${1:-}" = --last ]; then
	[ $# -eq 3 ] || { echo "usage: $0 [--last NAME LABEL]" >&2; exit 2; }
	mode=last name=$2 label=$3
fi
awk -v mode="$mode" -v name="$name" -v label="$label" '
{ sub(/\r$/, "") }
/^([a-z0-9_-]+: )?[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$/ {
	pre = ""
	if (match($0, /^[a-z0-9_-]+: /))
		pre = substr($0, 1, RLENGTH - 2)
	line = $0
	sub(/^[a-z0-9_-]+: /, "", line)
	split(line, f, /[ ,]+/)
	if (mode == "sum" && pre != "") {
		p += f[1]; x += f[3]; s += f[5]; n++
	} else if (mode == "last" && pre == name) {
		lp = f[1]; lx = f[3]; ls = f[5] + 0; found = 1
	}
}
END {
	if (mode == "sum") {
		printf "%d passed, %d failed, %d skipped\n", p, x, s
		exit (n > 0 && x == 0) ? 0 : 1
	}
	if (!found) {
		printf "%s: no summary: counted as one failure\n", label > "/dev/stderr"
		lp = 0; lx = 1; ls = 0
	}
	printf "%s: %d passed, %d failed, %d skipped\n", label, lp, lx, ls
	exit (found && lx == 0) ? 0 : 1
}'
