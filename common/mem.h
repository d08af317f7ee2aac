/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mem - host buffers on the device's NUMA node, and their registration.
 */
#ifndef RDMABENCH_MEM_H
#define RDMABENCH_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <infiniband/verbs.h>

struct mem_buf {
	void *addr;
	size_t len;
	int numa_node;       /* where it was placed, -1: not pinned */
	bool from_numa;      /* freed with numa_free() */
	struct ibv_mr *mr;
};

/*
 * Allocate len bytes, page-aligned and zeroed, on numa_node (-1: anywhere).
 * Returns 0 or -ENOMEM.
 */
int mem_host_alloc(size_t len, int numa_node, struct mem_buf *out);

/* Register m with pd for local write and the remote access given. */
int mem_register(struct mem_buf *m, struct ibv_pd *pd, int access);

/* Deregister (when registered) and free; accepts a partly built buffer. */
void mem_free(struct mem_buf *m);

#endif
