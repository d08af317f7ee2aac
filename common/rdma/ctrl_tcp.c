// SPDX-License-Identifier: BSD-2-Clause
/*
 * ctrl_tcp - the TCP transport of the control channel (--oob tcp): the
 * socket's set-up with deadlines (every wait is timer_poll_until), and
 * whole messages on it.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "spec/bench.h"
#include "rdma/ctrl_tcp.h"
#include "rdma/route.h"
#include "lib/log.h"
#include "lib/resolve.h"
#include "lib/timer.h"

/* The address to listen at: addr with port, else [::]:port. */
static socklen_t tcp_listen_addr(const struct sockaddr *addr, uint16_t port,
				 struct sockaddr_storage *sa)
{
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)sa;

	memset(sa, 0, sizeof(*sa));
	if (addr && addr->sa_family == AF_INET) {
		memcpy(sa, addr, sizeof(struct sockaddr_in));
		((struct sockaddr_in *)sa)->sin_port = htons(port);
		return sizeof(struct sockaddr_in);
	}
	if (addr && addr->sa_family == AF_INET6)
		memcpy(sa, addr, sizeof(*in6));
	else
		in6->sin6_addr = in6addr_any;
	in6->sin6_family = AF_INET6;
	in6->sin6_port = htons(port);
	return sizeof(*in6);
}

int ctrl_tcp_listen(const struct sockaddr *addr, uint16_t port, int *fd_out)
{
	struct sockaddr_storage sa;
	socklen_t len = tcp_listen_addr(addr, port, &sa);
	char ip[ROUTE_IP_LEN];
	int fd, one = 1, zero = 0, ret;

	fd = socket(sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		bench_err("socket: %s", strerror(-ret));
		return ret;
	}
	/* [::] with V6ONLY off takes IPv4 clients too */
	if (sa.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, len) || listen(fd, 8)) {
		ret = -errno;
		bench_err("listening on %s TCP port %u: %s%s", addr ?
			  route_ip_str((struct sockaddr *)&sa, ip, sizeof(ip)) :
			  "every address,", port, strerror(-ret),
			  ret == -EADDRINUSE ? ": another server uses it; -p" :
			  ret == -EADDRNOTAVAIL ? ": not an address of this "
			  "host; give --bind one of `ip -br addr`" : "");
		close(fd);
		return ret;
	}
	*fd_out = fd;
	return 0;
}

uint16_t ctrl_tcp_port_of(int fd)
{
	struct sockaddr_storage sa;
	socklen_t len = sizeof(sa);

	if (getsockname(fd, (struct sockaddr *)&sa, &len))
		return 0;
	return ntohs(sa.ss_family == AF_INET6 ?
		     ((struct sockaddr_in6 *)&sa)->sin6_port :
		     ((struct sockaddr_in *)&sa)->sin_port);
}

static void tcp_tune(int fd)
{
	int one = 1;

	/* small control messages must not wait for Nagle */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

/* The "ADDR:PORT" of fd's peer, IPv4 (also when IPv4-mapped) or IPv6. */
static const char *tcp_peer_str(int fd, char *buf, size_t len)
{
	struct sockaddr_storage sa = { 0 };
	socklen_t sl = sizeof(sa);
	char host[ROUTE_IP_LEN];
	unsigned int port = 0;

	getpeername(fd, (struct sockaddr *)&sa, &sl);
	route_ip_str((struct sockaddr *)&sa, host, sizeof(host));
	if (sa.ss_family == AF_INET)
		port = ntohs(((struct sockaddr_in *)&sa)->sin_port);
	else if (sa.ss_family == AF_INET6)
		port = ntohs(((struct sockaddr_in6 *)&sa)->sin6_port);
	snprintf(buf, len, "%s:%u", host, port);
	return buf;
}

int ctrl_tcp_accept(int listen_fd, uint64_t deadline_ns, int *fd_out,
		    char *peer, size_t peer_len)
{
	int fd, ret;

	ret = timer_poll_until(listen_fd, POLLIN, deadline_ns);
	if (ret)
		return ret;
	fd = accept(listen_fd, NULL, NULL);
	if (fd < 0)
		return -errno;
	tcp_tune(fd);
	tcp_peer_str(fd, peer, peer_len);
	*fd_out = fd;
	return 0;
}

int ctrl_tcp_first_whole(int fd, bool hup, bool *partial)
{
	uint8_t buf[WIRE_MSG_MAX];
	uint32_t body_be;
	ssize_t n;

	*partial = false;
	n = recv(fd, buf, sizeof(buf), MSG_PEEK | MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return hup ? -ENOTCONN : 0;
	if (n <= 0)
		return -ENOTCONN;
	if ((size_t)n >= WIRE_HEADER_BYTES &&
	    wire_peer_kind(buf, (size_t)n) != WIRE_PEER_RDMABENCH)
		return 1; /* not ours: reading it says who it is */
	if ((size_t)n >= WIRE_HEADER_BYTES) {
		memcpy(&body_be, buf + 8, sizeof(body_be));
		/* longer than a message: refused once read, as any other */
		if (be32toh(body_be) <= (size_t)n - WIRE_HEADER_BYTES ||
		    be32toh(body_be) > WIRE_MSG_MAX - WIRE_HEADER_BYTES)
			return 1;
	}
	*partial = true;
	return hup ? -ENOTCONN : 0;
}

bool ctrl_tcp_peer_closed(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char byte;

	if (poll(&pfd, 1, 0) <= 0)
		return false;
	return recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) <= 0;
}

/* Connect fd to ai, bounded: a non-blocking connect, then poll. */
static int tcp_connect_one(const struct addrinfo *ai, uint64_t deadline_ns,
			   int *fd_out)
{
	int fd, err = 0, ret;
	socklen_t len = sizeof(err);

	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    0);
	if (fd < 0)
		return -errno;
	ret = connect(fd, ai->ai_addr, ai->ai_addrlen) ? -errno : 0;
	if (ret == -EINPROGRESS) {
		ret = timer_poll_until(fd, POLLOUT, deadline_ns);
		if (!ret && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len))
			ret = -errno;
		else if (!ret)
			ret = -err;
	}
	if (!ret && fcntl(fd, F_SETFL, 0) < 0) /* back to blocking */
		ret = -errno;
	if (ret) {
		close(fd);
		return ret;
	}
	tcp_tune(fd);
	*fd_out = fd;
	return 0;
}

int ctrl_tcp_connect(const char *host, uint16_t port, uint64_t deadline_ns,
		     int *fd_out)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM }, *res, *ai;
	char service[8];
	int ret;

	snprintf(service, sizeof(service), "%u", port);
	ret = resolve_addr(host, service, &hints, &res);
	if (ret)
		return ret == EAI_NONAME || ret == EAI_AGAIN ? -EHOSTUNREACH
							      : -EINVAL;
	ret = -ECONNREFUSED;
	for (ai = res; ai && ret; ai = ai->ai_next)
		ret = tcp_connect_one(ai, deadline_ns, fd_out);
	freeaddrinfo(res);
	return ret;
}

/*
 * Exactly len bytes out of (sending) or into buf, short transfers and
 * EINTR handled. A peer that has gone is -ECONNRESET and marks c. The I/O
 * is tried before any wait: after SIGINT/SIGTERM (stop_flag, which ends
 * every wait) the ERROR that tells the peer why still goes out.
 */
static int tcp_io_all(struct ctrl *c, uint8_t *buf, size_t len,
		      uint64_t deadline_ns, bool sending)
{
	size_t done = 0;
	ssize_t n;
	int ret;

	while (done < len) {
		n = sending ?
		    send(c->fd, buf + done, len - done,
			 MSG_NOSIGNAL | MSG_DONTWAIT) :
		    recv(c->fd, buf + done, len - done, MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			ret = timer_poll_until(c->fd, sending ? POLLOUT : POLLIN,
					       deadline_ns);
			if (ret)
				return ret;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && sending && errno != EPIPE && errno != ECONNRESET)
			return -errno;
		if (n <= 0) {
			c->tcp_gone = true;
			return -ECONNRESET;
		}
		done += (size_t)n;
	}
	return 0;
}

static int tcp_send(struct ctrl *c, const uint8_t *buf, size_t len,
		    uint64_t deadline_ns)
{
	return tcp_io_all(c, (uint8_t *)buf, len, deadline_ns, true);
}

static int tcp_recv(struct ctrl *c, uint8_t *buf, size_t *len,
		    uint64_t deadline_ns)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	uint32_t body_be;
	size_t body;
	int ret;

	if (c->tcp_gone)
		return -ECONNRESET;
	if (!deadline_ns) { /* poll: only when something is there */
		if (poll(&pfd, 1, 0) <= 0)
			return -EAGAIN;
		/* the rest of it within the phase's hard limit too: one byte
		 * of a first message must not stretch the HELLO's 5 s (as
		 * ctrl_deadline_ns: ctrl.c calls this file, not back) */
		deadline_ns = timer_deadline_ns(c->timeout_ms);
		if (c->hard_ns && c->hard_ns < deadline_ns)
			deadline_ns = c->hard_ns;
	}
	ret = tcp_io_all(c, buf, WIRE_HEADER_BYTES, deadline_ns, false);
	if (ret)
		return ret;
	/* not our header: its length field is not one; ctrl.c tells who */
	*len = WIRE_HEADER_BYTES;
	if (wire_peer_kind(buf, *len) != WIRE_PEER_RDMABENCH)
		return 0;
	memcpy(&body_be, buf + 8, sizeof(body_be));
	body = be32toh(body_be);
	/* never trust a length from the wire */
	if (body > WIRE_MSG_MAX - WIRE_HEADER_BYTES) {
		bench_err("the %s sent a %zu-byte control message (at most %d): "
			  "not an rdmabench peer?", c->peer_role, body,
			  WIRE_MSG_MAX - WIRE_HEADER_BYTES);
		return -EBADMSG;
	}
	ret = tcp_io_all(c, buf + WIRE_HEADER_BYTES, body, deadline_ns,
			 false);
	*len = WIRE_HEADER_BYTES + body;
	return ret;
}

static bool tcp_gone(struct ctrl *c)
{
	return c->tcp_gone;
}

static bool tcp_closed(struct ctrl *c)
{
	return ctrl_tcp_peer_closed(c->fd);
}

static bool tcp_up(const struct ctrl *c)
{
	return c->fd >= 0;
}

static const char *tcp_peer(const struct ctrl *c, char *buf, size_t len)
{
	return tcp_peer_str(c->fd, buf, len);
}

const struct ctrl_transport ctrl_tcp_transport = {
	.send = tcp_send,
	.recv = tcp_recv,
	.gone = tcp_gone,
	.closed = tcp_closed,
	.up = tcp_up,
	.peer = tcp_peer,
};
