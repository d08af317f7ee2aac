#!/bin/bash
# scripts/lab/demo-guest.sh - runs inside the lab guest (scripts/demo.sh):
# ib_write_bw and ib_write_lat, server and client, over rxe.
set -u
cd "$(dirname "$0")/../.."
: "${LAB_RXE_IP:?no rxe device came up in the guest}"
rc=0
echo "=== ib_write_bw over ${LAB_RXE_DEV:-rxe0} (${LAB_RXE_IP}), 64 KiB x 200 ==="
scripts/loopback.sh ib_write_bw "$LAB_RXE_IP" -s 64K -n 200 --report_gbits || rc=$?
echo
echo "=== ib_write_lat over ${LAB_RXE_DEV:-rxe0} (${LAB_RXE_IP}), 2 B x 1000 ==="
scripts/loopback.sh ib_write_lat "$LAB_RXE_IP" -n 1000 || rc=$?
exit "$rc"
