#!/bin/bash
# tests/run-checks.sh BUILD_DIR - what `make check` runs, the fast suite
# (no root, no VM): the layer check, the cycle check, the header check and
# the unit tests. Ends with "N passed, N failed, N skipped".
set -u
B=${1:-build}
cd "$(dirname "$0")/.."
pass=0 fail=0

for c in "tests/check-layers.sh" "tests/check-cycles.sh $B" \
	"tests/check-headers.sh $B"; do
	if $c; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "checks: $pass passed, $fail failed, 0 skipped"

tests=$(cd tests && ls test_*.c test_*.sh 2>/dev/null | sed 's/\.[cs]h*$//')
tests/run-unit.sh "$B/tests" $tests | tee "$B/tests/unit.out"
line=$(grep '^unit:' "$B/tests/unit.out" | tail -n 1)
p=$(sed -n 's/.* \([0-9]*\) passed.*/\1/p' <<<"$line")
f=$(sed -n 's/.* \([0-9]*\) failed.*/\1/p' <<<"$line")
s=$(sed -n 's/.* \([0-9]*\) skipped.*/\1/p' <<<"$line")
[ -n "$line" ] || f=1
echo "$((pass + ${p:-0})) passed, $((fail + ${f:-0})) failed, ${s:-0} skipped"
[ $((fail + ${f:-0})) -eq 0 ]
