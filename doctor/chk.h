/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * doctor_chk - the checks of ib_doctor, in the order they run and print.
 * Each adds its findings to ctx->rep. Pure: files below ctx->root, the rest
 * through ctx->probe.
 */
#ifndef RDMABENCH_DOCTOR_CHK_H
#define RDMABENCH_DOCTOR_CHK_H

#include <stdbool.h>
#include <string.h>

#include "doctor/inv.h"
#include "doctor/probe.h"
#include "doctor/report.h"

/* rdma_cm gets this long to resolve --peer's address and route. */
#define DOCTOR_CM_TIMEOUT_MS 3000

struct doctor_ctx {
	const char *root;               /* "/" or a fake tree */
	const char *only_dev;           /* -d: check this device only */
	const char *peer;               /* --peer IP, or NULL */
	const char *netstatus;          /* --network-status FILE, or NULL */
	char *const *envp;              /* for PCIDEVICE_*, KUBERNETES_* */
	const struct doctor_probe *probe;
	struct doctor_inv inv;
	struct doctor_report rep;
};

/* True when -d leaves dev out. */
static inline bool doctor_skip_dev(const struct doctor_ctx *c,
				   const struct doctor_dev *d)
{
	return c->only_dev && *c->only_dev && strcmp(c->only_dev, d->name);
}

/* "rxe0/1" */
void doctor_port_subject(char *out, size_t len, const struct doctor_dev *d,
			 const struct doctor_port *p);

/* Steps 1-3: devices, device files, providers; ports and links; MTU. */
void doctor_check_devices(struct doctor_ctx *c);
void doctor_check_ports(struct doctor_ctx *c);
void doctor_check_mtu(struct doctor_ctx *c);

/* Steps 4-5: netdev <-> device, GIDs of the addresses; --peer route. */
void doctor_check_netdevs(struct doctor_ctx *c);
void doctor_check_peer(struct doctor_ctx *c);

/* Steps 6-7: locked memory; NUMA placement. */
void doctor_check_memlock(struct doctor_ctx *c);
void doctor_check_numa(struct doctor_ctx *c);

/* Step 8: GPUDirect. */
void doctor_check_gpu(struct doctor_ctx *c);

/* Step 9: Kubernetes pod networking (Multus, SR-IOV). */
void doctor_check_pod(struct doctor_ctx *c);

/*
 * Everything above, in order: the inventory first, then the checks.
 * Returns 0 or -ENOMEM (findings are in c->rep either way).
 */
int doctor_run(struct doctor_ctx *c);

/* Free what doctor_run built. */
void doctor_ctx_free(struct doctor_ctx *c);

#endif
