#!/bin/bash
# tests/run-unit.sh DIR TEST... - run each unit-test program (one process
# each, 60 s bound) and print "unit: N passed, N failed, N skipped".
# Exit status 77 from a test means skipped.
set -u
dir=$1; shift
pass=0 fail=0 skip=0
for t in "$@"; do
	TEST_SRCDIR=${TEST_SRCDIR:-.} timeout 60 "$dir/$t" > "$dir/$t.log" 2>&1
	rc=$?
	case $rc in
	0) pass=$((pass + 1)); echo "PASS unit/$t: $(tail -n 1 "$dir/$t.log")" ;;
	77) skip=$((skip + 1)); echo "SKIP unit/$t: $(tail -n 1 "$dir/$t.log")" ;;
	*) fail=$((fail + 1)); echo "FAIL unit/$t (exit $rc):"; sed 's/^/    /' "$dir/$t.log" ;;
	esac
done
echo "unit: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
