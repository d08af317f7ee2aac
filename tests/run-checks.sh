#!/bin/bash
# tests/run-checks.sh BUILD_DIR - what `make check` runs, the fast suite
# (no root, no VM): the layer check, the cycle check, the header check and
# the unit tests. Ends with "N passed, N failed, N skipped"
# (tests/sum-results.sh over "checks: ..." and "unit: ...").
set -u
B=${1:-build}
cd "$(dirname "$0")/.." || exit 1
pass=0 fail=0
mkdir -p "$B/tests"
sums="$B/tests/checks.sums"

for c in "tests/check-layers.sh" "tests/check-cycles.sh $B" \
	"tests/check-headers.sh $B"; do
	if $c; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "checks: $pass passed, $fail failed, 0 skipped" | tee "$sums"

tests=$(cd tests && ls test_*.c test_*.sh 2>/dev/null | sed 's/\.[cs]h*$//')
tests/run-unit.sh "$B/tests" $tests | tee "$B/tests/unit.out"
tests/sum-results.sh --last unit unit < "$B/tests/unit.out" >> "$sums"
tests/sum-results.sh < "$sums"
