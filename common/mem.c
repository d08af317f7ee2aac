// SPDX-License-Identifier: BSD-2-Clause
#include <errno.h>
#include <numa.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "mem.h"

int mem_host_alloc(size_t len, int numa_node, struct mem_buf *out)
{
	void *addr = NULL;

	memset(out, 0, sizeof(*out));
	out->numa_node = -1;
	if (numa_node >= 0 && numa_available() >= 0) {
		/* numa_alloc_onnode maps whole pages: page-aligned */
		addr = numa_alloc_onnode(len, numa_node);
		if (addr) {
			out->from_numa = true;
			out->numa_node = numa_node;
		}
	}
	if (!addr &&
	    posix_memalign(&addr, (size_t)sysconf(_SC_PAGESIZE), len)) {
		bench_err("cannot allocate a %zu-byte buffer", len);
		return -ENOMEM;
	}
	memset(addr, 0, len);
	out->addr = addr;
	out->len = len;
	return 0;
}

int mem_register(struct mem_buf *m, struct ibv_pd *pd, int access)
{
	int ret;

	m->mr = ibv_reg_mr(pd, m->addr, m->len, IBV_ACCESS_LOCAL_WRITE | access);
	if (!m->mr) {
		ret = -errno;
		bench_err("ibv_reg_mr(%zu bytes): %s%s", m->len, strerror(-ret),
			  ret == -ENOMEM || ret == -EFAULT ?
			  " (check 'ulimit -l': registered memory is locked)" :
			  "");
		return ret;
	}
	return 0;
}

void mem_free(struct mem_buf *m)
{
	if (m->mr && ibv_dereg_mr(m->mr))
		bench_warn("ibv_dereg_mr: %s", strerror(errno));
	m->mr = NULL;
	if (!m->addr)
		return;
	if (m->from_numa)
		numa_free(m->addr, m->len);
	else
		free(m->addr);
	m->addr = NULL;
}
