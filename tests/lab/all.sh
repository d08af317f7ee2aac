#!/bin/bash
# tests/lab/all.sh - every lab test, in the lab guest: sources each
# tests/lab/cases/*.sh (each defines and runs its cases with the harness,
# without a summary), then prints "lab: N passed, N failed, N skipped".
#
# Usage (on the host):  scripts/lab/run.sh tests/lab/all.sh [CASE...]
#   CASE: names of files in tests/lab/cases/ without .sh (default: all).
# make check runs this. Environment: RDMABENCH_BUILD (default build).
source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
B=${RDMABENCH_BUILD:-build}

if [ "${LAB_GUEST:-}" != 1 ]; then
	lab_skip lab "not in the lab guest: run scripts/lab/run.sh $0"
	lab_summary
fi

# shared patterns for the cases
NUM='[0-9]+\.[0-9]+'

if [ $# -gt 0 ]; then
	cases=("$@")
else
	cases=()
	for f in tests/lab/cases/*.sh; do
		f=${f##*/}
		cases+=("${f%.sh}")
	done
fi
for c in "${cases[@]}"; do
	# RDMABENCH_LAB_EXCLUDE: cases a run leaves out on purpose (e.g. the
	# package case in CI's sanitizer run, which builds no package)
	if [[ " ${RDMABENCH_LAB_EXCLUDE:-} " == *" $c "* ]]; then
		echo "=== lab cases: $c: left out (RDMABENCH_LAB_EXCLUDE) ==="
		continue
	fi
	echo "=== lab cases: $c ==="
	# shellcheck source=/dev/null
	source "tests/lab/cases/$c.sh"
done
lab_summary
