/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ports - the RDMA ports of this machine whose state is ACTIVE, read from
 * sysfs (/sys/class/infiniband/DEV/ports/N/state, "4: ACTIVE") under a
 * root that tests point at a fixture tree. Pure: no verbs headers.
 * --rails auto takes one rail per entry.
 */
#ifndef RDMABENCH_HOST_PORTS_H
#define RDMABENCH_HOST_PORTS_H

#include <stddef.h>

#define PORTS_NAME_MAX 64

struct ports_entry {
	char dev[PORTS_NAME_MAX];
	unsigned int port;
};

/*
 * Fill out[0..max) with the ACTIVE ports, devices in version order
 * (mlx5_2 before mlx5_10), then ports in order. Returns how many were
 * found (at most max), 0 when there are none or no RDMA class at all.
 */
size_t ports_active(const char *sysfs_root, struct ports_entry *out,
		    size_t max);

#endif
