#!/bin/bash
# scripts/loopback.sh TOOL SERVER_IP [ARG...] - run TOOL's server and client
# on this one host: the server in the background, the client against
# SERVER_IP (an address of a local RDMA device), both bounded in time.
# Prints the client's output, then the server's; exits with the client's
# status, or the server's when only the server failed.
#
#   scripts/loopback.sh ib_write_bw 192.168.1.10 -d mlx5_0 --report_gbits
#
# TOOL is taken from $RDMABENCH_BUILD (default: build/ beside this script's
# folder), then from PATH. Environment: RDMABENCH_PAIR_TIMEOUT (seconds for
# each side, default 300).
set -u
[ $# -ge 2 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
tool=$1 addr=$2; shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
build=${RDMABENCH_BUILD:-$root/build}
case $build in /*) ;; *) build=$root/$build ;; esac
bin=$build/$tool
[ -x "$bin" ] || bin=$(command -v "$tool") || {
	echo "loopback: $tool not found in $build or PATH: run 'make' first" >&2
	exit 2
}
limit=${RDMABENCH_PAIR_TIMEOUT:-300}
srv_out=$(mktemp) || exit 1
trap 'rm -f "$srv_out"' EXIT

# The client retries until the server listens: no sleep is needed.
timeout "$limit" "$bin" "$@" > "$srv_out" 2>&1 &
srv_pid=$!
timeout "$limit" "$bin" "$@" "$addr"
cli_rc=$?
# a server whose client gave up early waits for the next one: stop it
for _ in $(seq 150); do
	kill -0 "$srv_pid" 2>/dev/null || break
	sleep 0.1
done
kill "$srv_pid" 2>/dev/null
wait "$srv_pid"
srv_rc=$?
echo "--- server side ($tool, exit $srv_rc) ---"
cat "$srv_out"
[ "$cli_rc" -ne 0 ] && exit "$cli_rc"
exit "$srv_rc"
