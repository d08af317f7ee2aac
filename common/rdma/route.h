/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * route - where an address leads from this host, without sending a
 * packet: the name resolved, the local address of the kernel's route to
 * it, and the RDMA device that owns that local address (rdma_cm's answer,
 * so it holds for RoCE, InfiniBand and iWARP alike). --oob auto picks the
 * data device by it; an address with no route is said at once, with the
 * fix, instead of being retried (a client's session first waits for a
 * name to resolve: run/session/session.c).
 */
#ifndef RDMABENCH_RDMA_ROUTE_H
#define RDMABENCH_RDMA_ROUTE_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "lib/log.h"

#define ROUTE_IP_LEN 48 /* INET6_ADDRSTRLEN, rounded up */
#define ROUTE_DEV_LEN 64

struct route {
	char dst[ROUTE_IP_LEN];   /* the peer's IP, as resolved */
	char src[ROUTE_IP_LEN];   /* this host's IP on the route to it */
	bool loopback;            /* src is a loopback address */
	char dev[ROUTE_DEV_LEN];  /* the RDMA device owning src; "": none */
	uint8_t port;             /* and its port */
};

/*
 * Resolve host (a name or an IP; the first address getaddrinfo gives)
 * and find its route. Returns 0; -EHOSTUNREACH when the name does not
 * resolve, -ENETUNREACH when no route leads there (both logged, naming
 * host and what to do; the sentence also kept in why, which may be NULL:
 * lib/log.h).
 */
int route_lookup(const char *host, struct route *out, struct log_why *why);

/*
 * The RDMA device and port that own the local address sa (an rdma_cm
 * bind, no traffic). Returns 0, or -ENODEV when none does (a loopback
 * address, a netdev with no RDMA device); not logged.
 */
int route_owner(const struct sockaddr *sa, char *dev, size_t len,
		uint8_t *port);

/*
 * Server: an IPv4 address of this host that device dev owns (where an
 * iWARP client's rdma_cm connections can go), into ip. Returns 0 or
 * -ENODEV (not logged).
 */
int route_dev_addr(const char *dev, char *ip, size_t len);

/* This host's own view of a name or IP (ib_fabric's own entry). */
struct route_self {
	char ip[ROUTE_IP_LEN];     /* the first address it resolves to */
	bool local;                /* an address of this host */
	bool loopback;
	char owner[ROUTE_DEV_LEN]; /* the RDMA device owning it; "": none */
};

/*
 * Resolve host and say whether the address is this host's and which RDMA
 * device owns it. Returns 0, or -EHOSTUNREACH when it does not resolve
 * (not logged).
 */
int route_self(const char *host, struct route_self *out);

/* One address of this host that an RDMA device owns, and that device. */
struct route_rdma_addr {
	char dev[ROUTE_DEV_LEN];
	char ip[ROUTE_IP_LEN];
};

/*
 * This host's IPv4 addresses that an RDMA device owns, as text:
 * "mlx5_0 192.168.1.3, rxe1 198.18.6.1"; "" when none. When first is not
 * NULL it gets the first of them (dev "" when none).
 */
void route_rdma_addrs(char *buf, size_t len, struct route_rdma_addr *first);

/* The IP text of sa (IPv4-mapped IPv6 as IPv4). */
const char *route_ip_str(const struct sockaddr *sa, char *buf, size_t len);

#endif
