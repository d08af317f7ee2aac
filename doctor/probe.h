/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe - the few facts ib_doctor cannot read from files: they need
 * verbs, rdma_cm, netlink or an ioctl. The checks (pure) call them through
 * this table; verbs.c fills it with the real calls, fake.c
 * with answers read from a fake tree's "probe" file (unit tests, --root).
 *
 * Every op returns 0 or -errno; -EOPNOTSUPP means "cannot tell here" and
 * makes the check fall back to what the files say, or SKIP. Any op may be
 * NULL, which means the same.
 */
#ifndef RDMABENCH_DOCTOR_PROBE_H
#define RDMABENCH_DOCTOR_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#define PROBE_IFNAME_LEN 16    /* IFNAMSIZ */
#define PROBE_ADDR_TEXT_LEN 46 /* INET6_ADDRSTRLEN */

struct probe_port_attr {
	unsigned int active_mtu_bytes;  /* ibv_port_attr.active_mtu */
	unsigned int max_mtu_bytes;
};

struct probe_netdev_link {
	unsigned long max_speed_mbps;   /* fastest supported link mode */
	unsigned int max_lanes;         /* its lane count, 0: unknown */
};

/*
 * The DCB (IEEE 802.1Qaz) settings of a netdev, from DCB_CMD_IEEE_GET:
 * which priorities PFC covers, and the APP table's DSCP entries (a
 * driver that trusts DSCP, mlx5's "trust dscp", lists DSCP -> priority
 * there; trust PCP lists none).
 */
struct probe_dcb {
	unsigned int pfc_en;            /* IEEE_PFC pfc_en: bit N = prio N */
	bool has_pfc;                   /* the driver gave an IEEE_PFC */
	unsigned long long dscp_set;    /* bit D: the APP table maps DSCP D */
	unsigned char dscp_prio[64];    /* ... to this priority */
};

/* What an InfiniBand port could train to: the fastest width and speed
 * it supports (PortInfo's LinkWidthSupported / LinkSpeed(Ext)Supported). */
struct probe_port_rated {
	unsigned int lanes;             /* 4 for 4X */
	char speed[8];                  /* "NDR" */
};

/* One IP address of one interface. */
struct probe_addr {
	char ifname[PROBE_IFNAME_LEN];
	int family;                     /* AF_INET or AF_INET6 */
	unsigned char bytes[16];        /* network order; IPv4 in the first 4 */
	char text[PROBE_ADDR_TEXT_LEN];
};

struct probe {
	void *priv;
	/* ibv_open_device on dev: -ENODEV when no provider lists it */
	int (*dev_open)(void *priv, const char *dev);
	/* ibv_query_port */
	int (*port_query)(void *priv, const char *dev, unsigned int port,
			  struct probe_port_attr *out);
	/* the netdev of a port by RDMA netlink (iWARP shows it nowhere else) */
	int (*port_netdev)(void *priv, const char *dev, unsigned int port,
			   char *ifname, size_t len);
	/* ethtool: the fastest link mode the netdev supports */
	int (*netdev_link)(void *priv, const char *ifname,
			   struct probe_netdev_link *out);
	/* every interface address (getifaddrs); *out is malloc'd */
	int (*addrs)(void *priv, struct probe_addr **out, size_t *n);
	/* the interface the route to peer leaves through (RTM_GETROUTE);
	 * -ENETUNREACH when there is none */
	int (*route)(void *priv, const struct probe_addr *peer, char *ifname,
		     size_t len);
	/* rdma_resolve_addr + rdma_resolve_route to peer within timeout_ms:
	 * the device and port rdma_cm picked */
	int (*cm_resolve)(void *priv, const char *peer, unsigned int timeout_ms,
			  char *dev, size_t len, unsigned int *port);
	/* DCB_CMD_IEEE_GET over rtnetlink: -EOPNOTSUPP when the netdev's
	 * driver has no dcbnl ops (rxe's and siw's netdevs, veth, dummy) */
	int (*dcb)(void *priv, const char *ifname, struct probe_dcb *out);
	/* the width and speed an IB port supports (a PortInfo MAD) */
	int (*port_rated)(void *priv, const char *dev, unsigned int port,
			  struct probe_port_rated *out);
};

/*
 * The answers of a fake tree: ROOT/probe, one fact per line ('#' comments):
 *   open DEV ERRNO              dev_open (0 = works)
 *   port DEV PORT ACTIVE_MTU MAX_MTU
 *   port_netdev DEV PORT IFNAME
 *   netdev_link IFNAME MAX_MBPS LANES
 *   addr IFNAME IP
 *   route IP IFNAME | route IP -ERRNO
 *   cm IP DEV PORT | cm IP -ERRNO
 *   pfc IFNAME MASK             dcb: pfc_en (0x08: priority 3)
 *   trust IFNAME dscp|pcp       dcb: dscp fills the APP table the way
 *                               mlx5 does (DSCP D -> priority D >> 3)
 *   rated DEV PORT WIDTH SPEED  port_rated: "rated mlx5_0 1 4X NDR"
 * A fact with no line gives -EOPNOTSUPP. priv must stay valid (the root).
 */
void fake_probe(const char *root, struct probe *out);

#endif
