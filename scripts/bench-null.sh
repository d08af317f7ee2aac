#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# scripts/bench-null.sh [--reps N] [--only TEXT] [--out DIR] - perftest's
# binaries and ours side by side on the null device, a verbs device as fast
# as memory (issue 27; tests/nulldev/, docs/nulldev.md): no QEMU, no NIC.
# Builds build/ and the device, then scripts/bench/null.py (which says what
# it measures). Results: results/perf/bench-null.{json,md}; the table is
# printed, its last line "N of M rows at or beyond perftest".
# Exit: 0 done (whatever the ratios), 1 a pair failed, 77 no perftest or no
# mount namespace here.
set -u
cd "$(dirname "$0")/.." || exit 1
[ -x "${PERFTEST_BIN:-/usr/bin}/ib_write_bw" ] || { echo "bench-null: perftest is not installed (apt-get install perftest)" >&2; exit 77; }
# BENCH_NO_BUILD=1: use build/ as it is (a host without the headers, fed
# by scripts/bench/null-bundle.sh)
[ -n "${BENCH_NO_BUILD:-}" ] ||
	make -s -j2 all nulldev >/dev/null || { echo "bench-null: make failed" >&2; exit 1; }
NULLDEV_SYS=$(mktemp -d) || exit 1
export NULLDEV_SYS
trap 'rm -rf "$NULLDEV_SYS"' EXIT
tests/nulldev/nulldev-run.sh -b "${BENCH_BIN:-build}" true || exit $?
python3 scripts/bench/null.py --perftest "${PERFTEST_BIN:-/usr/bin}" \
	--bin "${BENCH_BIN:-$PWD/build}" "$@"
