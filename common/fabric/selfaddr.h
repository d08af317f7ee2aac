/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * selfaddr - is the address this node's peers will use (its host list
 * entry: ADDRESS, else the name) its RDMA interface's? Checked on the node
 * itself before a fabric run: the tools pick their data device by the
 * route to that address, so a management hostname (eth0, the BMC network,
 * /etc/hosts's 127.0.1.1) would put every link's rendezvous, and for
 * rdma_cm the data, on the wrong link. Such an address is refused with
 * the fix (the RDMA interfaces' addresses found here), never silently
 * used. Pure: the facts are gathered by the caller (run/fabric_addr.c).
 */
#ifndef RDMABENCH_FABRIC_SELFADDR_H
#define RDMABENCH_FABRIC_SELFADDR_H

#include <stdbool.h>
#include <stddef.h>

#include "fabric/hostlist.h"

#define SELFADDR_MSG_MAX 768

/* What this node found out about its own entry. */
struct selfaddr_facts {
	const char *ip;          /* what the entry resolves to; NULL: nothing */
	bool local;              /* ip is an address of this node */
	bool loopback;           /* ip is 127.0.0.0/8 or ::1 */
	const char *owner;       /* the RDMA device owning ip; "": none */
	const char *rdma_ips;    /* this node's RDMA interfaces' addresses,
				  * "mlx5_0 192.168.1.3, ..."; "": none */
};

/*
 * Judge node rank's entry of hl by f. Returns 0 with what was found in
 * msg ("node-03 (192.168.1.3) is on mlx5_0"), or -EINVAL with why and
 * what to write instead. Every node on one loopback address (a test on
 * one machine) passes: no peer is elsewhere.
 */
int selfaddr_check(const struct hostlist *hl, unsigned int rank,
		   const struct selfaddr_facts *f, char *msg, size_t len);

#endif
