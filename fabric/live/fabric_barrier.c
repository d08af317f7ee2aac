// SPDX-License-Identifier: BSD-2-Clause
/* fabric_barrier - ib_fabric's barrier (see the header). */
#include "fabric/live/fabric_barrier.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fabric/live/fabric_gate.h"
#include "lib/hmac.h"
#include "lib/log.h"
#include "lib/nonce.h"
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

/* A node's data address from the wire: numeric IPv4 or IPv6 only. */
static bool addr_ok(const char *a)
{
	unsigned char any[sizeof(struct in6_addr)];

	return memchr(a, '\0', FABRIC_ADDR_LEN) &&
	       (inet_pton(AF_INET, a, any) == 1 ||
		inet_pton(AF_INET6, a, any) == 1);
}

static size_t table_len(const struct fabric_barrier *b)
{
	return b->nodes * (size_t)FABRIC_ADDR_LEN;
}

/* Rank 0, everyone joined: every rank gets the table of addresses, with
 * the MAC over its own nonce (zeros without a key). */
static int send_table(struct fabric_barrier *b, const struct join_key *k,
		      uint64_t deadline_ns)
{
	uint8_t mac[JOIN_MAC_LEN] = { 0 };
	int err = 0;

	for (unsigned int i = 1; i < b->nodes && !err; i++) {
		if (k->key)
			join_table_mac(k, b->nonces[i], b->addrs,
				       table_len(b), mac);
		err = io_all(b->fds[i], b->addrs, table_len(b), true,
			     deadline_ns);
		err = err ? err :
			    io_all(b->fds[i], mac, sizeof(mac), true,
				   deadline_ns);
	}
	return err;
}

static int recv_table(struct fabric_barrier *b, const struct join_key *k,
		      const uint8_t nonce[JOIN_NONCE_LEN], uint64_t deadline_ns)
{
	uint8_t mac[JOIN_MAC_LEN], want[JOIN_MAC_LEN];
	int err = io_all(b->fds[0], b->addrs, table_len(b), false,
			 deadline_ns);

	err = err ? err : io_all(b->fds[0], mac, sizeof(mac), false,
				 deadline_ns);
	if (!err && k->key) {
		join_table_mac(k, nonce, b->addrs, table_len(b), want);
		if (!hmac_equal(mac, want, sizeof(mac))) {
			bench_warn("barrier: the table of addresses did not come from a holder of the job's key: not rank 0?");
			return -EACCES;
		}
	}
	for (unsigned int i = 0; !err && i < b->nodes; i++)
		if (!addr_ok(b->addrs[i]))
			err = -EPROTO;
	return err;
}

/* One attempt to join rank 0: its challenge, our JOIN, the table. */
static int join_once(struct fabric_barrier *b, const struct fabric_join_cfg *c)
{
	struct join_msg m = { .rank = b->rank };
	uint8_t nonce0[JOIN_NONCE_LEN], wire[JOIN_WIRE_LEN];
	uint64_t answer_ns = timer_deadline_ns(JOIN_ANSWER_MS);
	int err;

	if (answer_ns > c->deadline_ns)
		answer_ns = c->deadline_ns;
	memcpy(m.addr, b->addrs[b->rank], FABRIC_ADDR_LEN);
	err = io_all(b->fds[0], nonce0, sizeof(nonce0), false, answer_ns);
	err = err ? err : nonce_fill(m.nonce, sizeof(m.nonce));
	if (err)
		return err;
	if (c->key.key)
		join_mac(&c->key, nonce0, &m, m.mac);
	join_encode(&m, wire);
	err = io_all(b->fds[0], wire, sizeof(wire), true, answer_ns);
	return err ? err : recv_table(b, &c->key, m.nonce, c->deadline_ns);
}

/*
 * Rank > 0: join rank 0, again until the deadline when the connection
 * fails or is dropped (rank 0 not up yet, or busy with strangers).
 */
static int connect_rank0(struct fabric_barrier *b,
			 const struct fabric_join_cfg *c)
{
	const char *addr0 = hostlist_addr(c->hl, 0);
	int err;

	for (;;) {
		err = ctrl_tcp_connect(addr0, c->port, c->deadline_ns,
				       &b->fds[0]);
		if (!err)
			err = join_once(b, c);
		if (!err || stop_flag || timer_expired(c->deadline_ns))
			break;
		if (b->fds[0] >= 0)
			close(b->fds[0]);
		b->fds[0] = -1;
		timer_sleep_ms(200);
	}
	if (err)
		bench_err(
			"barrier: rank %u cannot join rank 0 at %s:%u: %s (is rank 0 running, with the same key?)",
			b->rank, addr0, c->port,
			strerror(stop_flag ? EINTR : -err));
	return stop_flag ? -EINTR : err;
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

int fabric_barrier_open(struct fabric_barrier *b,
			const struct fabric_join_cfg *c)
{
	unsigned int nodes = c->hl->n;
	int lfd, err;

	*b = (struct fabric_barrier){ .rank = c->rank, .nodes = nodes };
	b->fds = malloc(nodes * sizeof(*b->fds));
	b->addrs = calloc(nodes, FABRIC_ADDR_LEN);
	b->nonces = calloc(nodes, JOIN_NONCE_LEN);
	if (!b->fds || !b->addrs || !b->nonces)
		return -ENOMEM;
	snprintf(b->addrs[c->rank], FABRIC_ADDR_LEN, "%s", c->mine);
	for (unsigned int i = 0; i < nodes; i++)
		b->fds[i] = -1;
	if (c->rank)
		return connect_rank0(b, c);
	err = ctrl_tcp_listen(NULL, c->port, &lfd);
	if (err)
		return err;
	err = fabric_gate_run(b, c, lfd);
	close(lfd);
	if (err)
		missing(b, err);
	return err ? err : send_table(b, &c->key, c->deadline_ns);
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
	free(b->nonces);
	b->fds = NULL;
	b->addrs = NULL;
	b->nonces = NULL;
}
