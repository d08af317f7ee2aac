/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chk - the checks of ib_doctor, in the order they run and print.
 * Each adds its findings to ctx->rep. Pure: files below ctx->root, the rest
 * through ctx->probe.
 */
#ifndef RDMABENCH_DOCTOR_CHK_H
#define RDMABENCH_DOCTOR_CHK_H

#include <stdbool.h>
#include <string.h>

#include "doctor/inv.h"
#include "doctor/probe.h"
#include "doctor/findings.h"
#include "host/topo.h"

/* rdma_cm gets this long to resolve --peer's address and route. */
#define CHK_CM_TIMEOUT_MS 3000

/*
 * The lossless class RoCE traffic should ride: NVIDIA's usual setting is
 * PFC on priority 3, RoCE v2, ToS 106 (DSCP 26 << 2 | ECT(0)); DSCP 26
 * maps to priority 3 under the default DSCP -> priority table (D >> 3).
 * --lossless-prio and --roce-tos change it.
 */
#define CHK_LOSSLESS_PRIO 3
#define CHK_ROCE_TOS 106

struct chk_lossless {
	unsigned int prio;              /* 0..7: PFC and ECN on this one */
	unsigned int tos;               /* rdma_cm's ToS; DSCP = tos >> 2 */
};

struct chk_ctx {
	const char *root;               /* "/" or a fake tree */
	const char *only_dev;           /* -d: check this device only */
	const char *peer;               /* --peer IP, or NULL */
	const char *netstatus;          /* --network-status FILE, or NULL */
	char *const *envp;              /* for PCIDEVICE_*, KUBERNETES_* */
	const struct probe *probe;
	const struct chk_lossless *lossless; /* NULL: the defaults above */
	struct inv inv;
	struct findings rep;
};

/* True when -d leaves dev out. */
static inline bool chk_skip_dev(const struct chk_ctx *c,
				   const struct inv_dev *d)
{
	return c->only_dev && *c->only_dev && strcmp(c->only_dev, d->name);
}

/* "rxe0/1" */
/* fn(c, d) for every device that -d leaves in, in name order. */
void chk_dev_each(struct chk_ctx *c,
		  void (*fn)(struct chk_ctx *c, const struct inv_dev *d));

void chk_dev_port_subject(char *out, size_t len, const struct inv_dev *d,
			 const struct inv_port *p);

/* Steps 1-3: devices, device files, providers; ports and links; MTU. */
void chk_dev_check(struct chk_ctx *c);
void chk_port_check(struct chk_ctx *c);
void chk_port_mtu(struct chk_ctx *c);

/* Step 2: each port's error counters and its netdev's carrier flaps
 * since boot, an IB port's active width/speed against its rated one. */
void chk_link_check(struct chk_ctx *c);

/* Step 3: a RoCE port's lossless class: PFC and DSCP trust on its
 * netdev, ECN (DCQCN), rdma_cm's default ToS and RoCE mode. */
void chk_lossless_check(struct chk_ctx *c);

/* Steps 4-5: netdev <-> device, GIDs of the addresses; --peer route. */
void chk_net_netdevs(struct chk_ctx *c);
void chk_net_peer(struct chk_ctx *c);

/* Steps 6-7: locked memory; NUMA placement. */
void chk_host_memlock(struct chk_ctx *c);
void chk_host_numa(struct chk_ctx *c);

/* Step 8: GPUDirect. */
void chk_gpu_check(struct chk_ctx *c);

/* Can GPU memory be registered here: the nvidia module, and
 * nvidia_peermem, or dmabuf (kernel >= 5.12, and NVIDIA's open kernel
 * modules unless /proc/driver/nvidia/version is unreadable)? */
bool chk_gpu_registrable(const struct chk_ctx *c);

/* The RDMA NIC nearest GPU g on PCIe (host/topo.h's classes; -d applies),
 * its link in *rel; NULL when no PCI NIC relates to it. */
const struct inv_dev *chk_gpu_nearest(const struct chk_ctx *c,
				      const struct inv_gpu *g,
				      enum topo_link *rel);

/* Step 8 too: the PCIe peer path (acs, iommu, ats, maxreadreq,
 * relaxed_ord). */
void chk_pcie_check(struct chk_ctx *c);

/* Step 9: Kubernetes pod networking (Multus, SR-IOV). */
void chk_pod_check(struct chk_ctx *c);

/*
 * Everything above, in order: the inventory first, then the checks.
 * Returns 0 or -ENOMEM (findings are in c->rep either way).
 */
int cli_run(struct chk_ctx *c);

/* Free what cli_run built. */
void cli_ctx_free(struct chk_ctx *c);

#endif
