// SPDX-License-Identifier: BSD-2-Clause
/*
 * route - the kernel's route to an address (a connected UDP socket: no
 * packet leaves) and the RDMA device owning a local address (an rdma_cm
 * bind: synchronous, no traffic, the same answer rdma_cm's connections
 * would get).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>

#include "lib/log.h"
#include "lib/resolve.h"
#include "rdma/route.h"

const char *route_ip_str(const struct sockaddr *sa, char *buf, size_t len)
{
	const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)sa;
	char text[INET6_ADDRSTRLEN] = "?";

	if (sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr,
			  text, sizeof(text));
	else if (sa->sa_family == AF_INET6 &&
		 IN6_IS_ADDR_V4MAPPED(&v6->sin6_addr))
		inet_ntop(AF_INET, &v6->sin6_addr.s6_addr[12], text,
			  sizeof(text));
	else if (sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof(text));
	snprintf(buf, len, "%s", text);
	return buf;
}

static bool route_is_loopback(const struct sockaddr *sa)
{
	const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)sa;

	if (sa->sa_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr)
			>> 24) == 127;
	return sa->sa_family == AF_INET6 && IN6_IS_ADDR_LOOPBACK(&v6->sin6_addr);
}

int route_owner(const struct sockaddr *sa, char *dev, size_t len,
		uint8_t *port)
{
	struct sockaddr_storage local = { 0 };
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	int ret = -ENODEV;

	const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)sa;
	struct sockaddr_in *v4 = (struct sockaddr_in *)&local;

	if (sa->sa_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&v6->sin6_addr)) {
		/* a dual-stack socket's IPv4 peer: rdma_cm binds it as IPv4 */
		v4->sin_family = AF_INET;
		memcpy(&v4->sin_addr, &v6->sin6_addr.s6_addr[12], 4);
	} else {
		memcpy(&local, sa, sa->sa_family == AF_INET ?
		       sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6));
	}
	/* any port: the bind only asks which device owns the address */
	v4->sin_port = 0;
	ch = rdma_create_event_channel();
	if (!ch)
		return -ENODEV;
	if (!rdma_create_id(ch, &id, NULL, RDMA_PS_TCP)) {
		if (!rdma_bind_addr(id, (struct sockaddr *)&local) &&
		    id->verbs) {
			snprintf(dev, len, "%s",
				 ibv_get_device_name(id->verbs->device));
			*port = id->port_num;
			ret = 0;
		}
		rdma_destroy_id(id);
	}
	rdma_destroy_event_channel(ch);
	return ret;
}

/* The local end of the route to sa: a UDP socket connected, never used. */
static int route_src(const struct addrinfo *ai, struct sockaddr_storage *src)
{
	socklen_t len = sizeof(*src);
	int fd, ret = 0;

	fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) ||
	    getsockname(fd, (struct sockaddr *)src, &len))
		ret = -errno;
	close(fd);
	return ret;
}

/* getaddrinfo within RESOLVE_MS, a datagram socket's addresses */
static int route_resolve(const char *host, struct addrinfo **res)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_DGRAM };

	return resolve_addr(host, "9", &hints, res);
}

int route_lookup(const char *host, struct route *out, struct log_why *why)
{
	struct sockaddr_storage src;
	struct addrinfo *res;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = route_resolve(host, &res);
	if (ret) {
		bench_err_why(why, "cannot resolve the server address '%s': "
			      "%s%s: check the name (/etc/hosts, DNS), or give "
			      "the server's IP", host, gai_strerror(ret),
			      ret == EAI_AGAIN ? " (no answer within "
			      RESOLVE_TEXT ")" : "");
		return -EHOSTUNREACH;
	}
	route_ip_str(res->ai_addr, out->dst, sizeof(out->dst));
	ret = route_src(res, &src);
	freeaddrinfo(res);
	if (ret == -ENETUNREACH || ret == -EHOSTUNREACH) {
		bench_err_why(why, "no route from this host to the server "
			      "address %s (%s): %s: give an address of the "
			      "server on a network this host reaches ('ip "
			      "route get %s' shows the route)", host, out->dst,
			      strerror(-ret), out->dst);
		return -ENETUNREACH;
	}
	if (ret) {
		bench_err("finding the route to %s (%s): %s", host, out->dst,
			  strerror(-ret));
		return ret;
	}
	route_ip_str((struct sockaddr *)&src, out->src, sizeof(out->src));
	out->loopback = route_is_loopback((struct sockaddr *)&src);
	if (out->loopback ||
	    route_owner((struct sockaddr *)&src, out->dev, sizeof(out->dev),
			&out->port))
		out->dev[0] = '\0';
	return 0;
}

/*
 * Each up, non-loopback IPv4 address of this host that an RDMA device
 * owns, to fn(dev, ip, arg) until it returns non-zero (that value is
 * returned); -ENODEV when fn never did.
 */
static int route_each_rdma_addr(int (*fn)(const char *dev, const char *ip,
					  void *arg), void *arg)
{
	struct ifaddrs *all, *a;
	char owner[ROUTE_DEV_LEN], ip[ROUTE_IP_LEN];
	uint8_t port;
	int ret = 0;

	if (getifaddrs(&all))
		return -ENODEV;
	for (a = all; a && !ret; a = a->ifa_next) {
		if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET ||
		    !(a->ifa_flags & IFF_UP) || route_is_loopback(a->ifa_addr) ||
		    route_owner(a->ifa_addr, owner, sizeof(owner), &port))
			continue;
		ret = fn(owner, route_ip_str(a->ifa_addr, ip, sizeof(ip)), arg);
	}
	freeifaddrs(all);
	return ret ? ret : -ENODEV;
}

struct route_find {
	const char *dev;
	char *ip;
	size_t len;
};

static int route_find_dev(const char *dev, const char *ip, void *arg)
{
	struct route_find *f = arg;

	if (strcmp(dev, f->dev))
		return 0;
	snprintf(f->ip, f->len, "%s", ip);
	return 1;
}

int route_dev_addr(const char *dev, char *ip, size_t len)
{
	struct route_find f = { dev, ip, len };

	return route_each_rdma_addr(route_find_dev, &f) == 1 ? 0 : -ENODEV;
}

struct route_text {
	char *buf;
	size_t len;
	struct route_rdma_addr *first;
};

static int route_add_text(const char *dev, const char *ip, void *arg)
{
	struct route_text *t = arg;
	size_t used = strlen(t->buf);

	if (t->first && !t->first->dev[0]) {
		snprintf(t->first->dev, sizeof(t->first->dev), "%s", dev);
		snprintf(t->first->ip, sizeof(t->first->ip), "%s", ip);
	}
	snprintf(t->buf + used, t->len - used, "%s%s %s", used ? ", " : "",
		 dev, ip);
	return 0;
}

void route_rdma_addrs(char *buf, size_t len, struct route_rdma_addr *first)
{
	struct route_text t = { buf, len, first };

	buf[0] = '\0';
	if (first)
		memset(first, 0, sizeof(*first));
	route_each_rdma_addr(route_add_text, &t);
}

/* Is sa an address of this host? A bind to it says (port 0: any). */
static bool route_is_local(const struct addrinfo *ai)
{
	int fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct sockaddr_storage sa;
	bool local;

	if (fd < 0)
		return false;
	memcpy(&sa, ai->ai_addr, ai->ai_addrlen);
	((struct sockaddr_in *)&sa)->sin_port = 0; /* in6's is there too */
	local = !bind(fd, (struct sockaddr *)&sa, ai->ai_addrlen);
	close(fd);
	return local;
}

int route_self(const char *host, struct route_self *out)
{
	struct addrinfo *res;
	uint8_t port;

	memset(out, 0, sizeof(*out));
	if (route_resolve(host, &res))
		return -EHOSTUNREACH;
	route_ip_str(res->ai_addr, out->ip, sizeof(out->ip));
	out->local = route_is_local(res);
	out->loopback = route_is_loopback(res->ai_addr);
	if (out->loopback ||
	    route_owner(res->ai_addr, out->owner, sizeof(out->owner), &port))
		out->owner[0] = '\0';
	freeaddrinfo(res);
	return 0;
}
