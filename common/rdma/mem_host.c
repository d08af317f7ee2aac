// SPDX-License-Identifier: BSD-2-Clause
/*
 * mem_host - the host kinds of mem.c's table: page-aligned memory on a
 * NUMA node, and huge pages (--use_hugepages); their release.
 */
#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/hugepages.h"
#include "lib/log.h"
#include "lib/stop.h"
#include "rdma/mem_kinds.h"

#define MEM_PROC_ROOT "/"
/* First touch in chunks, so that a stop (SIGTERM) is not held up by a
 * large buffer: the pages land on the node. */
#define MEM_TOUCH_CHUNK (32ULL << 20)
/* the size when /proc/meminfo does not say (x86-64's, arm64's 4K) */
#define MEM_HUGE_DEFAULT (2ULL << 20)
#define MEM_NODE_BITS 1024 /* --numa takes 0..1023 */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

int mem_first_touch(const struct mem_buf *m)
{
	size_t off, n;

	for (off = 0; off < m->len; off += n) {
		if (stop_flag)
			return -EINTR;
		n = m->len - off < MEM_TOUCH_CHUNK ? m->len - off :
						     MEM_TOUCH_CHUNK;
		memset((uint8_t *)m->addr + off, 0, n);
	}
	return 0;
}

/* containers' default seccomp profile allows the NUMA calls only with
 * CAP_SYS_NICE: numa_available() then fails. True when it does. */
static bool mem_numa_refused(int node)
{
	if (numa_available() >= 0)
		return false;
	bench_warn("cannot bind the buffer to NUMA node %d (the NUMA system "
		   "calls are refused): it goes wherever the kernel places "
		   "it; in a container, add the SYS_NICE capability",
		   node);
	return true;
}

int mem_host_pages(const struct mem_spec *s, size_t len, struct mem_buf *out)
{
	void *addr = NULL;

	if (s->numa_node >= 0 && !mem_numa_refused(s->numa_node)) {
		/* numa_alloc_onnode maps whole pages: page-aligned */
		addr = numa_alloc_onnode(len, s->numa_node);
		if (addr) {
			out->from_numa = true;
			out->numa_node = s->numa_node;
		} else {
			bench_warn("cannot allocate %zu bytes on NUMA node %d: "
				   "the buffer goes wherever the kernel "
				   "places it (numactl -H shows free memory "
				   "per node)",
				   len, s->numa_node);
		}
	}
	if (!addr &&
	    posix_memalign(&addr, (size_t)sysconf(_SC_PAGESIZE), len)) {
		bench_err("cannot allocate a %zu-byte buffer: free memory, or "
			  "use a smaller -s",
			  len);
		return -ENOMEM;
	}
	out->addr = addr;
	out->len = len;
	if (!mem_first_touch(out))
		return 0;
	mem_host_release(out); /* stopped meanwhile */
	return -EINTR;
}

/* Prefer s->numa_node for m's huge pages, as numa_alloc_onnode does
 * (MPOL_PREFERRED: another node's page rather than none). */
static void mem_huge_bind(const struct mem_spec *s, struct mem_buf *m)
{
	unsigned long mask[MEM_NODE_BITS / (8 * sizeof(unsigned long))] = { 0 };
	unsigned int node = (unsigned int)s->numa_node;
	unsigned int w = 8 * sizeof(unsigned long);

	if (s->numa_node < 0 || node >= MEM_NODE_BITS ||
	    mem_numa_refused(s->numa_node))
		return;
	mask[node / w] |= 1UL << (node % w);
	/* maxnode + 1: the kernel reads maxnode - 1 bits, as libnuma's */
	if (mbind(m->addr, m->map_len, MPOL_PREFERRED, mask, MEM_NODE_BITS + 1,
		  0)) {
		bench_warn("cannot bind the huge pages to NUMA node %d "
			   "(mbind: %s): they go wherever the kernel places "
			   "them",
			   s->numa_node, strerror(errno));
		return;
	}
	m->numa_node = s->numa_node;
}

/*
 * Fault every huge page in now: a hugetlb cgroup limit (a pod's
 * hugepages-2Mi) is charged at the fault, where a plain touch would get
 * SIGBUS; MADV_POPULATE_WRITE returns the error instead. Kernels before
 * 5.14 lack it: the touch then. Fresh huge pages are zero. 0 or -errno.
 */
static int mem_huge_populate(const struct mem_buf *m)
{
	size_t chunk = MEM_TOUCH_CHUNK > m->page_bytes ? MEM_TOUCH_CHUNK :
							 m->page_bytes;
	size_t off, n;

	for (off = 0; off < m->map_len; off += n) {
		if (stop_flag)
			return -EINTR;
		n = m->map_len - off < chunk ? m->map_len - off : chunk;
		if (!madvise((uint8_t *)m->addr + off, n, MADV_POPULATE_WRITE))
			continue;
		if (errno == EINVAL && !off)
			return mem_first_touch(m);
		return -errno;
	}
	return 0;
}

/* The sentence of a failed mapping or fault of want bytes: ret. */
static int mem_huge_err(const struct mem_spec *s, uint64_t want, int ret)
{
	struct hugepages hp;
	char why[HUGEPAGES_MSG_MAX];

	if (ret == -EINTR)
		return ret;
	if (ret != -ENOMEM && ret != -EFAULT) {
		bench_err_why(s->why,
			      "--use_hugepages: cannot map %llu bytes "
			      "of huge pages: %s: does this kernel have "
			      "hugetlbfs (CONFIG_HUGETLBFS)? Drop "
			      "--use_hugepages",
			      (unsigned long long)want, strerror(-ret));
		return ret;
	}
	if (hugepages_read(MEM_PROC_ROOT, &hp))
		hp = (struct hugepages){ .page_bytes = MEM_HUGE_DEFAULT };
	hugepages_why(&hp, want, why, sizeof(why));
	bench_err_why(s->why,
		      "--use_hugepages: cannot get %llu bytes of huge "
		      "pages (%s): %s",
		      (unsigned long long)want, strerror(-ret), why);
	return -ENOMEM;
}

int mem_huge_pages(const struct mem_spec *s, size_t len, struct mem_buf *out)
{
	struct hugepages hp;
	void *addr;
	int ret;

	if (hugepages_read(MEM_PROC_ROOT, &hp) || !hp.page_bytes)
		hp.page_bytes = MEM_HUGE_DEFAULT;
	out->page_bytes = hp.page_bytes;
	out->map_len = hugepages_round(&hp, len);
	addr = mmap(NULL, out->map_len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (addr == MAP_FAILED) {
		ret = -errno;
		out->map_len = 0;
		return mem_huge_err(s, hugepages_round(&hp, len), ret);
	}
	out->addr = addr;
	out->len = len;
	mem_huge_bind(s, out);
	ret = mem_huge_populate(out);
	if (!ret)
		return 0;
	ret = mem_huge_err(s, out->map_len, ret);
	mem_host_release(out);
	return ret;
}

void mem_host_release(struct mem_buf *m)
{
	if (m->addr && m->map_len)
		munmap(m->addr, m->map_len);
	else if (m->addr && m->from_numa)
		numa_free(m->addr, m->len);
	else
		free(m->addr);
	m->addr = NULL;
	m->map_len = 0;
	m->from_numa = false;
}

/* "a directory", "a character device", ... of st_mode's type. */
static const char *mem_file_type(mode_t mode)
{
	static const struct {
		mode_t type;
		const char *name;
	} types[] = {
		{ S_IFDIR, "a directory" },
		{ S_IFCHR, "a character device" },
		{ S_IFBLK, "a block device" },
		{ S_IFIFO, "a FIFO" },
		{ S_IFSOCK, "a socket" },
	};
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if ((mode & S_IFMT) == types[i].type)
			return types[i].name;
	return "not a file";
}

/* Open path to map: a regular file (a device is never written over),
 * never created; offset a page multiple. The fd, or -errno (logged). */
static int mem_mmap_open(const char *path, uint64_t offset, struct log_why *why,
			 struct stat *st)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd, ret;

	if (offset % (uint64_t)page) {
		bench_err_why(why,
			      "--mmap-offset %llu is not a multiple of "
			      "the page size (%ld bytes): mmap(2) maps a file "
			      "from a page boundary: give a multiple of %ld",
			      (unsigned long long)offset, page, page);
		return -EINVAL;
	}
	/* O_NONBLOCK: a FIFO's open does not wait for a writer */
	fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		bench_err_why(why,
			      "--mmap %s: cannot open it to read and "
			      "write: %s: give an existing regular file (it "
			      "is never created)",
			      path, strerror(-ret));
		return ret;
	}
	if (fstat(fd, st) || !S_ISREG(st->st_mode)) {
		bench_err_why(why,
			      "--mmap %s is %s: only a regular file's "
			      "pages become the buffers (the run writes over "
			      "them): give a file",
			      path, mem_file_type(st->st_mode));
		close(fd);
		return -EINVAL;
	}
	return fd;
}

int mem_mmap_probe(const char *path, uint64_t offset, struct log_why *why)
{
	struct stat st = { 0 };
	int fd = mem_mmap_open(path, offset, why, &st);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* Does the file hold len bytes from offset? 0, or -EINVAL (logged). */
static int mem_mmap_fits(const struct mem_spec *s, const struct stat *st,
			 size_t len)
{
	uint64_t size = (uint64_t)st->st_size, end = s->mmap_offset + len;

	if (end >= s->mmap_offset && size >= end)
		return 0;
	bench_err_why(s->why,
		      "--mmap %s has %llu bytes; the buffers need "
		      "%zu bytes from offset %llu: make it at least %llu bytes "
		      "(truncate -s %llu %s: the run writes over it), or use a "
		      "smaller -s or -q",
		      s->mmap_path, (unsigned long long)size, len,
		      (unsigned long long)s->mmap_offset,
		      (unsigned long long)end, (unsigned long long)end,
		      s->mmap_path);
	return -EINVAL;
}

int mem_mmap_pages(const struct mem_spec *s, size_t len, struct mem_buf *out)
{
	struct stat st = { 0 };
	void *addr;
	int fd, ret;

	fd = mem_mmap_open(s->mmap_path, s->mmap_offset, s->why, &st);
	if (fd < 0)
		return fd;
	ret = mem_mmap_fits(s, &st, len);
	addr = ret ? MAP_FAILED :
		     mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			  (off_t)s->mmap_offset);
	if (!ret && addr == MAP_FAILED) {
		ret = -errno;
		bench_err_why(s->why,
			      "--mmap %s: mmap of %zu bytes at offset "
			      "%llu: %s",
			      s->mmap_path, len,
			      (unsigned long long)s->mmap_offset,
			      strerror(-ret));
	}
	close(fd);
	if (ret)
		return ret;
	out->addr = addr;
	out->len = out->map_len = len;
	out->map_path = s->mmap_path;
	out->map_offset = s->mmap_offset;
	ret = mem_first_touch(out); /* as perftest's, the file's bytes go */
	if (ret)
		mem_host_release(out);
	return ret;
}
