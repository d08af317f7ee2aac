#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/tap-sum.sh [--slowest N] FILE.tap|DIR... - the one reader of test
# results. Every runner (tests/run-unit.sh, tests/run-checks.sh, the lab
# harness tests/lab/harness.sh, tests/k8s/lab-two-node.sh) writes one TAP
# line per case (the Test Anything Protocol: prove(1) reads the same files,
# e.g. "prove -e cat build-san/test-results/*.tap"):
#   ok 12 - address.rxe.hostname (1.2 s)
#   ok 13 - numa.pin # SKIP one NUMA node
#   not ok 14 - faults.link_down (30.1 s)
#   # why it failed
#   1..14                         (the plan, written last: a run that died
#                                  before it has none, and counts as failed)
# A pass after --retries reads "... (3.1 s) passed on try 2", and each
# failed try before it is a "# retry: NAME failed on try 1: why" line (a
# runner's own retries, such as a guest booted again, are such lines too).
#
# Prints, for each file (a DIR: its *.tap files, sorted), "NAME: N passed,
# N failed, N skipped" (NAME: the file's name without .tap), then the
# failed cases, the retries and the cases that passed after one, the N (default 10) slowest cases with
# their times (of the lab's, files lab-*.tap, when there are any), and as the last line the sum "N passed, N failed, N
# skipped". Exit 0 only if nothing failed and at least one case ran.
set -u
slow=10
if [ "${1:-}" = --slowest ]; then slow=$2; shift 2; fi
files=() missing=()
for a in "$@"; do
	if [ -d "$a" ]; then
		for f in "$a"/*.tap; do [ -e "$f" ] && files+=("$f"); done
	elif [ -e "$a" ]; then
		files+=("$a")
	else
		missing+=("$a")
	fi
done
[ ${#files[@]} -gt 0 ] || [ ${#missing[@]} -gt 0 ] || missing=("(none given)")
[ ${#files[@]} -gt 0 ] || files=(/dev/null)

awk -v slow="$slow" -v missing="$(IFS="|"; echo "${missing[*]}")" '
function flush() {
	if (cur == "") return
	if (!plan) {
		nf++; fails[nf] = cur ": no plan: the run ended before its summary (a crash or a timeout)"
		fx++
	}
	printf "%s: %d passed, %d failed, %d skipped\n", cur, fp, fx, fs
	P += fp; X += fx; S += fs; runs++
}
FNR == 1 {
	flush()
	cur = FILENAME; sub(/.*\//, "", cur); sub(/\.tap$/, "", cur)
	fp = fx = fs = plan = 0; ok = 1
}
/^1\.\.[0-9]+/ { plan = 1; next }
/^(not )?ok / {
	line = $0
	ok = (line ~ /^ok /)
	name = line; sub(/^(not )?ok [0-9]* *-? */, "", name)
	if (ok && name ~ /# [Ss][Kk][Ii][Pp]/) { fs++; next }
	if (ok) fp++
	else { fx++; nf++; fails[nf] = cur "/" name; last_fail = nf }
	if (name ~ /passed on try [0-9]+/) { np++; passed_again[np] = cur "/" name }
	if (match(name, /\(([0-9]+(\.[0-9]+)?) s[,)]/)) {
		t = substr(name, RSTART + 1, RLENGTH - 4) + 0
		n = name; sub(/ \([0-9.]+ s.*$/, "", n)
		nt++; secs[nt] = t; who[nt] = cur "/" n; islab[nt] = (cur ~ /^lab-/)
		if (islab[nt]) nlab++
	}
	next
}
/^# retry: / { nr++; retried[nr] = cur ": " substr($0, 10); next }
/^# / && !/^# retry:/ && !ok && last_fail == nf && nf > 0 && length(fails[nf]) < 400 {
	fails[nf] = fails[nf] " " substr($0, 3)
}
END {
	flush()
	n = split(missing, miss, "|")
	for (i = 1; i <= n; i++) {
		nf++; X++; fails[nf] = miss[i] ": no such result file: the run wrote none"
	}
	if (nf) { print "failed:"; for (i = 1; i <= nf; i++) print "  " fails[i] }
	if (nr) {
		printf "retries: %d (a try that failed and was run again; the case counts once)\n", nr
		for (i = 1; i <= nr; i++) print "  " retried[i]
	}
	if (np) {
		print "passed after a retry:"
		for (i = 1; i <= np; i++) print "  " passed_again[i]
	}
	# the slowest first (of the lab cases when there are any): a selection
	# sort of at most slow entries
	pool = nlab ? nlab : nt
	if (pool) {
		printf "the %d slowest %scases:\n", (pool < slow ? pool : slow), nlab ? "lab " : ""
		for (k = 1; k <= slow && k <= pool; k++) {
			m = 0
			for (i = 1; i <= nt; i++)
				if (!(i in used) && (!nlab || islab[i]) && (m == 0 || secs[i] > secs[m])) m = i
			used[m] = 1
			printf "  %7.1f s  %s\n", secs[m], who[m]
		}
	}
	printf "%d passed, %d failed, %d skipped\n", P, X, S
	exit (X == 0 && P + S > 0) ? 0 : 1
}' "${files[@]}"
