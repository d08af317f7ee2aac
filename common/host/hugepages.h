/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hugepages - the kernel's pool of huge pages (/proc/meminfo's HugePages_*
 * and Hugepagesize), for --use_hugepages: the size a mapping is rounded
 * to, and the sentence when the pool cannot hold a buffer (how many pages
 * are free, /proc/sys/vm/nr_hugepages to raise, the pod's hugepages-2Mi
 * resource in Kubernetes).
 *
 * Pure: reads ROOT/proc/meminfo through lib/fs.c; root "/" is the real
 * machine, tests plant a fake tree.
 */
#ifndef RDMABENCH_HOST_HUGEPAGES_H
#define RDMABENCH_HOST_HUGEPAGES_H

#include <stddef.h>
#include <stdint.h>

#define HUGEPAGES_MSG_MAX 512

struct hugepages {
	uint64_t page_bytes; /* Hugepagesize: the default size; 0 unknown */
	uint64_t total; /* HugePages_Total: the pool */
	uint64_t free; /* HugePages_Free: not faulted in */
	uint64_t rsvd; /* HugePages_Rsvd: promised to mappings */
};

/*
 * Read the pool under root. 0, or -errno (-ENOENT: no /proc/meminfo or a
 * kernel without hugetlb); on error *out is all zero. Not logged.
 */
int hugepages_read(const char *root, struct hugepages *out);

/* len rounded up to whole huge pages of hp (len itself when unknown). */
uint64_t hugepages_round(const struct hugepages *hp, uint64_t len);

/* Kubernetes' resource name of the page size: "hugepages-2Mi". */
void hugepages_k8s_name(uint64_t page_bytes, char *buf, size_t len);

/*
 * The sentence after a mapping of want bytes of huge pages failed: the
 * pages it needs, how many the pool has free (free less reserved), and
 * what to do (nr_hugepages, the pod's resource, or drop the flag).
 */
void hugepages_why(const struct hugepages *hp, uint64_t want, char *buf,
		   size_t len);

#endif
