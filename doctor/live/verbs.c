// SPDX-License-Identifier: BSD-2-Clause
/*
 * verbs - ib_doctor's verbs and rdma_cm probes, the real probe
 * table, and doctor_main(). Everything else ib_doctor does is pure (files
 * below a root); this is the part a fake tree cannot answer.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "rdma/cm.h"
#include "doctor/doctor.h"
#include "lib/fs.h"
#include "doctor/live/nl.h"
#include "lib/timer.h"

extern char **environ;

/* Open dev the way a bench does; *ctx_out must be closed by the caller. */
static int dv_open(const char *dev, struct ibv_context **ctx_out)
{
	struct ibv_device **list;
	int i, n, ret = -ENODEV;

	list = ibv_get_device_list(&n);
	if (!list)
		return -errno;
	/* a device the kernel shows but libibverbs does not list has no
	 * user-space provider (or no uverbs) */
	for (i = 0; i < n; i++) {
		if (strcmp(ibv_get_device_name(list[i]), dev))
			continue;
		*ctx_out = ibv_open_device(list[i]);
		ret = *ctx_out ? 0 : (errno ? -errno : -EIO);
		break;
	}
	ibv_free_device_list(list);
	return ret;
}

static int dv_dev_open(void *priv, const char *dev)
{
	struct ibv_context *ctx;
	int ret = dv_open(dev, &ctx);

	(void)priv;
	if (!ret)
		ibv_close_device(ctx);
	return ret;
}

static unsigned int dv_mtu_bytes(enum ibv_mtu mtu)
{
	return mtu >= IBV_MTU_256 && mtu <= IBV_MTU_4096 ? 128u << mtu : 0;
}

static int dv_port_query(void *priv, const char *dev, unsigned int port,
			 struct probe_port_attr *out)
{
	struct ibv_port_attr pa;
	struct ibv_context *ctx;
	int ret = dv_open(dev, &ctx);

	(void)priv;
	if (ret)
		return ret;
	memset(&pa, 0, sizeof(pa));
	ret = -ibv_query_port(ctx, (uint8_t)port, &pa);
	ibv_close_device(ctx);
	if (ret)
		return ret;
	out->active_mtu_bytes = dv_mtu_bytes(pa.active_mtu);
	out->max_mtu_bytes = dv_mtu_bytes(pa.max_mtu);
	return 0;
}

/* rdma_resolve_addr + rdma_resolve_route through cm.c, then let go. */
static int dv_cm_resolve(void *priv, const char *peer,
			 unsigned int timeout_ms, char *dev, size_t len,
			 unsigned int *port)
{
	struct cm_ep ep = { 0 };
	int ret;

	(void)priv;
	/* any port: only address and route are resolved, nothing connects */
	ret = cm_resolve(peer, 18515, timer_deadline_ns(timeout_ms), &ep);
	if (ret)
		return ret;
	if (ep.id->verbs)
		fs_copy(dev, len, ibv_get_device_name(ep.id->verbs->device));
	else
		ret = -ENODEV;
	*port = ep.id->port_num;
	cm_close(&ep);
	return ret;
}

void doctor_real_probe(struct probe *out)
{
	*out = (struct probe){
		.dev_open = dv_dev_open,
		.port_query = dv_port_query,
		.port_netdev = nl_port_netdev,
		.netdev_link = nl_netdev_link,
		.addrs = nl_addrs,
		.route = nl_route,
		.cm_resolve = dv_cm_resolve,
		.dcb = nl_dcb,
		/* port_rated: none yet (the PortInfo MAD needs umad): the
		 * link_rate check SKIPs on real hosts */
	};
}

int doctor_main(int argc, char **argv)
{
	struct probe real;

	doctor_real_probe(&real);
	return doctor_cli(argc, argv, environ, &real, stdout);
}
