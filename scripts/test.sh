#!/bin/bash
# scripts/test.sh - the tests on a fresh Debian 12 machine, as root:
# installs what is needed (scripts/lab/setup.sh), builds with warnings as
# errors, runs `make check` (the fast suite: unit tests, layer, cycle and
# header checks), then `make lab` (real verbs on rxe and siw in QEMU).
# Ends with "N passed, N failed, N skipped", summed over both.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/lab/setup.sh || exit 1
log=$(mktemp)
trap 'rm -f "$log"' EXIT
make -s WERROR=1 check 2>&1 | tee "$log"
make -s WERROR=1 lab 2>&1 | tee -a "$log"
tests/sum-results.sh < "$log"
