// SPDX-License-Identifier: BSD-2-Clause
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/cuda_drv.h"
#include "gpu/cuda_ptx.h"
#include "lib/fs.h"
#include "lib/log.h"
#include "host/devnode.h"

/*
 * The driver API's types and constants we use, as its ABI defines them
 * (values from the toolkit's <cuda.h>; they never change once released),
 * one enum per driver API type. Not including <cuda.h> keeps this module
 * buildable and testable without the toolkit.
 */
typedef int cu_result;
typedef int cu_device;
typedef uint64_t cu_deviceptr; /* unsigned long long on 64-bit hosts */
typedef void *cu_context;
typedef void *cu_module;
typedef void *cu_function;
typedef void *cu_stream;

enum cu_result_code { /* CUresult */
	CU_OK = 0,
	CU_ERR_INVALID_VALUE = 1,
	CU_ERR_OUT_OF_MEMORY = 2,
	CU_ERR_STUB_LIBRARY = 34,
	CU_ERR_NO_DEVICE = 100,
	CU_ERR_INVALID_DEVICE = 101,
	CU_ERR_NOT_SUPPORTED = 801,
};
#define CU_ATTR_DMA_BUF_SUPPORTED 124 /* a CUdevice_attribute */
#define CU_PTR_ATTR_SYNC_MEMOPS 6 /* a CUpointer_attribute */
#define CU_HANDLE_TYPE_DMA_BUF_FD 1 /* a CUmemRangeHandleType */
enum cu_jit_option { /* CUjit_option */
	CU_JIT_ERROR_LOG_BUFFER = 5,
	CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

#define CUDA_HINT_GENERIC \
	"check nvidia-smi, and the kernel log (dmesg) for NVIDIA Xid errors"
#define CUDA_HINT_DMABUF                                                   \
	"dmabuf needs NVIDIA driver >= 515 with the open kernel modules "  \
	"(nvidia-open) and Linux >= 5.12; or drop --use_cuda_dmabuf to "   \
	"register through nvidia-peermem"
#define CUDA_THREADS 256u
#define CUDA_MAX_BLOCKS 8192u
#define CUDA_CHECK_MAX_BYTES (1ULL << 48) /* offset << 16 fits 64 bits */

struct cuda_fns {
	cu_result (*cuInit)(unsigned int flags);
	cu_result (*cuDriverGetVersion)(int *version);
	cu_result (*cuDeviceGetCount)(int *count);
	cu_result (*cuDeviceGet)(cu_device *dev, int ordinal);
	cu_result (*cuDeviceGetByPCIBusId)(cu_device *dev, const char *id);
	cu_result (*cuDeviceGetAttribute)(int *value, int attr, cu_device dev);
	cu_result (*cuDeviceGetName)(char *name, int len, cu_device dev);
	cu_result (*cuDeviceGetPCIBusId)(char *id, int len, cu_device dev);
	cu_result (*cuDevicePrimaryCtxRetain)(cu_context *ctx, cu_device dev);
	cu_result (*cuDevicePrimaryCtxRelease)(cu_device dev);
	cu_result (*cuCtxSetCurrent)(cu_context ctx);
	cu_result (*cuCtxSynchronize)(void);
	cu_result (*cuMemAlloc)(cu_deviceptr *dptr, size_t len);
	cu_result (*cuMemFree)(cu_deviceptr dptr);
	cu_result (*cuMemsetD8)(cu_deviceptr dptr, unsigned char v, size_t n);
	cu_result (*cuMemcpyHtoD)(cu_deviceptr dst, const void *src, size_t n);
	cu_result (*cuMemcpyDtoH)(void *dst, cu_deviceptr src, size_t n);
	cu_result (*cuModuleLoadDataEx)(cu_module *mod, const void *image,
					unsigned int nopts, int *opts,
					void **vals);
	cu_result (*cuModuleUnload)(cu_module mod);
	cu_result (*cuModuleGetFunction)(cu_function *f, cu_module mod,
					 const char *name);
	cu_result (*cuLaunchKernel)(cu_function f, unsigned int gx,
				    unsigned int gy, unsigned int gz,
				    unsigned int bx, unsigned int by,
				    unsigned int bz, unsigned int shared_bytes,
				    cu_stream stream, void **params,
				    void **extra);
	cu_result (*cuGetErrorName)(cu_result r, const char **name);
	cu_result (*cuGetErrorString)(cu_result r, const char **text);
	/* optional: NULL when the driver predates them */
	cu_result (*cuPointerSetAttribute)(const void *value, int attr,
					   cu_deviceptr dptr);
	cu_result (*cuMemGetHandleForAddressRange)(void *handle,
						   cu_deviceptr dptr,
						   size_t len, int type,
						   unsigned long long flags);
};

struct cuda_ctx {
	void *lib;
	struct cuda_fns fn;
	cu_device dev;
	int index;
	int driver_version;
	cu_context pctx;      /* retained primary context, NULL before */
	cu_module module;     /* --validate kernels, loaded on first use */
	cu_function k_fill;
	cu_function k_check;
	cu_function k_fill8; /* the same a word at a time (aligned) */
	cu_function k_check8;
	cu_deviceptr res;     /* rdmabench_check's 2 x u64 result */
	char name[128];
	char bus_id[CUDA_BUS_ID_MAX];
};

/*
 * The table's fields are named after the driver entry points they hold;
 * dlsym looks up the name plus its ABI version suffix (cuMemAlloc_v2).
 */
#define CUDA_SYM(fn, ver, req) { #fn ver, offsetof(struct cuda_fns, fn), req }

static const struct cuda_sym {
	const char *name;
	size_t off;
	bool required;
} cuda_syms[] = {
	CUDA_SYM(cuInit, "", true),
	CUDA_SYM(cuDriverGetVersion, "", true),
	CUDA_SYM(cuDeviceGetCount, "", true),
	CUDA_SYM(cuDeviceGet, "", true),
	CUDA_SYM(cuDeviceGetByPCIBusId, "", true),
	CUDA_SYM(cuDeviceGetAttribute, "", true),
	CUDA_SYM(cuDeviceGetName, "", true),
	CUDA_SYM(cuDeviceGetPCIBusId, "", true),
	CUDA_SYM(cuDevicePrimaryCtxRetain, "", true),
	CUDA_SYM(cuDevicePrimaryCtxRelease, "_v2", true),
	CUDA_SYM(cuCtxSetCurrent, "", true),
	CUDA_SYM(cuCtxSynchronize, "", true),
	CUDA_SYM(cuMemAlloc, "_v2", true),
	CUDA_SYM(cuMemFree, "_v2", true),
	CUDA_SYM(cuMemsetD8, "_v2", true),
	CUDA_SYM(cuMemcpyHtoD, "_v2", true),
	CUDA_SYM(cuMemcpyDtoH, "_v2", true),
	CUDA_SYM(cuModuleLoadDataEx, "", true),
	CUDA_SYM(cuModuleUnload, "", true),
	CUDA_SYM(cuModuleGetFunction, "", true),
	CUDA_SYM(cuLaunchKernel, "", true),
	CUDA_SYM(cuGetErrorName, "", true),
	CUDA_SYM(cuGetErrorString, "", true),
	CUDA_SYM(cuPointerSetAttribute, "", false),
	CUDA_SYM(cuMemGetHandleForAddressRange, "", false),
};

static int cuda_errno(cu_result r)
{
	switch (r) {
	case CU_ERR_OUT_OF_MEMORY:
		return -ENOMEM;
	case CU_ERR_NO_DEVICE:
	case CU_ERR_INVALID_DEVICE:
		return -ENODEV;
	case CU_ERR_NOT_SUPPORTED:
		return -EOPNOTSUPP;
	case CU_ERR_INVALID_VALUE:
		return -EINVAL;
	default:
		return -EIO;
	}
}

/* Log "what: CUDA_ERROR_X (text): hint" and map r to a negative errno. */
static int cuda_fail(const struct cuda_ctx *c, cu_result r, const char *what,
		     const char *hint)
{
	const char *name = NULL, *text = NULL;

	if (c->fn.cuGetErrorName && c->fn.cuGetErrorName(r, &name))
		name = NULL;
	if (c->fn.cuGetErrorString && c->fn.cuGetErrorString(r, &text))
		text = NULL;
	bench_err("%s: %s (%s): %s", what, name ? name : "CUDA error",
		  text ? text : "no description", hint ? hint :
		  CUDA_HINT_GENERIC);
	return cuda_errno(r);
}

static int cuda_load(struct cuda_ctx *c, const char *lib_name)
{
	size_t i;

	/* RTLD_LOCAL: the driver's symbols stay out of the global scope */
	c->lib = dlopen(lib_name, RTLD_NOW | RTLD_LOCAL);
	if (!c->lib) {
		bench_err("no CUDA driver on this host (%s not found: %s): "
			  "install the NVIDIA driver (in a container, run it "
			  "with the NVIDIA container runtime), or drop "
			  "--use_cuda", lib_name, dlerror());
		return -ENOSYS;
	}
	for (i = 0; i < sizeof(cuda_syms) / sizeof(cuda_syms[0]); i++) {
		void *sym = dlsym(c->lib, cuda_syms[i].name);

		if (!sym && cuda_syms[i].required) {
			bench_err("the CUDA driver is too old (%s lacks %s): "
				  "update the NVIDIA driver", lib_name,
				  cuda_syms[i].name);
			dlclose(c->lib);
			c->lib = NULL;
			return -ENOSYS;
		}
		/* POSIX's way to put a dlsym() result in a function pointer */
		memcpy((char *)&c->fn + cuda_syms[i].off, &sym, sizeof(sym));
	}
	return 0;
}

static int cuda_init(struct cuda_ctx *c, const char *lib_name)
{
	cu_result r = c->fn.cuInit(0);

	if (r == CU_ERR_STUB_LIBRARY) {
		bench_err("%s is the CUDA toolkit's stub library, not the "
			  "driver: take the toolkit's stubs folder out of "
			  "LD_LIBRARY_PATH, or install the NVIDIA driver",
			  lib_name);
		return -ENOSYS;
	}
	if (r == CU_ERR_NO_DEVICE)
		return cuda_fail(c, r, "cuInit: the CUDA driver sees no GPU",
				 "check nvidia-smi; in a container or pod, "
				 "ask for a GPU (nvidia.com/gpu in "
				 "resources.limits) and check "
				 "CUDA_VISIBLE_DEVICES");
	if (r)
		return cuda_fail(c, r, "cuInit", NULL);
	r = c->fn.cuDriverGetVersion(&c->driver_version);
	if (r)
		return cuda_fail(c, r, "cuDriverGetVersion", NULL);
	return 0;
}

/* "00000000:3B:00.0" (the driver's form) -> "0000:3b:00.0" (sysfs's) */
static void cuda_norm_bus_id(const char *in, char *out, size_t len)
{
	unsigned int dom, bus, dev, fn;

	if (sscanf(in, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) == 4)
		snprintf(out, len, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
	else
		snprintf(out, len, "%s", in);
}

static int cuda_pick_by_bus_id(struct cuda_ctx *c, const char *bus_id,
			       int count)
{
	cu_device d;
	int i;

	if (c->fn.cuDeviceGetByPCIBusId(&c->dev, bus_id)) {
		bench_err("no CUDA GPU at PCI bus id %s: "
			  "'nvidia-smi --query-gpu=index,pci.bus_id "
			  "--format=csv' lists them (CUDA_VISIBLE_DEVICES "
			  "may hide it)", bus_id);
		return -ENODEV;
	}
	c->index = -1;
	for (i = 0; i < count; i++) {
		if (!c->fn.cuDeviceGet(&d, i) && d == c->dev) {
			c->index = i;
			break;
		}
	}
	return 0;
}

static int cuda_pick(struct cuda_ctx *c, int index, const char *bus_id)
{
	char raw[64] = "";
	int count = 0;
	cu_result r;

	r = c->fn.cuDeviceGetCount(&count);
	if (r)
		return cuda_fail(c, r, "cuDeviceGetCount", NULL);
	if (bus_id) {
		if (cuda_pick_by_bus_id(c, bus_id, count))
			return -ENODEV;
	} else if (index < 0 || index >= count) {
		bench_err("CUDA device %d does not exist: this host shows %d "
			  "GPU(s)%s; pick another --use_cuda "
			  "(CUDA_VISIBLE_DEVICES renumbers them)", index,
			  count, count > 1 ? ", numbered from 0" : "");
		return -ENODEV;
	} else {
		r = c->fn.cuDeviceGet(&c->dev, index);
		if (r)
			return cuda_fail(c, r, "cuDeviceGet", NULL);
		c->index = index;
	}
	if (c->fn.cuDeviceGetName(c->name, (int)sizeof(c->name), c->dev))
		snprintf(c->name, sizeof(c->name), "unknown GPU");
	if (c->fn.cuDeviceGetPCIBusId(raw, (int)sizeof(raw), c->dev))
		snprintf(raw, sizeof(raw), "unknown");
	cuda_norm_bus_id(raw, c->bus_id, sizeof(c->bus_id));
	return 0;
}

static int cuda_ctx_retain(struct cuda_ctx *c)
{
	char what[320];
	cu_result r;

	r = c->fn.cuDevicePrimaryCtxRetain(&c->pctx, c->dev);
	if (!r)
		r = c->fn.cuCtxSetCurrent(c->pctx);
	if (!r)
		return 0;
	snprintf(what, sizeof(what), "cannot open a CUDA context on GPU %d "
		 "(%s, %s)", c->index, c->name, c->bus_id);
	if (c->pctx)
		c->fn.cuDevicePrimaryCtxRelease(c->dev);
	c->pctx = NULL;
	return cuda_fail(c, r, what,
			 "the GPU may be in exclusive-process compute mode "
			 "and busy (nvidia-smi -q | grep 'Compute Mode'), or "
			 "failed (dmesg: NVIDIA Xid errors)");
}

/* A context with the driver loaded and initialised, no GPU picked yet. */
static int cuda_start(const char *lib_name, struct cuda_ctx **out)
{
	struct cuda_ctx *c = calloc(1, sizeof(*c));
	int ret;

	if (!c) {
		bench_err("no memory for a CUDA context");
		return -ENOMEM;
	}
	ret = cuda_load(c, lib_name);
	if (!ret) {
		ret = cuda_init(c, lib_name);
		if (ret)
			dlclose(c->lib);
	}
	if (ret) {
		free(c);
		return ret;
	}
	*out = c;
	return 0;
}

static void cuda_stop(struct cuda_ctx *c)
{
	dlclose(c->lib);
	free(c);
}

int cuda_drv_open_lib(const char *lib_name, int device_index, const char *bus_id,
		  struct cuda_ctx **out)
{
	struct cuda_ctx *c;
	int ret;

	ret = cuda_start(lib_name, &c);
	if (ret)
		return ret;
	ret = cuda_pick(c, device_index, bus_id);
	if (!ret)
		ret = cuda_ctx_retain(c);
	if (ret) {
		cuda_stop(c);
		return ret;
	}
	*out = c;
	return 0;
}

int cuda_drv_open(int device_index, const char *bus_id, struct cuda_ctx **out)
{
	return cuda_drv_open_lib(CUDA_LIB_NAME, device_index, bus_id, out);
}

/* Make c's context the thread's current one (another may have been). */
static int cuda_bind(struct cuda_ctx *c)
{
	cu_result r = c->fn.cuCtxSetCurrent(c->pctx);

	return r ? cuda_fail(c, r, "cuCtxSetCurrent", NULL) : 0;
}

void cuda_drv_close(struct cuda_ctx *c)
{
	if (!c)
		return;
	if (c->pctx && !c->fn.cuCtxSetCurrent(c->pctx)) {
		if (c->res && c->fn.cuMemFree(c->res))
			bench_warn("cuMemFree of the check result failed");
		if (c->module && c->fn.cuModuleUnload(c->module))
			bench_warn("cuModuleUnload failed");
	}
	if (c->pctx && c->fn.cuDevicePrimaryCtxRelease(c->dev))
		bench_warn("cuDevicePrimaryCtxRelease(GPU %d) failed",
			   c->index);
	dlclose(c->lib);
	free(c);
}

const char *cuda_drv_name(const struct cuda_ctx *c)
{
	return c->name;
}

const char *cuda_drv_pci_bus_id(const struct cuda_ctx *c)
{
	return c->bus_id;
}

int cuda_drv_index(const struct cuda_ctx *c)
{
	return c->index;
}

int cuda_drv_driver_version(const struct cuda_ctx *c)
{
	return c->driver_version;
}

/* Ordinals 0..count of an initialised driver into ids. */
static int cuda_list_ids(struct cuda_ctx *c, char (*ids)[CUDA_BUS_ID_MAX],
			 size_t max, size_t *n)
{
	char raw[64];
	int count = 0, i;
	cu_device d;
	cu_result r;

	r = c->fn.cuDeviceGetCount(&count);
	if (r)
		return cuda_fail(c, r, "cuDeviceGetCount", NULL);
	for (i = 0; i < count && *n < max; i++) {
		r = c->fn.cuDeviceGet(&d, i);
		if (!r)
			r = c->fn.cuDeviceGetPCIBusId(raw, (int)sizeof(raw), d);
		if (r)
			return cuda_fail(c, r, "cuDeviceGetPCIBusId", NULL);
		cuda_norm_bus_id(raw, ids[(*n)++], CUDA_BUS_ID_MAX);
	}
	return 0;
}

int cuda_drv_list(const char *lib_name, char (*ids)[CUDA_BUS_ID_MAX],
		  size_t max, size_t *n)
{
	struct cuda_ctx *c;
	int ret;

	*n = 0;
	ret = cuda_start(lib_name, &c);
	if (ret)
		return ret;
	ret = cuda_list_ids(c, ids, max, n);
	cuda_stop(c);
	return ret;
}

int cuda_drv_numa_node(const struct cuda_ctx *c, const char *sysfs_root)
{
	int node;

	devnode_pci(sysfs_root, c->bus_id, &node);
	return node;
}

int cuda_drv_alloc(struct cuda_ctx *c, size_t len, uint64_t *dptr_out)
{
	cu_deviceptr d = 0;
	char what[320];
	cu_result r;
	int one = 1;

	if (cuda_bind(c))
		return -EIO;
	r = c->fn.cuMemAlloc(&d, len ? len : 1);
	if (r) {
		snprintf(what, sizeof(what), "cannot allocate %zu bytes on "
			 "GPU %d (%s)", len, c->index, c->name);
		return cuda_fail(c, r, what, r == CU_ERR_OUT_OF_MEMORY ?
				 "free GPU memory (nvidia-smi lists the "
				 "processes holding it) or use a smaller -s" :
				 NULL);
	}
	/* GPUDirect RDMA: make memcpy/memset on this range wait for
	 * outstanding work, so a check never reads before a copy lands. */
	if (c->fn.cuPointerSetAttribute &&
	    c->fn.cuPointerSetAttribute(&one, CU_PTR_ATTR_SYNC_MEMOPS, d))
		bench_warn("cannot set SYNC_MEMOPS on GPU %d memory: copies "
			   "may overlap RDMA traffic", c->index);
	*dptr_out = d;
	return 0;
}

void cuda_drv_free(struct cuda_ctx *c, uint64_t dptr)
{
	if (!dptr || cuda_bind(c))
		return;
	if (c->fn.cuMemFree(dptr))
		bench_warn("cuMemFree(0x%llx) on GPU %d failed",
			   (unsigned long long)dptr, c->index);
}

/*
 * "open kernel module 580.95.05" from /proc/driver/nvidia/version's first
 * line, "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05
 * Release Build  (...)  <date>".
 */
static void cuda_kmod_desc(char *out, size_t len)
{
	char line[256], *tok, *save = NULL;
	const char *ver = "version unknown";
	bool open_kmod;

	snprintf(out, len, "NVIDIA kernel module not found");
	if (fs_read_field("/", "NVRM version", line, sizeof(line),
			  "/proc/driver/nvidia/version"))
		return;
	open_kmod = strstr(line, "Open Kernel Module") != NULL;
	for (tok = strtok_r(line, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (tok[0] >= '0' && tok[0] <= '9' && strchr(tok, '.')) {
			ver = tok;
			break;
		}
	}
	snprintf(out, len, "%s kernel module %s",
		 open_kmod ? "open" : "proprietary", ver);
}

int cuda_drv_dmabuf_supported(struct cuda_ctx *c)
{
	char kmod[96];
	int v = 0;

	if (c->fn.cuMemGetHandleForAddressRange &&
	    !c->fn.cuDeviceGetAttribute(&v, CU_ATTR_DMA_BUF_SUPPORTED,
					c->dev) &&
	    v)
		return 0;
	cuda_kmod_desc(kmod, sizeof(kmod));
	bench_err("GPU %d (%s) cannot export dmabuf handles (%s; %s): %s",
		  c->index, c->name,
		  c->fn.cuMemGetHandleForAddressRange ?
			  "CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED is 0" :
			  "the driver lacks cuMemGetHandleForAddressRange",
		  kmod, CUDA_HINT_DMABUF);
	return -EOPNOTSUPP;
}

int cuda_drv_dmabuf_export(struct cuda_ctx *c, uint64_t dptr, size_t len,
		       int *fd_out, uint64_t *offset_out)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t start = dptr & ~(page - 1);
	uint64_t span = (dptr - start + len + page - 1) & ~(page - 1);
	char what[320];
	cu_result r;
	int fd = -1;

	if (cuda_drv_dmabuf_supported(c))
		return -EOPNOTSUPP;
	if (cuda_bind(c))
		return -EIO;
	/* CUDA wants whole host pages; the registration takes the offset */
	r = c->fn.cuMemGetHandleForAddressRange(&fd, start, span,
						CU_HANDLE_TYPE_DMA_BUF_FD, 0);
	if (r || fd < 0) {
		snprintf(what, sizeof(what), "cannot export %zu bytes at "
			 "0x%llx of GPU %d as dmabuf "
			 "(cuMemGetHandleForAddressRange)", len,
			 (unsigned long long)dptr, c->index);
		return cuda_fail(c, r ? r : CU_ERR_NOT_SUPPORTED, what,
				 r == CU_ERR_INVALID_VALUE ?
				 "the range must lie inside one cuMemAlloc "
				 "allocation" : CUDA_HINT_DMABUF);
	}
	*fd_out = fd;
	*offset_out = dptr - start;
	return 0;
}

int cuda_drv_copy_to(struct cuda_ctx *c, uint64_t dptr, const void *src,
		 size_t len)
{
	cu_result r;

	if (cuda_bind(c))
		return -EIO;
	r = c->fn.cuMemcpyHtoD(dptr, src, len);
	return r ? cuda_fail(c, r, "cuMemcpyHtoD", NULL) : 0;
}

int cuda_drv_copy_from(struct cuda_ctx *c, void *dst, uint64_t dptr, size_t len)
{
	cu_result r;

	if (cuda_bind(c))
		return -EIO;
	r = c->fn.cuMemcpyDtoH(dst, dptr, len);
	return r ? cuda_fail(c, r, "cuMemcpyDtoH", NULL) : 0;
}

int cuda_drv_memset(struct cuda_ctx *c, uint64_t dptr, uint8_t byte, size_t len)
{
	cu_result r;

	if (cuda_bind(c))
		return -EIO;
	r = c->fn.cuMemsetD8(dptr, byte, len);
	if (!r)
		r = c->fn.cuCtxSynchronize();
	return r ? cuda_fail(c, r, "cuMemsetD8", NULL) : 0;
}

/* JIT the PTX (first use only) and find both kernels. */
static int cuda_kernels_load(struct cuda_ctx *c)
{
	int opts[2] = { CU_JIT_ERROR_LOG_BUFFER,
			CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	char log[2048] = "", what[2400];
	void *vals[2] = { log, (void *)(uintptr_t)sizeof(log) };
	cu_result r;

	if (c->module)
		return 0;
	r = c->fn.cuModuleLoadDataEx(&c->module, cuda_ptx_text, 2, opts, vals);
	if (r) {
		c->module = NULL;
		snprintf(what, sizeof(what), "cannot load the --validate "
			 "kernels on GPU %d (JIT log: %s)", c->index,
			 log[0] ? log : "empty");
		return cuda_fail(c, r, what, "the driver must accept PTX ISA "
				 "6.0 (CUDA 9 or later): update the NVIDIA "
				 "driver, or drop --validate");
	}
	r = c->fn.cuModuleGetFunction(&c->k_fill, c->module, "rdmabench_fill");
	if (!r)
		r = c->fn.cuModuleGetFunction(&c->k_check, c->module,
					      "rdmabench_check");
	if (!r)
		r = c->fn.cuModuleGetFunction(&c->k_fill8, c->module,
					      "rdmabench_fill8");
	if (!r)
		r = c->fn.cuModuleGetFunction(&c->k_check8, c->module,
					      "rdmabench_check8");
	if (!r)
		r = c->fn.cuMemAlloc(&c->res, 2 * sizeof(uint64_t));
	if (!r)
		return 0;
	c->fn.cuModuleUnload(c->module); /* the next call starts over */
	c->module = NULL;
	c->res = 0;
	return cuda_fail(c, r, "preparing the --validate kernels", NULL);
}

static int cuda_launch(struct cuda_ctx *c, cu_function f, uint64_t size,
		       void **args, const char *what)
{
	uint64_t blocks = (size + CUDA_THREADS - 1) / CUDA_THREADS;
	cu_result r;

	if (blocks > CUDA_MAX_BLOCKS)
		blocks = CUDA_MAX_BLOCKS; /* the kernels loop over the rest */
	r = c->fn.cuLaunchKernel(f, (unsigned int)blocks, 1, 1, CUDA_THREADS, 1,
				 1, 0, NULL, args, NULL);
	/* synchronous: a fault shows here, named, not at a later call */
	if (!r)
		r = c->fn.cuCtxSynchronize();
	return r ? cuda_fail(c, r, what, NULL) : 0;
}

/* The host half of lib/pattern.c's word function (see cuda_ptx.h). */
static uint64_t cuda_pattern_base(uint64_t size, uint64_t iter)
{
	return size * 0x9e3779b97f4a7c15ULL ^ iter * 0xbf58476d1ce4e5b9ULL;
}

/* The bytes the word kernels take: the whole words of an aligned ptr. */
static uint64_t cuda_word_bytes(uint64_t dptr, uint64_t size)
{
	return dptr % 8 ? 0 : size & ~7ULL;
}

/* A kernel pair over [0, size): words up to first, bytes from there. */
static int cuda_launch_pair(struct cuda_ctx *c, cu_function words,
			    cu_function bytes, uint64_t size, uint64_t first,
			    void **args, const char *what)
{
	int ret = 0;

	if (first)
		ret = cuda_launch(c, words, first / 8, args, what);
	if (!ret && first < size)
		ret = cuda_launch(c, bytes, size - first, args, what);
	return ret;
}

int cuda_drv_fill(struct cuda_ctx *c, uint64_t dptr, uint64_t size,
	      uint64_t iter)
{
	uint64_t base = cuda_pattern_base(size, iter);
	uint64_t first = cuda_word_bytes(dptr, size);
	uint32_t marker = pattern_marker(iter);
	void *args[] = { &dptr, &size, &base, &marker, &first };

	if (!size)
		return 0;
	if (cuda_bind(c) || cuda_kernels_load(c))
		return -EIO;
	return cuda_launch_pair(c, c->k_fill8, c->k_fill, size, first, args,
				"rdmabench_fill");
}

int cuda_drv_check(struct cuda_ctx *c, uint64_t dptr, uint64_t size,
	       uint64_t iter, struct pattern_miss *miss, uint64_t *nbad)
{
	uint64_t base = cuda_pattern_base(size, iter);
	uint64_t res[2] = { UINT64_MAX, 0 };
	uint64_t first = cuda_word_bytes(dptr, size);
	uint32_t marker = pattern_marker(iter);
	void *args[] = { &dptr, &size, &base, &marker, &c->res, &first };
	int ret;

	if (size >= CUDA_CHECK_MAX_BYTES) {
		bench_err("cannot check %llu bytes at once (at most 2^48): "
			  "check in parts", (unsigned long long)size);
		return -EINVAL;
	}
	if (!size)
		return 0;
	if (cuda_bind(c) || cuda_kernels_load(c))
		return -EIO;
	ret = cuda_drv_copy_to(c, c->res, res, sizeof(res));
	if (!ret)
		ret = cuda_launch_pair(c, c->k_check8, c->k_check, size, first,
				       args, "rdmabench_check");
	if (!ret)
		ret = cuda_drv_copy_from(c, res, c->res, sizeof(res));
	if (ret || !res[1])
		return ret;
	miss->offset = res[0] >> 16;
	miss->expected = (uint8_t)(res[0] >> 8);
	miss->actual = (uint8_t)res[0];
	if (nbad)
		*nbad = res[1];
	return -EILSEQ;
}
