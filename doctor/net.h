/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * doctor_net - IP addresses, RoCE GIDs and the kernel's IPv4/IPv6 routing
 * tables as procfs shows them. Pure: no verbs headers.
 */
#ifndef RDMABENCH_DOCTOR_NET_H
#define RDMABENCH_DOCTOR_NET_H

#include <stdbool.h>
#include <stddef.h>

#include "doctor/probe.h"

/* Parse an IPv4 or IPv6 literal into *out (ifname left empty). */
int dnet_addr_parse(const char *text, struct doctor_addr *out);

/* The RoCE GID that carries a: itself for IPv6, ::ffff:a.b.c.d for IPv4. */
void dnet_addr_gid(const struct doctor_addr *a, unsigned char gid[16]);

/* Parse a sysfs GID ("0000:...:c612:0001") into 16 bytes. */
int dnet_gid_parse(const char *text, unsigned char gid[16]);

/* IPv6 link-local (fe80::/10): the kernel's default GID covers those. */
bool dnet_addr_link_local(const struct doctor_addr *a);

/* Same family and bytes. */
bool dnet_addr_equal(const struct doctor_addr *a, const struct doctor_addr *b);

/*
 * The interface the main routing table sends peer through, by longest
 * prefix in ROOT/proc/net/route (IPv4) or ROOT/proc/net/ipv6_route.
 * -ENETUNREACH when no route matches. Policy routing is not seen here:
 * the netlink probe is preferred when it answers.
 */
int dnet_route_proc(const char *root, const struct doctor_addr *peer,
		    char *ifname, size_t len);

/*
 * The RDMA MTU the kernel gives a RoCE port whose netdev has MTU
 * netdev_mtu (iboe_get_mtu: minus GRH 40, UDP 8, BTH 12, XRC 4, AtomicETH
 * 28, ICRC 4 = 96 bytes, rounded down to 256..4096); 0 below 352.
 */
unsigned int dnet_roce_mtu(long netdev_mtu);

#endif
