#!/bin/bash
# tests/run-unit.sh DIR TEST... - run each unit test (one process each,
# 120 s bound) and print "unit: N passed, N failed, N skipped". A TEST is
# the program DIR/TEST, or the script tests/TEST.sh when that exists (run
# with the build folder's parent as RDMABENCH_BUILD). Exit 77 means skipped.
# Up to RDMABENCH_UNIT_JOBS tests (default: the CPU count) run at once, so
# a test must not share fixed paths with another; the results are printed
# in TEST order whatever order they end in.
set -u
dir=$1; shift
jobs=${RDMABENCH_UNIT_JOBS:-$(nproc 2>/dev/null || echo 1)}
pass=0 fail=0 skip=0

one() { # TEST: run it, its log in DIR/TEST.log, its exit status in .rc
	local t=$1
	if [ -f "tests/$t.sh" ]; then
		RDMABENCH_BUILD=${dir%/tests} timeout 300 bash "tests/$t.sh" \
			> "$dir/$t.log" 2>&1
	else
		TEST_SRCDIR=${TEST_SRCDIR:-.} timeout 120 "$dir/$t" \
			> "$dir/$t.log" 2>&1
	fi
	echo $? > "$dir/$t.rc"
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
	rc=$(cat "$dir/$t.rc" 2>/dev/null || echo 1)
	case $rc in
	0) pass=$((pass + 1)); echo "PASS unit/$t: $(tail -n 1 "$dir/$t.log")" ;;
	77) skip=$((skip + 1)); echo "SKIP unit/$t: $(tail -n 1 "$dir/$t.log")" ;;
	*) fail=$((fail + 1)); echo "FAIL unit/$t (exit $rc):"; sed 's/^/    /' "$dir/$t.log" ;;
	esac
	rm -f "$dir/$t.rc"
done
echo "unit: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
