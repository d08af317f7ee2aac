// SPDX-License-Identifier: BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/cuda_drv.h"
#include "lib/fs.h"
#include "lib/log.h"
#include "rdma/mem.h"
#include "rdma/mem_kinds.h"
#include "host/place.h"

#define MEM_PROC_ROOT "/"
#define MEM_SYSFS "/sys"

static int mem_gpu_alloc(const struct mem_spec *s, size_t len,
			 struct mem_buf *out)
{
	int ret;

	ret = cuda_drv_open(s->cuda_index, s->cuda_bus_id, &out->cuda);
	if (ret)
		return ret;
	if (s->kind == MEM_CUDA_DMABUF) {
		ret = cuda_drv_dmabuf_supported(out->cuda);
		if (ret)
			goto err_close;
	}
	ret = cuda_drv_alloc(out->cuda, len, &out->dptr);
	if (ret)
		goto err_close;
	ret = cuda_drv_memset(out->cuda, out->dptr, 0, len);
	if (ret)
		goto err_free;
	out->addr = (void *)(uintptr_t)out->dptr;
	out->len = len;
	out->numa_node = cuda_drv_numa_node(out->cuda, MEM_SYSFS);
	return 0;

err_free:
	cuda_drv_free(out->cuda, out->dptr);
	out->dptr = 0;
err_close:
	cuda_drv_close(out->cuda);
	out->cuda = NULL;
	return ret;
}

static void mem_gpu_release(struct mem_buf *m)
{
	if (m->cuda) {
		cuda_drv_free(m->cuda, m->dptr);
		cuda_drv_close(m->cuda);
	}
	m->cuda = NULL;
	m->dptr = 0;
	m->addr = NULL;
}

int mem_host_alloc(size_t len, int numa_node, struct mem_buf *out)
{
	struct mem_spec s = { .kind = MEM_HOST, .numa_node = numa_node };

	return mem_alloc(&s, len, out);
}

static const char *mem_dev_name(const struct ibv_pd *pd)
{
	return ibv_get_device_name(pd->context->device);
}

/* After ENOMEM/EFAULT from ibv_reg_mr: the locked-memory numbers, if
 * they explain it, in why. */
static void mem_memlock_why(size_t len, char *why, size_t why_len)
{
	struct place_memlock ml;

	why[0] = '\0';
	if (place_memlock_read(MEM_PROC_ROOT, &ml))
		return;
	/* some drivers (siw) apply the limit even with CAP_IPC_LOCK */
	ml.has_ipc_lock = false;
	place_memlock_check(&ml, len, why, why_len);
}

static int mem_reg_host(struct mem_buf *m, struct ibv_pd *pd, int access)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t pinned = (m->len + page - 1) / page * page;
	struct place_memlock ml;
	char why[PLACE_MSG_MAX] = "";
	int ret;

	/* --odp: pages come and go on demand, nothing is pinned */
	if (m->odp)
		access |= IBV_ACCESS_ON_DEMAND;
	/* fail with the numbers instead of a bare ENOMEM from the driver */
	if (!m->odp && !place_memlock_read(MEM_PROC_ROOT, &ml) &&
	    place_memlock_check(&ml, pinned, why, sizeof(why))) {
		bench_err_why(m->why, "%s", why);
		return -ENOMEM;
	}
	m->mr = ibv_reg_mr(pd, m->addr, m->len, access);
	if (m->mr)
		return 0;
	ret = -errno;
	if (ret == -ENOMEM || ret == -EFAULT)
		mem_memlock_why(pinned, why, sizeof(why));
	bench_err_why(m->why, "ibv_reg_mr(%zu bytes of host memory) on %s: %s: %s",
		  m->len, mem_dev_name(pd), strerror(-ret), why[0] ? why :
		  "check the kernel log (dmesg) for the driver's reason");
	return ret;
}

/*
 * nvidia-peermem (or the older nv_peer_mem) is what lets ibv_reg_mr pin
 * GPU memory. Only trust its absence where the NVIDIA driver itself is
 * visible in /sys/module (sandboxes may hide the whole folder).
 */
static bool mem_peermem_missing(void)
{
	return fs_exists(MEM_SYSFS, "/module/nvidia") &&
	       !fs_exists(MEM_SYSFS, "/module/nvidia_peermem") &&
	       !fs_exists(MEM_SYSFS, "/module/nv_peer_mem");
}

/* ibv_reg_mr of GPU memory failed with ret: say why, and what to do. */
static void mem_peermem_err(struct mem_buf *m, struct ibv_pd *pd,
			    int ret)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char why[PLACE_MSG_MAX] = "";

	/* the kernel counts the range against RLIMIT_MEMLOCK before it asks
	 * the peer-memory client: ENOMEM is then the limit, not peermem */
	if (ret == -ENOMEM)
		mem_memlock_why((m->len + page - 1) / page * page, why,
				sizeof(why));
	if (why[0])
		bench_err_why(m->why, "ibv_reg_mr(%zu bytes of GPU %d memory) on %s: %s: "
			  "GPU memory registered through nvidia-peermem counts "
			  "as locked memory too; %s", m->len,
			  cuda_drv_index(m->cuda), mem_dev_name(pd),
			  strerror(-ret), why);
	else
		bench_err_why(m->why, "ibv_reg_mr(%zu bytes of GPU %d memory) on %s: %s: "
			  "GPUDirect RDMA through nvidia-peermem failed: check "
			  "that nvidia_peermem is loaded and matches the driver "
			  "(dmesg), or use --use_cuda_dmabuf", m->len,
			  cuda_drv_index(m->cuda), mem_dev_name(pd),
			  strerror(-ret));
}

static int mem_reg_peermem(struct mem_buf *m, struct ibv_pd *pd, int access)
{
	int ret;

	if (mem_peermem_missing()) {
		bench_err_why(m->why, "cannot register GPU %d memory on %s: "
			  "nvidia_peermem is not loaded: modprobe "
			  "nvidia_peermem (on the host, not in the pod), or "
			  "use --use_cuda_dmabuf",
			  cuda_drv_index(m->cuda), mem_dev_name(pd));
		return -EOPNOTSUPP;
	}
	m->mr = ibv_reg_mr(pd, m->addr, m->len, access);
	if (m->mr)
		return 0;
	ret = -errno;
	mem_peermem_err(m, pd, ret);
	return ret;
}

static int mem_reg_dmabuf(struct mem_buf *m, struct ibv_pd *pd, int access)
{
	uint64_t offset;
	int ret, fd;

	ret = cuda_drv_dmabuf_export(m->cuda, m->dptr, m->len, &fd, &offset);
	if (ret)
		return ret;
	m->dmabuf_fd = fd;
	m->has_dmabuf_fd = true;
	/* iova = the device address: the peer and our work requests use it
	 * as for any other buffer */
	m->mr = ibv_reg_dmabuf_mr(pd, offset, m->len, m->dptr, fd, access);
	if (m->mr)
		return 0;
	ret = -errno;
	/* EPROTONOSUPPORT/ENOTTY: the kernel lacks the verb (rdma-core's
	 * ioctl path); EOPNOTSUPP: the provider or driver does */
	if (ret == -EOPNOTSUPP || ret == -EPROTONOSUPPORT || ret == -ENOTTY ||
	    ret == -ENOSYS)
		bench_err_why(m->why, "RDMA device %s cannot register dmabuf memory "
			  "(ibv_reg_dmabuf_mr: %s): its kernel driver or "
			  "rdma-core lacks dmabuf support (it needs Linux >= "
			  "5.12, rdma-core >= 34 and a driver with it, e.g. "
			  "mlx5): drop --use_cuda_dmabuf to register through "
			  "nvidia-peermem", mem_dev_name(pd), strerror(-ret));
	else
		bench_err_why(m->why, "ibv_reg_dmabuf_mr(%zu bytes of GPU %d memory, "
			  "offset %llu) on %s: %s: check the kernel log "
			  "(dmesg), or drop --use_cuda_dmabuf to try "
			  "nvidia-peermem", m->len, cuda_drv_index(m->cuda),
			  (unsigned long long)offset, mem_dev_name(pd),
			  strerror(-ret));
	return ret;
}

/* One row a kind: how its bytes are made, registered and given back. */
struct mem_kind_ops {
	const char *name; /* the header's Memory */
	bool cpu; /* the CPU reads and writes the bytes */
	int (*alloc)(const struct mem_spec *s, size_t len, struct mem_buf *out);
	int (*reg)(struct mem_buf *m, struct ibv_pd *pd, int access);
	void (*release)(struct mem_buf *m);
};

static const struct mem_kind_ops mem_kinds[MEM_KIND_COUNT] = {
	[MEM_HOST] = { "host", true, mem_host_pages, mem_reg_host,
		       mem_host_release },
	[MEM_HUGEPAGES] = { "hugepages", true, mem_huge_pages, mem_reg_host,
			    mem_host_release },
	[MEM_MMAP] = { "mmap", true, mem_mmap_pages, mem_reg_host,
		       mem_host_release },
	[MEM_CUDA] = { "cuda (peermem)", false, mem_gpu_alloc, mem_reg_peermem,
		       mem_gpu_release },
	[MEM_CUDA_DMABUF] = { "cuda (dmabuf)", false, mem_gpu_alloc,
			      mem_reg_dmabuf, mem_gpu_release },
};

static const struct mem_kind_ops *mem_ops(enum mem_kind kind)
{
	return (unsigned int)kind < MEM_KIND_COUNT ? &mem_kinds[kind] :
						     &mem_kinds[MEM_HOST];
}

int mem_alloc(const struct mem_spec *s, size_t len, struct mem_buf *out)
{
	memset(out, 0, sizeof(*out));
	out->kind = s->kind;
	out->why = s->why;
	out->numa_node = -1;
	out->dmabuf_fd = -1;
	out->odp = s->odp && mem_kind_cpu(s->kind);
	return mem_ops(s->kind)->alloc(s, len, out);
}

int mem_register(struct mem_buf *m, struct ibv_pd *pd, int access)
{
	return mem_ops(m->kind)->reg(m, pd, access | IBV_ACCESS_LOCAL_WRITE);
}

void mem_free(struct mem_buf *m)
{
	if (m->mr && ibv_dereg_mr(m->mr))
		bench_warn("ibv_dereg_mr: %s", strerror(errno));
	m->mr = NULL;
	/* the MR holds its own reference to the dmabuf */
	if (m->has_dmabuf_fd)
		close(m->dmabuf_fd);
	m->has_dmabuf_fd = false;
	m->dmabuf_fd = -1;
	mem_ops(m->kind)->release(m);
}

bool mem_kind_cpu(enum mem_kind kind)
{
	return mem_ops(kind)->cpu;
}

bool mem_is_host(const struct mem_buf *m)
{
	return mem_kind_cpu(m->kind);
}

static void mem_describe_kind(const struct mem_buf *m, char *buf, size_t len)
{
	if (m->kind == MEM_HUGEPAGES)
		snprintf(buf, len, "%s (%zu kB pages)", mem_ops(m->kind)->name,
			 m->page_bytes >> 10);
	else if (m->kind == MEM_MMAP)
		snprintf(buf, len, "%s of %s at offset %llu",
			 mem_ops(m->kind)->name, m->map_path,
			 (unsigned long long)m->map_offset);
	else
		snprintf(buf, len, "%s", mem_ops(m->kind)->name);
}

void mem_describe(const struct mem_buf *m, char *buf, size_t len)
{
	size_t at;

	mem_describe_kind(m, buf, len);
	at = strlen(buf);
	if (m->odp && at < len)
		snprintf(buf + at, len - at, ", on demand (ODP)");
}

static int mem_range_ok(const struct mem_buf *m, size_t off, uint64_t len,
			const char *what)
{
	if (off <= m->len && len <= m->len - off)
		return 0;
	bench_err("%s: %llu bytes at offset %zu do not fit the %zu-byte "
		  "buffer (a bug: please report it)", what,
		  (unsigned long long)len, off, m->len);
	return -EINVAL;
}

int mem_zero(struct mem_buf *m, size_t off, size_t len)
{
	if (mem_range_ok(m, off, len, "mem_zero"))
		return -EINVAL;
	if (mem_is_host(m)) {
		memset((uint8_t *)m->addr + off, 0, len);
		return 0;
	}
	return cuda_drv_memset(m->cuda, m->dptr + off, 0, len);
}

int mem_fill(struct mem_buf *m, size_t off, uint64_t size, uint64_t iter)
{
	if (mem_range_ok(m, off, size, "mem_fill"))
		return -EINVAL;
	if (mem_is_host(m)) {
		pattern_fill((uint8_t *)m->addr + off, size, iter);
		return 0;
	}
	return cuda_drv_fill(m->cuda, m->dptr + off, size, iter);
}

int mem_check(struct mem_buf *m, size_t off, uint64_t size, uint64_t iter,
	      struct pattern_miss *miss)
{
	if (mem_range_ok(m, off, size, "mem_check"))
		return -EINVAL;
	if (mem_is_host(m))
		return pattern_check((uint8_t *)m->addr + off, size, iter,
				     miss);
	return cuda_drv_check(m->cuda, m->dptr + off, size, iter, miss, NULL);
}
