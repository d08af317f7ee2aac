// SPDX-License-Identifier: BSD-2-Clause
/*
 * session_cm - the rdma_cm rendezvous backend (the default): the control
 * channel is a small RC QP, each data QP its own rdma_cm connection; the
 * device follows from the IP in use.
 */
#include <errno.h>
#include <string.h>

#include "lib/container.h"
#include "lib/log.h"
#include "lib/timer.h"
#include "run/session/busy.h"
#include "run/session/session_auth.h"
#include "run/session/session_cm.h"
#include "run/session/session_ctx.h"
#include "run/setup.h"

/* The backend's state: its handle, the listener, where it connects. */
struct cm_be {
	struct session_be be;
	struct cm_ep listener;      /* server: the listening id */
	char addr[OPTS_ADDR_MAX];   /* client: where rdma_cm connects */
	uint16_t port;              /* and its port; server: the listener's */
};

static struct cm_be *cm_of(struct session_be *be)
{
	return container_of(be, struct cm_be, be);
}

static int cm_init(struct session_be *be)
{
	const struct bench_cfg *c = &be->s->b->cfg;

	session_cm_at(be, c->server_addr, (uint16_t)c->tcp_port);
	return 0;
}

void session_cm_at(struct session_be *cm, const char *addr, uint16_t port)
{
	struct cm_be *c = cm_of(cm);

	if (addr)
		snprintf(c->addr, sizeof(c->addr), "%s", addr);
	c->port = port;
}

/* What -T, -u, --retry_count and -o ask of this side's rdma_cm ids. */
static struct cm_attr cm_attr_of(const struct bench_cfg *c)
{
	return (struct cm_attr){
		.has_tos = c->has_tos, .tos = (uint8_t)c->tos,
		.has_timeout = c->has_qp_timeout,
		.timeout = (uint8_t)c->qp_timeout,
		.has_retry = true, .retry_count = (uint8_t)c->retry_count,
		.out_reads = dev_rd_atom_u8(c->outstanding),
		.src = c->source_ip,
	};
}

/* The header's control path, and why the data device (unless --oob auto
 * said it already). */
static void cm_notes(struct bench_ctx *b, const char *dir, const char *addr,
		     unsigned int port)
{
	snprintf(b->ctrl_note, sizeof(b->ctrl_note), "rdma_cm %s %.60s:%u",
		 dir, addr, port);
	if (!b->dev_note[0])
		snprintf(b->dev_note, sizeof(b->dev_note), "rdma_cm: owns "
			 "the route to %.60s", addr);
}

/* The connection on id runs over the -d device and -i port. */
static int cm_check_device(const struct bench_ctx *b, struct rdma_cm_id *id)
{
	const char *dev = ibv_get_device_name(id->verbs->device);

	if (b->cfg.dev_name[0] && strcmp(dev, b->cfg.dev_name)) {
		bench_err("-d %s was given, but the connection runs over %s (the "
			  "device that owns the IP address in use): use that "
			  "device's IP, or drop -d", b->cfg.dev_name, dev);
		return -EINVAL;
	}
	if (b->cfg.has_ib_port && b->cfg.ib_port != id->port_num) {
		bench_err("-i %llu was given, but the IP in use is on port %u "
			  "of %s: use that port's IP, or drop -i",
			  (unsigned long long)b->cfg.ib_port, id->port_num, dev);
		return -EINVAL;
	}
	return 0;
}

/* One data QP on its id (resolved by the client, requested at the server). */
static int cm_data_qp(struct bench_ctx *b, unsigned int i)
{
	struct rdma_cm_id *id = b->data.qps[i].ep.id;

	if (id->verbs != b->ctrl.verbs) {
		bench_err("data connection %u reached another device than the "
			  "control connection", i);
		return -EINVAL;
	}
	return conn_qp_setup(&b->data, i, b->ctrl.pd, setup_inline_bytes(b));
}

/* Server: a request for another device than -d, -i is refused. */
static int server_check_device(const struct bench_ctx *b, struct cm_ep *ep)
{
	int ret = cm_check_device(b, ep->id);

	if (ret)
		cm_reject(ep);
	return ret;
}

/* Client: one attempt at the control channel (rdma_cm). */
static int client_ctrl_attempt(struct session_be *be, uint64_t deadline_ns)
{
	const struct wire_connect req = { .kind = WIRE_CONN_CTRL };
	struct bench_ctx *b = be->s->b;
	struct cm_be *c = cm_of(be);
	int ret;

	b->ctrl.ep.attr = cm_attr_of(&b->cfg);
	ret = cm_resolve(c->addr, c->port, deadline_ns, &b->ctrl.ep);
	if (!ret)
		ret = cm_check_device(b, b->ctrl.ep.id);
	if (!ret)
		ret = ctrl_setup(&b->ctrl);
	if (!ret)
		ret = cm_connect(&b->ctrl.ep, &req, deadline_ns);
	if (!ret)
		ret = session_auth_client(be->s);
	if (!ret) {
		b->port = b->ctrl.ep.id->port_num;
		cm_notes(b, "to", c->addr, c->port);
		return 0;
	}
	if (ret == -EBUSY) /* said by the caller, as --oob tcp's */
		wire_busy_text(&b->ctrl.ep.busy, b->ctrl.peer_text,
			       sizeof(b->ctrl.peer_text));
	ctrl_destroy(&b->ctrl);
	return ret;
}

/*
 * Client: data QP i's rdma_cm connection. iWARP on a provider over the
 * kernel's TCP (siw) binds the id's rdma_cm port in the TCP stack too, so
 * a port another socket holds fails rdma_connect with EADDRINUSE (or, a
 * pair in TIME_WAIT, EADDRNOTAVAIL: session_port_clash) before anything
 * reaches the server; a new id draws a new port: up to CM_DATA_TRIES ids.
 */
#define CM_DATA_TRIES 64

static int client_connect_qp(struct session_be *be, unsigned int i,
			     uint64_t deadline_ns)
{
	struct wire_connect req = { .kind = WIRE_CONN_DATA,
				    .qp_index = (uint16_t)i,
				    .token = be->s->token };
	struct bench_ctx *b = be->s->b;
	struct cm_ep *ep = &b->data.qps[i].ep;
	struct cm_be *c = cm_of(be);
	unsigned int tries;
	int ret;

	for (tries = 1;; tries++) {
		ep->attr = cm_attr_of(&b->cfg);
		ret = cm_resolve(c->addr, c->port, deadline_ns, ep);
		if (!ret)
			ret = cm_data_qp(b, i);
		if (!ret)
			ret = cm_connect(ep, &req, deadline_ns);
		if (!session_port_clash(ret) || tries == CM_DATA_TRIES ||
		    timer_expired(deadline_ns))
			return ret;
		cm_close(ep); /* its QP too */
		b->data.qps[i].qp = NULL;
	}
}

/* Client: one rdma_cm connection per data QP. */
static int client_connect_qps(struct session_be *be)
{
	struct bench_ctx *b = be->s->b;
	struct cm_be *c = cm_of(be);
	uint64_t deadline_ns = timer_deadline_ns(b->test.io_timeout_ms);
	unsigned int i;
	int ret = 0;

	for (i = 0; i < b->test.qps && !ret; i++) {
		ret = client_connect_qp(be, i, deadline_ns);
		if (ret && ret != -EINTR) /* a stop: the driver says it */
			bench_err("data connection %u of %u to %s: %s", i + 1,
				  b->test.qps, c->addr,
				  strerror(-ret));
	}
	return ret;
}

/* The addresses of the data path, for the header. */
static void data_addrs(struct bench_ctx *b)
{
	cm_local_str(&b->data.qps[0].ep, b->local, sizeof(b->local));
	cm_peer_str(&b->data.qps[0].ep, b->peer, sizeof(b->peer));
}

/* Client: the data QPs; on failure, the server's reason if it has one. */
static int client_connect_data(struct session_be *be)
{
	struct bench_ctx *b = be->s->b;
	int ret = client_connect_qps(be);

	if (ret)
		(void)ctrl_await_error(&b->ctrl, 1000);
	else
		data_addrs(b);
	return ret;
}

static int server_listen(struct session_be *be)
{
	const struct bench_ctx *b = be->s->b;
	struct cm_be *c = cm_of(be);
	const struct sockaddr *addr;
	struct sockaddr_storage sa;
	int ret;

	c->listener.attr = cm_attr_of(&b->cfg);
	ret = session_bind_addr(b, &sa, &addr);
	if (!ret)
		ret = cm_listen(addr, c->port, &c->listener);
	if (!ret && !c->port) /* -p 0: the port rdma_cm picked */
		be->s->b->cfg.tcp_port = c->port = cm_listen_port(&c->listener);
	if (!ret)
		busy_watch_cm(be->s, &c->listener);
	return session_bind_err(b, ret);
}

static void server_unlisten(struct session_be *be)
{
	busy_watch_cm(be->s, NULL);
	cm_close(&cm_of(be)->listener);
}

int session_cm_listen_fd(struct session_be *cm)
{
	const struct cm_ep *l = &cm_of(cm)->listener;

	return l->ch ? l->ch->fd : -1;
}

/* Between connection requests: has the client given up (ERROR) or gone? */
static int server_client_left(struct bench_ctx *b)
{
	struct wire_msg msg;
	int ret;

	for (;;) {
		ret = ctrl_poll(&b->ctrl, &msg);
		if (ret == -EAGAIN)
			return 0;
		if (ret) {
			bench_err("the client left before its data connections "
				  "came");
			return -ECONNRESET;
		}
		if (msg.type == WIRE_ERROR) {
			/* its failure, not ours: for this side a lost peer */
			bench_err("the client reports: %s", msg.u.error.text);
			return -ECONNABORTED;
		}
		if (msg.type != WIRE_HELLO && msg.type != WIRE_ALIVE) {
			bench_err("expected data connections, got %s on the "
				  "control channel", wire_type_name(msg.type));
			return -EPROTO;
		}
	}
}

/*
 * A connection request until deadline_ns, the control channel read every
 * 200 ms meanwhile: a client that failed after its HELLO (no GPU memory,
 * a buffer it could not register) says so there, and this server should
 * not wait out its --timeout for data connections that will never come.
 */
static int server_get_request(struct cm_be *c, uint64_t deadline_ns,
			      struct cm_ep *ep, struct wire_connect *req)
{
	struct bench_ctx *b = c->be.s->b;
	uint64_t slice_ns;
	int ret;

	if (b->ctrl.hard_ns && (!deadline_ns || b->ctrl.hard_ns < deadline_ns))
		deadline_ns = b->ctrl.hard_ns;

	for (;;) {
		slice_ns = timer_deadline_ns(200);
		ret = cm_get_request(&c->listener, !deadline_ns ||
				     slice_ns < deadline_ns ? slice_ns :
				     deadline_ns, ep, req);
		if (ret != -ETIMEDOUT || (deadline_ns &&
					   timer_expired(deadline_ns)))
			return ret;
		ret = server_client_left(b);
		if (ret)
			return ret;
	}
}

/*
 * Server, between sessions: is this request the one to serve? A data
 * request of no session (a stranger's, or late) is refused, logged once
 * (*strays); a control request whose host is not first in the line (or
 * is slowed while others ask: busy_first) is told busy with its place,
 * as during a session: rdma_cm's requests take their turns in the order
 * their hosts were first told busy, not in the order they reach the
 * listener after a session, which a client reconnecting many times a
 * second would win.
 */
static bool server_request_next(struct session *s, struct cm_ep *ep,
				const struct wire_connect *req,
				unsigned int *strays)
{
	struct wire_connect busy;
	char addr[80];

	cm_peer_str(ep, addr, sizeof(addr));
	if (req->kind == WIRE_CONN_CTRL && busy_first(s, addr))
		return true;
	if (req->kind == WIRE_CONN_CTRL) {
		(void)busy_answer(s, addr, &busy); /* kind 0: unanswered */
		cm_reject_with(ep, &busy);
		return false;
	}
	if (!(*strays)++)
		bench_warn("refused a data connection request from %s: no "
			   "session awaits data connections", addr);
	cm_reject(ep);
	return false;
}

/* Server: the next client's control connection request. */
static int server_accept(struct cm_be *c, struct cm_ep *ep,
			 uint64_t deadline_ns)
{
	struct wire_connect req;
	unsigned int strays = 0;
	int ret;

	while (!(ret = cm_get_request(&c->listener, deadline_ns, ep, &req)) &&
	       !server_request_next(c->be.s, ep, &req, &strays))
		;
	return ret ? ret : server_check_device(c->be.s->b, ep);
}

/*
 * Server, while a client's data QPs are awaited: is this request one of
 * them (a data CONNECT with the session's token from HELLO_ACK)? Any
 * other is refused and the session goes on: a new client's control
 * connect is told busy (busy.c), a stranger's data connect is logged
 * (the first, with its address).
 */
static bool server_request_ours(struct session *s, struct cm_ep *ep,
				const struct wire_connect *req,
				unsigned int *strangers)
{
	const char *peer = s->b->peer;
	struct wire_connect busy;
	char addr[80];

	if (req->kind == WIRE_CONN_DATA && !(req->token ^ s->token))
		return true;
	if (req->kind == WIRE_CONN_CTRL) { /* a new client: busy */
		busy_answer(s, cm_peer_str(ep, addr, sizeof(addr)), &busy);
		cm_reject_with(ep, &busy);
		return false;
	}
	if (!(*strangers)++)
		bench_warn("refused a %s connection request from %s: it is "
			   "not one of %s's data connections (no or another "
			   "session token); %s's session goes on", "data",
			   cm_peer_str(ep, addr, sizeof(addr)), peer, peer);
	cm_reject(ep);
	return false;
}

/* Server: the next of this session's data connection requests. */
static int server_data_request(struct cm_be *c, uint64_t deadline_ns,
			       struct cm_ep *ep, uint16_t *index,
			       unsigned int *strangers)
{
	struct wire_connect req;
	int ret;

	do {
		ret = server_get_request(c, deadline_ns, ep, &req);
	} while (!ret && !server_request_ours(c->be.s, ep, &req, strangers));
	if (ret)
		return ret;
	*index = req.qp_index;
	return server_check_device(c->be.s->b, ep);
}

/* Server: the client's data QPs, in whatever order they come: the
 * listener is the session's meanwhile (busy_cm). */
static int server_accept_qps(struct cm_be *c)
{
	struct bench_ctx *b = c->be.s->b;
	uint64_t deadline_ns = timer_deadline_ns(b->test.io_timeout_ms);
	struct cm_ep ep = { 0 };
	unsigned int n, strangers = 0;
	uint16_t i;
	int ret = 0;

	for (n = 0; n < b->test.qps && !ret; n++) {
		ret = server_data_request(c, deadline_ns, &ep, &i, &strangers);
		if (!ret && (i >= b->test.qps || b->data.qps[i].ep.id)) {
			bench_err("the client sent a bad data QP index %u", i);
			cm_reject(&ep);
			ret = -EPROTO;
		}
		if (ret)
			break;
		b->data.qps[i].ep = ep;
		ret = cm_data_qp(b, i);
		if (!ret)
			ret = cm_accept(&b->data.qps[i].ep, deadline_ns);
	}
	if (strangers > 1)
		bench_warn("refused %u connection requests in all that were "
			   "not %s's", strangers, b->peer);
	if (ret == -ETIMEDOUT && b->ctrl.hard_ns &&
	    timer_expired(b->ctrl.hard_ns))
		bench_err("%u of %s's %u data connections came within this "
			  "server's hard limit for %s, which no message extends",
			  n, b->peer, b->test.qps, b->ctrl.hard_what);
	return ret;
}

/* Server: --auth-key-file's exchange (or its refusal) before the HELLO,
 * which stays to be read. */
static int server_auth(struct session *s)
{
	struct wire_msg first;
	int ret;

	ret = session_auth_first(s, &first);
	if (!ret)
		ret = session_auth_server(s, &first);
	if (!ret)
		ctrl_unread(&s->b->ctrl, &first);
	return ret;
}

/* Server: the next client's control connection. */
static int server_accept_ctrl(struct session_be *be, uint64_t deadline_ns)
{
	struct bench_ctx *b = be->s->b;
	struct cm_be *c = cm_of(be);
	int ret;

	ret = server_accept(c, &b->ctrl.ep, deadline_ns);
	if (ret)
		return ret;
	/* named from its own request: a failure below is logged under it,
	 * never under the previous client's address */
	cm_peer_str(&b->ctrl.ep, b->peer, sizeof(b->peer));
	busy_begin(be->s);
	ret = ctrl_setup(&b->ctrl);
	if (!ret)
		ret = cm_accept(&b->ctrl.ep, ctrl_deadline_ns(&b->ctrl));
	if (ret)
		return ret;
	b->port = b->ctrl.ep.id->port_num;
	snprintf(b->ctrl_note, sizeof(b->ctrl_note), "rdma_cm from %s "
		 "(port %u)", b->peer, c->port);
	snprintf(b->dev_note, sizeof(b->dev_note), "rdma_cm: owns the IP "
		 "address the client reached");
	return server_auth(be->s);
}

static int server_accept_data(struct session_be *be)
{
	int ret = server_accept_qps(cm_of(be));

	if (!ret)
		data_addrs(be->s->b);
	return ret;
}

const struct session_ops session_cm_ops = {
	.name = "rdma_cm",
	.port_what = "port",
	.listen_note = "",
	.retry_hint = "is the server running, and is this IP on an RDMA "
		      "device?",
	.log_any = false,
	SESSION_BE_OF(struct cm_be, be),
	.init = cm_init,
	.attempt = client_ctrl_attempt,
	.connect_data = client_connect_data,
	.listen = server_listen,
	.unlisten = server_unlisten,
	.accept_ctrl = server_accept_ctrl,
	.accept_data = server_accept_data,
};
