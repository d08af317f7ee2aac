#!/bin/bash
# scripts/demo.sh - the main job on a fresh Debian 12 machine, as root:
# installs what is needed, builds, boots the built-in Soft-RoCE lab and runs
# ib_write_bw and ib_write_lat client <-> server on rxe, printing Gb/s and
# microseconds. On a host with real RDMA, run the tools directly (README.md, docs/usage.md).
#
# Iterations are scaled for software emulation (rxe under QEMU TCG moves
# ~0.1 Gb/s): the figures show that the path works, not what hardware does.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/lab/setup.sh
make -s WERROR=1
exec scripts/lab/run.sh scripts/lab/demo-guest.sh
