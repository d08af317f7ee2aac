// SPDX-License-Identifier: BSD-2-Clause
/*
 * fabric_addr - this node's own address, checked (fabric_addr.h).
 */
#include <errno.h>

#include "fabric/selfaddr.h"
#include "lib/log.h"
#include "rdma/route.h"
#include "run/fabric_addr.h"

int fabric_addr_check(const struct hostlist *hl, unsigned int rank,
		      char *use, size_t use_len)
{
	char ips[SELFADDR_MSG_MAX / 4], msg[SELFADDR_MSG_MAX];
	char ip1[ROUTE_IP_LEN] = "", dev1[ROUTE_DEV_LEN] = "";
	struct selfaddr_facts f = { .rdma_ips = ips, .rdma_ip = ip1,
				    .rdma_dev = dev1 };
	struct route_self r;
	int ret;

	route_rdma_addrs(ips, sizeof(ips));
	route_any_rdma_addr(dev1, sizeof(dev1), ip1, sizeof(ip1));
	if (!route_self(hostlist_addr(hl, rank), &r)) {
		f.ip = r.ip;
		f.local = r.local;
		f.loopback = r.loopback;
		f.owner = r.owner;
	}
	ret = selfaddr_check(hl, rank, &f, use, use_len, msg, sizeof(msg));
	if (ret)
		bench_err("%s", msg);
	else
		bench_info("this node's address: %s", msg);
	return ret;
}
