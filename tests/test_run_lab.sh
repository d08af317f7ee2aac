#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/test_run_lab.sh - the lab runner's choice of boots and cases
# (tests/run-lab.sh --plan: nothing boots), the harness's selection rules
# and TAP lines (tests/lab/harness.sh, run on the host with stand-in
# commands), and tests/tap-sum.sh's totals, slowest cases, retries and
# the failure a file without its plan is.
set -u
# make check ONLY=... exports ONLY, which run-lab.sh would read as its patterns
unset ONLY RDMABENCH_LAB_ONLY
cd "$(dirname "$0")/.." || exit 1
n=0 bad=0
ok() { n=$((n + 1)); }
fail() { n=$((n + 1)); bad=$((bad + 1)); echo "FAIL: $*"; }
plan_is() { # WANT PATTERN...: the plan's lines, joined by "|"
	local want=$1 got
	shift
	got=$(tests/run-lab.sh --plan build "$@" 2>&1 | paste -sd'|')
	[ "$got" = "$want" ] && ok || fail "plan for '$*': '$got', want '$want'"
}

# every boot once, the release cases in the release boot alone
plan_is "main: |numa: |pair: |release: package valgrind verbs.lat_memory_constant|fabric-group: |fabric-slurm: |k8s: |k8s-image: "
plan_is "main: address.rxe.hostname" address.rxe.hostname
plan_is "main: address" address
plan_is "numa: numa" numa
plan_is "numa: rails.two" rails.two
plan_is "main: qpattr|pair: qpattr" qpattr
plan_is "main: qpattr.wire|pair: qpattr.wire" qpattr.wire
plan_is "release: verbs.lat_memory_constant" verbs.lat_memory_constant
plan_is "main: verbs|release: verbs.lat_memory_constant" verbs
plan_is "release: valgrind.ib_write_bw" valgrind.ib_write_bw
plan_is "release: package" package
plan_is "fabric-group: |k8s: k8s.oob" fabric k8s.oob
plan_is "k8s-image: " k8s-image
plan_is "fabric-slurm: slurm.up" slurm.up
plan_is "main: write_bw.rxe" write_bw.rxe
if tests/run-lab.sh --plan build 2>/dev/null | grep -q '^main: $'; then ok; else fail "no main boot"; fi

# the harness on the host: selection, retries, TAP
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/cases.sh" <<'EOS'
source tests/lab/harness.sh
lab_case a.one true
lab_case a.two -r 1 false
lab_case b.flaky --retries 2 bash -c 'f=$LAB_LOGDIR/tries; echo x >> "$f"; [ "$(wc -l < "$f")" -ge 2 ]'
lab_case c.skip bash -c 'echo no such thing; exit 77'
lab_assert a.two.out 'x' x
if lab_wants d.costly; then lab_pass d.costly; fi
lab_case e.fail false
lab_summary
EOS
tap=$tmp/logs/results.tap
LAB_LOGDIR=$tmp/logs bash "$tmp/cases.sh" > "$tmp/out" 2>&1
want='ok 1 - a.one (*
ok 2 - a.two (*
# retry: b.flaky failed on try 1: *
ok 3 - b.flaky (*) passed on try 2
ok 4 - c.skip # SKIP no such thing
ok 5 - a.two.out (*
ok 6 - d.costly (*
not ok 7 - e.fail (*
# *exit status 1, want 0
1..7'
mapfile -t w <<< "$want"
mapfile -t g < "$tap"
if [ ${#g[@]} = ${#w[@]} ]; then ok; else fail "harness TAP: ${#g[@]} lines, want ${#w[@]}: $(cat "$tap")"; fi
for i in "${!w[@]}"; do
	# shellcheck disable=SC2053 # the wanted line is a glob
	[[ ${g[i]:-} == ${w[i]} ]] && ok || fail "harness TAP line $((i + 1)): '${g[i]:-}', want '${w[i]}'"
done
rm -rf "$tmp/logs"
RDMABENCH_LAB_ONLY="a.two.out d" LAB_LOGDIR=$tmp/logs bash "$tmp/cases.sh" > "$tmp/out" 2>&1
got=$(sed 's/ (.*//' "$tap" | paste -sd'|')
[ "$got" = "ok 1 - a.two|ok 2 - a.two.out|ok 3 - d.costly|1..3" ] && ok ||
	fail "RDMABENCH_LAB_ONLY='a.two.out d': '$got'"
rm -rf "$tmp/logs"
RDMABENCH_LAB_SKIP="a e.fail b.flaky c d" LAB_LOGDIR=$tmp/logs bash "$tmp/cases.sh" > "$tmp/out" 2>&1
got=$(paste -sd'|' "$tap")
[ "$got" = "1..0" ] && ok || fail "RDMABENCH_LAB_SKIP of all: '$got'"

# tap-sum: totals, retried, slowest, no plan, a missing file
printf 'ok 1 - x (3.5 s)\nnot ok 2 - y (9.0 s)\n# why\n# retry: z failed on try 1: boom\nok 3 - z (1.0 s) passed on try 2\nok 4 - s # SKIP no\n1..4\n' > "$tmp/lab-a.tap"
printf 'ok 1 - u (0.5 s)\n' > "$tmp/lab-b.tap"
out=$(tests/tap-sum.sh "$tmp/lab-a.tap" "$tmp/lab-b.tap" "$tmp/none.tap")
rc=$?
[ "$rc" = 1 ] && ok || fail "tap-sum exit $rc, want 1"
[ "$(tail -n 1 <<< "$out")" = "3 passed, 3 failed, 1 skipped" ] && ok ||
	fail "tap-sum total: $(tail -n 1 <<< "$out")"
grep -q '^lab-a: 2 passed, 1 failed, 1 skipped$' <<< "$out" && ok || fail "tap-sum lab-a line: $out"
grep -q 'lab-b: no plan' <<< "$out" && ok || fail "tap-sum: a file without a plan is not a failure: $out"
grep -q 'none.tap: no such result file' <<< "$out" && ok || fail "tap-sum: a missing file: $out"
grep -q '^  lab-a/z (1.0 s) passed on try 2$' <<< "$out" && ok || fail "tap-sum passed after a retry: $out"
grep -q '^retries: 1 ' <<< "$out" && grep -q '^  lab-a: z failed on try 1: boom$' <<< "$out" && ok ||
	fail "tap-sum retries: $out"
grep -q '^  lab-a/y (9.0 s) why$' <<< "$out" && ok || fail "tap-sum failure with its reason: $out"
grep -A1 'slowest lab cases' <<< "$out" | grep -q '9.0 s  lab-a/y$' && ok || fail "tap-sum slowest: $out"
printf 'ok 1 - x (1.0 s)\n1..1\n' > "$tmp/unit.tap"
out=$(tests/tap-sum.sh "$tmp/unit.tap") && [ "$(tail -n 1 <<< "$out")" = "1 passed, 0 failed, 0 skipped" ] && ok ||
	fail "tap-sum of one clean file: $out"
if command -v prove >/dev/null; then
	prove -e cat "$tmp/unit.tap" > /dev/null 2>&1 && ok || fail "prove does not read tap-sum's input"
fi

echo "test_run_lab: $n checks, $bad failed"
[ "$bad" = 0 ]
