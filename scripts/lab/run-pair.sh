#!/bin/bash
# scripts/lab/run-pair.sh - the "two hosts" shape: two lab guests joined by a
# point-to-point Ethernet link and nothing else; the server command runs in
# guest A, the client command in guest B.
#
# Usage: scripts/lab/run-pair.sh SERVER_CMD [ARG...] -- CLIENT_CMD [ARG...]
#   Both guests are booted at once by scripts/lab/run.sh (same root, cwd,
#   passed-through variables and knobs; read its header).  The client's stdout
#   and stderr come back on stdout/stderr; the server's both go to stderr,
#   each line prefixed with "[server] ".  The guests boot in parallel, so the
#   client must retry connecting until the server listens (the project's
#   binaries do; wrap perftest clients in a retry loop).
#
# In each guest: one virtio NIC, eth0, whose only peer is the other guest
# (qemu "-netdev dgram" over two unix datagram sockets in /tmp: no IP traffic
# on the host at all), and ONE RDMA device on it (rxe0 or siw0, see
# RDMABENCH_LAB_PAIR_PROVIDER).  Exported besides run.sh's LAB_* variables:
#   LAB_ROLE=server|client  LAB_SERVER_IP=198.18.2.1  LAB_CLIENT_IP=198.18.2.2
#   LAB_MY_IP / LAB_PEER_IP (this guest's / the other guest's address)
#   LAB_RXE_DEV=rxe0 LAB_RXE_IP=<own address> LAB_RXE_NETDEV=eth0 (or LAB_SIW_*)
#
# Environment (besides run.sh's):
#   RDMABENCH_LAB_PAIR_PROVIDER  rxe (default) or siw
#   RDMABENCH_LAB_PAIR_GRACE     seconds the server may run on after the
#                                client has finished (default 30), then its
#                                guest is stopped (server status 143)
#   RDMABENCH_LAB_SMP / _MEM     default 1 / 1G here (two guests share the host)
#
# Exit status: the client's if it is not 0, else the server's (so 0 = both
# succeeded); 77 if the lab cannot run; 124/125 as for run.sh.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
SCMD=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do SCMD+=("$1"); shift; done
if [ ${#SCMD[@]} = 0 ] || [ "${1:-}" != -- ] || [ $# -lt 2 ]; then
    echo "usage: $0 SERVER_CMD [ARG...] -- CLIENT_CMD [ARG...]" >&2; exit 2
fi
shift
GRACE=${RDMABENCH_LAB_PAIR_GRACE:-30}
[[ $GRACE =~ ^[0-9]+$ ]] || { echo "[lab-pair] ERROR: RDMABENCH_LAB_PAIR_GRACE='$GRACE' must be a number of seconds" >&2; exit 2; }
PROVIDER=${RDMABENCH_LAB_PAIR_PROVIDER:-rxe}
case "$PROVIDER" in rxe|siw) ;; *) echo "[lab-pair] ERROR: RDMABENCH_LAB_PAIR_PROVIDER must be rxe or siw" >&2; exit 2 ;; esac

export RDMABENCH_LAB_SMP=${RDMABENCH_LAB_SMP:-1} RDMABENCH_LAB_MEM=${RDMABENCH_LAB_MEM:-1G}
export RDMABENCH_LAB_PROVIDERS=$PROVIDER
# unix socket paths must stay under 108 bytes: a short folder in /tmp
LINK=$(mktemp -d /tmp/rdmabench-link.XXXXXX) || exit 125
SPID=
cleanup() { [ -n "$SPID" ] && kill "$SPID" 2>/dev/null; rm -rf "$LINK"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# the server's stdout and stderr, prefixed, on stderr
exec {SOUT}> >(sed -u 's/^/[server] /' >&2)
PREFIXPID=$!
RDMABENCH_LAB_ROLE=server RDMABENCH_LAB_NET=dgram:$LINK/s.sock:$LINK/c.sock \
    RDMABENCH_LAB_MAC=52:54:00:4c:41:01 "$HERE/run.sh" "${SCMD[@]}" >&"$SOUT" 2>&1 &
SPID=$!
exec {SOUT}>&-
RDMABENCH_LAB_ROLE=client RDMABENCH_LAB_NET=dgram:$LINK/c.sock:$LINK/s.sock \
    RDMABENCH_LAB_MAC=52:54:00:4c:41:02 "$HERE/run.sh" "$@"
CRC=$?
# the server guest: give it GRACE seconds, then stop it (run.sh kills qemu on TERM)
for ((i = 0; i < GRACE * 5; i++)); do kill -0 "$SPID" 2>/dev/null || break; sleep 0.2; done
if kill -0 "$SPID" 2>/dev/null; then
    echo "[lab-pair] server still running ${GRACE}s after the client finished: stopping it" >&2
    kill "$SPID"
fi
wait "$SPID"; SRC=$?
SPID=
wait "$PREFIXPID" 2>/dev/null
[ "${RDMABENCH_LAB_QUIET:-0}" = 1 ] || echo "[lab-pair] client status $CRC, server status $SRC" >&2
[ "$CRC" != 0 ] && exit "$CRC"
exit "$SRC"
