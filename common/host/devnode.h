/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * devnode - where a device is: its NUMA node, the one reader of sysfs's
 * numa_node files, and its PCI function (address and place), the one
 * reader of the links to it. The placement (place.c), and through its
 * plan the text header and the results JSON, the device facts (link.c,
 * rdma/dev.c), the PCIe pairing (topo.c, gpupair.c, gpu/cuda_drv.c) and
 * ib_doctor all take a device's node and PCI function from here, so they
 * cannot disagree about one device. Pure: files under a sysfs root
 * ("/sys", or a fake tree in the tests).
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

/* "0000:3b:00.0" and its NUL; a domain may have up to 8 digits (VMD). */
#define DEVNODE_BDF_LEN 20
#define DEVNODE_PLACE_LEN 512

/*
 * A device's PCI function: its address and its place, the path of the
 * function below ROOT/devices: the host bridge, each bridge on the way
 * down, then the function ("pci0000:3a/0000:3a:00.0/0000:3b:00.0"), which
 * host/topo.h compares.
 */
struct devnode_addr {
	char bdf[DEVNODE_BDF_LEN];
	char place[DEVNODE_PLACE_LEN];
};

/*
 * The PCI function of RDMA device dev (ROOT/class/infiniband/DEV/device),
 * of netdev ifname (ROOT/class/net/IF/device) or of PCI function bdf
 * (ROOT/bus/pci/devices/BDF) into *out. The one rule: the link resolves
 * below ROOT/devices/pci* to a folder whose name is a PCI address
 * (DDDD:BB:DD.F, lower-case hex, as the kernel writes it). Else there is
 * none, -ENOENT: no such device, a name that is empty or holds '/', or
 * not a PCI function (rxe and siw have no device link; a platform
 * device's leads below /devices/platform, a USB NIC's to a USB
 * interface). Another -errno when the link cannot be followed (-EXDEV:
 * it leads out of the root; -ENAMETOOLONG: too long a path). *out is all
 * "" unless it returns 0.
 */
int devnode_rdma_addr(const char *sysfs_root, const char *dev,
		      struct devnode_addr *out);
int devnode_net_addr(const char *sysfs_root, const char *ifname,
		     struct devnode_addr *out);
int devnode_pci_addr(const char *sysfs_root, const char *bdf,
		     struct devnode_addr *out);

#endif
