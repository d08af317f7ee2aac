/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mem_kinds - the host kinds' allocators and releasers (mem_host.c), the
 * rows of mem.c's table of kinds; only mem.c includes this.
 */
#ifndef RDMABENCH_RDMA_MEM_KINDS_H
#define RDMABENCH_RDMA_MEM_KINDS_H

#include "rdma/mem.h"

/* Page-aligned, zeroed memory on s->numa_node (numa_alloc_onnode), else
 * anywhere (posix_memalign). 0, -ENOMEM or -EINTR (logged). */
int mem_host_pages(const struct mem_spec *s, size_t len, struct mem_buf *out);

/* --use_hugepages: whole huge pages (MAP_HUGETLB), preferring
 * s->numa_node (mbind, as numa_alloc_onnode), faulted in and zeroed.
 * 0, -ENOMEM (the pool's numbers and what to do, logged) or -EINTR. */
int mem_huge_pages(const struct mem_spec *s, size_t len, struct mem_buf *out);

/* --mmap: len bytes of s->mmap_path's pages from s->mmap_offset
 * (MAP_SHARED), zeroed: the file is written over, never created, never
 * grown; not a regular file, or one too short, is refused. 0 or -errno
 * (logged with what to do). */
int mem_mmap_pages(const struct mem_spec *s, size_t len, struct mem_buf *out);

/* Free what mem_host_pages or the mapped kinds made. */
void mem_host_release(struct mem_buf *m);

/* Zero m's bytes a chunk at a time (a stop is not held up by a large
 * buffer): the pages fault in where their policy puts them. 0, -EINTR. */
int mem_first_touch(const struct mem_buf *m);

#endif
