#!/bin/bash
# scripts/bench-vs-perftest.sh - rdmabench against perftest, side by side,
# in the lab (issue 9).  A benchmark, not a test: it prints a ratio table.
#
# Usage: scripts/bench-vs-perftest.sh [--reps N] [--quick] [--bin DIR]
#                                     [--out DIR] [--phases "bw lat ..."]
#                                     [--keep-raw]
#
# Boots one lab guest (scripts/lab/run.sh, rxe0 only) and runs there
# scripts/bench/guest.sh: for every test and size, perftest and ours, both
# with -R (rdma_cm, so the connection set-up is like for like), ALTERNATELY
# and paired (odd repetitions ours first, even ones perftest first), same
# sizes and iterations, default flags otherwise.  Then scripts/bench/report.py
# turns the logs into results/perf/bench-vs-perftest.json and .md (the ratio
# table, also printed) - with --quick: bench-vs-perftest-quick.{json,md}.
#
# Phases (full run: all; --quick: bw lat ready mem on 2 sizes, 3 reps):
#   bw     ib_{write,read,send}_bw at 2 B, 64 B, 4 KiB, 64 KiB, 1 MiB:
#          message rate and bandwidth, client figures
#   lat    ib_{write,send,read}_lat at 2 B: t_typical (perftest) vs p50 (ours)
#   ready  time from exec to the server's "ready for a client" line
#          (perftest "Waiting for client to connect", ours "waiting for a
#          client on port"), from every server start of bw/lat
#   mem    peak RSS (/usr/bin/time %M) of server and client of ib_write_lat
#          at -n 10^3, 10^4, 10^5
#   qp     ib_write_bw -q 1, 2, 4, 8 at 64 B and 64 KiB (the same total
#          messages split over the QPs)
#   bidir  ib_write_bw -b at 64 KiB
#
# Options:
#   --reps N     paired repetitions of bw and lat (default 5; qp/bidir use
#                min(N, 3)); quick: 3
#   --quick      short CI-friendly run (~5 min under TCG)
#   --bin DIR    where our ib_* are (default build/; built with make if missing;
#                a file DIR/../COMMIT may name the commit they were built from)
#   --out DIR    where the JSON and Markdown go (default results/perf)
#   --phases P   only these phases (quoted, space separated)
#   --keep-raw   keep the raw logs in DIR/raw-<mode>/ (default: a temporary
#                folder under /var/tmp, removed on success)
#
# The server runs on guest CPU 0 and the client on CPU 1 (taskset, both
# tools; RDMABENCH_BENCH_PIN=0 turns it off): two pollers sharing one vCPU
# take turns by scheduler ticks and report milliseconds of "latency".
#
# Under TCG the numbers measure the emulator (rxe moves ~0.1-0.4 Gb/s):
# only the RATIO on the same device in the same guest means something, and
# the machine's other load makes it noisy - read the spread columns.
#
# Exit: 0 done (whatever the ratios), 77 the lab cannot run here (see
# scripts/lab/setup.sh), 1 the benchmark failed (logs kept and named).
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
REPS="" MODE=full BIN="" OUTDIR="$ROOT/results/perf" PHASES="" KEEP=0

die() { echo "bench-vs-perftest: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
    case "$1" in
        --reps) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--reps needs a positive integer"; REPS=$2; shift 2 ;;
        --reps=*) REPS=${1#*=}; [[ $REPS =~ ^[1-9][0-9]*$ ]] || die "--reps needs a positive integer"; shift ;;
        --quick) MODE=quick; shift ;;
        --bin) BIN=${2:?--bin needs a folder}; shift 2 ;;
        --out) OUTDIR=${2:?--out needs a folder}; shift 2 ;;
        --phases) PHASES=${2:?--phases needs a list}; shift 2 ;;
        --keep-raw) KEEP=1; shift ;;
        -h|--help) sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
done
[ -n "$REPS" ] || { [ "$MODE" = quick ] && REPS=3 || REPS=5; }

command -v ib_write_bw >/dev/null || { echo "bench-vs-perftest: SKIP: perftest is not installed (apt-get install perftest)" >&2; exit 77; }
command -v python3 >/dev/null || die "python3 is needed for the report"

if [ -z "$BIN" ]; then
    BIN=$ROOT/build
    if [ ! -x "$BIN/ib_write_bw" ]; then
        echo "bench-vs-perftest: building (make)" >&2
        make -C "$ROOT" -s >&2 || die "make failed"
    fi
fi
BIN=$(cd "$BIN" && pwd -P) || die "no folder $BIN"
for v in write read send; do
    for k in bw lat; do [ -x "$BIN/ib_${v}_$k" ] || die "$BIN/ib_${v}_$k is missing"; done
done

mkdir -p "$OUTDIR" || die "cannot create $OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd -P)
SUFFIX=""; [ "$MODE" = quick ] && SUFFIX=-quick
if [ "$KEEP" = 1 ]; then
    RAW=$OUTDIR/raw$SUFFIX; rm -rf "$RAW"; mkdir -p "$RAW"
else
    RAW=$(mktemp -d /var/tmp/rdmabench-perf.XXXXXX) || die "mktemp failed"
fi

# what we measured: the repo's commit and whether common/ or bench/ differed
# from it (for --bin elsewhere: a COMMIT file beside DIR names the commit
# it was built from, else "unknown")
if [ "$BIN" = "$(cd "$ROOT/build" 2>/dev/null && pwd -P)" ]; then
    COMMIT=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)
    DIRTY=$(git -C "$ROOT" status --porcelain -- common bench 2>/dev/null | wc -l)
elif [ -f "$BIN/../COMMIT" ]; then
    COMMIT=$(cat "$BIN/../COMMIT") DIRTY=0
else
    COMMIT=unknown DIRTY=0
fi
PT_VER=$(dpkg-query -W -f '${Version}' perftest 2>/dev/null || echo unknown)

# guest time: ~3.5 s a run (fixed costs included) plus the memory runs
if [ "$MODE" = quick ]; then LIMIT=1800; else LIMIT=$((2400 + REPS * 600)); fi

echo "bench-vs-perftest: mode $MODE, $REPS paired repetitions, ours from $BIN, perftest $PT_VER; raw logs in $RAW" >&2
START=$SECONDS
# the machine is shared: sample what the other work on it takes meanwhile
"$ROOT/scripts/bench/hostload.sh" "$RAW/host-load.tsv" "$RAW" &
SAMPLER=$!
trap 'kill "$SAMPLER" 2>/dev/null' EXIT
RDMABENCH_LAB_PROVIDERS=rxe \
RDMABENCH_LAB_TIMEOUT=${RDMABENCH_LAB_TIMEOUT:-$LIMIT} \
RDMABENCH_LAB_OUT=$RAW \
RDMABENCH_LAB_QUIET=${RDMABENCH_LAB_QUIET:-0} \
RDMABENCH_BENCH_BIN=$BIN RDMABENCH_BENCH_REPS=$REPS RDMABENCH_BENCH_MODE=$MODE \
RDMABENCH_BENCH_PHASES=$PHASES \
    "$ROOT/scripts/lab/run.sh" bash "$ROOT/scripts/bench/guest.sh"
RC=$?
kill "$SAMPLER" 2>/dev/null; wait "$SAMPLER" 2>/dev/null
case $RC in
    0) ;;
    77) echo "bench-vs-perftest: SKIP: the lab cannot run here (scripts/lab/setup.sh)" >&2; rm -rf "$RAW"; exit 77 ;;
    *) die "the guest run failed (exit $RC); raw logs kept in $RAW" ;;
esac

python3 "$ROOT/scripts/bench/report.py" --raw "$RAW" --out "$OUTDIR" \
    --name "bench-vs-perftest$SUFFIX" --mode "$MODE" --reps "$REPS" \
    --commit "$COMMIT" --dirty "$DIRTY" --perftest "$PT_VER" --bin "$BIN" \
    --wall "$((SECONDS - START))" || die "report failed; raw logs kept in $RAW"
[ "$KEEP" = 1 ] || rm -rf "$RAW"
exit 0
