/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fabric_addr - before ib_fabric's run, this node checks the address its
 * peers will use (fabric/selfaddr.h, facts from rdma/route.h): its own
 * host list entry must resolve here to an address an RDMA device owns.
 */
#ifndef RDMABENCH_FABRIC_ADDR_H
#define RDMABENCH_FABRIC_ADDR_H

#include "fabric/hostlist.h"

/* Returns 0 (what was found logged) or -EINVAL (the refusal logged). */
int fabric_addr_check(const struct hostlist *hl, unsigned int rank);

#endif
