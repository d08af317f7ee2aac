#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# scripts/lab/run-group.sh - a small fabric: N lab guests (default 3),
# node-1..node-N, each with two RDMA rails on two L2 links that all of them
# share; CMD runs on node-1, the others serve (sshd) until it ends.
#
# Usage: scripts/lab/run-group.sh [-n N] CMD [ARG...]
#   Every guest is booted by scripts/lab/run.sh (same root, cwd, knobs and
#   passed-through variables; read its header) with 1 vCPU and 512 MiB by
#   default. In guest K (scripts/lab/guest-group.sh):
#     rxe0 on eth0 198.18.4.K/24 (/etc/hosts: node-K), rail 0
#     rxe1 on eth1 198.18.5.K/24 (/etc/hosts: node-K-r1), rail 1
#     host name node-K; sshd: root logs in to any node with the group's key
#     (made here, per run), so "ssh node-2 CMD" and mpirun just work
#   Each link is a qemu "-netdev socket,mcast=239.255.76.1:PORT" hub bound
#   to 127.0.0.1: Ethernet frames between the guests go over the host's
#   loopback only. CMD starts once every node's sshd is up.
#   Besides run.sh's LAB_* variables: LAB_NODE, LAB_NODES, LAB_HOSTS
#   (node-[1-N]), LAB_RAIL1_DEV/_IP/_NETDEV, LAB_OUT (one folder, shared by
#   all the guests and this host at the same path: a fabric's --out goes
#   there), OMPI_ALLOW_RUN_AS_ROOT=1 and the mpirun settings for the lab.
#   node-1's stdout and stderr come back on stdout/stderr; the others'
#   lines go to stderr prefixed "[node-K] ".
#
# Environment (besides run.sh's):
#   RDMABENCH_LAB_NODES       N, 2..9 (default 3; -n wins)
#   RDMABENCH_LAB_SMP / _MEM  default 1 / 512M here (the guests share the host)
#   RDMABENCH_LAB_OUT         the shared folder (default: a new one under
#                             $RDMABENCH_LAB_DIR/runs, removed when CMD
#                             succeeds)
#   RDMABENCH_LAB_GROUP_WAIT  seconds node-1 waits for the others (default 240)
#
# Exit status: CMD's; 77 if the lab cannot run; 124/125 as for run.sh.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
N=${RDMABENCH_LAB_NODES:-3}
if [ "${1:-}" = -n ]; then N=${2:-}; shift 2 || true; fi
die() { echo "[lab-group] ERROR: $*" >&2; exit 2; }
[[ $N =~ ^[2-9]$ ]] || die "the number of nodes '$N' must be 2..9 (-n N or RDMABENCH_LAB_NODES)"
[ $# -gt 0 ] || die "usage: $0 [-n N] CMD [ARG...]"
if ! command -v ssh-keygen >/dev/null || [ ! -x /usr/sbin/sshd ]; then
    echo "[lab-group] SKIP: ssh-keygen or /usr/sbin/sshd missing (run scripts/lab/setup.sh as root)" >&2; exit 77
fi
[ -s /etc/ssh/ssh_host_ed25519_key ] ||
    { echo "[lab-group] SKIP: no /etc/ssh host keys (ssh-keygen -A, or reinstall openssh-server)" >&2; exit 77; }

LAB=${RDMABENCH_LAB_DIR:-/var/tmp/rdmabench-lab}
if [ -n "${RDMABENCH_LAB_OUT:-}" ]; then OWN_OUT=0; OUT=$RDMABENCH_LAB_OUT
else OWN_OUT=1; mkdir -p "$LAB/runs" && OUT=$(mktemp -d "$LAB/runs/group.XXXXXX") || exit 125; fi
mkdir -p "$OUT" || die "cannot create RDMABENCH_LAB_OUT=$OUT"
OUT=$(cd "$OUT" && pwd -P) || exit 125
G=$OUT/.lab-group
rm -rf "$G" && mkdir -m 700 "$G" || exit 125
if ! ssh-keygen -q -t ed25519 -N '' -C rdmabench-lab -f "$G/id_ed25519" ||
    ! cp "$G/id_ed25519.pub" "$G/authorized_keys"; then
    echo "[lab-group] ERROR: ssh-keygen failed" >&2; exit 125
fi

# A hub is UDP: a frame that finds its receiver's socket buffer full is
# dropped (Udp RcvbufErrors in /proc/net/snmp), and rxe answers drops with
# retry storms ("remote invalid request", 0 iterations) while the guests
# wait for the host's 2 cores (every guest reads every frame of its hub).
# 32 MiB per socket hold the bursts.
RMEM=/proc/sys/net/core/rmem_default
if [ "$(cat "$RMEM" 2>/dev/null || echo 0)" -lt 33554432 ]; then
    if echo 33554432 2>/dev/null > "$RMEM"; then
        echo "[lab-group] net.core.rmem_default raised to 32 MiB (hub links without drops)" >&2
    else
        echo "[lab-group] WARNING: cannot raise net.core.rmem_default to 32 MiB: hub links may drop frames" >&2
    fi
fi
export RDMABENCH_LAB_SMP=${RDMABENCH_LAB_SMP:-1} RDMABENCH_LAB_MEM=${RDMABENCH_LAB_MEM:-512M}
export RDMABENCH_LAB_PROVIDERS=none RDMABENCH_LAB_OUT=$OUT RDMABENCH_LAB_NODES=$N
# two hub ports per run: groups of other users on this host do not meet ours
PORT0=$((20000 + ($$ % 10000) * 2))
NET=mcast:239.255.76.1:$PORT0:$((PORT0 + 1))

PIDS=()
trap '[ ${#PIDS[@]} = 0 ] || kill "${PIDS[@]}" 2>/dev/null; rm -rf "$G"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

START=$SECONDS
for ((k = 2; k <= N; k++)); do
    # the other nodes serve until node-1's command ends (then they are stopped)
    RDMABENCH_LAB_ROLE='' RDMABENCH_LAB_NET=$NET RDMABENCH_LAB_NODE=$k \
        "$HERE/run.sh" bash -c 'exec {f}<> <(:); read -r -u "$f"' \
        > >(sed -u "s/^/[node-$k] /" >&2) 2>&1 &
    PIDS+=($!)
done
# in the background, so that a signal to this script is handled at once
RDMABENCH_LAB_ROLE='' RDMABENCH_LAB_NET=$NET RDMABENCH_LAB_NODE=1 "$HERE/run.sh" "$@" &
PIDS+=($!)
wait "${PIDS[-1]}"
RC=$?
unset 'PIDS[-1]'
[ "${RDMABENCH_LAB_QUIET:-0}" = 1 ] ||
    echo "[lab-group] node-1 status $RC after $((SECONDS - START)) s; stopping node-2..node-$N" >&2
[ ${#PIDS[@]} = 0 ] || kill "${PIDS[@]}" 2>/dev/null
wait "${PIDS[@]}" 2>/dev/null
PIDS=()
[ "$OWN_OUT" = 1 ] && [ "$RC" = 0 ] && rm -rf "$OUT"
exit "$RC"
