/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fabric_addr - before ib_fabric's run, this node decides the address its
 * peers will use for its links (fabric/selfaddr.h, facts from
 * rdma/route.h): its host list entry where an RDMA device owns it, else
 * (a name on a management interface) its first RDMA interface's address.
 */
#ifndef RDMABENCH_FABRIC_LIVE_FABRIC_ADDR_H
#define RDMABENCH_FABRIC_LIVE_FABRIC_ADDR_H

#include <stddef.h>

#include "fabric/hostlist.h"

/*
 * Returns 0 with the address in use (use_len bytes; what was found
 * logged) or -EINVAL (the refusal logged).
 */
int fabric_addr_check(const struct hostlist *hl, unsigned int rank,
		      char *use, size_t use_len);

#endif
