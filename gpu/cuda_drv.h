/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cuda_drv - GPU buffers through the CUDA *driver* API, loaded at run time
 * with dlopen("libcuda.so.1"). No CUDA header (this one is not named cuda.h
 * so that it never stands for the toolkit's), no link-time dependency: the
 * same binary runs on hosts without a GPU (it fails only when asked for GPU
 * memory, with a message) and builds without the CUDA toolkit.
 *
 * Every function returns 0 or a negative errno and logs the failure once,
 * with what to do about it; cuda_drv_check's -EILSEQ (data mismatch) is the one
 * result it does not log, since the caller reports corruption.
 *
 * One context per process per GPU (the device's primary context, shared with
 * any CUDA runtime user in the process). Use from one thread.
 */
#ifndef RDMABENCH_GPU_CUDA_DRV_H
#define RDMABENCH_GPU_CUDA_DRV_H

#include <stddef.h>
#include <stdint.h>

#include "lib/pattern.h"

#define CUDA_LIB_NAME "libcuda.so.1"

struct cuda_ctx;

/*
 * Open the GPU with CUDA ordinal device_index, or the one at PCI bus_id
 * ("0000:3b:00.0"; device_index is then ignored) when bus_id is not NULL.
 * Errors: -ENOSYS no usable CUDA driver (libcuda.so.1 missing, too old, or
 * the toolkit's stub); -ENODEV no such GPU (the message names how many
 * exist); -EIO anything else the driver refused.
 */
int cuda_drv_open(int device_index, const char *bus_id, struct cuda_ctx **out);

/* cuda_drv_open with another library than CUDA_LIB_NAME (tests, odd installs). */
int cuda_drv_open_lib(const char *lib_name, int device_index, const char *bus_id,
		  struct cuda_ctx **out);

/* Release what cuda_drv_open took; accepts NULL. Buffers must be freed first. */
void cuda_drv_close(struct cuda_ctx *c);

/* About the open GPU. bus id: lower case "dddd:bb:dd.f". */
const char *cuda_drv_name(const struct cuda_ctx *c);
const char *cuda_drv_pci_bus_id(const struct cuda_ctx *c);
int cuda_drv_index(const struct cuda_ctx *c);
int cuda_drv_driver_version(const struct cuda_ctx *c); /* 12040 = CUDA 12.4 */

/*
 * Every GPU the driver shows (CUDA_VISIBLE_DEVICES applies), by CUDA
 * ordinal: ids[i] is ordinal i's bus id, lower case "dddd:bb:dd.f"; at
 * most max, *n of them. No context is opened. Errors (logged) as
 * cuda_drv_open's: -ENOSYS no usable driver, -ENODEV no GPU, -EIO.
 */
#define CUDA_BUS_ID_MAX 32
int cuda_drv_list(const char *lib_name, char (*ids)[CUDA_BUS_ID_MAX],
		  size_t max, size_t *n);

/* NUMA node of the GPU's PCI function (sysfs under sysfs_root), -1 unknown
 * (host/devnode.h's rule) */
int cuda_drv_numa_node(const struct cuda_ctx *c, const char *sysfs_root);

/*
 * Allocate len bytes of device memory (cuMemAlloc; 2 MiB-aligned in
 * practice, never less than 256 B). Memory operations on it synchronise
 * (CU_POINTER_ATTRIBUTE_SYNC_MEMOPS), as GPUDirect RDMA requires.
 */
int cuda_drv_alloc(struct cuda_ctx *c, size_t len, uint64_t *dptr_out);
void cuda_drv_free(struct cuda_ctx *c, uint64_t dptr);

/*
 * 0 when the GPU can export dmabuf handles; else -EOPNOTSUPP, logged with
 * what to do (driver >= 515 with the open kernel modules, or peermem).
 */
int cuda_drv_dmabuf_supported(struct cuda_ctx *c);

/*
 * Export [dptr, dptr + len) as a dmabuf fd for ibv_reg_dmabuf_mr. The range
 * handed to CUDA is widened to whole host pages: *offset_out is where dptr
 * lies in the dmabuf (register with offset = *offset_out, iova = dptr). The
 * caller closes *fd_out.
 */
int cuda_drv_dmabuf_export(struct cuda_ctx *c, uint64_t dptr, size_t len,
		       int *fd_out, uint64_t *offset_out);

/* Plain copies and memset, synchronous. */
int cuda_drv_copy_to(struct cuda_ctx *c, uint64_t dptr, const void *src,
		 size_t len);
int cuda_drv_copy_from(struct cuda_ctx *c, void *dst, uint64_t dptr, size_t len);
int cuda_drv_memset(struct cuda_ctx *c, uint64_t dptr, uint8_t byte, size_t len);

/*
 * Fill size bytes at dptr with the --validate pattern of (size, iter), the
 * same bytes as pattern_fill() (lib/pattern.h), on the GPU. Synchronous.
 */
int cuda_drv_fill(struct cuda_ctx *c, uint64_t dptr, uint64_t size,
	      uint64_t iter);

/*
 * Check size bytes at dptr against the pattern of (size, iter) on the GPU.
 * Returns 0, or -EILSEQ (not logged) with the first wrong byte in *miss and
 * the number of wrong bytes in *nbad (may be NULL). size < 2^48.
 */
int cuda_drv_check(struct cuda_ctx *c, uint64_t dptr, uint64_t size,
	       uint64_t iter, struct pattern_miss *miss, uint64_t *nbad);

#endif
