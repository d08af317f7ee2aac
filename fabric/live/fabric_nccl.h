/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fabric_nccl - ib_fabric --nccl-test on this rank: run the user's
 * nccl-tests program (all_reduce_perf ...) with its arguments and
 * NCCL_DEBUG=INFO, its stdout and stderr into OUT/nccl_r<rank>_<node>.log,
 * then read and judge that log (fabric/ntest.c) and write the rank's
 * document OUT/nccl_r<rank>_<node>.json (fabric/ntest_json.c). The
 * launcher's environment passes on, so an MPI build of nccl-tests finds
 * its job (mpirun, srun --mpi=pmix) as if the launcher had started it.
 * --expect-busbw auto derives the expectation from this node's ACTIVE
 * RDMA ports (sysfs: host/ports.c, host/rate.c), the node's GPUs counted
 * as --ranks-per-node x nccl-tests' nGpus.
 */
#ifndef RDMABENCH_FABRIC_LIVE_FABRIC_NCCL_H
#define RDMABENCH_FABRIC_LIVE_FABRIC_NCCL_H

#include <stdbool.h>

#include "fabric/hostlist.h"

struct fabric_nccl {
	const char *prog; /* --nccl-test */
	char **args; /* its arguments (after --) */
	unsigned int nargs;
	const char *out; /* --out */
	unsigned int rank, nodes;
	unsigned int ranks_per_node; /* --ranks-per-node: ranks a node */
	const struct hostlist *hl;
	const char *node, *engine;
	unsigned int timeout_s; /* --timeout: the program's limit */
	double expect_gbps; /* --expect-busbw GBPS; 0: none */
	bool expect_auto; /* --expect-busbw auto */
};

/* Run, judge, write. Returns the rank's exit code (ntest.h's table). */
int fabric_nccl_run(const struct fabric_nccl *n);

#endif
