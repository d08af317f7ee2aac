#!/bin/bash
# scripts/bench/guest.sh - the guest half of scripts/bench-vs-perftest.sh.
# Runs in the lab guest (scripts/lab/run.sh), on rxe0: perftest and
# rdmabench, both with -R (rdma_cm: like for like), alternately and
# paired, and leaves raw logs plus one index line per run in
# $LAB_OUT/runs.tsv for scripts/bench/report.py.
#
# Environment (from the host script, all RDMABENCH_BENCH_*):
#   RDMABENCH_BENCH_BIN     folder holding our ib_* (default build)
#   RDMABENCH_BENCH_REPS    paired repetitions of each bandwidth/latency test (5)
#   RDMABENCH_BENCH_MODE    full | quick
#   RDMABENCH_BENCH_PHASES  space-separated subset of: bw lat ready mem qp bidir
#   RDMABENCH_BENCH_MEM_ITERS  latency iteration counts for the memory phase
#   RDMABENCH_BENCH_SIZES   bandwidth sizes (override)
#   RDMABENCH_BENCH_PIN     1 (default with 2+ guest CPUs): server on CPU 0,
#                           client on CPU 1 (taskset), for both tools; 0: off
#
# Under TCG every fork+exec costs ~0.1-0.2 s: waits use bash builtins only
# (no sleep/grep processes).  Each run: the server starts first with
# stdout/stderr line-buffered (stdbuf, for both tools) through a builtin
# time-stamper; the client starts once the server printed its "ready" line
# (perftest: "Waiting for client to connect", ours: "waiting for a client").
# Bandwidth figures in MiB/s (both tools' default: more digits than Gb/s).
# A run counts when its client exits 0 within CLIENT_TIMEOUT (120 s).
# shellcheck disable=SC2034
set -u

BIN=${RDMABENCH_BENCH_BIN:-build}
REPS=${RDMABENCH_BENCH_REPS:-5}
MODE=${RDMABENCH_BENCH_MODE:-full}
OUTD=${LAB_OUT:?run me through scripts/lab/run.sh}
IP=${LAB_RXE_IP:-}
[ -n "$IP" ] || { echo "bench: no rxe device came up in the guest" >&2; exit 77; }

if [ "$MODE" = quick ]; then
    PHASES=${RDMABENCH_BENCH_PHASES:-"bw lat ready mem"}
    SIZES=${RDMABENCH_BENCH_SIZES:-"64 65536"}
    LAT_VERBS="write"
    MEM_ITERS=${RDMABENCH_BENCH_MEM_ITERS:-"1000 10000"}
else
    PHASES=${RDMABENCH_BENCH_PHASES:-"bw lat ready mem qp bidir"}
    SIZES=${RDMABENCH_BENCH_SIZES:-"2 64 4096 65536 1048576"}
    LAT_VERBS="write send read"
    MEM_ITERS=${RDMABENCH_BENCH_MEM_ITERS:-"1000 10000 100000"}
fi
BW_VERBS="write read send"

# iterations per size: ~0.5-1 s of measurement a run on rxe when the guest
# gets its 2 cores (2 B: ~45 K msg/s, 4 KiB ~9 K, 64 KiB ~650, 1 MiB ~40);
# several times longer when the machine is loaded
iters_for() {
    case $1 in
        2|64) ITERS=20000 ;;
        4096) ITERS=5000 ;;
        65536) ITERS=400 ;;
        1048576) ITERS=32 ;;
        *) if [ "$1" -le 1024 ]; then ITERS=20000
           elif [ "$1" -le 16384 ]; then ITERS=5000
           elif [ "$1" -le 262144 ]; then ITERS=400
           else ITERS=32; fi ;;
    esac
}
# latency: ~25-60 us a round trip, 10000 of them ~0.3-0.6 s
LAT_ITERS=${RDMABENCH_BENCH_LAT_ITERS:-10000}

# Two busy-polling processes on one vCPU take turns by scheduler ticks
# (HZ=250: 4 ms): a ping-pong then reports milliseconds (measured: 8.0 ms
# t_typical for both tools pinned to one vCPU, 16-18 us on two). The guest
# scheduler does that by chance in some runs, for either tool: pin them apart.
PIN=${RDMABENCH_BENCH_PIN:-1}
[ "${LAB_SMP:-1}" -ge 2 ] || PIN=0

exec {SFD}<> <(:)
zz() { read -r -t "$1" -u "$SFD" _ || true; }
stamp() { local l; while IFS= read -r l; do printf '%s %s\n' "$EPOCHREALTIME" "$l"; done; }
now_us() { NOW=${EPOCHREALTIME/[.,]/}; }

INDEX=$OUTD/runs.tsv
printf 'phase\tname\ttool\tverb\tkind\tsize\titers\tqps\textra\trep\trc\tsrv_rc\ttries\tt0\tclient_wall_s\tfailed_attempts\n' > "$INDEX"
PORT=20000
SEQ=0

# run1 PHASE TOOL VERB KIND SIZE ITERS QPS REP EXTRA...
#   TOOL: ours|perftest; KIND: bw|lat; EXTRA: more client flags
#   logs: $OUTD/NAME.srv (time-stamped), NAME.cli, NAME.ctr (rxe counter
#   deltas), and with MEMWRAP=1 NAME.srv.rss / NAME.cli.rss (KiB)
#   A client refused at once is retried against the same server (perftest
#   prints its banner before it listens); a client that fails otherwise
#   (perftest's clients sometimes segfault or hang) gets the whole pair
#   started again, up to 3 attempts; the index records both counts.
run1() {
    local phase=$1 tool=$2 verb=$3 kind=$4 size=$5 iters=$6 qps=$7 rep=$8
    shift 8
    local -a extra=("$@")
    local name attempt rc=1 srv_rc=0 tries=0 t0=0 wall=0 fails=""
    SEQ=$((SEQ + 1))
    name=$(printf '%04d.%s.%s_%s.%s.%s' "$SEQ" "$phase" "$verb" "$kind" "$size" "$tool")
    ctr_snap
    for ((attempt = 1; attempt <= 3; attempt++)); do
        PORT=$((20000 + (SEQ * 3 + attempt) % 3000))
        pair_once
        [ "$rc" = 0 ] && break
        fails+="${fails:+,}$rc"
        [ -s "$OUTD/$name.cli" ] && cp "$OUTD/$name.cli" "$OUTD/$name.cli.attempt$attempt"
    done
    ctr_delta "$OUTD/$name.ctr"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d.%03d\t%s\n' \
        "$phase" "$name" "$tool" "$verb" "$kind" "$size" "$iters" "$qps" "${extra[*]}" \
        "$rep" "$rc" "$srv_rc" "$tries" "$t0" $((wall / 1000)) $((wall % 1000)) "$fails" >> "$INDEX"
    printf '[bench] %-44s rc %s/%s %d.%03d s%s\n' "$name" "$rc" "$srv_rc" $((wall / 1000)) \
        $((wall % 1000)) "${fails:+ (failed attempts: $fails)}" >&2
}

# one attempt of run1's pair (uses run1's locals): sets rc srv_rc tries t0 wall
pair_once() {
    local -a srv cli pre_s=() pre_c=()
    local prog txt="" i sp c0 c1 lim
    if [ "$tool" = ours ]; then
        prog=$BIN/ib_${verb}_$kind
        srv=("$prog" -R -p "$PORT")
        cli=("$prog" "$IP" -R -p "$PORT" -s "$size" -n "$iters")
        [ "$qps" -gt 1 ] && cli+=(-q "$qps")
        cli+=("${extra[@]}")
    else
        prog=ib_${verb}_$kind
        # perftest: the server must be given the test flags too
        srv=("$prog" -R -d "$LAB_RXE_DEV" -p "$PORT" -s "$size" -n "$iters")
        [ "$qps" -gt 1 ] && srv+=(-q "$qps")
        srv+=("${extra[@]}")
        cli=("${srv[@]}" "$IP")
    fi
    [ "$PIN" = 1 ] && pre_s=(taskset -c 0) pre_c=(taskset -c 1)
    if [ "${MEMWRAP:-0}" = 1 ]; then
        pre_s+=(/usr/bin/time -f %M -o "$OUTD/$name.srv.rss")
        pre_c+=(/usr/bin/time -f %M -o "$OUTD/$name.cli.rss")
    fi
    : > "$OUTD/$name.srv"
    now_us; t0=$NOW
    stdbuf -oL -eL "${pre_s[@]}" "${srv[@]}" > >(stamp > "$OUTD/$name.srv") 2>&1 &
    sp=$!
    for ((i = 0; i < 3000; i++)); do          # <= 30 s
        IFS= read -r -d '' txt < "$OUTD/$name.srv" || true
        [[ $txt =~ (Waiting for client to connect|waiting for a client) ]] && break
        kill -0 "$sp" 2>/dev/null || break
        zz 0.01
    done
    now_us; c0=$NOW
    while :; do
        now_us; c1=$NOW
        timeout -k 5 "${CLIENT_TIMEOUT:-90}" "${pre_c[@]}" "${cli[@]}" > "$OUTD/$name.cli" 2>&1
        rc=$?
        now_us
        # refused at once (an error exit within 3 s, not a crash) while
        # the server lives: again
        [ "$rc" = 0 ] || [ "$tool" = ours ] || [ $tries -ge 10 ] && break
        [ "$rc" -lt 124 ] && [ $((NOW - c1)) -lt 3000000 ] || break
        kill -0 "$sp" 2>/dev/null || break
        tries=$((tries + 1)); zz 0.3
    done
    wall=$(( (NOW - c0) / 1000 ))
    # the server gets 20 s to finish after its client (1 s after a failure)
    lim=100; [ "$rc" = 0 ] && lim=2000
    for ((i = 0; i < lim; i++)); do
        kill -0 "$sp" 2>/dev/null || break
        zz 0.01
    done
    if kill -0 "$sp" 2>/dev/null; then kill -TERM "$sp" 2>/dev/null; zz 1; kill -KILL "$sp" 2>/dev/null; fi
    wait "$sp"; srv_rc=$?
}

# pairrun PHASE VERB KIND SIZE ITERS QPS REP EXTRA... : both tools, the order
# alternating with the repetition (odd: ours first, even: perftest first)
pairrun() {
    local phase=$1 verb=$2 kind=$3 size=$4 iters=$5 qps=$6 rep=$7
    shift 7
    if ((rep % 2)); then
        run1 "$phase" ours "$verb" "$kind" "$size" "$iters" "$qps" "$rep" "$@"
        run1 "$phase" perftest "$verb" "$kind" "$size" "$iters" "$qps" "$rep" "$@"
    else
        run1 "$phase" perftest "$verb" "$kind" "$size" "$iters" "$qps" "$rep" "$@"
        run1 "$phase" ours "$verb" "$kind" "$size" "$iters" "$qps" "$rep" "$@"
    fi
}

have() { [[ " $PHASES " == *" $1 "* ]]; }

# mem_sample TOOL ITERS: "TOOL ITERS VmSize_kB VmHWM_kB" of a write_lat
# client 3 s into its run (both sides stopped afterwards)
mem_sample() {
    local tool=$1 n=$2 sp cp st
    local -a srv cli
    if [ "$tool" = ours ]; then
        srv=("$BIN/ib_write_lat" -R -p "$PORT")
        cli=("$BIN/ib_write_lat" "$IP" -R -p "$PORT" -n "$n")
    else
        srv=(ib_write_lat -R -d "$LAB_RXE_DEV" -p "$PORT" -n "$n")
        cli=("${srv[@]}" "$IP")
    fi
    taskset -c 0 "${srv[@]}" > /dev/null 2>&1 &
    sp=$!
    zz 1
    taskset -c 1 "${cli[@]}" > /dev/null 2>&1 &
    cp=$!
    zz 3
    st=$(awk '/^VmSize:/ { s = $2 } /^VmHWM:/ { h = $2 }
              END { print s + 0, h + 0 }' /proc/$cp/status 2>/dev/null)
    kill -TERM "$cp" "$sp" 2>/dev/null
    zz 1
    kill -KILL "$cp" "$sp" 2>/dev/null
    wait "$cp" "$sp" 2>/dev/null
    echo "$tool $n ${st:-0 0}"
}

# rxe's hw_counters around each run (retransmissions, RNR NAKs, ...): a
# slow run with none of them was slowed by the scheduler, not by the protocol
CTRS=(/sys/class/infiniband/"${LAB_RXE_DEV:-rxe0}"/ports/1/hw_counters/*)
declare -A CTR0
ctr_snap() { local f v; for f in "${CTRS[@]}"; do read -r v < "$f" 2>/dev/null && CTR0[${f##*/}]=$v; done; }
ctr_delta() { # FILE: the non-zero deltas, one "name=delta" a line
    local f v k
    for f in "${CTRS[@]}"; do
        read -r v < "$f" 2>/dev/null || continue
        k=${f##*/}
        [ "$((v - ${CTR0[$k]:-0}))" != 0 ] && echo "$k=$((v - ${CTR0[$k]:-0}))"
    done > "$1"
}

{
    echo "mode=$MODE reps=$REPS phases=$PHASES sizes=$SIZES"
    echo "bin=$BIN ip=$IP dev=${LAB_RXE_DEV:-} smp=${LAB_SMP:-} pin=$PIN"
    read -r k < /proc/sys/kernel/osrelease; echo "kernel=$k"
    for f in /sys/class/infiniband/"${LAB_RXE_DEV:-rxe0}"/ports/1/hw_counters/*; do
        [ -r "$f" ] && { read -r v < "$f"; echo "rxe_counter_start ${f##*/}=$v"; }
    done
} > "$OUTD/guest-info.txt" 2>/dev/null

# ready: the floor of the wrapper itself (stdbuf + exec + the stamper)
if have ready; then
    for rep in 1 2 3; do
        : > "$OUTD/floor.$rep.srv"
        now_us; t0=$NOW
        fl=(); [ "$PIN" = 1 ] && fl=(taskset -c 0)
        stdbuf -oL -eL "${fl[@]}" /bin/echo "waiting for a client (floor)" > >(stamp > "$OUTD/floor.$rep.srv") 2>&1
        zz 0.3
        echo "t0 $t0" >> "$OUTD/floor.$rep.srv"
    done
fi

for ((rep = 1; rep <= REPS; rep++)); do
    if have bw; then
        for verb in $BW_VERBS; do
            for size in $SIZES; do
                iters_for "$size"
                pairrun bw "$verb" bw "$size" "$ITERS" 1 "$rep"
            done
        done
    fi
    if have lat; then
        for verb in $LAT_VERBS; do
            pairrun lat "$verb" lat 2 "$LAT_ITERS" 1 "$rep"
        done
    fi
done

# the ready time comes from every server start above; with neither bw nor
# lat, a few write_bw pairs give it
if have ready && ! have bw && ! have lat; then
    iters_for 65536
    for rep in 1 2 3; do pairrun bw write bw 65536 "$ITERS" 1 "$rep"; done
fi

# multi-QP scale: the same total messages, split across the QPs
if have qp; then
    QREPS=$(( REPS < 3 ? REPS : 3 ))
    for ((rep = 1; rep <= QREPS; rep++)); do
        for size in 64 65536; do
            iters_for "$size"
            for q in 1 2 4 8; do
                n=$((ITERS / q)); [ "$n" -ge 16 ] || n=16
                pairrun qp write bw "$size" "$n" "$q" "$rep"
            done
        done
    done
fi

if have bidir; then
    QREPS=$(( REPS < 3 ? REPS : 3 ))
    for ((rep = 1; rep <= QREPS; rep++)); do
        iters_for 65536
        pairrun bidir write bw 65536 "$ITERS" 1 "$rep" -b
    done
fi

# memory vs iterations: peak RSS (VmHWM) of both processes of a latency run
if have mem; then
    MEMWRAP=1
    for n in $MEM_ITERS; do
        CLIENT_TIMEOUT=$(( 240 + n / 200 ))
        pairrun mem write lat 2 "$n" 1 1
    done
    MEMWRAP=0
    # 10^6 and 10^7 iterations take minutes under TCG: each client is
    # sampled 3 s into its run (VmSize: what it allocated; VmHWM: what it
    # touched so far), then both sides are stopped
    for n in ${RDMABENCH_BENCH_MEM_LONG:-1000000 10000000}; do
        for tool in ours perftest; do
            mem_sample "$tool" "$n" >> "$OUTD/mem-long.tsv"
        done
    done
fi

for f in /sys/class/infiniband/"${LAB_RXE_DEV:-rxe0}"/ports/1/hw_counters/*; do
    [ -r "$f" ] && { read -r v < "$f"; echo "rxe_counter_end ${f##*/}=$v"; }
done >> "$OUTD/guest-info.txt" 2>/dev/null
echo "[bench] guest done" >&2
exit 0
