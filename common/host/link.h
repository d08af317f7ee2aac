/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * link - what sysfs says about an RDMA port's links: the port's rate, its
 * netdev (speed, MTU), the PCIe link under the device and its NUMA node.
 * Pure: it only reads files under a sysfs root, so tests point it at
 * fake trees (tests/fixtures/link/).
 */
#ifndef RDMABENCH_HOST_LINK_H
#define RDMABENCH_HOST_LINK_H

#include "host/devnode.h"

#define LINK_FINDING_LEN 160

/* The PCIe link of a PCI function: its {current,max}_link_{speed,width}. */
struct link_pcie {
	double cur_gts, max_gts;	/* "16.0 GT/s PCIe": 16.0; 0 unknown */
	unsigned cur_width, max_width;	/* 0 unknown */
};

struct link_facts {
	/* /sys/class/infiniband/DEV/ports/N/rate, "" if absent */
	char rate_text[64];
	double rate_gbps;	/* parsed from rate_text, 0 if unknown */
	/* the port's own netdev, host/netdev.h's names[0]; "" if none */
	char netdev[32];
	int netdev_speed_mbps;	/* /sys/class/net/IF/speed, -1 unknown */
	int netdev_mtu;		/* /sys/class/net/IF/mtu, -1 unknown */
	/* "0000:3b:00.0" (host/devnode.h), "" virtual (rxe, siw) */
	char pci_addr[DEVNODE_BDF_LEN];
	struct link_pcie pcie;	/* the PCI function's, link_pcie_read() */
	int numa_node;		/* host/devnode.h's rule, -1 unknown */
};

/*
 * Read the facts of DEV's port under sysfs_root ("" or NULL = "/sys").
 * Missing files leave their field unknown (virtual devices have no PCI
 * address, dummy netdevs no speed). Returns 0; -EINVAL for a bad
 * argument (dev empty or with '/', port 0); -ENODEV when
 * ROOT/class/infiniband/DEV does not exist; -ENOENT when it has no port
 * N; -ENAMETOOLONG for a root too long for PATH_MAX. *out only on success.
 */
int link_read(const char *sysfs_root, const char *dev, unsigned port,
	      struct link_facts *out);

/*
 * The one reader of those four files, below the function's folder dir
 * under sysfs_root ("/devices/" and its host/devnode.h place, or a path
 * fs_resolve gave). A field whose file is absent or says "Unknown" (a VF
 * has no link of its own) is 0. Returns 0 when all four are known, else
 * -ENOENT.
 */
int link_pcie_read(const char *sysfs_root, const char *dir,
		   struct link_pcie *out);

/*
 * Downtrained: active width/speed below the port's maximum, or PCIe below
 * capability. Fills up to n human-readable findings ("PCIe link runs x8
 * of x16 (16.0 GT/s): at most 126 Gb/s"); returns how many.
 *
 * What is compared (verbs has no port maximum, so the caller brings it):
 *  - active_width vs max_width_hint and active_speed vs max_speed_hint
 *    (verbs values, rate.h RATE_WIDTH_* / RATE_SPEED_*; pass
 *    active_speed_ex when it is non-zero; a hint of 0 skips that check).
 *    active_speed and active_width both 0 = take them from f->rate_text
 *    ("200 Gb/sec (2X NDR)").
 *  - PCIe current width and speed vs the device's max_link_width/speed.
 *  - The PCIe ceiling (rate_pcie_gbps) of the current PCIe link vs the
 *    port's active rate: a NIC that PCIe cannot feed is named too.
 * Returns -EINVAL when f is NULL, n < 0, or findings is NULL with n > 0.
 */
int link_downtrain(const struct link_facts *f, unsigned active_speed,
		   unsigned active_width, unsigned max_speed_hint,
		   unsigned max_width_hint, char findings[][LINK_FINDING_LEN],
		   int n);

#endif
