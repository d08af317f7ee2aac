/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rails - what --rails names: "auto" (every ACTIVE port of every RDMA
 * device, host/ports.h) or a list "NAME[:PORT][@NODE],..." where NAME is
 * an RDMA device or a netdev, PORT the device port (1) and NODE the NUMA
 * node to pin the rail to when the kernel does not know the NIC's (rxe,
 * siw, a VM without _PXM). Rail i is served on --port + i. Pure: no verbs
 * headers, no I/O but the sysfs read of rails_auto().
 */
#ifndef RDMABENCH_SPEC_RAILS_H
#define RDMABENCH_SPEC_RAILS_H

#include <stdbool.h>
#include <stddef.h>

#include "host/ports.h"

#define RAILS_MAX 16
#define RAILS_NAME_MAX 64

struct rails_item {
	char name[RAILS_NAME_MAX]; /* RDMA device or netdev */
	unsigned int port;         /* device port; 0: the default (-i) */
	int node;                  /* NUMA node asked for; -1: the NIC's */
};

struct rails {
	bool is_auto;              /* "auto": rails_auto() fills items */
	size_t n;
	struct rails_item items[RAILS_MAX];
};

/*
 * Parse text into *out. Returns 0, or -EINVAL with a message naming the
 * item that is wrong and what to write instead in err.
 */
int rails_parse(const char *text, struct rails *out, char *err,
		size_t err_len);

/*
 * --rails auto: one rail per ACTIVE port under sysfs_root. Returns 0, or
 * -ENODEV with a message in err when there is none.
 */
int rails_auto(const char *sysfs_root, struct rails *r, char *err,
	       size_t err_len);

#endif
