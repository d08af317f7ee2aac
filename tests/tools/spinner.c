// SPDX-License-Identifier: BSD-2-Clause
/*
 * spinner - a client that tries to win a server's turns without being
 * one (issue #25): over TCP (--oob tcp, --oob auto), it connects again
 * and again, each connection sending MODE's bytes and then nothing:
 *
 *   spinner [-p PORT] [--for SEC] [--every MS] [--once SEC] MODE ADDR
 *   MODE idle    nothing
 *        byte    one byte of a HELLO
 *        header  11 of its 12 header bytes
 *   --every MS  a new connection every MS ms (default 14: ~70 a second),
 *               the last one closed then, for --for SEC (default 10)
 *   --once SEC  one connection only, held up to SEC: prints when the
 *               server closed it ("closed after S s") or that it did not
 *   --cm        over rdma_cm instead (port -p, a server's rdma_cm port):
 *               each a control connection request (a good CONNECT, no
 *               QP), taken if the server takes it and dropped at the
 *               next; MODE idle only. It prints how many were answered
 *               busy, refused without an answer, or taken.
 *
 * It prints how many connections it made and how many the server
 * answered (a busy answer) or took. Exit 0; 1 if it failed; 2 usage; with
 * --once, 5 if the server held the connection the whole SEC.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <rdma/rdma_cma.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "spec/wire.h"

struct spin_cfg {
	const char *mode;
	const char *addr;
	uint16_t port;
	int for_s;
	int every_ms;
	int once_s;
	bool cm;
};

static double spin_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* MODE's bytes: how many of a HELLO's packed bytes it sends. */
static int spin_len(const char *mode)
{
	if (!strcmp(mode, "idle"))
		return 0;
	if (!strcmp(mode, "byte"))
		return 1;
	if (!strcmp(mode, "header"))
		return WIRE_HEADER_BYTES - 1;
	return -1;
}

/* One connection with MODE's bytes sent; its fd, or -1. */
static int spin_connect(const struct spin_cfg *c, int len)
{
	struct wire_msg msg = { .type = WIRE_HELLO };
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(c->port) };
	uint8_t buf[WIRE_MSG_MAX];
	int fd;

	if (inet_pton(AF_INET, c->addr, &sa.sin_addr) != 1)
		return -1;
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	if (len > 0 && (wire_pack(&msg, buf, sizeof(buf)) < len ||
			send(fd, buf, (size_t)len, MSG_NOSIGNAL) != len)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Did the server answer (bytes) or close fd, without waiting? */
static bool spin_answered(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) > 0;
}

static int spin_once(const struct spin_cfg *c, int len)
{
	struct pollfd p;
	double t0 = spin_now();
	char sink[512];
	int fd = spin_connect(c, len);

	if (fd < 0) {
		printf("spinner: cannot connect to %s:%u: %s\n", c->addr,
		       c->port, strerror(errno));
		return 1;
	}
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	while (spin_now() - t0 < c->once_s) {
		if (poll(&p, 1, 100) > 0 &&
		    recv(fd, sink, sizeof(sink), MSG_DONTWAIT) <= 0) {
			printf("spinner: %s: the server closed the connection "
			       "after %.2f s\n", c->mode, spin_now() - t0);
			close(fd);
			return 0;
		}
	}
	printf("spinner: %s: the server held the connection %d s\n",
	       c->mode, c->once_s);
	close(fd);
	return 5;
}

static int spin_loop(const struct spin_cfg *c, int len)
{
	double t0 = spin_now();
	unsigned long made = 0, failed = 0, answered = 0;
	int fd = -1;

	while (spin_now() - t0 < c->for_s) {
		if (fd >= 0) {
			answered += spin_answered(fd);
			close(fd);
		}
		fd = spin_connect(c, len);
		if (fd < 0)
			failed++;
		else
			made++;
		usleep((useconds_t)c->every_ms * 1000);
	}
	if (fd >= 0)
		close(fd);
	printf("spinner: %s: %lu connections in %d s (%lu failed), %lu "
	       "answered or closed by the server\n", c->mode, made, c->for_s,
	       failed, answered);
	return made ? 0 : 1;
}

/* One rdma_cm request's outcome. */
enum spin_cm_end { SPIN_CM_FAILED, SPIN_CM_BUSY, SPIN_CM_REFUSED,
		   SPIN_CM_TAKEN };

/* The next event on ch within ms, or NULL. */
static struct rdma_cm_event *spin_cm_event(struct rdma_event_channel *ch,
					   int ms)
{
	struct pollfd p = { .fd = ch->fd, .events = POLLIN };
	struct rdma_cm_event *ev;

	if (poll(&p, 1, ms) <= 0 || rdma_get_cm_event(ch, &ev))
		return NULL;
	return ev;
}

/* Wait for want; the event that came instead is given back in *got. */
static bool spin_cm_wait(struct rdma_event_channel *ch,
			 enum rdma_cm_event_type want,
			 enum rdma_cm_event_type *got, bool *busy)
{
	struct rdma_cm_event *ev = spin_cm_event(ch, 2000);
	struct wire_msg m;

	if (!ev)
		return false;
	*got = ev->event;
	if (busy)
		*busy = ev->event == RDMA_CM_EVENT_REJECTED &&
			ev->param.conn.private_data_len >= WIRE_CONNECT_BYTES &&
			!wire_unpack(ev->param.conn.private_data,
				     WIRE_CONNECT_BYTES, &m) &&
			m.type == WIRE_CONNECT &&
			m.u.connect.kind == WIRE_CONN_BUSY;
	rdma_ack_cm_event(ev);
	return *got == want;
}

/* One control connection request on a fresh id of ch (*id: kept). */
static enum spin_cm_end spin_cm_one(const struct spin_cfg *c,
				    struct rdma_event_channel *ch,
				    struct rdma_cm_id **id)
{
	struct wire_msg msg = { .type = WIRE_CONNECT,
		.u.connect = { .kind = WIRE_CONN_CTRL } };
	struct addrinfo hints = { .ai_family = AF_INET }, *ai;
	enum rdma_cm_event_type got;
	uint8_t buf[WIRE_CONNECT_BYTES];
	struct rdma_conn_param p = { .private_data = buf,
		.private_data_len = sizeof(buf), .responder_resources = 1,
		.initiator_depth = 1, .qp_num = 0x1234 };
	char port[8];
	bool busy = false, ok;

	snprintf(port, sizeof(port), "%u", c->port);
	if (wire_pack(&msg, buf, sizeof(buf)) <= 0 ||
	    getaddrinfo(c->addr, port, &hints, &ai))
		return SPIN_CM_FAILED;
	ok = !rdma_create_id(ch, id, NULL, RDMA_PS_TCP) &&
	     !rdma_resolve_addr(*id, NULL, ai->ai_addr, 2000) &&
	     spin_cm_wait(ch, RDMA_CM_EVENT_ADDR_RESOLVED, &got, NULL) &&
	     !rdma_resolve_route(*id, 2000) &&
	     spin_cm_wait(ch, RDMA_CM_EVENT_ROUTE_RESOLVED, &got, NULL) &&
	     !rdma_connect(*id, &p);
	freeaddrinfo(ai);
	if (!ok)
		return SPIN_CM_FAILED;
	if (spin_cm_wait(ch, RDMA_CM_EVENT_CONNECT_RESPONSE, &got, &busy) ||
	    got == RDMA_CM_EVENT_ESTABLISHED)
		return SPIN_CM_TAKEN;
	return got != RDMA_CM_EVENT_REJECTED ? SPIN_CM_FAILED :
	       busy ? SPIN_CM_BUSY : SPIN_CM_REFUSED;
}

/* --cm: requests every --every ms for --for s; the last taken one held
 * until the next. */
static int spin_cm_loop(const struct spin_cfg *c)
{
	struct rdma_event_channel *ch = rdma_create_event_channel();
	unsigned long n[SPIN_CM_TAKEN + 1] = { 0 };
	struct rdma_cm_id *id = NULL, *held = NULL;
	double t0 = spin_now();
	enum spin_cm_end e;

	if (!ch || fcntl(ch->fd, F_SETFL, O_NONBLOCK))
		return 1;
	while (spin_now() - t0 < c->for_s) {
		e = spin_cm_one(c, ch, &id);
		n[e]++;
		if (held)
			rdma_destroy_id(held);
		held = e == SPIN_CM_TAKEN ? id : NULL;
		if (e != SPIN_CM_TAKEN && id)
			rdma_destroy_id(id);
		id = NULL;
		usleep((useconds_t)c->every_ms * 1000);
	}
	if (held)
		rdma_destroy_id(held);
	rdma_destroy_event_channel(ch);
	printf("spinner: cm %s: %lu requests in %d s: %lu answered busy, %lu "
	       "refused without an answer, %lu taken, %lu failed\n", c->mode,
	       n[0] + n[1] + n[2] + n[3], c->for_s, n[SPIN_CM_BUSY],
	       n[SPIN_CM_REFUSED], n[SPIN_CM_TAKEN], n[SPIN_CM_FAILED]);
	return n[SPIN_CM_FAILED] == n[0] + n[1] + n[2] + n[3];
}

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "for", required_argument, NULL, 'f' },
		{ "every", required_argument, NULL, 'e' },
		{ "once", required_argument, NULL, 'o' },
		{ "cm", no_argument, NULL, 'c' },
		{ 0 }
	};
	struct spin_cfg c = { .port = 18515, .for_s = 10, .every_ms = 14 };
	int opt, len;

	while ((opt = getopt_long(argc, argv, "p:", longs, NULL)) != -1) {
		if (opt == 'p')
			c.port = (uint16_t)atoi(optarg);
		else if (opt == 'f')
			c.for_s = atoi(optarg);
		else if (opt == 'e')
			c.every_ms = atoi(optarg);
		else if (opt == 'o')
			c.once_s = atoi(optarg);
		else if (opt == 'c')
			c.cm = true;
		else
			return 2;
	}
	if (argc - optind != 2 || (len = spin_len(argv[optind])) < 0 ||
	    (c.cm && (len || c.once_s))) {
		fprintf(stderr, "usage: spinner [-p PORT] [--for SEC] "
			"[--every MS] [--once SEC] idle|byte|header ADDR\n"
			"       spinner --cm [-p PORT] [--for SEC] [--every MS] "
			"idle ADDR\n");
		return 2;
	}
	c.mode = argv[optind];
	c.addr = argv[optind + 1];
	if (c.cm)
		return spin_cm_loop(&c);
	return c.once_s ? spin_once(&c, len) : spin_loop(&c, len);
}
