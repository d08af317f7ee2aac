// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for gpu/cuda_drv.c on a real GPU: open, allocate, dmabuf export,
 * the --validate kernels against lib/pattern.c byte for byte, a flipped
 * byte found where it is, the error paths, and a dmabuf registration
 * attempt on whatever RDMA device the host has (through libibverbs loaded
 * at run time: unit tests link no verbs).
 *
 * Without a CUDA driver or a GPU it prints why and exits 77 (skipped):
 * never a pass. The output is what results/gpu-*-selftest.txt keeps.
 *
 * Unit tests link only the pure folders' objects (common/lib, host, spec,
 * report), and gpu/ is not one of them (it dlopen()s the driver): so this
 * test compiles gpu/cuda_drv.c in. Linking still proves it needs nothing
 * more: the test links against the pure objects and libc only.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gpu/cuda_drv.c" /* see above */
#include "gpu/cuda_drv.h"
#include "lib/pattern.h"
#include "tests/test.h"
#include "host/devnode.h"
#include "host/gpupair.h"
#include "host/topo.h"

#define MIB (1ULL << 20)
#define BIG_BYTES (64 * MIB)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Errors that must come back named, even with no GPU at all. */
static void test_no_driver(void)
{
	struct cuda_ctx *c = NULL;

	fprintf(stderr, "expected error follows (a library that is not "
		"there):\n");
	EXPECT_EQ_INT(cuda_drv_open_lib("libcuda-absent-rdmabench.so.1", 0, NULL,
				    &c), -ENOSYS);
	EXPECT_TRUE(c == NULL);
}

/* --use_cuda auto's list: ordinal 0 first; the GPU mlx5_0 would get. */
static void test_list(struct cuda_ctx *c)
{
	char ids[GPUPAIR_GPUS_MAX][CUDA_BUS_ID_MAX];
	struct gpupair_nic nic = { "mlx5_0", -1 };
	struct gpupair p;
	size_t n = 0;

	EXPECT_EQ_INT(cuda_drv_list("libcuda-absent-rdmabench.so.1", ids,
				    GPUPAIR_GPUS_MAX, &n), -ENOSYS);
	EXPECT_EQ_INT(cuda_drv_list(CUDA_LIB_NAME, ids, GPUPAIR_GPUS_MAX,
				    &n), 0);
	EXPECT_TRUE(n >= 1 && !strcmp(ids[0], cuda_drv_pci_bus_id(c)));
	if (n && !gpupair_plan("/sys", (const char (*)[GPUPAIR_BDF_MAX])ids,
			       n, &nic, 1, &p))
		printf("gpu: %zu GPU(s); --use_cuda auto for mlx5_0: GPU %d "
		       "(%s), %s\n", n, p.gpu, ids[p.gpu],
		       topo_link_name(p.link));
}

static void test_info(struct cuda_ctx *c)
{
	struct devnode_addr a;
	struct topo_rel rel;

	printf("gpu: %s, PCI %s, CUDA ordinal %d, driver API %d.%d, NUMA "
	       "node %d\n", cuda_drv_name(c), cuda_drv_pci_bus_id(c), cuda_drv_index(c),
	       cuda_drv_driver_version(c) / 1000,
	       cuda_drv_driver_version(c) % 1000 / 10,
	       cuda_drv_numa_node(c, "/sys"));
	EXPECT_EQ_INT(cuda_drv_index(c), 0);
	EXPECT_EQ_INT(strlen(cuda_drv_pci_bus_id(c)), 12);
	EXPECT_TRUE(cuda_drv_driver_version(c) >= 9000);
	if (!devnode_pci_addr("/sys", cuda_drv_pci_bus_id(c), &a))
		printf("gpu: sysfs place %s\n", a.place);
	if (!topo_gpu_nic("/sys", cuda_drv_pci_bus_id(c), "mlx5_0", &rel))
		printf("gpu: nearest RDMA device: %s (%s)\n",
		       rel.best_nic[0] ? rel.best_nic : "none",
		       topo_link_name(rel.best_nic_link));
}

static void test_dmabuf(struct cuda_ctx *c, uint64_t dptr)
{
	uint64_t off = 99;
	struct stat st;
	int fd = -1;

	if (cuda_drv_dmabuf_supported(c)) {
		printf("dmabuf: not supported by this GPU/driver\n");
		return;
	}
	EXPECT_EQ_INT(cuda_drv_dmabuf_export(c, dptr, BIG_BYTES, &fd, &off), 0);
	EXPECT_TRUE(fd > 0);
	EXPECT_EQ_U64(off, 0);
	EXPECT_TRUE(fd > 0 && fstat(fd, &st) == 0);
	printf("dmabuf: export of %llu MiB at 0x%llx: fd %d, offset %llu\n",
	       BIG_BYTES / MIB, (unsigned long long)dptr, fd,
	       (unsigned long long)off);
	if (fd > 0)
		close(fd);
	/* an address inside a page: the offset says where it lies */
	fd = -1;
	EXPECT_EQ_INT(cuda_drv_dmabuf_export(c, dptr + 3 * 4096 + 1000, 8192, &fd,
					 &off), 0);
	EXPECT_TRUE(fd > 0);
	EXPECT_EQ_U64(off, (3 * 4096 + 1000) % (uint64_t)sysconf(_SC_PAGESIZE));
	printf("dmabuf: export at +13288: fd %d, offset %llu\n", fd,
	       (unsigned long long)off);
	if (fd > 0)
		close(fd);
}

/* GPU fill == pattern_fill, for sizes and iterations around the edges. */
static void test_fill_matches_host(struct cuda_ctx *c, uint64_t dptr)
{
	static const uint64_t sizes[] = { 1, 2, 7, 8, 9, 4095, 4096, 65537,
					  MIB + 3 };
	static const uint64_t iters[] = { 0, 1, 254, 255, 12345678901ULL };
	uint8_t *gpu = malloc(MIB + 3), *host = malloc(MIB + 3);
	struct pattern_miss miss;
	unsigned int same = 0, n = 0, k;
	size_t i, j;

	/* at 0 the word kernels and the byte tail, at +3 (an unaligned
	 * start, as a region offset can be) the byte kernels alone */
	for (k = 0; k <= 3; k += 3) {
		for (i = 0; gpu && host && i < sizeof(sizes) / sizeof(sizes[0]);
		     i++) {
			for (j = 0; j < sizeof(iters) / sizeof(iters[0]);
			     j++, n++) {
				EXPECT_EQ_INT(cuda_drv_fill(c, dptr + k,
							    sizes[i], iters[j]),
					      0);
				EXPECT_EQ_INT(cuda_drv_copy_from(c, gpu,
								 dptr + k,
								 sizes[i]),
					      0);
				pattern_fill(host, sizes[i], iters[j]);
				same += !memcmp(gpu, host, sizes[i]);
				EXPECT_EQ_INT(cuda_drv_check(c, dptr + k,
							     sizes[i], iters[j],
							     &miss, NULL),
					      0);
			}
		}
	}
	EXPECT_EQ_INT(same, n);
	printf("pattern: GPU fill equals pattern_fill() in %u of %u "
	       "(size, iter) cases; GPU check passes them\n", same, n);
	free(gpu);
	free(host);
}

/* Flip bytes: the check names the first, with expected and actual. */
static void test_flip(struct cuda_ctx *c, uint64_t dptr)
{
	const uint64_t at = 12345677, at2 = 40000001;
	struct pattern_miss miss = { 0 };
	uint8_t good, bad, good2, bad2;
	uint64_t nbad = 0;

	EXPECT_EQ_INT(cuda_drv_fill(c, dptr, BIG_BYTES, 7), 0);
	EXPECT_EQ_INT(cuda_drv_copy_from(c, &good, dptr + at, 1), 0);
	bad = good ^ 0x5a;
	EXPECT_EQ_INT(cuda_drv_copy_to(c, dptr + at, &bad, 1), 0);
	EXPECT_EQ_INT(cuda_drv_check(c, dptr, BIG_BYTES, 7, &miss, &nbad),
		      -EILSEQ);
	EXPECT_EQ_U64(miss.offset, at);
	EXPECT_EQ_INT(miss.expected, good);
	EXPECT_EQ_INT(miss.actual, bad);
	EXPECT_EQ_U64(nbad, 1);
	printf("flip: byte %llu of %llu MiB set to 0x%02x: check found offset "
	       "%llu, expected 0x%02x, actual 0x%02x, %llu wrong byte(s)\n",
	       (unsigned long long)at, BIG_BYTES / MIB, bad,
	       (unsigned long long)miss.offset, miss.expected, miss.actual,
	       (unsigned long long)nbad);
	/* a second, later flip: still the first one, two counted */
	EXPECT_EQ_INT(cuda_drv_copy_from(c, &good2, dptr + at2, 1), 0);
	bad2 = (uint8_t)~good2;
	EXPECT_EQ_INT(cuda_drv_copy_to(c, dptr + at2, &bad2, 1), 0);
	EXPECT_EQ_INT(cuda_drv_check(c, dptr, BIG_BYTES, 7, &miss, &nbad),
		      -EILSEQ);
	EXPECT_EQ_U64(miss.offset, at);
	EXPECT_EQ_U64(nbad, 2);
	/* the marker: the last byte alone */
	EXPECT_EQ_INT(cuda_drv_fill(c, dptr, 4096, 9), 0);
	bad = 0;
	EXPECT_EQ_INT(cuda_drv_copy_to(c, dptr + 4095, &bad, 1), 0);
	EXPECT_EQ_INT(cuda_drv_check(c, dptr, 4096, 9, &miss, &nbad), -EILSEQ);
	EXPECT_EQ_U64(miss.offset, 4095);
	EXPECT_EQ_INT(miss.expected, pattern_marker(9));
	/* a stale iteration: wrong nearly everywhere */
	EXPECT_EQ_INT(cuda_drv_fill(c, dptr, 4 * MIB, 1), 0);
	EXPECT_EQ_INT(cuda_drv_check(c, dptr, 4 * MIB, 2, &miss, &nbad), -EILSEQ);
	EXPECT_TRUE(miss.offset < 16);
	EXPECT_TRUE(nbad > 4 * MIB * 99 / 100);
	printf("stale: iteration 1 checked as 2: first miss at %llu, %llu of "
	       "%llu bytes wrong\n", (unsigned long long)miss.offset,
	       (unsigned long long)nbad, 4 * MIB);
}

static void test_speed(struct cuda_ctx *c)
{
	const uint64_t len = 1ULL << 30;
	struct pattern_miss miss;
	double t0, t1, t2;
	uint64_t d = 0;

	if (cuda_drv_alloc(c, len, &d)) {
		EXPECT_TRUE(0);
		return;
	}
	double fill = 1e9, check = 1e9;
	int k;

	for (k = 0; k < 5; k++) { /* the best of five: the first warms up */
		t0 = now_s();
		EXPECT_EQ_INT(cuda_drv_fill(c, d, len, 3), 0);
		t1 = now_s();
		EXPECT_EQ_INT(cuda_drv_check(c, d, len, 3, &miss, NULL), 0);
		t2 = now_s();
		fill = t1 - t0 < fill ? t1 - t0 : fill;
		check = t2 - t1 < check ? t2 - t1 : check;
	}
	printf("speed: 1 GiB fill %.2f ms (%.0f GB/s), check %.2f ms "
	       "(%.0f GB/s), the best of 5\n",
	       fill * 1e3, (double)len / fill / 1e9, check * 1e3,
	       (double)len / check / 1e9);
	cuda_drv_free(c, d);
}

/* Offsets past 4 GiB: 64-bit indexing in the kernels and the packed key */
static void test_beyond_4gib(struct cuda_ctx *c)
{
	const uint64_t len = (4ULL << 30) + 4096, at = (4ULL << 30) + 100;
	struct pattern_miss miss = { 0 };
	uint64_t d = 0, nbad = 0;
	uint8_t good, bad;

	if (cuda_drv_alloc(c, len, &d)) {
		EXPECT_TRUE(0);
		return;
	}
	EXPECT_EQ_INT(cuda_drv_fill(c, d, len, 11), 0);
	EXPECT_EQ_INT(cuda_drv_copy_from(c, &good, d + at, 1), 0);
	bad = good ^ 1;
	EXPECT_EQ_INT(cuda_drv_copy_to(c, d + at, &bad, 1), 0);
	EXPECT_EQ_INT(cuda_drv_check(c, d, len, 11, &miss, &nbad), -EILSEQ);
	EXPECT_EQ_U64(miss.offset, at);
	EXPECT_EQ_U64(nbad, 1);
	printf("4 GiB+: flip at %llu of %llu bytes found at %llu\n",
	       (unsigned long long)at, (unsigned long long)len,
	       (unsigned long long)miss.offset);
	cuda_drv_free(c, d);
}

static void test_errors(void)
{
	struct cuda_ctx *c = NULL;

	fprintf(stderr, "expected errors follow (no such GPU):\n");
	EXPECT_EQ_INT(cuda_drv_open(99, NULL, &c), -ENODEV);
	EXPECT_EQ_INT(cuda_drv_open(-1, NULL, &c), -ENODEV);
	EXPECT_EQ_INT(cuda_drv_open(0, "0000:ff:1f.7", &c), -ENODEV);
	EXPECT_TRUE(c == NULL);
	printf("errors: GPU 99, GPU -1 and bus id 0000:ff:1f.7 refused with "
	       "-ENODEV (messages on stderr)\n");
}

/* The few verbs the registration attempt needs, loaded at run time. */
struct verbs_fns {
	void **(*get_device_list)(int *n);
	void (*free_device_list)(void **list);
	const char *(*get_device_name)(void *dev);
	void *(*open_device)(void *dev);
	int (*close_device)(void *ctx);
	void *(*alloc_pd)(void *ctx);
	int (*dealloc_pd)(void *pd);
	void *(*reg_dmabuf_mr)(void *pd, uint64_t off, size_t len,
			       uint64_t iova, int fd, int access);
	int (*dereg_mr)(void *mr);
};

static int verbs_load(void *lib, struct verbs_fns *v)
{
	static const char *const names[] = {
		"ibv_get_device_list", "ibv_free_device_list",
		"ibv_get_device_name", "ibv_open_device", "ibv_close_device",
		"ibv_alloc_pd", "ibv_dealloc_pd", "ibv_reg_dmabuf_mr",
		"ibv_dereg_mr",
	};
	void *syms[sizeof(names) / sizeof(names[0])];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		syms[i] = dlsym(lib, names[i]);
		if (!syms[i]) {
			printf("registration: libibverbs lacks %s: not "
			       "attempted\n", names[i]);
			return -ENOSYS;
		}
	}
	memcpy(v, syms, sizeof(syms)); /* same order as the struct */
	return 0;
}

/* ibv_reg_dmabuf_mr on the first device's PD: must succeed or fail named */
static void reg_on_device(struct verbs_fns *v, void *dev, struct cuda_ctx *c,
			  uint64_t dptr)
{
	const int access = 1 | 2 | 4; /* LOCAL_WRITE, REMOTE_WRITE, _READ */
	void *ctx, *pd, *mr;
	uint64_t off;
	int fd;

	ctx = v->open_device(dev);
	pd = ctx ? v->alloc_pd(ctx) : NULL;
	if (!pd || cuda_drv_dmabuf_export(c, dptr, BIG_BYTES, &fd, &off)) {
		printf("registration: cannot open %s or export: not "
		       "attempted\n", v->get_device_name(dev));
		goto out;
	}
	errno = 0;
	mr = v->reg_dmabuf_mr(pd, off, BIG_BYTES, dptr, fd, access);
	printf("registration: ibv_reg_dmabuf_mr on %s: %s\n",
	       v->get_device_name(dev), mr ? "registered" : strerror(errno));
	EXPECT_TRUE(mr || errno);
	if (mr)
		v->dereg_mr(mr);
	close(fd);
out:
	if (pd)
		v->dealloc_pd(pd);
	if (ctx)
		v->close_device(ctx);
}

static void test_registration(struct cuda_ctx *c, uint64_t dptr)
{
	struct verbs_fns v;
	void *lib, **list;
	int n = 0;

	lib = dlopen("libibverbs.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		printf("registration: libibverbs.so.1 not found (rdma-core "
		       "not installed): not attempted\n");
		return;
	}
	if (verbs_load(lib, &v))
		goto out_close;
	list = v.get_device_list(&n);
	if (!list || n == 0)
		printf("registration: no RDMA device on this host "
		       "(ibv_get_device_list found %d): ibv_reg_dmabuf_mr "
		       "needs a NIC, not attempted\n", n);
	else
		reg_on_device(&v, list[0], c, dptr);
	if (list)
		v.free_device_list(list);
out_close:
	dlclose(lib);
}

int main(void)
{
	struct cuda_ctx *c = NULL;
	uint64_t dptr = 0;
	int ret;

	test_no_driver();
	ret = cuda_drv_open(0, NULL, &c);
	if (ret == -ENOSYS || ret == -ENODEV) {
		test_finish("test_gpu");
		printf("test_gpu: skipped: %s\n", ret == -ENOSYS ?
		       "no CUDA driver on this host (libcuda.so.1)" :
		       "the CUDA driver sees no GPU");
		return test_failed_ ? 1 : TEST_SKIP;
	}
	EXPECT_EQ_INT(ret, 0);
	if (ret)
		return test_finish("test_gpu");
	test_info(c);
	test_list(c);
	EXPECT_EQ_INT(cuda_drv_alloc(c, BIG_BYTES, &dptr), 0);
	if (dptr) {
		test_dmabuf(c, dptr);
		test_fill_matches_host(c, dptr);
		test_flip(c, dptr);
		/* TEST_GPU_QUICK: under compute-sanitizer, 2 GiB takes long */
		if (!getenv("TEST_GPU_QUICK")) {
			test_speed(c);
			test_beyond_4gib(c);
		}
		test_registration(c, dptr);
		cuda_drv_free(c, dptr);
	}
	test_errors();
	cuda_drv_close(c);
	return test_finish("test_gpu");
}
