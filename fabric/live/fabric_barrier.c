// SPDX-License-Identifier: BSD-2-Clause
/* fabric_barrier - ib_fabric's barrier between rounds (see the header). */
#include "fabric/live/fabric_barrier.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/log.h"
#include "lib/stop.h"
#include "lib/timer.h"
#include "rdma/ctrl_tcp.h"

/* len bytes from or to fd, whole, until deadline_ns. */
static int io_all(int fd, void *buf, size_t len, bool out, uint64_t deadline_ns)
{
	char *p = buf;

	while (len) {
		ssize_t n;
		int err = timer_poll_until(fd, out ? POLLOUT : POLLIN,
					   deadline_ns);

		if (err)
			return err;
		n = out ? send(fd, p, len, MSG_NOSIGNAL) : recv(fd, p, len, 0);
		if (n == 0)
			return -ECONNRESET;
		if (n < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
		if (n > 0) {
			p += n;
			len -= (size_t)n;
		}
	}
	return 0;
}

/* Rank 0: accept the others, each saying its rank first. */
/* A node's data address from the wire: numeric IPv4 or IPv6 only. */
static bool addr_ok(const char *a)
{
	unsigned char any[sizeof(struct in6_addr)];

	return memchr(a, '\0', FABRIC_ADDR_LEN) &&
	       (inet_pton(AF_INET, a, any) == 1 ||
		inet_pton(AF_INET6, a, any) == 1);
}

static int read_addr(int fd, char *a, uint64_t deadline_ns)
{
	int err = io_all(fd, a, FABRIC_ADDR_LEN, false, deadline_ns);

	return err ? err : addr_ok(a) ? 0 : -EPROTO;
}

/* Rank 0, everyone joined: every rank gets the table of addresses. */
static int send_table(struct fabric_barrier *b, uint64_t deadline_ns)
{
	int err = 0;

	for (unsigned int i = 1; i < b->nodes && !err; i++)
		err = io_all(b->fds[i], b->addrs, b->nodes * FABRIC_ADDR_LEN,
			     true, deadline_ns);
	return err;
}

static int recv_table(struct fabric_barrier *b, uint64_t deadline_ns)
{
	int err = io_all(b->fds[0], b->addrs, b->nodes * FABRIC_ADDR_LEN,
			 false, deadline_ns);

	for (unsigned int i = 0; !err && i < b->nodes; i++)
		if (!addr_ok(b->addrs[i]))
			err = -EPROTO;
	return err;
}

static int accept_all(struct fabric_barrier *b, int lfd, uint64_t deadline_ns)
{
	unsigned int joined = 0;

	while (joined < b->nodes - 1) {
		char peer[64];
		uint32_t r;
		int fd, err = ctrl_tcp_accept(lfd, deadline_ns, &fd, peer,
					      sizeof(peer));

		if (err)
			return err;
		err = io_all(fd, &r, sizeof(r), false, deadline_ns);
		if (err || r == 0 || r >= b->nodes || b->fds[r] >= 0 ||
		    read_addr(fd, b->addrs[r], deadline_ns)) {
			close(fd); /* a probe, a stranger, a duplicate */
			continue;
		}
		b->fds[r] = fd;
		joined++;
	}
	return 0;
}

static int connect_rank0(struct fabric_barrier *b, const char *addr0,
			 uint16_t port, uint64_t deadline_ns)
{
	uint32_t r = b->rank;
	int err;

	do {
		err = ctrl_tcp_connect(addr0, port, deadline_ns, &b->fds[0]);
		if (err)
			timer_sleep_ms(200);
	} while (err && !stop_flag && !timer_expired(deadline_ns));
	if (err)
		return stop_flag ? -EINTR : err;
	err = io_all(b->fds[0], &r, sizeof(r), true, deadline_ns);
	err = err ? err : io_all(b->fds[0], b->addrs[r], FABRIC_ADDR_LEN,
				 true, deadline_ns);
	return err ? err : recv_table(b, deadline_ns);
}

static void missing(const struct fabric_barrier *b, int err)
{
	char list[256] = "";
	size_t n = 0;

	for (unsigned int i = 1; i < b->nodes && n < sizeof(list) - 12; i++)
		if (b->fds[i] < 0)
			n += (size_t)snprintf(list + n, sizeof(list) - n, " %u",
					      i);
	bench_err(
		"barrier: %s; ranks that did not come:%s (are they launched, is the port open?)",
		strerror(-err), list);
}

int fabric_barrier_open(struct fabric_barrier *b, unsigned int rank,
			unsigned int nodes, const char *addr0, uint16_t port,
			const char *mine, uint64_t deadline_ns)
{
	int lfd, err;

	*b = (struct fabric_barrier){ .rank = rank, .nodes = nodes };
	b->fds = malloc(nodes * sizeof(*b->fds));
	b->addrs = calloc(nodes, FABRIC_ADDR_LEN);
	if (!b->fds || !b->addrs)
		return -ENOMEM;
	snprintf(b->addrs[rank], FABRIC_ADDR_LEN, "%s", mine);
	for (unsigned int i = 0; i < nodes; i++)
		b->fds[i] = -1;
	if (rank) {
		err = connect_rank0(b, addr0, port, deadline_ns);
		if (err)
			bench_err(
				"barrier: rank %u cannot join rank 0 at %s:%u: %s (is rank 0 running?)",
				rank, addr0, port, strerror(-err));
		return err;
	}
	err = ctrl_tcp_listen(NULL, port, &lfd);
	if (err)
		return err;
	err = accept_all(b, lfd, deadline_ns);
	close(lfd);
	if (err)
		missing(b, err);
	return err ? err : send_table(b, deadline_ns);
}

int fabric_barrier_wait(struct fabric_barrier *b, uint64_t deadline_ns)
{
	char c = 'r';
	int err;

	if (b->rank) {
		err = io_all(b->fds[0], &c, 1, true, deadline_ns);
		err = err ? err : io_all(b->fds[0], &c, 1, false, deadline_ns);
		if (err)
			bench_err("barrier: rank %u lost rank 0: %s", b->rank,
				  strerror(-err));
		return err;
	}
	for (unsigned int i = 1; i < b->nodes; i++) {
		err = io_all(b->fds[i], &c, 1, false, deadline_ns);
		if (err) {
			bench_err("barrier: rank %u did not end its round: %s",
				  i, strerror(-err));
			return err;
		}
	}
	for (unsigned int i = 1; i < b->nodes; i++) {
		err = io_all(b->fds[i], &c, 1, true, deadline_ns);
		if (err)
			return err;
	}
	return 0;
}

void fabric_barrier_close(struct fabric_barrier *b)
{
	for (unsigned int i = 0; b->fds && i < b->nodes; i++)
		if (b->fds[i] >= 0)
			close(b->fds[i]);
	free(b->fds);
	free(b->addrs);
	b->fds = NULL;
	b->addrs = NULL;
}
