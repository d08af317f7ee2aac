/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sysver - the versions that drift between nodes, for the results
 * document and the fleet view (scripts/fabric_fleet.py): the kernel
 * release, an RDMA device's driver and its version, the NVIDIA (CUDA)
 * kernel driver's version, and rdma-core's release from libibverbs'
 * file name. One reader per fact, each below a root ("/" or NULL on a host, a
 * fake tree in the tests); on any failure the buffer holds "" (unknown).
 * Pure: files, no verbs (the rdma layer finds libibverbs' path).
 */
#ifndef RDMABENCH_HOST_SYSVER_H
#define RDMABENCH_HOST_SYSVER_H

#include <stddef.h>

/* ROOT/proc/sys/kernel/osrelease ("6.8.0-45-generic"): 0 or -errno. */
int sysver_kernel(const char *root, char *buf, size_t len);

/*
 * DEV's driver, the last part of ROOT/sys/class/infiniband/DEV/device/
 * driver's link ("mlx5_core"): 0, or -ENOENT for a software device
 * (rxe, siw: no PCI function).
 */
int sysver_driver(const char *root, const char *dev, char *buf, size_t len);

/*
 * A kernel module's version, ROOT/sys/module/MOD/version ("24.10-1.1.4"
 * for MLNX_OFED's mlx5_core; in-tree modules have none: -ENOENT, their
 * version is the kernel's).
 */
int sysver_module(const char *root, const char *mod, char *buf, size_t len);

/* The NVIDIA kernel driver's version ("550.54.15"): -ENOENT without one. */
int sysver_nvidia(const char *root, char *buf, size_t len);

/*
 * rdma-core's release from the path of the libibverbs it loaded:
 * ".../libibverbs.so.1.14.50.0" -> "50.0" (rdma-core names the library
 * 1.ABI.RELEASE). -EINVAL for a path not of that shape.
 */
int sysver_rdma_core(const char *lib_path, char *buf, size_t len);

#endif
