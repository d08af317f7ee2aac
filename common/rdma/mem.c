// SPDX-License-Identifier: BSD-2-Clause
#include <errno.h>
#include <numa.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/cuda_drv.h"
#include "lib/fs.h"
#include "lib/log.h"
#include "lib/stop.h"
#include "rdma/mem.h"
#include "host/place.h"

#define MEM_PROC_ROOT "/"
#define MEM_SYSFS "/sys"

/* First touch in chunks, so that a stop (SIGTERM) is not held up by a
 * large buffer: the pages land on the node. 0, or -EINTR. */
#define MEM_TOUCH_CHUNK (32ULL << 20)

static int mem_first_touch(const struct mem_buf *m)
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

static int mem_host_pages(const struct mem_spec *s, size_t len,
			  struct mem_buf *out)
{
	void *addr = NULL;

	/* containers' default seccomp profile allows the NUMA calls only
	 * with CAP_SYS_NICE: numa_available() then fails */
	if (s->numa_node >= 0 && numa_available() < 0) {
		bench_warn("cannot bind the buffer to NUMA node %d (the NUMA "
			   "system calls are refused): it goes wherever the "
			   "kernel places it; in a container, add the SYS_NICE "
			   "capability", s->numa_node);
	} else if (s->numa_node >= 0) {
		/* numa_alloc_onnode maps whole pages: page-aligned */
		addr = numa_alloc_onnode(len, s->numa_node);
		if (addr) {
			out->from_numa = true;
			out->numa_node = s->numa_node;
		} else {
			bench_warn("cannot allocate %zu bytes on NUMA node %d: "
				   "the buffer goes wherever the kernel "
				   "places it (numactl -H shows free memory "
				   "per node)", len, s->numa_node);
		}
	}
	if (!addr &&
	    posix_memalign(&addr, (size_t)sysconf(_SC_PAGESIZE), len)) {
		bench_err("cannot allocate a %zu-byte buffer: free memory, or "
			  "use a smaller -s", len);
		return -ENOMEM;
	}
	out->addr = addr;
	out->len = len;
	if (!mem_first_touch(out))
		return 0;
	mem_free(out); /* stopped meanwhile */
	return -EINTR;
}

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

int mem_alloc(const struct mem_spec *s, size_t len, struct mem_buf *out)
{
	memset(out, 0, sizeof(*out));
	out->kind = s->kind;
	out->why = s->why;
	out->numa_node = -1;
	out->dmabuf_fd = -1;
	if (s->kind == MEM_HOST)
		return mem_host_pages(s, len, out);
	return mem_gpu_alloc(s, len, out);
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

	/* fail with the numbers instead of a bare ENOMEM from the driver */
	if (!place_memlock_read(MEM_PROC_ROOT, &ml) &&
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

int mem_register(struct mem_buf *m, struct ibv_pd *pd, int access)
{
	access |= IBV_ACCESS_LOCAL_WRITE;
	switch (m->kind) {
	case MEM_CUDA:
		return mem_reg_peermem(m, pd, access);
	case MEM_CUDA_DMABUF:
		return mem_reg_dmabuf(m, pd, access);
	case MEM_HOST:
	default:
		return mem_reg_host(m, pd, access);
	}
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
	if (m->cuda) {
		cuda_drv_free(m->cuda, m->dptr);
		cuda_drv_close(m->cuda);
	} else if (m->addr && m->from_numa) {
		numa_free(m->addr, m->len);
	} else {
		free(m->addr);
	}
	m->cuda = NULL;
	m->dptr = 0;
	m->addr = NULL;
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

const char *mem_path_name(const struct mem_buf *m)
{
	switch (m->kind) {
	case MEM_CUDA:
		return "cuda (peermem)";
	case MEM_CUDA_DMABUF:
		return "cuda (dmabuf)";
	case MEM_HOST:
	default:
		return "host";
	}
}
