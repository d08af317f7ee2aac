#!/bin/bash
# scripts/test.sh - the tests on a fresh Debian 12 machine, as root:
# installs what is needed (scripts/lab/setup.sh), builds with warnings as
# errors, runs `make check` (unit tests, then lab tests on rxe and siw).
# Ends with "N passed, N failed, N skipped".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/lab/setup.sh
exec make -s WERROR=1 check
