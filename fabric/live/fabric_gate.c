// SPDX-License-Identifier: BSD-2-Clause
/* fabric_gate - rank 0's join of the barrier (see the header). */
#define _GNU_SOURCE /* accept4 */
#include "fabric/live/fabric_gate.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/hmac.h"
#include "lib/log.h"
#include "lib/nonce.h"
#include "lib/stop.h"
#include "lib/timer.h"

#define GATE_NODE_ADDRS 8 /* addresses kept per node for the source check */

/* A connection that has not joined yet. */
struct pend {
	int fd; /* -1: a free slot */
	uint64_t deadline_ns;
	uint8_t nonce0[JOIN_NONCE_LEN];
	uint8_t buf[JOIN_WIRE_LEN];
	size_t got;
	char peer[64]; /* its numeric source address */
};

struct gate {
	struct fabric_barrier *b;
	const struct fabric_join_cfg *c;
	char (*node_addrs)[GATE_NODE_ADDRS][JOIN_ADDR_LEN];
	unsigned int *node_naddrs;
	struct pend p[FABRIC_GATE_PENDING];
	unsigned int joined;
};

/* What name resolves to here, numerically, into node i's addresses. */
static void gate_resolve(struct gate *g, unsigned int i, const char *name)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;

	if (!name[0] || getaddrinfo(name, NULL, &hints, &res))
		return;
	for (ai = res; ai && g->node_naddrs[i] < GATE_NODE_ADDRS;
	     ai = ai->ai_next)
		if (!getnameinfo(ai->ai_addr, ai->ai_addrlen,
				 g->node_addrs[i][g->node_naddrs[i]],
				 JOIN_ADDR_LEN, NULL, 0, NI_NUMERICHOST))
			g->node_naddrs[i]++;
	freeaddrinfo(res);
}

static int gate_init(struct gate *g)
{
	unsigned int n = g->b->nodes;

	g->node_addrs = calloc(n, sizeof(*g->node_addrs));
	g->node_naddrs = calloc(n, sizeof(*g->node_naddrs));
	if (!g->node_addrs || !g->node_naddrs)
		return -ENOMEM;
	for (unsigned int i = 1; i < n; i++) {
		gate_resolve(g, i, g->c->hl->h[i].name);
		gate_resolve(g, i, g->c->hl->h[i].addr);
	}
	for (unsigned int i = 0; i < FABRIC_GATE_PENDING; i++)
		g->p[i].fd = -1;
	return 0;
}

static void gate_drop(struct pend *p, const char *why)
{
	if (why)
		bench_warn("barrier: a connection from %s %s: dropped",
			   p->peer, why);
	close(p->fd);
	p->fd = -1;
}

static void gate_free(struct gate *g)
{
	for (unsigned int i = 0; i < FABRIC_GATE_PENDING; i++)
		if (g->p[i].fd >= 0)
			gate_drop(&g->p[i], NULL);
	free(g->node_addrs);
	free(g->node_naddrs);
}

/* A free slot, else the oldest connection's, dropped. */
static struct pend *gate_slot(struct gate *g)
{
	struct pend *old = &g->p[0];

	for (unsigned int i = 0; i < FABRIC_GATE_PENDING; i++) {
		if (g->p[i].fd < 0)
			return &g->p[i];
		if (g->p[i].deadline_ns < old->deadline_ns)
			old = &g->p[i];
	}
	gate_drop(old, "made room for a newer one (too many at once)");
	return old;
}

/* A new connection: greeted with its challenge. */
static void gate_accept(struct gate *g, int lfd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	struct pend *p;
	int fd = accept4(lfd, (struct sockaddr *)&ss, &len,
			 SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0)
		return; /* gone already, or EMFILE: the next poll retries */
	p = gate_slot(g);
	*p = (struct pend){ .fd = fd,
			    .deadline_ns = timer_deadline_ns(JOIN_ANSWER_MS) };
	if (getnameinfo((struct sockaddr *)&ss, len, p->peer, sizeof(p->peer),
			NULL, 0, NI_NUMERICHOST))
		snprintf(p->peer, sizeof(p->peer), "?");
	if (!strncmp(p->peer, "::ffff:", 7) && strchr(p->peer, '.'))
		memmove(p->peer, p->peer + 7, strlen(p->peer + 7) + 1);
	if (nonce_fill(p->nonce0, sizeof(p->nonce0)) ||
	    send(fd, p->nonce0, sizeof(p->nonce0), MSG_NOSIGNAL) !=
		    (ssize_t)sizeof(p->nonce0))
		gate_drop(p, "could not be greeted");
}

/* A whole JOIN: judged, and either its rank's or dropped. */
static void gate_judge(struct gate *g, struct pend *p)
{
	const struct join_key *k = &g->c->key;
	struct fabric_barrier *b = g->b;
	struct join_msg m;
	uint8_t mac[JOIN_MAC_LEN];
	const char *addrs[GATE_NODE_ADDRS];
	struct join_claim c = { &m, b->nodes, false, false, k->key != NULL,
				false };
	enum join_verdict v;
	char why[160];

	join_decode(p->buf, &m);
	if (m.rank && m.rank < b->nodes) {
		for (unsigned int i = 0; i < g->node_naddrs[m.rank]; i++)
			addrs[i] = g->node_addrs[m.rank][i];
		c.taken = b->fds[m.rank] >= 0;
		c.from_node = join_source_in(p->peer, addrs,
					     g->node_naddrs[m.rank]);
	}
	if (k->key) {
		join_mac(k, p->nonce0, &m, mac);
		c.mac_ok = hmac_equal(mac, m.mac, JOIN_MAC_LEN);
	}
	v = join_judge(&c);
	snprintf(why, sizeof(why), "as rank %u %s", m.rank,
		 join_verdict_text(v));
	if (!join_admits(v)) {
		gate_drop(p, why);
		return;
	}
	if (v != JOIN_OK)
		bench_warn("barrier: %s (%s)", why, p->peer);
	b->fds[m.rank] = p->fd;
	memcpy(b->addrs[m.rank], m.addr, JOIN_ADDR_LEN);
	memcpy(b->nonces[m.rank], m.nonce, JOIN_NONCE_LEN);
	p->fd = -1;
	g->joined++;
}

/* p is readable: what it sent so far; a whole JOIN is judged. */
static void gate_read(struct gate *g, struct pend *p)
{
	ssize_t n = recv(p->fd, p->buf + p->got, sizeof(p->buf) - p->got, 0);

	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		gate_drop(p, p->got ? "closed in the middle of its JOIN" :
				      NULL); /* a probe: not news */
		return;
	}
	if (n > 0)
		p->got += (size_t)n;
	if (p->got == sizeof(p->buf))
		gate_judge(g, p);
}

/* One poll over the listener and every pending connection. */
static int gate_step(struct gate *g, int lfd)
{
	struct pollfd pf[FABRIC_GATE_PENDING + 1] = { { lfd, POLLIN, 0 } };
	uint64_t now = timer_now_ns(), wake = g->c->deadline_ns;
	int ms;

	for (unsigned int i = 0; i < FABRIC_GATE_PENDING; i++) {
		struct pend *p = &g->p[i];

		if (p->fd >= 0 && now >= p->deadline_ns)
			gate_drop(p, "sent no JOIN within 5 s");
		pf[i + 1] = (struct pollfd){ p->fd, POLLIN, 0 };
		if (p->fd >= 0 && p->deadline_ns < wake)
			wake = p->deadline_ns;
	}
	ms = wake > now ? (int)((wake - now) / 1000000 + 1) : 0;
	if (poll(pf, FABRIC_GATE_PENDING + 1, ms > 200 ? 200 : ms) < 0 &&
	    errno != EINTR)
		return -errno;
	for (unsigned int i = 0; i < FABRIC_GATE_PENDING; i++)
		if (g->p[i].fd >= 0 && pf[i + 1].revents)
			gate_read(g, &g->p[i]);
	if (pf[0].revents & POLLIN)
		gate_accept(g, lfd);
	return 0;
}

int fabric_gate_run(struct fabric_barrier *b, const struct fabric_join_cfg *c,
		    int lfd)
{
	struct gate g = { .b = b, .c = c };
	int err = gate_init(&g);

	while (!err && g.joined < b->nodes - 1) {
		if (stop_flag)
			err = -EINTR;
		else if (timer_expired(c->deadline_ns))
			err = -ETIMEDOUT;
		else
			err = gate_step(&g, lfd);
	}
	gate_free(&g);
	return err;
}
