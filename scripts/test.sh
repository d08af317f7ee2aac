#!/bin/bash
# scripts/test.sh - the tests on a fresh Debian 12 machine, as root:
# installs what is needed (scripts/lab/setup.sh), builds with warnings as
# errors, runs `make check` (the fast suite: unit tests, layer, cycle and
# header checks), then `make lab` (real verbs on rxe and siw in QEMU).
# Ends with "N passed, N failed, N skipped": the two runners' totals summed
# by tests/sum-results.sh (one that printed no total counts as a failure).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
scripts/lab/setup.sh || exit 1
log=$(mktemp) sums=$(mktemp)
trap 'rm -f "$log" "$sums"' EXIT
for suite in check lab; do
	make -s WERROR=1 "$suite" 2>&1 | tee "$log"
	tests/sum-results.sh --last '' "$suite" < "$log" >> "$sums"
done
tests/sum-results.sh < "$sums"
