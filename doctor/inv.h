/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * inv - what the host has, read once from sysfs (below a root) before
 * the checks run: RDMA devices and their ports, the netdev of each port,
 * the PCI function behind each device, NVIDIA GPUs, interface addresses.
 * Pure: no verbs headers (the addresses and iWARP netdevs come from the
 * probe table). The per-port link facts are link.h's link_read().
 */
#ifndef RDMABENCH_DOCTOR_INV_H
#define RDMABENCH_DOCTOR_INV_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/fs.h"
#include "doctor/probe.h"
#include "host/devnode.h"
#include "host/link.h"

#define INV_PORTS_MAX 4
#define INV_NDEVS_MAX 8
#define INV_NAME_LEN 64
#define INV_BDF_LEN DEVNODE_BDF_LEN
#define INV_GPUS_MAX 64

enum inv_xport { INV_XPORT_IB, INV_XPORT_ROCE, INV_XPORT_IWARP };

struct inv_port {
	unsigned int num;
	enum inv_xport xport;
	long state;                     /* 4 = ACTIVE */
	char state_text[24];
	long phys;                      /* 5 = LinkUp */
	char phys_text[24];
	struct link_facts link;         /* link_read(): rate, netdev, PCIe */
	unsigned int width_lanes;       /* from link.rate_text */
	char speed_name[16];            /* "NDR" */
	char netdev[PROBE_IFNAME_LEN]; /* "" when none was found */
	/* every netdev the GID table names (VLANs, macvlans on top) */
	char ndevs[INV_NDEVS_MAX][PROBE_IFNAME_LEN];
	unsigned int n_ndevs;
};

struct inv_dev {
	char name[INV_NAME_LEN];
	/* host/devnode.h's PCI function: "" for software devices (rxe, siw) */
	char bdf[INV_BDF_LEN];
	char pci_place[DEVNODE_PLACE_LEN]; /* "pci0000:00/...", below
					     * /sys/devices */
	char driver[32];                /* of the PCI function: "mlx5_core" */
	int numa_node;                  /* host/devnode.h's; -1: none */
	/* the PCIe link of the function (link_read of the first port) */
	struct link_pcie pcie;
	char uverbs[16];                /* "uverbs0", "" when none */
	bool is_rnic;                   /* node_type 4: iWARP */
	unsigned int nports;
	struct inv_port ports[INV_PORTS_MAX];
};

struct inv_gpu {
	char bdf[INV_BDF_LEN];
	char pci_place[DEVNODE_PLACE_LEN]; /* as inv_dev's */
	int numa_node;                  /* host/devnode.h's; -1: none */
};

struct inv {
	char sysfs[FS_PATH_MAX];        /* ROOT/sys */
	struct inv_dev *devs;        /* every device, sorted by name */
	size_t ndev;
	struct inv_gpu *gpus;
	size_t ngpu;
	struct probe_addr *addrs;      /* from the probe; may be none */
	size_t naddr;
};

/* Fill *inv from the tree below root and the probe. 0 or -ENOMEM. */
int inv_read(const char *root, const struct probe *probe,
		     struct inv *inv);

void inv_free(struct inv *inv);

/*
 * The device port that carries ifname by host/netdev.h's rule
 * (netdev_find_port, as ib_write_bw --netdev finds it), else the port
 * whose netdev RDMA netlink named (siw); NULL if no RDMA port uses it.
 */
const struct inv_port *inv_port_of(const struct inv *inv,
					     const char *ifname,
					     const struct inv_dev **dev);

/* "4: ACTIVE" -> 4, "ACTIVE". 0 or -EINVAL. */
int inv_parse_state(const char *text, long *num, char *name, size_t len);

/* "IB", "RoCE", "iWARP". */
const char *inv_xport_str(enum inv_xport x);

#endif
