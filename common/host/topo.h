/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * topo - how a GPU and an RDMA NIC are connected over PCIe, from sysfs
 * alone, in the terms of `nvidia-smi topo -m`. GPUDirect RDMA runs at line
 * rate only when the two meet below the CPU (PIX, PXB); through the root
 * complex or across sockets it often reaches a fraction of it (perftest
 * issue #241), and nothing else tells the user why.
 *
 * Pure: reads files under a sysfs root ("/sys", or a fake tree in tests).
 * A device's place is the path of its directory under ROOT/devices, e.g.
 * "pci0000:10/0000:10:01.0/0000:11:00.0/0000:12:00.0/0000:15:00.0": the
 * host bridge, then each PCI bridge on the way down, then the device, as
 * host/devnode.h reads it (devnode_*_addr).
 */
#ifndef RDMABENCH_HOST_TOPO_H
#define RDMABENCH_HOST_TOPO_H

#include <stdbool.h>
#include <stddef.h>

enum topo_link {
	TOPO_UNKNOWN = 0, /* a device with no PCI path (rxe, siw, VMs) */
	TOPO_PIX,         /* at most one PCIe switch between them */
	TOPO_PXB,         /* several PCIe switches, below one root port */
	TOPO_PHB,         /* the same host bridge (root complex) */
	TOPO_NODE,        /* different host bridges of one NUMA node */
	TOPO_SYS,         /* across the link between CPU sockets */
};

#define TOPO_PATH_MAX 512
#define TOPO_MSG_MAX 640

/* "PIX", "PXB", "PHB", "NODE", "SYS" or "unknown". */
const char *topo_link_name(enum topo_link link);

/* Words for the report: "one PCIe switch", "the CPU sockets' link", ... */
const char *topo_link_desc(enum topo_link link);

/*
 * Whether PCI function bdf (ROOT/bus/pci/devices/BDF) is an NVIDIA GPU:
 * vendor 0x10de, class 0x0300xx (VGA) or 0x0302xx (3D controller), what
 * nvidia-smi lists. The one rule, for the pairing here and ib_doctor's
 * inventory.
 */
bool topo_is_gpu(const char *sysfs_root, const char *bdf);

/*
 * The link between two devices given their places and NUMA nodes (-1:
 * unknown). Pure string logic: different host bridges are NODE when the
 * nodes are equal, else SYS; under one host bridge, PHB when they hang off
 * different root ports, PIX when each is at most one bridge below the
 * bridge where their paths meet (one switch: its upstream port and one
 * downstream port each side), else PXB.
 */
enum topo_link topo_classify(const char *path_a, int node_a,
			     const char *path_b, int node_b);

struct topo_rel {
	enum topo_link link;
	char gpu_bdf[32];
	char nic_bdf[32];       /* empty: the NIC is not a PCI function */
	int gpu_node;           /* -1: unknown */
	int nic_node;
	char best_gpu[32];      /* nearest GPU to the NIC, "" if none found */
	enum topo_link best_gpu_link;
	char best_nic[64];      /* nearest RDMA device to the GPU */
	enum topo_link best_nic_link;
	char warn[TOPO_MSG_MAX]; /* non-empty when worse than PXB */
};

/*
 * Relate GPU gpu_bdf and RDMA device rdma_dev. Fills *out (link
 * TOPO_UNKNOWN when either has no PCI path) and, when the link is worse
 * than PXB, a warning in out->warn naming the nearer GPU or NIC to use.
 * Returns 0, or -ENOENT when the GPU is not in sysfs.
 */
int topo_gpu_nic(const char *sysfs_root, const char *gpu_bdf,
		 const char *rdma_dev, struct topo_rel *out);

#endif
