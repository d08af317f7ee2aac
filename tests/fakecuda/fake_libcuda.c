// SPDX-License-Identifier: BSD-2-Clause
/*
 * fake_libcuda - a FAKE CUDA driver (libcuda.so.1) for the lab, which has no
 * GPU: it lets every GPU preflight error of gpu/cuda_drv.c and rdma/mem.c run
 * on real verbs (Soft-RoCE) without touching production code. Only this
 * file knows it is fake; the binaries load it as they load the real driver,
 * by dlopen("libcuda.so.1"), found first through LD_LIBRARY_PATH:
 *
 *   LD_LIBRARY_PATH=$PWD/build/tests/fakecuda RDMABENCH_FAKE_CUDA=oom \
 *       build/ib_write_bw --use_cuda ...
 *
 * It exports the driver API entry points gpu/cuda_drv.c looks up (cuda_syms),
 * with CUDA's real result codes. RDMABENCH_FAKE_CUDA, comma-separated words,
 * picks the behaviour (default: one healthy GPU that can export dmabuf):
 *   stub      cuInit: CUDA_ERROR_STUB_LIBRARY (the toolkit's stubs/libcuda)
 *   nodev     cuInit: CUDA_ERROR_NO_DEVICE (no GPU visible)
 *   gpus=N    N GPUs (default 1), at PCI bus ids 0000:3b:00.0, 3c, ...
 *   nodmabuf  CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED is 0, and
 *             cuMemGetHandleForAddressRange answers CUDA_ERROR_NOT_SUPPORTED
 *   ctxfail   cuDevicePrimaryCtxRetain: CUDA_ERROR_DEVICE_UNAVAILABLE (an
 *             exclusive-process GPU busy with another process)
 *   oom       cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY
 *   trace     each cuMemAlloc says on stderr "fake libcuda: cuMemAlloc N
 *             bytes on GPU I (BUS ID)" (which GPU a rail's buffers are on)
 *
 * "Device memory" is host memory: a memfd mapped shared, page aligned, so
 * memset/copies work and an RDMA device can even register it as plain host
 * memory (ibv_reg_mr, as nvidia-peermem would). cuMemGetHandleForAddressRange
 * hands out a dup of that memfd, offset 0 = the allocation's start: a real
 * fd but NOT a dmabuf, which is enough for an RDMA device without dmabuf MRs
 * (rxe refuses ibv_reg_dmabuf_mr with EOPNOTSUPP before looking at the fd).
 * Kernels do not run: cuModuleLoadDataEx answers
 * CUDA_ERROR_UNSUPPORTED_PTX_VERSION, so --validate fails with its message.
 *
 * Built twice (tests/fakecuda/Makefile.inc): $(B)/tests/fakecuda/libcuda.so.1
 * and, with -DFAKE_CUDA_OLD, $(B)/tests/fakecuda/old/libcuda.so.1, which
 * lacks cuDevicePrimaryCtxRelease_v2 (CUDA < 11) for "the driver is too
 * old". Threads (--rails: a rail per thread, each with its GPU) as the
 * real driver: the current context is the thread's, and one lock guards
 * the contexts' counts and the allocations.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef void *CUcontext;
typedef void *CUmodule;
typedef void *CUfunction;
typedef void *CUstream;

enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_INVALID_VALUE = 1,
	CUDA_ERROR_OUT_OF_MEMORY = 2,
	CUDA_ERROR_NOT_INITIALIZED = 3,
	CUDA_ERROR_STUB_LIBRARY = 34,
	CUDA_ERROR_DEVICE_UNAVAILABLE = 46,
	CUDA_ERROR_NO_DEVICE = 100,
	CUDA_ERROR_INVALID_DEVICE = 101,
	CUDA_ERROR_INVALID_CONTEXT = 201,
	CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
	CUDA_ERROR_NOT_FOUND = 500,
	CUDA_ERROR_NOT_SUPPORTED = 801,
	CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED = 124,
	CU_JIT_ERROR_LOG_BUFFER = 5,
	CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

#define FAKE_ENV "RDMABENCH_FAKE_CUDA"
#define FAKE_MAX_GPUS 16
#define FAKE_MAX_ALLOCS 64
#define FAKE_BUS_BASE 0x3b
#define FAKE_DRIVER_VERSION 12040 /* CUDA 12.4 */

/* The exported entry points (their prototypes, for -Wmissing-prototypes). */
CUresult cuInit(unsigned int flags);
CUresult cuDriverGetVersion(int *version);
CUresult cuDeviceGetCount(int *count);
CUresult cuDeviceGet(CUdevice *dev, int ordinal);
CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *bus_id);
CUresult cuDeviceGetAttribute(int *value, int attr, CUdevice dev);
CUresult cuDeviceGetName(char *name, int len, CUdevice dev);
CUresult cuDeviceGetPCIBusId(char *bus_id, int len, CUdevice dev);
CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev);
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev);
CUresult cuCtxSetCurrent(CUcontext ctx);
CUresult cuCtxSynchronize(void);
CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t len);
CUresult cuMemFree_v2(CUdeviceptr dptr);
CUresult cuMemsetD8_v2(CUdeviceptr dptr, unsigned char v, size_t n);
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n);
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n);
CUresult cuModuleLoadDataEx(CUmodule *mod, const void *image,
			    unsigned int nopts, int *opts, void **vals);
CUresult cuModuleUnload(CUmodule mod);
CUresult cuModuleGetFunction(CUfunction *f, CUmodule mod, const char *name);
CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy,
			unsigned int gz, unsigned int bx, unsigned int by,
			unsigned int bz, unsigned int shared_bytes,
			CUstream stream, void **params, void **extra);
CUresult cuGetErrorName(CUresult r, const char **name);
CUresult cuGetErrorString(CUresult r, const char **text);
CUresult cuPointerSetAttribute(const void *value, int attr, CUdeviceptr dptr);
CUresult cuMemGetHandleForAddressRange(void *handle, CUdeviceptr dptr,
				       size_t len, int type,
				       unsigned long long flags);

struct fake_opts {
	bool parsed;
	bool stub, nodev, nodmabuf, ctxfail, oom, trace;
	int gpus;
};

struct fake_alloc {
	void *addr;
	size_t len;
	int fd;
};

static struct fake_opts fake = { .gpus = 1 };
static struct fake_alloc fake_allocs[FAKE_MAX_ALLOCS];
static bool fake_inited;
static __thread CUdevice fake_current = -1;
static pthread_mutex_t fake_lock = PTHREAD_MUTEX_INITIALIZER;

/* The exported name of inner, which runs under fake_lock. */
#define FAKE_LOCKED(name, inner, params, args)                 \
	CUresult name params                                   \
	{                                                      \
		CUresult r;                                    \
		pthread_mutex_lock(&fake_lock);                \
		r = inner args;                                \
		pthread_mutex_unlock(&fake_lock);              \
		return r;                                      \
	}
static int fake_ctx_refs[FAKE_MAX_GPUS];
/* a primary context is a pointer into this array: never NULL, per GPU */
static char fake_ctxs[FAKE_MAX_GPUS];

static void fake_word(const char *w)
{
	char *end;
	long n;

	if (!strcmp(w, "stub"))
		fake.stub = true;
	else if (!strcmp(w, "nodev"))
		fake.nodev = true;
	else if (!strcmp(w, "nodmabuf"))
		fake.nodmabuf = true;
	else if (!strcmp(w, "ctxfail"))
		fake.ctxfail = true;
	else if (!strcmp(w, "oom"))
		fake.oom = true;
	else if (!strcmp(w, "trace"))
		fake.trace = true;
	else if (!strncmp(w, "gpus=", 5)) {
		n = strtol(w + 5, &end, 10);
		if (*end || n < 0 || n > FAKE_MAX_GPUS)
			fprintf(stderr, "fake libcuda: %s: gpus=0..%d\n",
				FAKE_ENV, FAKE_MAX_GPUS);
		else
			fake.gpus = (int)n;
	} else if (*w) {
		fprintf(stderr, "fake libcuda: %s: unknown word '%s'\n",
			FAKE_ENV, w);
	}
}

static const struct fake_opts *fake_opts(void)
{
	const char *env = getenv(FAKE_ENV);
	char buf[256], *w, *save = NULL;

	if (fake.parsed)
		return &fake;
	fake.parsed = true;
	snprintf(buf, sizeof(buf), "%s", env ? env : "");
	for (w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save))
		fake_word(w);
	return &fake;
}

/* CUDA_ERROR_NOT_INITIALIZED before cuInit, as the real driver answers */
static CUresult fake_ready(void)
{
	return fake_inited ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
}

static CUresult fake_dev_ok(CUdevice dev)
{
	if (!fake_inited)
		return CUDA_ERROR_NOT_INITIALIZED;
	return dev >= 0 && dev < fake.gpus ? CUDA_SUCCESS :
					     CUDA_ERROR_INVALID_DEVICE;
}

static CUresult fake_ctx_ok(void)
{
	if (!fake_inited)
		return CUDA_ERROR_NOT_INITIALIZED;
	return fake_current >= 0 && fake_ctx_refs[fake_current] ?
		CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

/* The allocation that holds [p, p + n), or NULL. */
static struct fake_alloc *fake_find(CUdeviceptr p, size_t n)
{
	uintptr_t a = (uintptr_t)p;
	int i;

	for (i = 0; i < FAKE_MAX_ALLOCS; i++) {
		struct fake_alloc *f = &fake_allocs[i];
		uintptr_t base = (uintptr_t)f->addr;

		if (f->addr && a >= base && a - base <= f->len &&
		    n <= f->len - (a - base))
			return f;
	}
	return NULL;
}

static CUresult fake_cuinit(unsigned int flags)
{
	const struct fake_opts *o = fake_opts();

	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	if (o->stub)
		return CUDA_ERROR_STUB_LIBRARY;
	if (o->nodev || !o->gpus)
		return CUDA_ERROR_NO_DEVICE;
	fake_inited = true;
	return CUDA_SUCCESS;
}

FAKE_LOCKED(cuInit, fake_cuinit, (unsigned int flags), (flags))

CUresult cuDriverGetVersion(int *version)
{
	if (!version)
		return CUDA_ERROR_INVALID_VALUE;
	*version = FAKE_DRIVER_VERSION; /* answers before cuInit too */
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count)
{
	if (!count)
		return CUDA_ERROR_INVALID_VALUE;
	if (fake_ready())
		return fake_ready();
	*count = fake.gpus;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *dev, int ordinal)
{
	if (!dev)
		return CUDA_ERROR_INVALID_VALUE;
	if (fake_dev_ok(ordinal))
		return fake_dev_ok(ordinal);
	*dev = ordinal;
	return CUDA_SUCCESS;
}

/* "0000:3b:00.0" or the driver's "00000000:3B:00.0" */
CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *bus_id)
{
	unsigned int dom, bus, d, fn;
	int i;

	if (!dev || !bus_id)
		return CUDA_ERROR_INVALID_VALUE;
	if (fake_ready())
		return fake_ready();
	if (sscanf(bus_id, "%x:%x:%x.%x", &dom, &bus, &d, &fn) != 4)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < fake.gpus; i++) {
		if (!dom && bus == FAKE_BUS_BASE + (unsigned int)i && !d &&
		    !fn) {
			*dev = i;
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_INVALID_DEVICE;
}

CUresult cuDeviceGetAttribute(int *value, int attr, CUdevice dev)
{
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	if (fake_dev_ok(dev))
		return fake_dev_ok(dev);
	*value = attr == CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED ?
		!fake.nodmabuf : 0;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
	if (!name || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	if (fake_dev_ok(dev))
		return fake_dev_ok(dev);
	snprintf(name, (size_t)len, "rdmabench fake GPU");
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetPCIBusId(char *bus_id, int len, CUdevice dev)
{
	if (!bus_id || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	if (fake_dev_ok(dev))
		return fake_dev_ok(dev);
	snprintf(bus_id, (size_t)len, "00000000:%02X:00.0",
		 FAKE_BUS_BASE + dev);
	return CUDA_SUCCESS;
}

static CUresult fake_cudeviceprimaryctxretain(CUcontext *ctx, CUdevice dev)
{
	if (!ctx)
		return CUDA_ERROR_INVALID_VALUE;
	if (fake_dev_ok(dev))
		return fake_dev_ok(dev);
	if (fake.ctxfail)
		return CUDA_ERROR_DEVICE_UNAVAILABLE;
	fake_ctx_refs[dev]++;
	*ctx = &fake_ctxs[dev];
	return CUDA_SUCCESS;
}

FAKE_LOCKED(cuDevicePrimaryCtxRetain, fake_cudeviceprimaryctxretain,
	    (CUcontext *ctx, CUdevice dev), (ctx, dev))

#ifndef FAKE_CUDA_OLD
static CUresult fake_cudeviceprimaryctxrelease(CUdevice dev)
{
	if (fake_dev_ok(dev))
		return fake_dev_ok(dev);
	if (!fake_ctx_refs[dev])
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!--fake_ctx_refs[dev] && fake_current == dev)
		fake_current = -1;
	return CUDA_SUCCESS;
}

FAKE_LOCKED(cuDevicePrimaryCtxRelease_v2, fake_cudeviceprimaryctxrelease,
	    (CUdevice dev), (dev))
#endif

CUresult cuCtxSetCurrent(CUcontext ctx)
{
	char *c = ctx;

	if (fake_ready())
		return fake_ready();
	if (!c) {
		fake_current = -1;
		return CUDA_SUCCESS;
	}
	if (c < fake_ctxs || c >= fake_ctxs + FAKE_MAX_GPUS ||
	    !fake_ctx_refs[c - fake_ctxs])
		return CUDA_ERROR_INVALID_CONTEXT;
	fake_current = (CUdevice)(c - fake_ctxs);
	return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void)
{
	return fake_ctx_ok();
}

/* a memfd, so that the dmabuf export has a real fd to hand out */
static CUresult fake_map(struct fake_alloc *f, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t span = (len + page - 1) / page * page;

	f->fd = memfd_create("fake-cuda", MFD_CLOEXEC);
	if (f->fd < 0)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (ftruncate(f->fd, (off_t)span)) {
		close(f->fd);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	f->addr = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd,
		       0);
	if (f->addr == MAP_FAILED) {
		f->addr = NULL;
		close(f->fd);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	f->len = span;
	return CUDA_SUCCESS;
}

static CUresult fake_cumemalloc(CUdeviceptr *dptr, size_t len)
{
	int i;

	if (!dptr || !len)
		return CUDA_ERROR_INVALID_VALUE;
	if (fake_ctx_ok())
		return fake_ctx_ok();
	if (fake.oom)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (i = 0; i < FAKE_MAX_ALLOCS; i++) {
		if (fake_allocs[i].addr)
			continue;
		if (fake_map(&fake_allocs[i], len))
			return CUDA_ERROR_OUT_OF_MEMORY;
		*dptr = (uintptr_t)fake_allocs[i].addr;
		if (fake.trace)
			fprintf(stderr, "fake libcuda: cuMemAlloc %zu bytes on "
				"GPU %d (0000:%02x:00.0)\n", len, fake_current,
				FAKE_BUS_BASE + fake_current);
		return CUDA_SUCCESS;
	}
	return CUDA_ERROR_OUT_OF_MEMORY;
}

FAKE_LOCKED(cuMemAlloc_v2, fake_cumemalloc, (CUdeviceptr *dptr, size_t len),
	    (dptr, len))

static CUresult fake_cumemfree(CUdeviceptr dptr)
{
	struct fake_alloc *f = fake_find(dptr, 0);

	if (fake_ctx_ok())
		return fake_ctx_ok();
	if (!f || (uintptr_t)f->addr != dptr)
		return CUDA_ERROR_INVALID_VALUE;
	munmap(f->addr, f->len);
	close(f->fd);
	memset(f, 0, sizeof(*f));
	return CUDA_SUCCESS;
}

FAKE_LOCKED(cuMemFree_v2, fake_cumemfree, (CUdeviceptr dptr), (dptr))

CUresult cuMemsetD8_v2(CUdeviceptr dptr, unsigned char v, size_t n)
{
	if (fake_ctx_ok())
		return fake_ctx_ok();
	if (!fake_find(dptr, n))
		return CUDA_ERROR_INVALID_VALUE;
	memset((void *)(uintptr_t)dptr, v, n);
	return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n)
{
	if (fake_ctx_ok())
		return fake_ctx_ok();
	if (!fake_find(dst, n) || (!src && n))
		return CUDA_ERROR_INVALID_VALUE;
	memcpy((void *)(uintptr_t)dst, src, n);
	return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n)
{
	if (fake_ctx_ok())
		return fake_ctx_ok();
	if (!fake_find(src, n) || (!dst && n))
		return CUDA_ERROR_INVALID_VALUE;
	memcpy(dst, (const void *)(uintptr_t)src, n);
	return CUDA_SUCCESS;
}

/* No kernels here: the JIT refuses, with a log as the real one writes. */
CUresult cuModuleLoadDataEx(CUmodule *mod, const void *image,
			    unsigned int nopts, int *opts, void **vals)
{
	char *log = NULL;
	size_t len = 0;
	unsigned int i;

	if (!mod || !image)
		return CUDA_ERROR_INVALID_VALUE;
	if (fake_ctx_ok())
		return fake_ctx_ok();
	for (i = 0; opts && vals && i < nopts; i++) {
		if (opts[i] == CU_JIT_ERROR_LOG_BUFFER)
			log = vals[i];
		else if (opts[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
			len = (size_t)(uintptr_t)vals[i];
	}
	if (log && len)
		snprintf(log, len, "the fake CUDA driver runs no kernels");
	*mod = NULL;
	return CUDA_ERROR_UNSUPPORTED_PTX_VERSION;
}

CUresult cuModuleUnload(CUmodule mod)
{
	(void)mod;
	return CUDA_ERROR_INVALID_VALUE; /* none was ever loaded */
}

CUresult cuModuleGetFunction(CUfunction *f, CUmodule mod, const char *name)
{
	(void)f;
	(void)mod;
	(void)name;
	return CUDA_ERROR_NOT_FOUND;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy,
			unsigned int gz, unsigned int bx, unsigned int by,
			unsigned int bz, unsigned int shared_bytes,
			CUstream stream, void **params, void **extra)
{
	(void)f;
	(void)gx;
	(void)gy;
	(void)gz;
	(void)bx;
	(void)by;
	(void)bz;
	(void)shared_bytes;
	(void)stream;
	(void)params;
	(void)extra;
	return CUDA_ERROR_INVALID_VALUE; /* no function was ever found */
}

static const struct fake_err {
	CUresult r;
	const char *name;
	const char *text;
} fake_errs[] = {
	{ CUDA_SUCCESS, "CUDA_SUCCESS", "no error" },
	{ CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE",
	  "invalid argument" },
	{ CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY",
	  "out of memory" },
	{ CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED",
	  "initialization error" },
	{ CUDA_ERROR_STUB_LIBRARY, "CUDA_ERROR_STUB_LIBRARY",
	  "CUDA driver is a stub library" },
	{ CUDA_ERROR_DEVICE_UNAVAILABLE, "CUDA_ERROR_DEVICE_UNAVAILABLE",
	  "CUDA-capable device(s) is/are busy or unavailable" },
	{ CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE",
	  "no CUDA-capable device is detected" },
	{ CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE",
	  "invalid device ordinal" },
	{ CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT",
	  "invalid device context" },
	{ CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
	  "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
	  "the provided PTX was compiled with an unsupported toolchain." },
	{ CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found" },
	{ CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED",
	  "operation not supported" },
};

static const struct fake_err *fake_err(CUresult r)
{
	size_t i;

	for (i = 0; i < sizeof(fake_errs) / sizeof(fake_errs[0]); i++)
		if (fake_errs[i].r == r)
			return &fake_errs[i];
	return NULL;
}

CUresult cuGetErrorName(CUresult r, const char **name)
{
	const struct fake_err *e = fake_err(r);

	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	*name = e ? e->name : NULL;
	return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult r, const char **text)
{
	const struct fake_err *e = fake_err(r);

	if (!text)
		return CUDA_ERROR_INVALID_VALUE;
	*text = e ? e->text : NULL;
	return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuPointerSetAttribute(const void *value, int attr, CUdeviceptr dptr)
{
	(void)attr;
	if (fake_ctx_ok())
		return fake_ctx_ok();
	return value && fake_find(dptr, 0) ? CUDA_SUCCESS :
					     CUDA_ERROR_INVALID_VALUE;
}

/* A dup of the allocation's memfd: a real fd, but not a dmabuf. */
CUresult cuMemGetHandleForAddressRange(void *handle, CUdeviceptr dptr,
				       size_t len, int type,
				       unsigned long long flags)
{
	struct fake_alloc *f;
	int fd;

	/* 1: CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD */
	if (!handle || type != 1 || flags)
		return CUDA_ERROR_INVALID_VALUE;
	if (fake_ctx_ok())
		return fake_ctx_ok();
	if (fake.nodmabuf)
		return CUDA_ERROR_NOT_SUPPORTED;
	f = fake_find(dptr, len);
	if (!f)
		return CUDA_ERROR_INVALID_VALUE;
	fd = fcntl(f->fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*(int *)handle = fd;
	return CUDA_SUCCESS;
}
