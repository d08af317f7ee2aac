// SPDX-License-Identifier: BSD-2-Clause
/*
 * fabric_addr - this node's own address, checked (fabric_addr.h).
 */
#include "fabric/live/fabric_addr.h"

#include <errno.h>

#include "fabric/selfaddr.h"
#include "lib/log.h"
#include "rdma/route.h"

int fabric_addr_check(const struct hostlist *hl, unsigned int rank,
		      char *use, size_t use_len)
{
	char ips[SELFADDR_MSG_MAX / 4], msg[SELFADDR_MSG_MAX];
	struct route_rdma_addr first;
	struct selfaddr_facts f = { .rdma_ips = ips, .rdma_ip = first.ip,
				    .rdma_dev = first.dev };
	struct route_self r;
	int ret;

	route_rdma_addrs(ips, sizeof(ips), &first);
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
