/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * device - what we tell the user about the device and port in use.
 */
#ifndef RDMABENCH_DEVICE_H
#define RDMABENCH_DEVICE_H

#include <stdbool.h>
#include <stdint.h>
#include <infiniband/verbs.h>

struct dev_info {
	char name[64];
	char fw_ver[64];
	uint8_t port;
	const char *transport;   /* "IB", "RoCE", "iWARP" */
	const char *port_state;  /* "ACTIVE", ... */
	unsigned int active_mtu_bytes;
	int numa_node;           /* -1: unknown */
	uint32_t max_qp_wr;
	bool has_atomics;        /* atomic_cap != IBV_ATOMIC_NONE */
};

/* Query ctx/port into *out. Returns 0 or -errno (logged). */
int dev_query(struct ibv_context *ctx, uint8_t port, struct dev_info *out);

#endif
