/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cuda_auto - --use_cuda auto: the GPUs the CUDA driver shows, paired
 * with this side's NICs by host/gpupair.h, written into the run's
 * configuration as --use_cuda N plus --use_cuda_bus_id BDF, so that the
 * rest of the run (preflight, buffers, reports) sees a named GPU.
 *
 * A host without a usable CUDA driver, or without a GPU, is refused with
 * the driver's message (it names the fix, and "drop --use_cuda" for host
 * memory): auto never falls back to host memory, whose figures would
 * pass for GPUDirect ones.
 */
#ifndef RDMABENCH_RUN_CUDA_AUTO_H
#define RDMABENCH_RUN_CUDA_AUTO_H

#include <stdio.h>

#include "host/topo.h"
#include "spec/opts.h"
#include "spec/rails.h"

struct cuda_auto_pick {
	int ordinal;
	char bus_id[OPTS_NAME_MAX];
	enum topo_link link;        /* to the rail's NIC */
};

/*
 * The GPU of each rail of rl into picks[0..rl->n), and the table of them
 * on out, a warning (bench_warn) for each rail whose GPU is beyond its
 * NIC's switch. Returns 0, -ENODEV (no GPU: the user's to fix) or
 * another -errno (no usable driver), logged.
 */
int cuda_auto_rails(const struct rails *rl, struct cuda_auto_pick *picks,
		    FILE *out);

/* Rail or link cfg takes pick: --use_cuda N, --use_cuda_bus_id BDF. */
void cuda_auto_set(struct bench_cfg *c, const struct cuda_auto_pick *pick);

/*
 * One link: when c asks for auto, the GPU nearest dev (an RDMA device or
 * netdev; NULL: not known yet, then only the driver's GPUs are checked
 * and c still asks for auto). Logs the choice. Returns 0 or -errno as
 * cuda_auto_rails.
 */
int cuda_auto_link(struct bench_cfg *c, const char *dev);

#endif
