/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * gpupair - --use_cuda auto: the GPU nearest each rail's NIC, from sysfs
 * alone (host/topo.h's PCIe classes). For each NIC the GPUs are ranked by
 *   1. the PCIe link: PIX, PXB, PHB, NODE, SYS, then unknown (no PCI path:
 *      rxe, siw, a VM without a PCI tree);
 *   2. NUMA: a GPU on the NIC's node before one elsewhere or unknown;
 *   3. a GPU no earlier NIC took before one already paired (two NICs on
 *      one switch with two GPUs get one GPU each, not both the first);
 *   4. the CUDA ordinal.
 * A pair whose link is worse than PXB (the GPU is beyond the NIC's PCIe
 * switch) is marked far: GPUDirect RDMA through the CPU usually runs well
 * below line rate (perftest issue #241).
 *
 * Pure: reads files under a sysfs root ("/sys", or a fixture tree in
 * tests). The GPUs are given by the caller (their bus ids, in CUDA ordinal
 * order, as the driver lists them), so CUDA_VISIBLE_DEVICES holds.
 */
#ifndef RDMABENCH_HOST_GPUPAIR_H
#define RDMABENCH_HOST_GPUPAIR_H

#include <stdbool.h>
#include <stddef.h>

#include "host/topo.h"

#define GPUPAIR_BDF_MAX 32
#define GPUPAIR_GPUS_MAX 64
#define GPUPAIR_MSG_MAX 512

struct gpupair_nic {
	const char *name;        /* RDMA device or its netdev */
	int node;                /* NUMA node asked for (NAME@NODE); -1: the NIC's */
};

struct gpupair {
	int gpu;                 /* index into gpus[] = the CUDA ordinal */
	enum topo_link link;     /* TOPO_UNKNOWN: either has no PCI path */
	int nic_node;            /* -1: unknown */
	int gpu_node;
	bool far;                /* link worse than PXB */
};

/*
 * Pair each of the n_nics NICs with one of the n_gpus GPUs (bus ids
 * "dddd:bb:dd.f", ordinal order) into out[0..n_nics). Returns 0, or
 * -ENODEV when there is no GPU.
 */
int gpupair_plan(const char *sysfs_root, const char (*gpus)[GPUPAIR_BDF_MAX],
		 size_t n_gpus, const struct gpupair_nic *nics, size_t n_nics,
		 struct gpupair *out);

/*
 * The warning for a far pair, in buf: which NIC, which GPU, how far and
 * what it costs. Empty when p is not far.
 */
void gpupair_warn(const struct gpupair *p, const char *nic,
		  const char *gpu_bdf, char *buf, size_t len);

#endif
