// SPDX-License-Identifier: BSD-2-Clause
#define _GNU_SOURCE /* dladdr */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "rdma/dev.h"
#include "host/devnode.h"
#include "lib/log.h"

#define DEV_SYSFS "/sys"

unsigned int dev_mtu_bytes(enum ibv_mtu mtu)
{
	return mtu >= IBV_MTU_256 && mtu <= IBV_MTU_4096 ? 128u << mtu : 0;
}

static enum wire_data_kind dev_kind_of(struct ibv_context *ctx,
				       const struct ibv_port_attr *pa)
{
	if (ctx->device->transport_type == IBV_TRANSPORT_IWARP)
		return WIRE_DATA_IWARP;
	return pa->link_layer == IBV_LINK_LAYER_ETHERNET ? WIRE_DATA_ROCE :
							    WIRE_DATA_IB;
}

const char *dev_kind_name(enum wire_data_kind kind)
{
	static const char *const names[] = {
		[WIRE_DATA_ANY] = "any", [WIRE_DATA_IB] = "IB",
		[WIRE_DATA_ROCE] = "RoCE", [WIRE_DATA_IWARP] = "iWARP",
	};

	return kind <= WIRE_DATA_IWARP ? names[kind] : "?";
}

enum wire_data_kind dev_kind(struct ibv_context *ctx, uint8_t port)
{
	struct ibv_port_attr pa = { .link_layer = IBV_LINK_LAYER_INFINIBAND };

	ibv_query_port(ctx, port, &pa);
	return dev_kind_of(ctx, &pa);
}

static const char *dev_transport(struct ibv_context *ctx,
				 const struct ibv_port_attr *pa)
{
	return dev_kind_name(dev_kind_of(ctx, pa));
}

/* the kernel drivers' vendor ids (RXE_VENDOR_ID, SIW_VENDOR_ID) */
#define DEV_VENDOR_RXE 0xffffff
#define DEV_VENDOR_SIW 0x626d74

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
	/* the node the placement and ib_doctor see, by their one rule */
	devnode_rdma(DEV_SYSFS, out->name, &out->numa_node);
	out->max_qp_wr = (uint32_t)da.max_qp_wr;
	out->max_init_rd_atom = dev_rd_atom_u8((uint64_t)da.max_qp_init_rd_atom);
	out->has_atomics = da.atomic_cap != IBV_ATOMIC_NONE;
	out->software = da.vendor_id == DEV_VENDOR_RXE ||
			da.vendor_id == DEV_VENDOR_SIW;
	out->link_layer = pa.link_layer == IBV_LINK_LAYER_ETHERNET ?
		"Ethernet" : "InfiniBand";
	out->active_speed = pa.active_speed;
	out->active_width = pa.active_width;
#ifdef RDMABENCH_HAVE_ACTIVE_SPEED_EX
	/* rdma-core >= 48 (build-time probe): XDR is only reported here */
	out->active_speed_ex = pa.active_speed_ex;
#endif
	return 0;
}

static const char *dev_gid_type_name(const struct dev_info *dev,
				     uint32_t type)
{
	if (!strcmp(dev->transport, "iWARP"))
		return "";	/* iWARP GIDs carry no type */
	if (type == IBV_GID_TYPE_ROCE_V2)
		return "RoCE v2";
	return strcmp(dev->transport, "RoCE") ? "IB" : "RoCE v1";
}

int dev_qp_path(struct ibv_qp *qp, const struct dev_info *dev,
		struct dev_qp_path *out)
{
	struct ibv_qp_init_attr init;
	struct ibv_gid_entry entry;
	struct ibv_qp_attr qa;
	int ret;

	memset(out, 0, sizeof(*out));
	out->gid_index = -1;
	/* positive errno from ibv_query_qp */
	ret = ibv_query_qp(qp, &qa, IBV_QP_AV | IBV_QP_PATH_MTU |
			   IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			   IBV_QP_RNR_RETRY, &init);
	if (ret)
		return -ret;
	out->path_mtu_bytes = dev_mtu_bytes(qa.path_mtu);
	out->has_attr = true;
	out->traffic_class = qa.ah_attr.is_global ?
			     qa.ah_attr.grh.traffic_class : 0;
	out->sl = qa.ah_attr.sl;
	out->timeout = qa.timeout;
	out->retry_cnt = qa.retry_cnt;
	out->rnr_retry = qa.rnr_retry;
	/* no GRH: LIDs route, the port's own GID (index 0) names it */
	out->gid_index = qa.ah_attr.is_global ? qa.ah_attr.grh.sgid_index : 0;
	ret = ibv_query_gid_ex(qp->context, dev->port, out->gid_index, &entry,
			       0);
	if (ret) {
		out->gid_index = -1;
		return -ret;
	}
	inet_ntop(AF_INET6, entry.gid.raw, out->gid, sizeof(out->gid));
	snprintf(out->gid_type, sizeof(out->gid_type), "%s",
		 dev_gid_type_name(dev, entry.gid_type));
	if (!qa.ah_attr.is_global)
		out->gid_index = -1;
	return 0;
}

/* The IBV_ODP_SUPPORT_* bits by name, for the sentence. */
static void dev_odp_names(uint32_t bits, char *buf, size_t len)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} names[] = {
		{ IBV_ODP_SUPPORT_SEND, "SEND" },
		{ IBV_ODP_SUPPORT_RECV, "RECV" },
		{ IBV_ODP_SUPPORT_WRITE, "WRITE" },
		{ IBV_ODP_SUPPORT_READ, "READ" },
		{ IBV_ODP_SUPPORT_ATOMIC, "ATOMIC" },
		{ IBV_ODP_SUPPORT_SRQ_RECV, "SRQ_RECV" },
	};
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]) && at < len; i++)
		if (bits & names[i].bit)
			at += (size_t)snprintf(buf + at, len - at, "%s%s",
					       at ? "|" : "", names[i].name);
}

/* odp's caps of qpt (RC, UC or UD), and that transport's name. */
static uint32_t dev_odp_transport(const struct ibv_odp_caps *odp,
				  enum ibv_qp_type qpt, const char **name)
{
	*name = qpt == IBV_QPT_UD ? "UD" : qpt == IBV_QPT_UC ? "UC" : "RC";
	if (qpt == IBV_QPT_UD)
		return odp->per_transport_caps.ud_odp_caps;
	if (qpt == IBV_QPT_UC)
		return odp->per_transport_caps.uc_odp_caps;
	return odp->per_transport_caps.rc_odp_caps;
}

int dev_odp_check(struct ibv_context *ctx, enum ibv_qp_type qpt, uint32_t need,
		  struct log_why *why)
{
	const char *dev = ibv_get_device_name(ctx->device), *tname;
	struct ibv_device_attr_ex da;
	char lacks[64];
	uint32_t has;
	int ret;

	memset(&da, 0, sizeof(da));
	ret = ibv_query_device_ex(ctx, NULL, &da);
	if (ret) {
		bench_err_why(why,
			      "--odp: cannot query %s for on-demand "
			      "paging (ibv_query_device_ex: %s): drop --odp to "
			      "register the buffers up front",
			      dev, strerror(ret));
		return -ret;
	}
	has = dev_odp_transport(&da.odp_caps, qpt, &tname);
	if (!(da.odp_caps.general_caps & IBV_ODP_SUPPORT))
		has = 0;
	if ((has & need) == need)
		return 0;
	dev_odp_names(need & ~has, lacks, sizeof(lacks));
	bench_err_why(why,
		      "--odp: %s has %s on-demand paging for %s "
		      "(ibv_query_device_ex odp_caps: general 0x%llx, %s 0x%x; "
		      "this test needs %s): drop --odp to register the buffers "
		      "up front (pinned), or run on a device whose driver "
		      "pages on demand (mlx5, for one)",
		      dev, has ? "partial" : "no", tname,
		      (unsigned long long)da.odp_caps.general_caps, tname,
		      dev_odp_transport(&da.odp_caps, qpt, &tname), lacks);
	return -EOPNOTSUPP;
}

int dev_libibverbs_path(char *buf, size_t len)
{
	char real[PATH_MAX];
	Dl_info info;

	if (!dladdr((void *)ibv_get_device_list, &info) || !info.dli_fname ||
	    !realpath(info.dli_fname, real) ||
	    (size_t)snprintf(buf, len, "%s", real) >= len) {
		if (len)
			buf[0] = '\0';
		return -ENOENT;
	}
	return 0;
}
