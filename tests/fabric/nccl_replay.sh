#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/fabric/nccl_replay.sh FILE [ARGS...] - a STAND-IN for an nccl-tests
# program (all_reduce_perf ...) where there is no GPU: it replays FILE, a
# captured nccl-tests output (tests/fixtures/nccl/real-h200-*.log, the
# real H200 one, or tests/fixtures/nccl-tests/stand-in-*.log), as each
# rank of an MPI build would print it: rank 0 (OMPI_COMM_WORLD_RANK,
# PMI_RANK, SLURM_PROCID, else 0) the whole output, the other ranks only
# NCCL's lines. Like NCCL, it prints NCCL's INFO lines only when
# NCCL_DEBUG is INFO or TRACE (ib_fabric --nccl-test must set it). It
# never proves nccl-tests ran: it proves ib_fabric's launch, collection,
# parsing and gates. ARGS are echoed to stderr ("nccl_replay: args ...").
# NCCL_REPLAY_EXIT=N makes it exit N. "{rank}" in FILE is the rank, so
# that each rank of one launch replays its own log
# (stand-in-2.28-2rank-p2p-r{rank}.log).
set -u
file=${1:?usage: nccl_replay.sh FILE [ARGS...]}
shift
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${SLURM_PROCID:-0}}}
file=${file//\{rank\}/$rank}
echo "nccl_replay: rank $rank args $*" >&2
case ${NCCL_DEBUG:-} in
[Ii][Nn][Ff][Oo] | [Tt][Rr][Aa][Cc][Ee]) debug=1 ;;
*) debug=0 ;;
esac
if [ "$rank" = 0 ]; then
	if [ "$debug" = 1 ]; then cat "$file"; else grep -v '] NCCL ' "$file"; fi
elif [ "$debug" = 1 ]; then
	grep '] NCCL ' "$file"
fi
exit "${NCCL_REPLAY_EXIT:-0}"
