// SPDX-License-Identifier: BSD-2-Clause
/*
 * wire_inject - a hostile rdmabench client for the fault tests: it speaks
 * the rendezvous (rdma_cm + common/spec/wire.c) itself, so that it can
 * send what a real client never would, and says what the server did about
 * it.
 *
 *   wire_inject [OPTS] MODE SERVER_IP
 *   MODE connect  one rdma_cm request whose private data is a CONNECT of
 *                 --version V (default: ours), or --random N bytes
 *        hello    a good control connection, then a HELLO of --version V
 *                 with the fields of --set NAME=VALUE,...; with --oob tcp
 *                 the control connection is TCP to port -p (--oob tcp)
 *        sync     hello (accepted), one data connection, BUF, then a SYNC
 *                 of --sync-size BYTES (default: 2^20 beyond the buffer)
 *        tcp      --random N bytes (default 4096) sent over plain TCP to
 *                 port -p (where a TCP out-of-band server would listen)
 *        data     one rdma_cm data connection request with --token N
 *                 (default 0): a stranger's, during another's session
 *        qpinfo   --oob tcp hello (accepted), then QP 0's QP_INFO naming
 *                 --gid G (text; default ::ffff:SERVER_IP... any) and
 *                 --qpn N (0x11): a reflected GID
 *        reflect  qpinfo (accepted), then BUF and SYNC: with -b (--set
 *                 flags=0x14) the server sends to that GID
 *        idle     a control connection (rdma_cm, or TCP with --oob tcp)
 *                 and nothing on it: with --hold, a client that holds
 *   OPTS -p PORT (18515), --timeout SEC (10: every wait is bounded),
 *        --oob cm|tcp (hello: the control channel, default cm),
 *        --seed S (random bytes), --hold SEC (stay connected and silent
 *        after the last step, and report whether the server let go, and
 *        when), --beat SEC (while holding, a heartbeat every SEC),
 *        --tool TEXT (the HELLO's tool name: any bytes, for log injection),
 *        --auth-key-file F (hello, qpinfo, reflect: prove F's key first,
 *        as a client that holds it: an insider's attack)
 *
 * Exit status (what the server did with the last step):
 *   0 refused it (REJECTED, HELLO_ACK with an error, ERROR, TCP connection
 *     refused or closed); with --hold: the server ended the connection
 *   3 accepted it (a hostile message taken as a good one)
 *   4 the server dropped the connection without an answer
 *   5 no answer within --timeout; with --hold: still connected at the end
 *   1 this tool failed; 2 usage
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netdb.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>

#include "spec/wire.h"
#include "spec/wire_auth.h"

#define INJ_PREFIX "wire_inject: "
#define inj_say(fmt, ...) printf(INJ_PREFIX fmt "\n", ##__VA_ARGS__)

enum inj_outcome {
	INJ_REFUSED = 0,
	INJ_FAILED = 1,
	INJ_USAGE = 2,
	INJ_ACCEPTED = 3,
	INJ_DROPPED = 4,
	INJ_SILENT = 5,
};

struct inj_cfg {
	const char *mode;
	const char *addr;
	uint16_t port;
	int timeout_ms;
	int hold_s;
	int beat_s;         /* --hold: a heartbeat every beat_s (0: none) */
	bool oob_tcp;
	int version;
	int random_len;
	unsigned int seed;
	uint64_t sync_size;
	uint64_t token;     /* data: the CONNECT's token */
	const char *gid;    /* qpinfo: the GID named */
	uint32_t qpn;       /* qpinfo: the QP number named */
	struct wire_hello hello;
	struct keyfile key; /* --auth-key-file (len 0: none) */
};

/*
 * One connection: its channel, id, and two message slots (recv, send); or,
 * for --oob tcp, its socket.
 */
struct inj_ep {
	int fd;
	bool has_fd;
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_cq *cq;  /* receives */
	struct ibv_cq *scq; /* sends: apart, so polling one never eats the other */
	bool gone;          /* a DISCONNECTED was seen */
	uint64_t token;     /* the HELLO_ACK's, for data CONNECTs */
	struct ibv_mr *mr;
	uint8_t buf[2 * WIRE_MSG_MAX];
};

static uint64_t inj_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* The next rdma_cm event until deadline_ms: 0, -ETIMEDOUT or -errno. */
static int inj_event(struct inj_ep *ep, uint64_t deadline_ms,
		     struct rdma_cm_event **ev)
{
	struct pollfd pfd = { .fd = ep->ch->fd, .events = POLLIN };

	for (;;) {
		uint64_t now = inj_now_ms();

		if (!rdma_get_cm_event(ep->ch, ev))
			return 0;
		if (errno != EAGAIN)
			return -errno;
		if (now >= deadline_ms)
			return -ETIMEDOUT;
		if (poll(&pfd, 1, (int)(deadline_ms - now)) < 0 &&
		    errno != EINTR)
			return -errno;
	}
}

/* Wait for want; any other event is described and returned as -EPROTO. */
static int inj_wait(struct inj_ep *ep, enum rdma_cm_event_type want,
		    uint64_t deadline_ms, struct wire_msg *rej)
{
	struct rdma_cm_event *ev;
	int ret;

	ret = inj_event(ep, deadline_ms, &ev);
	if (ret)
		return ret;
	if (ev->event == want) {
		ret = 0;
	} else if (ev->event == RDMA_CM_EVENT_REJECTED) {
		ret = -ECONNREFUSED;
		memset(rej, 0, sizeof(*rej));
		if (ev->param.conn.private_data_len >= WIRE_HEADER_BYTES)
			wire_unpack(ev->param.conn.private_data,
				    WIRE_CONNECT_BYTES, rej);
	} else {
		inj_say("rdma_cm event %s while waiting for %s",
			rdma_event_str(ev->event), rdma_event_str(want));
		ret = ev->event == RDMA_CM_EVENT_DISCONNECTED ? -ECONNRESET :
								-EPROTO;
	}
	rdma_ack_cm_event(ev);
	return ret;
}

static void inj_close(struct inj_ep *ep)
{
	if (ep->has_fd)
		close(ep->fd);
	if (ep->id && ep->id->qp) {
		rdma_disconnect(ep->id);
		rdma_destroy_qp(ep->id);
	}
	if (ep->mr)
		ibv_dereg_mr(ep->mr);
	if (ep->cq)
		ibv_destroy_cq(ep->cq);
	if (ep->scq)
		ibv_destroy_cq(ep->scq);
	if (ep->pd)
		ibv_dealloc_pd(ep->pd);
	if (ep->id)
		rdma_destroy_id(ep->id);
	if (ep->ch)
		rdma_destroy_event_channel(ep->ch);
	memset(ep, 0, sizeof(*ep));
}

/* Channel, id, address and route: ready for a QP and rdma_connect. */
static int inj_resolve(const struct inj_cfg *c, struct inj_ep *ep)
{
	uint64_t deadline_ms = inj_now_ms() + (uint64_t)c->timeout_ms;
	struct addrinfo hints = { .ai_family = AF_INET,
				  .ai_socktype = SOCK_STREAM }, *ai;
	char port[8];
	int ret, flags;

	snprintf(port, sizeof(port), "%u", c->port);
	if (getaddrinfo(c->addr, port, &hints, &ai)) {
		fprintf(stderr, INJ_PREFIX "cannot resolve %s\n", c->addr);
		return -EINVAL;
	}
	ep->ch = rdma_create_event_channel();
	ret = ep->ch ? 0 : -errno;
	flags = ep->ch ? fcntl(ep->ch->fd, F_GETFL) : -1;
	if (!ret && (flags < 0 ||
		     fcntl(ep->ch->fd, F_SETFL, flags | O_NONBLOCK) < 0))
		ret = -errno;
	if (!ret && rdma_create_id(ep->ch, &ep->id, NULL, RDMA_PS_TCP))
		ret = -errno;
	if (!ret && rdma_resolve_addr(ep->id, NULL, ai->ai_addr, c->timeout_ms))
		ret = -errno;
	if (!ret)
		ret = inj_wait(ep, RDMA_CM_EVENT_ADDR_RESOLVED, deadline_ms, NULL);
	if (!ret && rdma_resolve_route(ep->id, c->timeout_ms))
		ret = -errno;
	if (!ret)
		ret = inj_wait(ep, RDMA_CM_EVENT_ROUTE_RESOLVED, deadline_ms,
			       NULL);
	freeaddrinfo(ai);
	if (ret)
		fprintf(stderr, INJ_PREFIX "resolving %s: %s\n", c->addr,
			strerror(-ret));
	return ret;
}

static int inj_post_recv(struct inj_ep *ep)
{
	struct ibv_sge sge = { .addr = (uintptr_t)ep->buf,
			       .length = WIRE_MSG_MAX, .lkey = ep->mr->lkey };
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;

	return -ibv_post_recv(ep->id->qp, &wr, &bad);
}

/* PD, CQ, QP and the registered slots, with one receive posted. */
static int inj_qp(struct inj_ep *ep, struct ibv_pd *shared_pd)
{
	struct ibv_qp_init_attr qia = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_pd *pd = shared_pd;

	if (!pd)
		pd = ep->pd = ibv_alloc_pd(ep->id->verbs);
	ep->cq = pd ? ibv_create_cq(ep->id->verbs, 8, NULL, NULL, 0) : NULL;
	ep->scq = ep->cq ? ibv_create_cq(ep->id->verbs, 8, NULL, NULL, 0) : NULL;
	if (!ep->scq)
		return -errno;
	qia.send_cq = ep->scq;
	qia.recv_cq = ep->cq;
	if (rdma_create_qp(ep->id, pd, &qia))
		return -errno;
	ep->mr = ibv_reg_mr(pd, ep->buf, sizeof(ep->buf),
			    IBV_ACCESS_LOCAL_WRITE);
	if (!ep->mr)
		return -errno;
	return inj_post_recv(ep);
}

/* rdma_connect with private data; 0, or the outcome of a refusal. */
static int inj_connect(const struct inj_cfg *c, struct inj_ep *ep,
		       const uint8_t *pd, uint8_t pd_len, int *outcome)
{
	struct rdma_conn_param p = { .private_data = pd,
				     .private_data_len = pd_len,
				     .responder_resources = 1,
				     .initiator_depth = 1, .retry_count = 7,
				     .rnr_retry_count = 7 };
	struct wire_msg rej;
	int ret;

	if (rdma_connect(ep->id, &p)) {
		ret = -errno;
		fprintf(stderr, INJ_PREFIX "rdma_connect: %s\n", strerror(-ret));
		*outcome = INJ_FAILED;
		return ret;
	}
	ret = inj_wait(ep, RDMA_CM_EVENT_ESTABLISHED,
		       inj_now_ms() + (uint64_t)c->timeout_ms, &rej);
	if (ret == -ECONNREFUSED) {
		if (rej.type == WIRE_CONNECT)
			inj_say("the server rejected the connection (its reply "
				"speaks protocol version %u)", rej.version);
		else
			inj_say("the connection was rejected, without an "
				"rdmabench reply (nothing listens on port %u?)",
				c->port);
		*outcome = INJ_REFUSED;
	} else if (ret == -ETIMEDOUT) {
		inj_say("no answer to the connection request within %d ms",
			c->timeout_ms);
		*outcome = INJ_SILENT;
	} else if (ret) {
		inj_say("connecting failed: %s", strerror(-ret));
		*outcome = INJ_DROPPED;
	}
	return ret;
}

/* Has the server disconnected? 1 yes, 0 no (never blocks). */
static int inj_peer_gone(struct inj_ep *ep)
{
	struct rdma_cm_event *ev;

	if (ep->gone || rdma_get_cm_event(ep->ch, &ev))
		return ep->gone;
	ep->gone = ev->event == RDMA_CM_EVENT_DISCONNECTED ||
		   ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL;
	rdma_ack_cm_event(ev);
	return ep->gone;
}

/* One completion (a receive, or a send) until deadline. */
static int inj_poll(struct inj_ep *ep, int want_recv, uint64_t deadline_ms,
		    struct ibv_wc *wc)
{
	struct ibv_cq *cq = want_recv ? ep->cq : ep->scq;

	for (;;) {
		/* seen gone: one last look, what came before it still counts */
		int gone = inj_peer_gone(ep), n = ibv_poll_cq(cq, 1, wc);

		if (n < 0)
			return -EIO;
		if (n && wc->status)
			return -ECONNRESET;
		if (n)
			return 0;
		if (gone)
			return -ECONNRESET;
		if (inj_now_ms() >= deadline_ms)
			return -ETIMEDOUT;
		usleep(1000);
	}
}

/* Send len bytes from the send slot. */
static int inj_send(const struct inj_cfg *c, struct inj_ep *ep, size_t len)
{
	struct ibv_sge sge = { .addr = (uintptr_t)ep->buf + WIRE_MSG_MAX,
			       .length = (uint32_t)len, .lkey = ep->mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;
	struct ibv_wc wc;
	int ret = ibv_post_send(ep->id->qp, &wr, &bad);

	if (ret)
		return -ret;
	return inj_poll(ep, 0, inj_now_ms() + (uint64_t)c->timeout_ms, &wc);
}

/* TCP: connect to -p, bounded by --timeout. */
static int inj_tcp_connect(const struct inj_cfg *c, int *fd_out)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(c->port) };
	struct timeval tv = { .tv_sec = c->timeout_ms / 1000 };
	int fd;

	if (inet_pton(AF_INET, c->addr, &sa.sin_addr) != 1) {
		fprintf(stderr, INJ_PREFIX "%s: not an IPv4 address\n",
			c->addr);
		return -EINVAL;
	}
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -errno;
	/* a connect to a black hole must not outlive --timeout */
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	*fd_out = fd;
	return 0;
}

/* TCP: len bytes, or until the server closes: 0, -ECONNRESET, -ETIMEDOUT. */
static int inj_tcp_read(const struct inj_cfg *c, int fd, uint8_t *buf,
			size_t len, uint64_t deadline_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t done = 0;
	ssize_t n;

	(void)c;
	while (done < len) {
		uint64_t now = inj_now_ms();

		if (now >= deadline_ms)
			return -ETIMEDOUT;
		if (poll(&pfd, 1, (int)(deadline_ms - now)) <= 0)
			continue;
		n = recv(fd, buf + done, len - done, 0);
		if (n <= 0)
			return -ECONNRESET;
		done += (size_t)n;
	}
	return 0;
}

/* Pack msg into the send slot, the header's version patched to version. */
static int inj_send_msg(const struct inj_cfg *c, struct inj_ep *ep,
			const struct wire_msg *msg, int version)
{
	uint8_t *slot = ep->buf + WIRE_MSG_MAX;
	int n = wire_pack(msg, slot, WIRE_MSG_MAX);

	if (n < 0)
		return n;
	slot[4] = (uint8_t)(version >> 8);
	slot[5] = (uint8_t)version;
	if (ep->has_fd)
		return send(ep->fd, slot, (size_t)n, MSG_NOSIGNAL) == n ?
		       0 : -ECONNRESET;
	return inj_send(c, ep, (size_t)n);
}

/*
 * The next message from the server, copied into buf (WIRE_MSG_MAX bytes)
 * before its receive slot is posted again: a second message (an ERROR
 * after a HELLO_ACK) must not land under the first while it is read.
 */
static int inj_recv(const struct inj_cfg *c, struct inj_ep *ep, uint8_t *buf,
		    size_t *len)
{
	uint64_t deadline_ms = inj_now_ms() + (uint64_t)c->timeout_ms;
	uint32_t body;
	struct ibv_wc wc;
	int ret;

	if (!ep->has_fd) {
		ret = inj_poll(ep, 1, deadline_ms, &wc);
		if (ret)
			return ret;
		*len = wc.byte_len < WIRE_MSG_MAX ? wc.byte_len : WIRE_MSG_MAX;
		memcpy(buf, ep->buf, *len);
		return inj_post_recv(ep);
	}
	ret = inj_tcp_read(c, ep->fd, buf, WIRE_HEADER_BYTES, deadline_ms);
	if (ret)
		return ret;
	body = (uint32_t)buf[8] << 24 | (uint32_t)buf[9] << 16 |
	       (uint32_t)buf[10] << 8 | buf[11];
	if (body > WIRE_MSG_MAX - WIRE_HEADER_BYTES)
		return -EBADMSG;
	*len = WIRE_HEADER_BYTES + body;
	return inj_tcp_read(c, ep->fd, buf + WIRE_HEADER_BYTES, body,
			    deadline_ms);
}

/* The server's answer: the outcome it means, said in words. */
static int inj_answer(const struct inj_cfg *c, struct inj_ep *ep,
		      uint16_t want, struct wire_msg *msg)
{
	uint8_t buf[WIRE_MSG_MAX];
	size_t len = 0;
	int ret;

	ret = inj_recv(c, ep, buf, &len);
	if (ret == -ETIMEDOUT) {
		inj_say("no answer within %d ms", c->timeout_ms);
		return INJ_SILENT;
	}
	if (ret == -ECONNRESET) {
		inj_say("the server dropped the connection without an answer");
		return INJ_DROPPED;
	}
	if (!ret)
		ret = wire_unpack(buf, len, msg);
	if (ret) {
		inj_say("the server's answer does not unpack: %s",
			strerror(-ret));
		return INJ_FAILED;
	}
	if (msg->type == WIRE_ERROR) {
		inj_say("the server answered ERROR %d: %s", msg->u.error.status,
			msg->u.error.text);
		return INJ_REFUSED;
	}
	if (msg->type == WIRE_HELLO_ACK && msg->u.hello_ack.status) {
		inj_say("the server refused the HELLO (%d): %s",
			msg->u.hello_ack.status, msg->u.hello_ack.text);
		return INJ_REFUSED;
	}
	if (msg->type != want) {
		inj_say("the server answered %s", wire_type_name(msg->type));
		return INJ_FAILED;
	}
	inj_say("the server accepted: %s", wire_type_name(msg->type));
	return INJ_ACCEPTED;
}

/* Resolve, set up a QP (sharing pd if given) and connect as kind. */
static int inj_open(const struct inj_cfg *c, struct inj_ep *ep,
		    struct ibv_pd *pd, uint16_t kind, uint64_t token,
		    int version, int *outcome)
{
	struct wire_msg msg = { .type = WIRE_CONNECT,
				.u.connect.kind = kind,
				.u.connect.token = token };
	uint8_t buf[64];
	int n, ret;

	*outcome = INJ_FAILED;
	ret = inj_resolve(c, ep);
	if (ret)
		return ret;
	ret = inj_qp(ep, pd);
	if (ret) {
		fprintf(stderr, INJ_PREFIX "setting up a QP: %s\n",
			strerror(-ret));
		return ret;
	}
	n = wire_pack(&msg, buf, sizeof(buf));
	if (n < 0)
		return n;
	buf[4] = (uint8_t)(version >> 8);
	buf[5] = (uint8_t)version;
	if (c->random_len > 0 && !strcmp(c->mode, "connect")) {
		for (n = 0; n < c->random_len; n++)
			buf[n] = (uint8_t)rand();
	}
	return inj_connect(c, ep, buf, (uint8_t)n, outcome);
}

static int inj_mode_connect(const struct inj_cfg *c, struct inj_ep *ep)
{
	int outcome;

	if (!inj_open(c, ep, NULL, WIRE_CONN_CTRL, 0, c->version, &outcome)) {
		inj_say("the server ACCEPTED the connection");
		return INJ_ACCEPTED;
	}
	return outcome;
}

/* The control connection: TCP to -p with --oob tcp, else rdma_cm. 0, or
 * the outcome that ends the run (said). */
static int inj_ctrl(const struct inj_cfg *c, struct inj_ep *ep)
{
	int outcome, ret;

	if (!c->oob_tcp)
		return inj_open(c, ep, NULL, WIRE_CONN_CTRL, 0, WIRE_VERSION,
				&outcome) ? outcome : 0;
	ret = inj_tcp_connect(c, &ep->fd);
	if (ret) {
		inj_say("TCP port %u: %s", c->port, strerror(-ret));
		return INJ_FAILED;
	}
	ep->has_fd = true;
	return 0;
}

/* --auth-key-file: read F's key (less one trailing newline). 0 or -1. */
static int inj_key(struct inj_cfg *c, const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		fprintf(stderr, INJ_PREFIX "--auth-key-file %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	n = fread(c->key.key, 1, sizeof(c->key.key), f);
	fclose(f);
	if (n && c->key.key[n - 1] == '\n')
		n--;
	c->key.len = n;
	return n ? 0 : -1;
}

/* With a key: the AUTH exchange, the client proving first. 0 when the
 * server proved the key too; else -1 with the outcome in *outcome. */
static int inj_auth(const struct inj_cfg *c, struct inj_ep *ep, int *outcome)
{
	uint8_t nonce_c[WIRE_NONCE_BYTES];
	struct wire_msg hi, ch, msg;
	size_t i;

	if (!c->key.len)
		return 0;
	for (i = 0; i < sizeof(nonce_c); i++)
		nonce_c[i] = (uint8_t)rand();
	wire_auth_hello(nonce_c, &hi);
	*outcome = INJ_DROPPED;
	if (inj_send_msg(c, ep, &hi, WIRE_VERSION))
		return -1;
	*outcome = inj_answer(c, ep, WIRE_AUTH, &ch);
	if (*outcome != INJ_ACCEPTED)
		return -1;
	wire_auth_proof(&c->key, "client", nonce_c, ch.u.auth.nonce, &msg);
	*outcome = INJ_DROPPED;
	if (inj_send_msg(c, ep, &msg, WIRE_VERSION))
		return -1;
	*outcome = inj_answer(c, ep, WIRE_AUTH, &msg);
	if (*outcome != INJ_ACCEPTED)
		return -1;
	if (!wire_auth_check(&c->key, "server", nonce_c, ch.u.auth.nonce,
			     &msg)) {
		inj_say("the server did not prove the key");
		*outcome = INJ_FAILED;
		return -1;
	}
	inj_say("authenticated: the server took our proof and proved the key");
	return 0;
}

static int inj_mode_hello(const struct inj_cfg *c, struct inj_ep *ep,
			  int version)
{
	struct wire_msg msg = { .type = WIRE_HELLO, .u.hello = c->hello };
	int ret;

	ret = inj_ctrl(c, ep);
	if (ret)
		return ret;
	if (inj_auth(c, ep, &ret))
		return ret == INJ_REFUSED ? INJ_FAILED : ret;
	/* a server quick to refuse may answer and leave before our send
	 * completes: read what it said either way */
	if (inj_send_msg(c, ep, &msg, version))
		inj_say("sending HELLO: the server closed the connection");
	inj_say("sent HELLO (version %d, size %llu, max_size %llu, qps %u, "
		"iters %llu, io_timeout_ms %u)", version,
		(unsigned long long)c->hello.size_bytes,
		(unsigned long long)c->hello.max_size_bytes, c->hello.qps,
		(unsigned long long)c->hello.iters, c->hello.io_timeout_ms);
	ret = inj_answer(c, ep, WIRE_HELLO_ACK, &msg);
	ep->token = msg.u.hello_ack.token;
	return ret;
}

/* A control connection and nothing on it (with --hold: an idle hold). */
static int inj_mode_idle(const struct inj_cfg *c, struct inj_ep *ep)
{
	int ret = inj_ctrl(c, ep);

	if (ret)
		return ret;
	inj_say("the server accepted the control connection; sending nothing");
	return INJ_ACCEPTED;
}

/* A good HELLO and data connection, then a SYNC the buffer cannot hold. */
static int inj_mode_sync(const struct inj_cfg *c, struct inj_ep *ctrl,
			 struct inj_ep *data)
{
	struct wire_msg msg = { .type = WIRE_BUF };
	int ret;

	ret = inj_mode_hello(c, ctrl, WIRE_VERSION);
	if (ret != INJ_ACCEPTED)
		return ret == INJ_REFUSED ? INJ_FAILED : ret;
	if (inj_open(c, data, ctrl->pd, WIRE_CONN_DATA, ctrl->token,
		     WIRE_VERSION, &ret))
		return ret;
	msg.u.buf.addr = (uintptr_t)data->buf;
	msg.u.buf.length = c->hello.max_size_bytes;
	msg.u.buf.rkey = data->mr->rkey;
	if (inj_send_msg(c, ctrl, &msg, WIRE_VERSION))
		return INJ_DROPPED;
	ret = inj_answer(c, ctrl, WIRE_BUF, &msg);
	if (ret != INJ_ACCEPTED)
		return ret;
	msg = (struct wire_msg){ .type = WIRE_SYNC };
	msg.u.sync.size_bytes = c->sync_size ? c->sync_size :
				c->hello.max_size_bytes + (1u << 20);
	msg.u.sync.iters = 1;
	if (inj_send_msg(c, ctrl, &msg, WIRE_VERSION))
		return INJ_DROPPED;
	inj_say("sent SYNC of %llu bytes (the buffer holds %llu)",
		(unsigned long long)msg.u.sync.size_bytes,
		(unsigned long long)c->hello.max_size_bytes);
	return inj_answer(c, ctrl, WIRE_READY, &msg);
}

/* A data connection request of no session (--token): refused? */
static int inj_mode_data(const struct inj_cfg *c, struct inj_ep *ep)
{
	int outcome;

	if (!inj_open(c, ep, NULL, WIRE_CONN_DATA, c->token, WIRE_VERSION,
		      &outcome)) {
		inj_say("the server ACCEPTED the data connection (token "
			"0x%llx)", (unsigned long long)c->token);
		return INJ_ACCEPTED;
	}
	return outcome;
}

/* --oob tcp: a HELLO, then QP 0's address naming --gid and --qpn. */
static int inj_mode_qpinfo(struct inj_cfg *c, struct inj_ep *ep)
{
	struct wire_msg msg = { .type = WIRE_QP_INFO };
	int ret;

	c->oob_tcp = true;
	ret = inj_mode_hello(c, ep, WIRE_VERSION);
	if (ret != INJ_ACCEPTED)
		return ret == INJ_REFUSED ? INJ_FAILED : ret;
	if (inet_pton(AF_INET6, c->gid ? c->gid : "::1",
		      msg.u.qp_info.gid) != 1) {
		fprintf(stderr, INJ_PREFIX "--gid %s: not a GID\n", c->gid);
		return INJ_USAGE;
	}
	msg.u.qp_info.qpn = c->qpn;
	msg.u.qp_info.psn = 0x1234;
	msg.u.qp_info.mtu = 3; /* IBV_MTU_1024 */
	if (inj_send_msg(c, ep, &msg, WIRE_VERSION))
		return INJ_DROPPED;
	inj_say("sent QP_INFO naming GID %s, QP 0x%x", c->gid ? c->gid : "::1",
		c->qpn);
	return inj_answer(c, ep, WIRE_QP_INFO, &msg);
}

/* qpinfo accepted, then BUF and SYNC: the server starts its traffic (with
 * -b, flags 0x4, it sends too: to the GID named). */
static int inj_mode_reflect(struct inj_cfg *c, struct inj_ep *ep)
{
	struct wire_msg msg = { .type = WIRE_BUF };
	int ret;

	ret = inj_mode_qpinfo(c, ep);
	if (ret != INJ_ACCEPTED)
		return ret;
	msg.u.buf.addr = 0x10000;
	msg.u.buf.length = c->hello.max_size_bytes;
	msg.u.buf.rkey = 0x1234;
	if (inj_send_msg(c, ep, &msg, WIRE_VERSION))
		return INJ_DROPPED;
	ret = inj_answer(c, ep, WIRE_BUF, &msg);
	if (ret != INJ_ACCEPTED)
		return ret;
	msg = (struct wire_msg){ .type = WIRE_SYNC };
	msg.u.sync.size_bytes = c->hello.size_bytes;
	msg.u.sync.iters = c->hello.iters;
	if (inj_send_msg(c, ep, &msg, WIRE_VERSION))
		return INJ_DROPPED;
	return inj_answer(c, ep, WIRE_READY, &msg);
}

/* Random bytes over TCP; then wait for the server to close. */
static int inj_mode_tcp(const struct inj_cfg *c)
{
	struct pollfd pfd = { .events = POLLIN };
	uint64_t deadline_ms = inj_now_ms() + (uint64_t)c->timeout_ms;
	int len = c->random_len > 0 ? c->random_len : 4096, i, fd, ret;
	uint8_t buf[4096];
	ssize_t n = 0;

	ret = inj_tcp_connect(c, &fd);
	if (ret) {
		inj_say("TCP port %u: %s", c->port, strerror(-ret));
		return ret == -ECONNREFUSED ? INJ_REFUSED : INJ_FAILED;
	}
	for (i = 0; i < len && n >= 0; i += (int)n) {
		int chunk = len - i < (int)sizeof(buf) ? len - i : (int)sizeof(buf);
		int j;

		for (j = 0; j < chunk; j++)
			buf[j] = (uint8_t)rand();
		n = send(fd, buf, (size_t)chunk, MSG_NOSIGNAL);
	}
	inj_say("TCP port %u: sent %d random bytes%s", c->port, i,
		n < 0 ? " (the server closed mid-way)" : "");
	pfd.fd = fd;
	while (inj_now_ms() < deadline_ms) {
		if (poll(&pfd, 1, (int)(deadline_ms - inj_now_ms())) <= 0)
			continue;
		n = recv(fd, buf, sizeof(buf), 0);
		if (n <= 0) {
			inj_say("TCP port %u: the server closed the connection",
				c->port);
			close(fd);
			return INJ_REFUSED;
		}
		inj_say("TCP port %u: the server answered %zd bytes", c->port, n);
	}
	inj_say("TCP port %u: still open after %d ms", c->port, c->timeout_ms);
	close(fd);
	return INJ_SILENT;
}

/* Until deadline_ms: 1 when the server ended the connection (what it
 * sends meanwhile, an ERROR, is read and dropped), else 0. */
static int inj_hold_wait(struct inj_ep *ep, uint64_t deadline_ms)
{
	struct rdma_cm_event *ev;
	uint8_t buf[256];

	if (ep->has_fd) {
		struct pollfd pfd = { .fd = ep->fd, .events = POLLIN };
		uint64_t now;

		while ((now = inj_now_ms()) < deadline_ms) {
			if (poll(&pfd, 1, (int)(deadline_ms - now)) <= 0)
				continue;
			if (recv(ep->fd, buf, sizeof(buf), 0) <= 0)
				return 1;
		}
		return 0;
	}
	while (!inj_event(ep, deadline_ms, &ev)) {
		enum rdma_cm_event_type e = ev->event;

		rdma_ack_cm_event(ev);
		if (e == RDMA_CM_EVENT_DISCONNECTED)
			return 1;
	}
	return 0;
}

/*
 * --hold: stay connected, silent or (--beat) sending a heartbeat every
 * --beat seconds; did the server let go of the connection, and when?
 */
static int inj_hold(const struct inj_cfg *c, struct inj_ep *ep)
{
	uint64_t start = inj_now_ms(), end = start + c->hold_s * 1000ULL;
	struct wire_msg alive = { .type = WIRE_ALIVE };
	unsigned int beats = 0;
	uint64_t next;

	if (!ep->has_fd && !ep->ch)
		return INJ_FAILED;
	while (inj_now_ms() < end) {
		next = c->beat_s ? inj_now_ms() + c->beat_s * 1000ULL : end;
		if (inj_hold_wait(ep, next < end ? next : end) ||
		    (c->beat_s && inj_now_ms() < end &&
		     inj_send_msg(c, ep, &alive, WIRE_VERSION))) {
			inj_say("the server ended the connection after %.1f s "
				"(%u heartbeats sent)",
				(double)(inj_now_ms() - start) / 1000, beats);
			return INJ_REFUSED;
		}
		beats += c->beat_s && inj_now_ms() < end;
	}
	inj_say("the server still held the connection after %d s (%u "
		"heartbeats sent)", c->hold_s, beats);
	return INJ_SILENT;
}

static int inj_set(struct wire_hello *h, char *list)
{
	char *tok, *save = NULL;

	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		unsigned long long v;

		if (!eq)
			return -EINVAL;
		*eq++ = '\0';
		v = strtoull(eq, NULL, 0);
#define INJ_FIELD(name, field)                                               \
		if (!strcmp(tok, name)) {                                    \
			h->field = (__typeof__(h->field))v;                  \
			continue;                                            \
		}
		INJ_FIELD("verb", verb)
		INJ_FIELD("measure", measure)
		INJ_FIELD("flags", flags)
		INJ_FIELD("tx_depth", tx_depth)
		INJ_FIELD("cq_mod", cq_mod)
		INJ_FIELD("io_timeout_ms", io_timeout_ms)
		INJ_FIELD("size", size_bytes)
		INJ_FIELD("max_size", max_size_bytes)
		INJ_FIELD("iters", iters)
		INJ_FIELD("qps", qps)
		INJ_FIELD("post_list", post_list)
		INJ_FIELD("outstanding", outstanding)
		INJ_FIELD("rx_depth", rx_depth)
		INJ_FIELD("inline", inline_bytes)
		INJ_FIELD("duration", duration_s)
		INJ_FIELD("margin", margin_s)
#undef INJ_FIELD
		fprintf(stderr, INJ_PREFIX "unknown HELLO field '%s'\n", tok);
		return -EINVAL;
	}
	return 0;
}

static int inj_usage(void)
{
	fprintf(stderr, "usage: wire_inject [-p PORT] [--timeout SEC] "
		"[--version V] [--random N] [--seed S] [--set F=V,...] "
		"[--sync-size BYTES] [--hold SEC] [--oob cm|tcp] [--tool T] "
		"[--token N] [--gid G] [--qpn N] [--beat SEC] "
		"[--auth-key-file F] "
		"connect|hello|sync|tcp|data|qpinfo|reflect|idle SERVER_IP\n");
	return INJ_USAGE;
}

static int inj_parse(struct inj_cfg *c, int argc, char **argv)
{
	static const struct option longs[] = {
		{ "timeout", 1, NULL, 't' }, { "version", 1, NULL, 'V' },
		{ "random", 1, NULL, 'r' }, { "seed", 1, NULL, 'S' },
		{ "set", 1, NULL, 's' }, { "sync-size", 1, NULL, 'z' },
		{ "hold", 1, NULL, 'H' }, { "oob", 1, NULL, 'O' },
		{ "tool", 1, NULL, 'T' }, { "token", 1, NULL, 'k' },
		{ "gid", 1, NULL, 'g' }, { "qpn", 1, NULL, 'q' },
		{ "beat", 1, NULL, 'b' }, { "auth-key-file", 1, NULL, 'K' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	while ((o = getopt_long(argc, argv, "p:", longs, NULL)) != -1) {
		switch (o) {
		case 'p': c->port = (uint16_t)atoi(optarg); break;
		case 't': c->timeout_ms = atoi(optarg) * 1000; break;
		case 'V': c->version = atoi(optarg); break;
		case 'r': c->random_len = atoi(optarg); break;
		case 'S': c->seed = (unsigned int)atoi(optarg); break;
		case 'z': c->sync_size = strtoull(optarg, NULL, 0); break;
		case 'H': c->hold_s = atoi(optarg); break;
		case 'b': c->beat_s = atoi(optarg); break;
		case 'k': c->token = strtoull(optarg, NULL, 0); break;
		case 'g': c->gid = optarg; break;
		case 'q': c->qpn = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'O': c->oob_tcp = !strcmp(optarg, "tcp"); break;
		case 'K':
			if (inj_key(c, optarg))
				return -EINVAL;
			break;
		case 'T':
			snprintf(c->hello.tool, sizeof(c->hello.tool), "%s",
				 optarg);
			break;
		case 's':
			if (inj_set(&c->hello, optarg))
				return -EINVAL;
			break;
		default: return -EINVAL;
		}
	}
	if (argc - optind != 2 || c->timeout_ms <= 0)
		return -EINVAL;
	c->mode = argv[optind];
	/* rdma_cm carries at most 56 bytes of private data (IB CM REQ) */
	if (c->random_len < 0 || c->random_len > (strcmp(c->mode, "tcp") ?
						  56 : 1 << 20))
		return -EINVAL;
	c->addr = argv[optind + 1];
	return 0;
}

int main(int argc, char **argv)
{
	struct inj_cfg c = {
		.port = 18515, .timeout_ms = 10000, .version = WIRE_VERSION,
		.seed = 1, .qpn = 0x11,
		.hello = { .measure = 0, .tx_depth = 128, .cq_mod = 100,
			   .io_timeout_ms = 10000, .size_bytes = 65536,
			   .max_size_bytes = 65536, .iters = 5000, .qps = 1,
			   .post_list = 1, .outstanding = 16, .rx_depth = 512,
			   .inline_bytes = UINT32_MAX, .tool = "wire_inject" },
	};
	static struct inj_ep ctrl, data; /* static: registered, zeroed */
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (inj_parse(&c, argc, argv))
		return inj_usage();
	srand(c.seed);
	if (!strcmp(c.mode, "connect"))
		ret = inj_mode_connect(&c, &ctrl);
	else if (!strcmp(c.mode, "hello"))
		ret = inj_mode_hello(&c, &ctrl, c.version);
	else if (!strcmp(c.mode, "sync"))
		ret = inj_mode_sync(&c, &ctrl, &data);
	else if (!strcmp(c.mode, "tcp"))
		ret = inj_mode_tcp(&c);
	else if (!strcmp(c.mode, "data"))
		ret = inj_mode_data(&c, &ctrl);
	else if (!strcmp(c.mode, "qpinfo"))
		ret = inj_mode_qpinfo(&c, &ctrl);
	else if (!strcmp(c.mode, "reflect"))
		ret = inj_mode_reflect(&c, &ctrl);
	else if (!strcmp(c.mode, "idle"))
		ret = inj_mode_idle(&c, &ctrl);
	else
		return inj_usage();
	if (c.hold_s > 0 && ret != INJ_FAILED && ret != INJ_DROPPED)
		ret = inj_hold(&c, &ctrl);
	inj_close(&data);
	inj_close(&ctrl);
	return ret;
}
