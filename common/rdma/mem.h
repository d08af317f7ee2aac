/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mem - the buffers RDMA moves, one allocator over a table of kinds (mem.c):
 * host memory on a NUMA node, huge pages on it (--use_hugepages), a file's
 * pages (--mmap), or GPU memory (CUDA, through gpu/cuda_drv.h) registered
 * through nvidia-peermem or dmabuf; their registration (pinned, or on
 * demand with --odp), and the --validate pattern written and checked in
 * place (on the GPU for GPU memory).
 *
 * For GPU memory, addr holds the device address: valid in work requests,
 * rkeys and the peer's RDMA addresses (CUDA's unified addressing), NEVER
 * for the CPU to read or write. Use mem_is_host() before touching bytes,
 * and mem_zero()/mem_fill()/mem_check(), which work for both.
 */
#ifndef RDMABENCH_RDMA_MEM_H
#define RDMABENCH_RDMA_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#include "lib/log.h"
#include "lib/pattern.h"

enum mem_kind {
	MEM_HOST = 0,    /* malloc/numa_alloc_onnode; ibv_reg_mr */
	MEM_CUDA,        /* cuMemAlloc; ibv_reg_mr through nvidia-peermem */
	MEM_CUDA_DMABUF, /* cuMemAlloc; dmabuf fd, ibv_reg_dmabuf_mr */
	MEM_HUGEPAGES,   /* mmap MAP_HUGETLB, mbind to the node; ibv_reg_mr */
	MEM_MMAP,        /* a regular file's pages, MAP_SHARED; ibv_reg_mr */
	MEM_KIND_COUNT,
};

struct mem_spec {
	enum mem_kind kind;
	int numa_node;           /* host kinds: node of the pages, -1: any */
	int cuda_index;              /* GPU kinds: CUDA ordinal (--use_cuda=N) */
	const char *cuda_bus_id; /* or its PCI address ("0000:3b:00.0") */
	struct log_why *why;     /* a registration error's sentence is kept
				  * here (the run's reason); NULL: none */
	const char *mmap_path;   /* MEM_MMAP: the file (--mmap), never made */
	uint64_t mmap_offset;    /* MEM_MMAP: where in it (--mmap-offset) */
	bool odp;                /* host kinds: registered on demand (--odp,
				  * IBV_ACCESS_ON_DEMAND): nothing pinned */
};

struct cuda_ctx;

struct mem_buf {
	enum mem_kind kind;
	void *addr;          /* host: the bytes; GPU: the device address */
	size_t len;
	int numa_node;       /* host: where placed, -1: not pinned;
			      * GPU: the GPU's node, -1: unknown */
	bool from_numa;      /* host: freed with numa_free() */
	size_t map_len;      /* mapped kinds: the mapping's length (whole
			      * huge pages), for munmap */
	size_t page_bytes;   /* MEM_HUGEPAGES: the huge page size */
	const char *map_path; /* MEM_MMAP: the file, and the offset */
	uint64_t map_offset;
	bool odp;            /* the spec's: registered on demand */
	struct ibv_mr *mr;
	struct cuda_ctx *cuda; /* GPU kinds: the GPU it lives on */
	uint64_t dptr;         /* GPU kinds: == (uintptr_t)addr */
	int dmabuf_fd;         /* MEM_CUDA_DMABUF once registered */
	bool has_dmabuf_fd;
	struct log_why *why;   /* the spec's: where mem_register's error goes */
};

/*
 * Allocate len bytes of s->kind memory, page-aligned and zeroed. Host and
 * huge pages: on s->numa_node (warns and falls back when NUMA calls are
 * refused; huge pages: -ENOMEM with the pool's numbers); GPU:
 * opens the GPU, and for dmabuf checks that it can export one. Returns 0
 * or -errno (logged, with what to do): -ENOMEM, -ENOSYS (no CUDA driver),
 * -ENODEV (no such GPU), -EOPNOTSUPP (no dmabuf on this GPU).
 */
int mem_alloc(const struct mem_spec *s, size_t len, struct mem_buf *out);

/*
 * --mmap before the session: is path a regular file this process can read
 * and write, and offset a page multiple? 0 or -errno (logged, kept in why,
 * with what to do); its size is checked when the buffers are made.
 */
int mem_mmap_probe(const char *path, uint64_t offset, struct log_why *why);

/* mem_alloc of MEM_HOST memory on numa_node (-1: anywhere). */
int mem_host_alloc(size_t len, int numa_node, struct mem_buf *out);

/*
 * Register m with pd for local write and the remote access given. Host:
 * checks RLIMIT_MEMLOCK/CAP_IPC_LOCK first and fails with the numbers and
 * the fix; MEM_CUDA: ibv_reg_mr on the device address, refused up front
 * when nvidia_peermem is not loaded; MEM_CUDA_DMABUF: exports the buffer
 * and calls ibv_reg_dmabuf_mr (iova = the device address). Returns 0 or
 * -errno (logged).
 */
int mem_register(struct mem_buf *m, struct ibv_pd *pd, int access);

/* Deregister (when registered) and free; accepts a partly built buffer. */
void mem_free(struct mem_buf *m);

/* Can the CPU read and write m's bytes (every kind but GPU memory)? */
bool mem_is_host(const struct mem_buf *m);

/* The same question of a kind. */
bool mem_kind_cpu(enum mem_kind kind);

/* Zero len bytes at off. Returns 0 or -errno (logged). */
int mem_zero(struct mem_buf *m, size_t off, size_t len);

/*
 * Write the pattern of (size, iter) (lib/pattern.h) to size bytes at
 * off, on the CPU or the GPU. Returns 0 or -errno (logged).
 */
int mem_fill(struct mem_buf *m, size_t off, uint64_t size, uint64_t iter);

/*
 * Check size bytes at off against the pattern of (size, iter). Returns 0,
 * -EILSEQ (not logged) with the first wrong byte in *miss, or -errno.
 */
int mem_check(struct mem_buf *m, size_t off, uint64_t size, uint64_t iter,
	      struct pattern_miss *miss);

/* For the report: "host", "hugepages (2048 kB pages)", "mmap of FILE at
 * offset N", "cuda (peermem)", "cuda (dmabuf)"; then ", on demand (ODP)"
 * when so registered. */
void mem_describe(const struct mem_buf *m, char *buf, size_t len);

#endif
