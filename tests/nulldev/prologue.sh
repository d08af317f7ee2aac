# SPDX-License-Identifier: BSD-2-Clause
# tests/nulldev/prologue.sh - sourced by tests/nulldev/test_*.sh from the
# repository root: B (the build folder: RDMABENCH_BUILD, else build/), the
# null device built there, and NULLDEV_SYS, a new private sysfs folder,
# exported (the test removes it on exit). Not a test of its own.
B=${RDMABENCH_BUILD:-build}
make -s nulldev B="$B" >/dev/null || { echo "FAIL make nulldev"; exit 1; }
NULLDEV_SYS=$(mktemp -d) || exit 1
export NULLDEV_SYS
