// SPDX-License-Identifier: BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "device.h"
#include "log.h"

static unsigned int dev_mtu_bytes(enum ibv_mtu mtu)
{
	return mtu >= IBV_MTU_256 && mtu <= IBV_MTU_4096 ? 128u << mtu : 0;
}

static const char *dev_transport(struct ibv_context *ctx,
				 const struct ibv_port_attr *pa)
{
	if (ctx->device->transport_type == IBV_TRANSPORT_IWARP)
		return "iWARP";
	return pa->link_layer == IBV_LINK_LAYER_ETHERNET ? "RoCE" : "IB";
}

/* NUMA node of the device's PCI function; -1 for virtual devices. */
static int dev_numa_node(const char *name)
{
	char path[256];
	FILE *f;
	int node = -1;

	snprintf(path, sizeof(path),
		 "/sys/class/infiniband/%s/device/numa_node", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &node) != 1)
		node = -1;
	fclose(f);
	return node;
}

int dev_query(struct ibv_context *ctx, uint8_t port, struct dev_info *out)
{
	struct ibv_device_attr da;
	struct ibv_port_attr pa;
	int ret;

	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s",
		 ibv_get_device_name(ctx->device));
	ret = ibv_query_device(ctx, &da);
	if (!ret)
		ret = ibv_query_port(ctx, port, &pa);
	if (ret) {
		bench_err("querying %s port %u: %s", out->name, port,
			  strerror(ret));
		return -ret;
	}
	snprintf(out->fw_ver, sizeof(out->fw_ver), "%s", da.fw_ver);
	out->port = port;
	out->transport = dev_transport(ctx, &pa);
	out->port_state = ibv_port_state_str(pa.state);
	out->active_mtu_bytes = dev_mtu_bytes(pa.active_mtu);
	out->numa_node = dev_numa_node(out->name);
	out->max_qp_wr = (uint32_t)da.max_qp_wr;
	out->has_atomics = da.atomic_cap != IBV_ATOMIC_NONE;
	return 0;
}
