/* tests/nulldev/nulldev.c - the null device, a libibverbs provider whose
 * wire is memory: the device, its context, its queries, PDs, MRs and the
 * registry that lets a peer process find a region or a QP
 * (nulldev.h says how memory crosses; docs/nulldev.md what is modelled).
 * Loaded with RDMAV_DRIVERS=/path/libnulldev under
 * tests/nulldev/nulldev-run.sh, which supplies the device's sysfs and
 * char device in a private mount namespace.
 */
#define _GNU_SOURCE
#include "nulldev.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static long nd_page(void)
{
	return sysconf(_SC_PAGESIZE);
}

static void nd_path(struct nd_ctx *c, char kind, uint32_t key, char *p,
		    size_t n)
{
	if (snprintf(p, n, "%s/%c-%08x", c->reg, kind, key) >= (int)n)
		p[0] = 0;
}

/* a symlink KIND-KEY -> "/proc/PID/fd/FD BASE SIZE": created atomically,
 * so two processes never take one key; WANT first, else a hash walk */
int nd_publish(struct nd_ctx *c, char kind, int fd, uint64_t base,
	       uint64_t size, uint32_t want, uint32_t mask, uint32_t *key)
{
	char tgt[128], p[IBV_SYSFS_PATH_MAX + 16];
	uint32_t k = want ? want : ((uint32_t)getpid() * 2654435761u) & mask;

	snprintf(tgt, sizeof(tgt), "/proc/%d/fd/%d %llx %llx", getpid(), fd,
		 (unsigned long long)base, (unsigned long long)size);
	for (int i = 0; i < 4096; i++) {
		if (k) {
			nd_path(c, kind, k, p, sizeof(p));
			if (!symlink(tgt, p)) {
				*key = k;
				return 0;
			}
			if (errno != EEXIST)
				return -errno;
		}
		k = (k * 1103515245u + 12345u) & mask;
	}
	return -EAGAIN;
}

void nd_unpublish(struct nd_ctx *c, char kind, uint32_t key)
{
	char p[IBV_SYSFS_PATH_MAX + 48];

	nd_path(c, kind, key, p, sizeof(p));
	unlink(p);
}

static int nd_lookup(struct nd_ctx *c, char kind, uint32_t key, char *fdp,
		     uint64_t *base, uint64_t *size)
{
	char p[IBV_SYSFS_PATH_MAX + 48], tgt[160];
	unsigned long long b, s;
	ssize_t n;

	nd_path(c, kind, key, p, sizeof(p));
	n = readlink(p, tgt, sizeof(tgt) - 1);
	if (n < 0)
		return -errno;
	tgt[n] = 0;
	if (sscanf(tgt, "%63s %llx %llx", fdp, &b, &s) != 3)
		return -EINVAL;
	*base = b;
	*size = s;
	return 0;
}

static void *nd_open_map(const char *fdp, size_t size)
{
	int fd = open(fdp, O_RDWR | O_CLOEXEC);
	void *p;

	if (fd < 0)
		return NULL;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

void *nd_map_path(struct nd_ctx *c, char kind, uint32_t key, size_t *len)
{
	char fdp[64];
	uint64_t base, size;

	if (nd_lookup(c, kind, key, fdp, &base, &size))
		return NULL;
	*len = size;
	return nd_open_map(fdp, size);
}

static struct nd_map *nd_find_map(struct nd_ctx *c, uint32_t key)
{
	for (size_t i = 0; i < c->nmaps; i++)
		if (c->maps[i].key == key)
			return &c->maps[i];
	return NULL;
}

static int nd_add_map(struct nd_ctx *c, uint32_t key, struct nd_map *out)
{
	char fdp[64];
	struct nd_map m = {.key = key};

	if (nd_lookup(c, 'm', key, fdp, &m.base, &m.size))
		return -ENOENT;
	m.ptr = nd_open_map(fdp, m.size);
	if (!m.ptr)
		return -EACCES;
	if (c->nmaps == c->capmaps) {
		size_t n = c->capmaps ? 2 * c->capmaps : 16;
		struct nd_map *g = realloc(c->maps, n * sizeof(*g));

		if (!g) {
			munmap(m.ptr, m.size);
			return -ENOMEM;
		}
		c->maps = g;
		c->capmaps = n;
	}
	c->maps[c->nmaps++] = m;
	*out = m;
	return 0;
}

/* KEY's region (ours or a peer's) mapped here; mapped once, then cached */
int nd_map_key(struct nd_ctx *c, uint32_t key, struct nd_map *out)
{
	struct nd_map *m;
	int ret = 0;

	pthread_mutex_lock(&c->lock);
	m = nd_find_map(c, key);
	if (m)
		*out = *m;
	else
		ret = nd_add_map(c, key, out);
	pthread_mutex_unlock(&c->lock);
	return ret;
}

/* The pages [s, s+len) written to fd by the kernel, not by memcpy: the
 * pages hold whatever else the caller's heap put there, and under ASan
 * (our build-san binaries load this provider) a user-space copy of a
 * whole page is a read of the neighbours' redzones. The raw syscall is
 * not intercepted. */
static int nd_copy_out(int fd, uintptr_t s, size_t len)
{
	size_t done = 0;

	while (done < len) {
		long n = syscall(SYS_pwrite64, fd, (void *)(s + done),
				 len - done, (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

/* the registered pages, moved onto a memfd at the same address */
static int nd_back(void *addr, size_t length, uint64_t *base, uint64_t *size)
{
	uintptr_t pg = nd_page(), s = (uintptr_t)addr & ~(pg - 1);
	uintptr_t e = ((uintptr_t)addr + (length ? length : 1) + pg - 1) &
		      ~(pg - 1);
	int fd = memfd_create("nulldev-mr", MFD_CLOEXEC);

	if (fd < 0 || nd_copy_out(fd, s, e - s))
		goto fail;
	if (mmap((void *)s, e - s, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED)
		goto fail;
	*base = s;
	*size = e - s;
	return fd;
fail:
	if (fd >= 0)
		close(fd);
	return -1;
}

struct nd_mr {
	struct verbs_mr vmr;
	int fd;
};

static struct ibv_mr *nd_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
				uint64_t hca_va, int access)
{
	struct nd_mr *mr = calloc(1, sizeof(*mr));
	uint64_t base, size;
	uint32_t key;

	(void)hca_va;
	if (!mr)
		return NULL;
	mr->fd = nd_back(addr, length, &base, &size);
	if (mr->fd < 0)
		goto fail;
	if (nd_publish(nd_ctx_of(pd->context), 'm', mr->fd, base, size, 0,
		       0xffffffffu, &key))
		goto fail;
	mr->vmr.access = access;
	mr->vmr.ibv_mr.lkey = mr->vmr.ibv_mr.rkey = key;
	mr->vmr.ibv_mr.handle = key;
	return &mr->vmr.ibv_mr;
fail:
	if (mr->fd >= 0)
		close(mr->fd);
	free(mr);
	errno = ENOMEM;
	return NULL;
}

/* the pages stay on the memfd: they hold the application's bytes */
static int nd_dereg_mr(struct verbs_mr *vmr)
{
	struct nd_mr *mr = (struct nd_mr *)vmr;

	nd_unpublish(nd_ctx_of(vmr->ibv_mr.context), 'm', vmr->ibv_mr.lkey);
	close(mr->fd);
	free(mr);
	return 0;
}

static struct ibv_pd *nd_alloc_pd(struct ibv_context *context)
{
	(void)context;
	return calloc(1, sizeof(struct ibv_pd));
}

static int nd_dealloc_pd(struct ibv_pd *pd)
{
	free(pd);
	return 0;
}

static void nd_fill_attr(struct nd_ctx *c, struct ibv_device_attr *a)
{
	memset(a, 0, sizeof(*a));
	snprintf(a->fw_ver, sizeof(a->fw_ver), "nulldev 1.0");
	a->node_guid = c->guid;
	a->sys_image_guid = c->guid;
	a->max_mr_size = UINT64_MAX;
	a->page_size_cap = 0xfffff000;
	a->vendor_id = 0xffffff;
	a->max_qp = 1 << 16;
	a->max_qp_wr = 1 << 15;
	a->device_cap_flags = IBV_DEVICE_RC_RNR_NAK_GEN;
	a->max_sge = a->max_sge_rd = ND_MAX_SGE;
	a->max_cq = 1 << 16;
	a->max_cqe = 1 << 20;
	a->max_mr = 1 << 16;
	a->max_pd = 1 << 16;
	a->max_qp_rd_atom = a->max_qp_init_rd_atom = 128;
	a->max_res_rd_atom = 1 << 20;
	a->atomic_cap = IBV_ATOMIC_HCA;
	a->max_pkeys = 1;
	a->local_ca_ack_delay = 15;
	a->phys_port_cnt = 1;
}

static int nd_query_device_ex(struct ibv_context *context,
			      const struct ibv_query_device_ex_input *input,
			      struct ibv_device_attr_ex *attr, size_t attr_size)
{
	struct ibv_device_attr_ex ex;

	(void)input;
	memset(&ex, 0, sizeof(ex));
	nd_fill_attr(nd_ctx_of(context), &ex.orig_attr);
	ex.max_dm_size = 0;
	memcpy(attr, &ex, attr_size < sizeof(ex) ? attr_size : sizeof(ex));
	return 0;
}

/* RoCE-like: Ethernet, active, 4096-byte MTU, 4x 25 Gb/s lanes */
static int nd_query_port(struct ibv_context *context, uint8_t port,
			 struct ibv_port_attr *a)
{
	(void)context;
	if (port != 1)
		return EINVAL;
	memset(a, 0, sizeof(*a));
	a->state = IBV_PORT_ACTIVE;
	a->max_mtu = a->active_mtu = IBV_MTU_4096;
	a->gid_tbl_len = 1;
	a->port_cap_flags = IBV_PORT_CM_SUP;
	a->max_msg_sz = 1u << 31;
	a->pkey_tbl_len = 1;
	a->active_width = 2;
	a->active_speed = 32;
	a->phys_state = 5;
	a->link_layer = IBV_LINK_LAYER_ETHERNET;
	return 0;
}

static int nd_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	(void)cq;
	(void)solicited_only;
	return EOPNOTSUPP;
}

static void nd_free_context(struct ibv_context *ibctx)
{
	struct nd_ctx *c = nd_ctx_of(ibctx);

	for (size_t i = 0; i < c->nmaps; i++)
		munmap(c->maps[i].ptr, c->maps[i].size);
	free(c->maps);
	pthread_mutex_destroy(&c->lock);
	if (c->vctx.context.async_fd >= 0)
		close(c->vctx.context.async_fd);
	verbs_uninit_context(&c->vctx);
	free(c);
}

static const struct verbs_context_ops nd_ctx_ops = {
	.alloc_pd = nd_alloc_pd,
	.dealloc_pd = nd_dealloc_pd,
	.reg_mr = nd_reg_mr,
	.dereg_mr = nd_dereg_mr,
	.query_device_ex = nd_query_device_ex,
	.query_port = nd_query_port,
	.req_notify_cq = nd_req_notify_cq,
	.free_context = nd_free_context,
};

static struct verbs_context *nd_alloc_context(struct ibv_device *dev,
					      int cmd_fd, void *priv)
{
	struct verbs_device *vd = (struct verbs_device *)dev;
	const char *env = getenv("NULLDEV_REGISTRY");
	struct nd_ctx *c;

	(void)priv;
	c = _verbs_init_and_alloc_context(dev, cmd_fd, sizeof(*c),
					  &((struct nd_ctx *)NULL)->vctx, 0);
	if (!c)
		return NULL;
	if (env)
		snprintf(c->reg, sizeof(c->reg), "%s", env);
	else if (snprintf(c->reg, sizeof(c->reg), "%s/nulldev",
			  vd->sysfs->ibdev_path) >= (int)sizeof(c->reg))
		c->reg[0] = 0;
	c->guid = 0x0200000000000001ull;
	/* no kernel to raise async events: a quiet fd in its place */
	c->vctx.context.async_fd = eventfd(0, EFD_CLOEXEC);
	pthread_mutex_init(&c->lock, NULL);
	verbs_set_ops(&c->vctx, &nd_ctx_ops);
	verbs_set_ops(&c->vctx, &nd_qp_ops);
	return &c->vctx;
}

static bool nd_match_device(struct verbs_sysfs_dev *sd)
{
	return !strncmp(sd->ibdev_name, "nulldev", 7);
}

static struct verbs_device *nd_alloc_device(struct verbs_sysfs_dev *sd)
{
	(void)sd;
	return calloc(1, sizeof(struct verbs_device));
}

static void nd_uninit_device(struct verbs_device *d)
{
	free(d);
}

static const struct verbs_device_ops nd_dev_ops = {
	.name = "nulldev",
	.match_min_abi_version = 0,
	.match_max_abi_version = 0x7fffffff,
	.match_device = nd_match_device,
	.alloc_context = nd_alloc_context,
	.alloc_device = nd_alloc_device,
	.uninit_device = nd_uninit_device,
};

static __attribute__((constructor)) void nd_register(void)
{
	verbs_register_driver_34(&nd_dev_ops);
}
