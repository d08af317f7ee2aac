/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * net - IP addresses, RoCE GIDs and the kernel's IPv4/IPv6 routing
 * tables as procfs shows them. Pure: no verbs headers.
 */
#ifndef RDMABENCH_DOCTOR_NET_H
#define RDMABENCH_DOCTOR_NET_H

#include <stdbool.h>
#include <stddef.h>

#include "doctor/probe.h"

/* Parse an IPv4 or IPv6 literal into *out (ifname left empty). */
int net_addr_parse(const char *text, struct probe_addr *out);

/* The RoCE GID that carries a: itself for IPv6, ::ffff:a.b.c.d for IPv4. */
void net_addr_gid(const struct probe_addr *a, unsigned char gid[16]);

/* Parse a sysfs GID ("0000:...:c612:0001") into 16 bytes. */
int net_gid_parse(const char *text, unsigned char gid[16]);

/* IPv6 link-local (fe80::/10): the kernel's default GID covers those. */
bool net_addr_link_local(const struct probe_addr *a);

/* Same family and bytes. */
bool net_addr_equal(const struct probe_addr *a, const struct probe_addr *b);

/*
 * The interface the main routing table sends peer through, by longest
 * prefix in ROOT/proc/net/route (IPv4) or ROOT/proc/net/ipv6_route.
 * -ENETUNREACH when no route matches. Policy routing is not seen here:
 * the netlink probe is preferred when it answers.
 */
int net_route_proc(const char *root, const struct probe_addr *peer,
		    char *ifname, size_t len);

/*
 * The RDMA MTU the kernel gives a RoCE port whose netdev has MTU
 * netdev_mtu (iboe_get_mtu: minus GRH 40, UDP 8, BTH 12, XRC 4, AtomicETH
 * 28, ICRC 4 = 96 bytes, rounded down to 256..4096); 0 below 352.
 */
unsigned int net_roce_mtu(long netdev_mtu);

#endif
