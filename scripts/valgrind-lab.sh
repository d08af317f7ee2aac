#!/bin/bash
# scripts/valgrind-lab.sh [TOOL...] - one server/client pair of each TOOL
# (default: ib_write_bw ib_send_lat ib_read_bw) on rxe in a lab guest, both
# sides under valgrind memcheck: the lab case file tests/lab/cases/valgrind.sh
# (which make lab runs in its release boot), on its own. Environment:
# RDMABENCH_BUILD (default build: a release build), VALGRIND_ITERS (default
# 20), RDMABENCH_LAB_OUT (keeps the valgrind logs on the host).
# Last line: "lab: N passed, N failed, N skipped"; exit 0 when none failed.
set -u
cd "$(dirname "$0")/.." || exit 1
export RDMABENCH_LAB_TIMEOUT=${RDMABENCH_LAB_TIMEOUT:-1500}
[ $# -eq 0 ] || export VALGRIND_TOOLS="$*"
exec scripts/lab/run.sh tests/lab/all.sh valgrind
