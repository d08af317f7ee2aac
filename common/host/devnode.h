/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * devnode - the NUMA node of a device: the one reader of sysfs's
 * numa_node files. The placement (place.c), and through its plan the
 * text header and the results JSON, the device facts (link.c,
 * rdma/dev.c), the PCIe pairing (topo.c, gpupair.c, gpu/cuda_drv.c) and
 * ib_doctor all take a device's node from here, so they cannot disagree
 * about one device. Pure: files under a sysfs root ("/sys", or a fake
 * tree in the tests).
 *
 * The one rule: the node is what the kernel writes there ("%d\n"), a
 * decimal number in [0, DEVNODE_MAX). Anything else is no node, -1:
 *  - no file: the device is not a PCI function (rxe, siw), or no such
 *    device;
 *  - "-1": the firmware gives no PCIe locality (no ACPI _PXM), normal on
 *    a one-node host, suspicious on a multi-socket one;
 *  - garbage ("0x1", "1x", "", a value too long to read) or a number out
 *    of range: taken as "-1", never as a guess at a node.
 */
#ifndef RDMABENCH_HOST_DEVNODE_H
#define RDMABENCH_HOST_DEVNODE_H

/* The kernel's MAX_NUMNODES is at most 1 << 10 (NODES_SHIFT). */
#define DEVNODE_MAX 1024

/*
 * The node of RDMA device dev (ROOT/class/infiniband/DEV/device/numa_node)
 * or of PCI function bdf ("0000:3b:00.0": ROOT/bus/pci/devices/BDF/
 * numa_node) into *node, -1 when it has none by the rule above. Returns 0
 * when the file is there and was read, whatever it holds (one too long
 * counts as garbage): the device is a PCI function. Else -ENOENT (no
 * file, or a name that is empty or holds '/'), or another -errno of the
 * read. *node is set in every case.
 */
int devnode_rdma(const char *sysfs_root, const char *dev, int *node);
int devnode_pci(const char *sysfs_root, const char *bdf, int *node);

#endif
