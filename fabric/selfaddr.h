/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * selfaddr - which address this node's peers use for its links, decided
 * on the node itself before a fabric run. The tools pick their data
 * device by the route to that address, so it must be one an RDMA device
 * owns. A node named by a management hostname (eth0, /etc/hosts's
 * 127.0.1.1) is reached at its first RDMA interface's address, found
 * here and handed to the peers through the barrier (the name only meets
 * rank 0), and said so. An ADDRESS written in a hosts file is the user's
 * choice: one no RDMA device owns is refused with the fix, never silently
 * replaced; so is an entry that is another node's or does not resolve.
 * Pure: the facts are gathered by the caller (fabric/live/fabric_addr.c).
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
	const char *rdma_ip;     /* the first of them; "": none */
	const char *rdma_dev;    /* and its device */
};

/*
 * Judge node rank's entry of hl by f. Returns 0 with the address its
 * peers are to use in use (use_len bytes) and what was found in msg
 * ("node-03 (192.168.1.3) is on mlx5_0"), or -EINVAL with why and what to
 * write instead in msg. Every node on one loopback address (a test on one
 * machine) passes: no peer is elsewhere.
 */
int selfaddr_check(const struct hostlist *hl, unsigned int rank,
		   const struct selfaddr_facts *f, char *use, size_t use_len,
		   char *msg, size_t len);

#endif
