#!/bin/bash
# scripts/bench/hotloop.sh [BUILD_DIR] [ITERS] [REPS] - the software cost per
# work request of our bandwidth loop and per iteration of our latency loop,
# next to loops shaped like perftest's, with a fake provider (no NIC, no
# lab): see hotloop.c.  Needs "make" done: links what the loops need from
# BUILD_DIR/libbench.a (default build/; the control channel is faked).
# Runs anywhere, host or lab guest; the host is shared and noisy, so each
# figure is the best of REPS and the modes are interleaved ROUNDS (3)
# times; compare figures of one invocation only.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
B=${1:-$ROOT/build}
ITERS=${2:-1000000}
REPS=${3:-5}
ROUNDS=${ROUNDS:-3}
CC=${CC:-cc}
T=$(mktemp -d /tmp/hotloop.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
[ -f "$B/libbench.a" ] || { echo "hotloop: $B/libbench.a missing (run make)" >&2; exit 1; }
SRC=$(cd "$B/.." && pwd -P)
$CC -std=gnu11 -O2 -I"$SRC/common" -I"$SRC" -o "$T/hotloop" \
    "$ROOT/scripts/bench/hotloop.c" "$B/libbench.a" -lnuma -libverbs -ldl -lm || exit 1
for ((r = 1; r <= ROUNDS; r++)); do
    for m in bw pt-bw lat pt-lat clock rdtsc; do
        s=64; case $m in lat|pt-lat) s=2 ;; esac
        "$T/hotloop" "$m" "$ITERS" "$s" "$REPS"
    done
done | awk '{ if (!($1 in best) || $2 < best[$1]) { best[$1] = $2; line[$1] = $0 } }
            END { for (m in line) print line[m] }' | sort
