#!/bin/bash
# tests/run-unit.sh DIR TEST... - run each unit test (one process each,
# 120 s bound; scripts 480 s: the k8s tests run ~35 kustomize builds), print PASS/FAIL/SKIP lines and write the
# results as TAP (tests/run-checks.sh sums them). A TEST is a path below
# tests/ without its suffix (host/test_netdev): the program DIR/TEST, or
# the script tests/TEST.sh when that exists (run with the build folder's
# parent as RDMABENCH_BUILD).
# Exit 77 means skipped. Up to RDMABENCH_UNIT_JOBS tests (default: the CPU
# count) run at once, so a test must not share fixed paths with another;
# the results are printed in TEST order whatever order they end in.
# Each test is also a TAP line, with its wall time, in RDMABENCH_TAP
# (default DIR/../test-results/unit.tap; tests/tap-sum.sh reads it).
set -u
dir=$1; shift
jobs=${RDMABENCH_UNIT_JOBS:-$(nproc 2>/dev/null || echo 1)}
tap=${RDMABENCH_TAP:-${dir%/tests}/test-results/unit.tap}
mkdir -p "${tap%/*}" && : > "$tap" || exit 1
fail=0 n=0

one() { # TEST: run it, its log in DIR/TEST.log, its status and time in .rc
	local t=$1 t0=${EPOCHREALTIME/[.,]/} rc
	mkdir -p "$(dirname "$dir/$t")" || return
	if [ -f "tests/$t.sh" ]; then
		RDMABENCH_BUILD=${dir%/tests} timeout 480 bash "tests/$t.sh" \
			> "$dir/$t.log" 2>&1
	else
		TEST_SRCDIR=${TEST_SRCDIR:-.} timeout 120 "$dir/$t" \
			> "$dir/$t.log" 2>&1
	fi
	rc=$?
	t0=$(( (${EPOCHREALTIME/[.,]/} - t0) / 100000 ))
	echo "$rc $((t0 / 10)).$((t0 % 10))" > "$dir/$t.rc"
}

running=0
for t in "$@"; do
	rm -f "$dir/$t.rc"
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	one "$t" &
	running=$((running + 1))
done
wait

for t in "$@"; do
	read -r rc secs < "$dir/$t.rc" 2>/dev/null || { rc=1 secs=0.0; }
	n=$((n + 1))
	last=$(tail -n 1 "$dir/$t.log")
	case $rc in
	0) echo "PASS unit/$t: $last"
	   echo "ok $n - $t ($secs s)" >> "$tap" ;;
	77) echo "SKIP unit/$t: $last"
	   echo "ok $n - $t # SKIP ${last:-skipped}" >> "$tap" ;;
	*) fail=$((fail + 1)); echo "FAIL unit/$t (exit $rc):"; sed 's/^/    /' "$dir/$t.log"
	   { echo "not ok $n - $t ($secs s)"; echo "# exit $rc: $last"; } >> "$tap" ;;
	esac
	rm -f "$dir/$t.rc"
done
echo "1..$n" >> "$tap"
[ "$fail" -eq 0 ]
