// SPDX-License-Identifier: BSD-2-Clause
/*
 * dev_open - picking the device and GID without rdma_cm (--oob tcp).
 * With rdma_cm both follow from the IP in use; here they follow from -d,
 * --netdev (pods: device names are not stable, interface names are) and
 * -x, or the best RoCEv2 GID, and the choice is printed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include "rdma/dev.h"
#include "host/netdev.h"
#include "lib/log.h"

#define DEV_SYSFS "/sys"

/* --netdev: the device and port that carry it (host/netdev.h's rule). */
static int dev_of_netdev(const char *netdev, char *want, size_t len,
			 uint8_t *port, struct log_why *why)
{
	unsigned int num;

	if (netdev_find_port(DEV_SYSFS, netdev, want, len, &num) ||
	    num > UINT8_MAX) {
		bench_err_why(why, "--netdev %s: no RDMA device carries this "
			      "interface (see ib_doctor, or use -d)", netdev);
		return -EINVAL;
	}
	if (port)
		*port = (uint8_t)num;
	return 0;
}

int dev_open(const char *dev, const char *netdev, struct ibv_context **out,
	     uint8_t *port, struct log_why *why)
{
	struct ibv_device **list;
	char want[64] = "";
	int i, n, ret = -ENODEV;

	if (dev && dev[0])
		snprintf(want, sizeof(want), "%s", dev);
	else if (netdev && netdev[0] &&
		 dev_of_netdev(netdev, want, sizeof(want), port, why))
		return -EINVAL;
	list = ibv_get_device_list(&n);
	if (!list || !n) {
		bench_err_why(why, "no RDMA device on this host "
			      "(ibv_get_device_list found none): check "
			      "ib_doctor");
		if (list)
			ibv_free_device_list(list);
		return -ENODEV;
	}
	for (i = 0; i < n && ret; i++) {
		if (want[0] && strcmp(ibv_get_device_name(list[i]), want))
			continue;
		*out = ibv_open_device(list[i]);
		ret = *out ? 0 : -errno;
		if (ret)
			bench_err_why(why, "ibv_open_device(%s): %s",
				      ibv_get_device_name(list[i]),
				      strerror(-ret));
	}
	if (ret == -ENODEV)
		bench_err_why(why, "-d %s: no such RDMA device (this host has "
			      "%s%s)", want, ibv_get_device_name(list[0]),
			      n > 1 ? " and others: ibv_devices lists them" :
			      "");
	ibv_free_device_list(list);
	return ret == -ENODEV ? -EINVAL : ret;
}

/* The first ACTIVE port of ctx of kind want; 0 when none. */
static uint8_t dev_active_port(struct ibv_context *ctx,
			       enum wire_data_kind want)
{
	struct ibv_device_attr da;
	struct ibv_port_attr pa;
	uint8_t p;

	if (ibv_query_device(ctx, &da))
		return 0;
	for (p = 1; p <= da.phys_port_cnt; p++)
		if (!ibv_query_port(ctx, p, &pa) &&
		    pa.state == IBV_PORT_ACTIVE &&
		    (want == WIRE_DATA_ANY || dev_kind(ctx, p) == want))
			return p;
	return 0;
}

int dev_open_first_active(enum wire_data_kind want, char *name, size_t len,
			  uint8_t *port)
{
	struct ibv_device **list;
	struct ibv_context *ctx;
	int i, n, ret = -ENODEV;

	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n && ret; i++) {
		ctx = ibv_open_device(list[i]);
		if (!ctx)
			continue;
		*port = dev_active_port(ctx, want);
		if (*port) {
			snprintf(name, len, "%s", ibv_get_device_name(list[i]));
			ret = 0;
		}
		ibv_close_device(ctx);
	}
	if (list)
		ibv_free_device_list(list);
	return ret;
}

int dev_open_check_active(struct ibv_context *ctx, uint8_t port)
{
	struct ibv_port_attr pa;
	int ret = ibv_query_port(ctx, port, &pa);

	if (!ret && pa.state == IBV_PORT_ACTIVE)
		return 0;
	bench_err("%s port %u is %s: bring its link up ('rdma link', "
		  "ib_doctor), or name another device with -d",
		  ibv_get_device_name(ctx->device), port,
		  ret ? strerror(ret) : ibv_port_state_str(pa.state));
	return -ENETDOWN;
}

/* How good a GID entry is for RoCE: 3 v2 IPv4-mapped, 2 v2, 0 unusable. */
static int dev_gid_rank(const struct ibv_gid_entry *e, unsigned int ifindex)
{
	static const uint8_t v4mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0,
					      0, 0, 0xff, 0xff };

	if (e->gid_type != IBV_GID_TYPE_ROCE_V2)
		return 0;
	if (ifindex && e->ndev_ifindex != ifindex)
		return 0;
	return memcmp(e->gid.raw, v4mapped, 12) ? 2 : 3;
}

int dev_open_pick_gid(struct ibv_context *ctx, uint8_t port, int want,
		 const char *netdev, int *index_out, char *text, size_t len)
{
	unsigned int ifindex = netdev && netdev[0] ? if_nametoindex(netdev) : 0;
	struct ibv_gid_entry e, best = { 0 };
	struct ibv_port_attr pa;
	int i, rank, best_rank = 0;

	if (ibv_query_port(ctx, port, &pa))
		return -EIO;
	if (want > UINT8_MAX) {
		bench_err("-x %d: %s port %u has %d GID entries, and an address "
			  "handle names 0..255: give -x 0..%d (ibv_devinfo -v "
			  "lists them)", want, ibv_get_device_name(ctx->device),
			  port, pa.gid_tbl_len,
			  pa.gid_tbl_len < 256 ? pa.gid_tbl_len - 1 : 255);
		return -EINVAL;
	}
	if (want < 0 && pa.link_layer != IBV_LINK_LAYER_ETHERNET) {
		*index_out = -1; /* InfiniBand: the LID routes */
		snprintf(text, len, "none (InfiniBand, LID %u)", pa.lid);
		return 0;
	}
	for (i = 0; i < pa.gid_tbl_len; i++) {
		if (ibv_query_gid_ex(ctx, port, (uint32_t)i, &e, 0))
			continue;
		rank = want >= 0 ? (i == want) * 4 : dev_gid_rank(&e, ifindex);
		if (rank > best_rank) {
			best = e;
			best_rank = rank;
		}
	}
	if (!best_rank) {
		bench_err("%s port %u: %s (use -x with an index ibv_devinfo -v "
			  "lists, or --netdev)", ibv_get_device_name(ctx->device),
			  port, want >= 0 ? "no such GID index" :
			  "no RoCEv2 GID (is an IP address on its interface?)");
		return -EINVAL;
	}
	*index_out = (int)best.gid_index;
	inet_ntop(AF_INET6, best.gid.raw, text, (socklen_t)len);
	return 0;
}
