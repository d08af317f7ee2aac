/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * netdev - which network interface belongs to which RDMA port, and back:
 * the one rule for ib_doctor, link facts (host/link) and --netdev
 * (rdma/device_open), read from sysfs under a root ("/sys", or a fake
 * tree in the tests: tests/fixtures/netdev/).
 *
 * The netdevs of DEV's port N, the port's own first, without repeats:
 *  - every netdev its GID table names, in GID index order (the lowest is
 *    the port's own, its MAC GID; then VLANs, macvlans with an IP);
 *  - without any (InfiniBand, RoCE with no GID yet): rxe's
 *    ROOT/class/infiniband/DEV/parent (port 1), else the first
 *    ROOT/class/net/IF (version order) whose device/infiniband/DEV exists
 *    and whose dev_port is N - 1 (or which has no dev_port): PCI NICs,
 *    IPoIB, dual-port functions.
 * A netdev IF is carried by the first port (devices in version order,
 * then ports) whose list holds IF or, failing that, the netdev below IF:
 * ROOT/class/net/IF/lower_* followed down (VLAN, macvlan, bond, bridge;
 * of several lowers the first in version order).
 * iWARP devices (siw) name no netdev in sysfs: only RDMA netlink knows.
 */
#ifndef RDMABENCH_HOST_NETDEV_H
#define RDMABENCH_HOST_NETDEV_H

#include <stddef.h>

#define NETDEV_NAME_LEN 64      /* IFNAMSIZ is 16; sysfs names are bytes */
#define NETDEV_LIST_MAX 8

struct netdev_list {
	char names[NETDEV_LIST_MAX][NETDEV_NAME_LEN]; /* names[0]: its own */
	unsigned int n;
};

/*
 * The netdevs of DEV's port under sysfs_root ("" or NULL = "/sys"), as
 * above, into *out (n = 0 when none). Returns 0, or -EINVAL for a bad dev
 * name or port 0.
 */
int netdev_list(const char *sysfs_root, const char *dev, unsigned int port,
		struct netdev_list *out);

/*
 * The RDMA device (into dev, len bytes) and port that carry ifname.
 * Returns 0, -EINVAL for a bad name, -ENODEV when no port carries it.
 */
int netdev_find_port(const char *sysfs_root, const char *ifname, char *dev,
		     size_t len, unsigned int *port);

#endif
