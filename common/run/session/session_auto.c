// SPDX-License-Identifier: BSD-2-Clause
/*
 * session_auto - the default rendezvous (--oob auto), perftest's way: the
 * control channel is TCP to whatever the user named (a hostname, a
 * management IP, localhost, an RDMA IP); the data device is -d/--netdev,
 * else the one that owns the address in use, else the first active one,
 * and the header says which and why. RoCE and InfiniBand QPs are then
 * connected over the TCP channel (session_tcp.c). iWARP QPs connect only
 * through rdma_cm: the server answers an iWARP client's LOCATE with its
 * iWARP address and rdma_cm port, and the client runs the session over
 * rdma_cm there (session_cm.c). The server listens on TCP and rdma_cm at
 * once, so both client forms (auto/--oob tcp and -R) reach it; what
 * arrives picks the backend for that client (its handoff).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/container.h"
#include "lib/log.h"
#include "lib/stop.h"
#include "lib/timer.h"
#include "rdma/ctrl_tcp.h"
#include "run/session/busy.h"
#include "run/session/session_auto.h"
#include "run/session/session_cm.h"
#include "run/session/session_ctx.h"
#include "run/session/session_tcp.h"
#include "run/setup.h"

/* The backend's state: the two it hands a session to, and its choice. */
struct auto_be {
	struct session_be be;
	struct session_be *tcp;     /* TCP channel, raw QPs (session_tcp) */
	struct session_be *cm;      /* rdma_cm (session_cm) */
	struct session_be *via;     /* this peer's: tcp or cm; NULL: none */
	uint16_t cm_port;           /* server: rdma_cm's port */
	enum wire_data_kind data_kind; /* client: its data device's kind */
	char data_dev[64];          /* and name */
};

static struct auto_be *auto_of(struct session_be *be)
{
	return container_of(be, struct auto_be, be);
}

static int auto_init(struct session_be *be)
{
	struct auto_be *a = auto_of(be);
	int ret;

	a->cm_port = (uint16_t)be->s->b->cfg.tcp_port;
	ret = session_be_new(be->s, &session_tcp_ops, &a->tcp);
	if (!ret)
		ret = session_be_new(be->s, &session_cm_ops, &a->cm);
	if (ret)
		session_be_free(a->tcp);
	return ret;
}

static void auto_fini(struct session_be *be)
{
	struct auto_be *a = auto_of(be);

	session_be_free(a->cm);
	session_be_free(a->tcp);
}

static struct session_be *auto_handoff(struct session_be *be)
{
	struct auto_be *a = auto_of(be);

	return a->via ? a->via : be;
}

/* A side's choice of data device (auto_pickers fill it). */
struct auto_pick {
	enum wire_data_kind want;   /* server: the client's kind */
	const char *owner;          /* the device owning the address in use */
	uint8_t owner_port;
	const char *owner_what;     /* "the route to X", for the header */
	char dev[ROUTE_DEV_LEN];    /* the choice ("" with netdev) */
	const char *netdev;
	uint8_t port;
	char why[120];
};

/* The kind of device dev (or netdev's) at *port (netdev: its own);
 * why: the run's reason (lib/log.h), NULL while only probing. */
static int auto_kind(const char *dev, const char *netdev, uint8_t *port,
		     enum wire_data_kind *kind, struct log_why *why)
{
	struct ibv_context *verbs;
	int ret = dev_open(dev, netdev, &verbs, port, why);

	if (ret)
		return ret;
	*kind = dev_kind(verbs, *port);
	ibv_close_device(verbs);
	return 0;
}

static int pick_flag(const struct bench_ctx *b, struct auto_pick *p)
{
	if (!b->cfg.dev_name[0] && !b->cfg.netdev[0])
		return -ENOENT;
	snprintf(p->dev, sizeof(p->dev), "%s", b->cfg.dev_name);
	p->netdev = b->cfg.netdev;
	p->port = (uint8_t)b->cfg.ib_port;
	snprintf(p->why, sizeof(p->why), "from %s",
		 b->cfg.dev_name[0] ? "-d" : "--netdev");
	return 0;
}

static int pick_owner(const struct bench_ctx *b, struct auto_pick *p)
{
	enum wire_data_kind kind;
	uint8_t port = p->owner_port;

	(void)b;
	if (!p->owner || !p->owner[0] ||
	    auto_kind(p->owner, NULL, &port, &kind, NULL) ||
	    (p->want != WIRE_DATA_ANY && kind != p->want))
		return -ENOENT;
	snprintf(p->dev, sizeof(p->dev), "%s", p->owner);
	p->port = port;
	snprintf(p->why, sizeof(p->why), "owns %s", p->owner_what);
	return 0;
}

static int pick_first(const struct bench_ctx *b, struct auto_pick *p)
{
	(void)b;
	if (dev_open_first_active(p->want, p->dev, sizeof(p->dev), &p->port))
		return -ENOENT;
	snprintf(p->why, sizeof(p->why), "the first active %s%sdevice: name "
		 "one with -d", p->want == WIRE_DATA_ANY ? "" :
		 dev_kind_name(p->want), p->want == WIRE_DATA_ANY ? "" : " ");
	return 0;
}

/* Where the data device comes from, in order: the first that answers. */
static int (*const auto_pickers[])(const struct bench_ctx *,
				   struct auto_pick *) = {
	pick_flag, pick_owner, pick_first,
};

static int auto_pick(const struct bench_ctx *b, struct auto_pick *p)
{
	size_t i;

	for (i = 0; i < sizeof(auto_pickers) / sizeof(auto_pickers[0]); i++)
		if (!auto_pickers[i](b, p))
			return 0;
	return -ENODEV;
}

/* Open the picked device for raw QPs (not iWARP): port, GID, ctrl. */
static int auto_open_raw(struct bench_ctx *b, const struct auto_pick *p)
{
	enum wire_data_kind kind;
	int ret;

	b->port = p->port;
	ret = session_tcp_open(b, p->dev, p->netdev);
	if (!ret)
		ret = dev_open_check_active(b->ctrl.verbs, b->port);
	kind = ret ? WIRE_DATA_ANY : dev_kind(b->ctrl.verbs, b->port);
	if (kind == WIRE_DATA_IWARP ||
	    (p->want != WIRE_DATA_ANY && kind != p->want)) {
		bench_err("%s is %s, the client's device %s: QPs of different "
			  "kinds do not connect: name a %s device with -d",
			  ibv_get_device_name(b->ctrl.verbs->device),
			  dev_kind_name(kind), p->want == WIRE_DATA_ANY ?
			  "is not iWARP" : p->want == WIRE_DATA_IB ? "is IB" :
			  "is RoCE", p->want == WIRE_DATA_ANY ? "RoCE/IB" :
			  dev_kind_name(p->want));
		ret = -EOPNOTSUPP;
	}
	return ret ? ret : session_tcp_gid(b);
}

/* iWARP: rdma_cm connects the QPs; what it cannot set is refused, as
 * with -R (opts_check.c), before anything connects. */
static int auto_iwarp_check(const struct auto_be *a)
{
	const struct bench_ctx *b = a->be.s->b;
	const struct { bool bad; const char *opt, *why; } rules[] = {
		{ b->test.uc, "-c UC", "rdma_cm connects RC QPs only" },
		{ b->test.ud, "-c UD", "iWARP has no UD QPs (RC only): run UD "
				       "on RoCE or InfiniBand" },
		{ b->cfg.has_mtu, "-m/--mtu", "rdma_cm takes the MTU from the "
					      "port" },
		{ b->cfg.has_sl, "-S/--sl", "rdma_cm takes the SL from the path" },
		{ b->cfg.has_hop_limit, "-L/--hop_limit", "rdma_cm takes the "
							  "hop limit from the route" },
	};
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		if (!rules[i].bad)
			continue;
		bench_err("%s: %s is iWARP, whose QPs connect through rdma_cm: "
			  "%s: drop %s", rules[i].opt, a->data_dev, rules[i].why,
			  rules[i].opt);
		return -EINVAL;
	}
	return 0;
}

/* Client: the route to the server, the data device, opened (iWARP: its
 * kind only; rdma_cm opens it with the connection). */
static int auto_client_open(struct auto_be *a)
{
	struct bench_ctx *b = a->be.s->b;
	char what[120];
	struct auto_pick p = { .want = WIRE_DATA_ANY, .owner_what = what };
	const struct route *route;
	int ret;

	ret = session_tcp_route(a->tcp, &route);
	if (ret)
		return ret;
	snprintf(what, sizeof(what), "the route to %s", route->dst);
	p.owner = route->dev;
	p.owner_port = route->port;
	if (auto_pick(b, &p)) {
		bench_err_why(&b->why, "no active RDMA device on this host "
			      "for a data path to %s: see ib_doctor (is an "
			      "RDMA link up?), or name one with -d",
			      b->cfg.server_addr);
		return -ENODEV;
	}
	ret = auto_kind(p.dev, p.netdev, &p.port, &a->data_kind, &b->why);
	if (ret)
		return ret;
	snprintf(b->dev_note, sizeof(b->dev_note), "%s", p.why);
	snprintf(a->data_dev, sizeof(a->data_dev), "%s", p.dev);
	return a->data_kind == WIRE_DATA_IWARP ? auto_iwarp_check(a) :
						 auto_open_raw(b, &p);
}

/* Client: LOCATE: where the server's data device is (0: *ack). */
static int auto_locate(struct auto_be *a, struct wire_locate_ack *ack)
{
	struct bench_ctx *b = a->be.s->b;
	struct wire_msg msg = { .type = WIRE_LOCATE };
	int ret;

	msg.u.locate.kind = (uint8_t)a->data_kind;
	snprintf(msg.u.locate.dev_name, sizeof(msg.u.locate.dev_name), "%s",
		 a->data_dev);
	ret = ctrl_setup_tcp(&b->ctrl, NULL);
	if (!ret)
		ret = ctrl_send(&b->ctrl, &msg);
	if (!ret)
		ret = ctrl_recv(&b->ctrl, WIRE_LOCATE_ACK, &msg);
	if (ret)
		return ret;
	*ack = msg.u.locate_ack;
	if (!ack->status)
		return 0;
	bench_err("the server at %s has no data path for this client's %s "
		  "(%s): %s", b->cfg.server_addr, a->data_dev,
		  dev_kind_name(a->data_kind), ack->text);
	return ack->status;
}

/* Client, iWARP: the session goes over rdma_cm to the server's address. */
static int auto_redirect(struct auto_be *a, const struct wire_locate_ack *ack,
			 uint64_t deadline_ns)
{
	struct bench_ctx *b = a->be.s->b;
	int ret;

	session_cm_at(a->cm, ack->addr, ack->cm_port);
	setup_release(b); /* the TCP connection ends here */
	a->via = a->cm;
	b->rendezvous = "rdma_cm (iWARP, located over TCP)";
	ret = a->cm->ops.attempt(a->cm, deadline_ns);
	if (!ret)
		snprintf(b->ctrl_note, sizeof(b->ctrl_note), "rdma_cm to "
			 "%.48s:%u (iWARP: the server at %.40s named it)",
			 ack->addr, ack->cm_port, b->cfg.server_addr);
	return ret;
}

/* Client: TCP to the server, LOCATE, then raw QPs or rdma_cm. */
static int auto_client_attempt(struct session_be *be, uint64_t deadline_ns)
{
	struct auto_be *a = auto_of(be);
	struct bench_ctx *b = be->s->b;
	struct wire_locate_ack ack;
	int ret;

	a->via = NULL;
	ret = a->tcp->ops.attempt(a->tcp, deadline_ns);
	if (!ret)
		ret = auto_locate(a, &ack);
	if (!ret && ack.addr[0])
		return auto_redirect(a, &ack, deadline_ns);
	if (ret && b->ctrl.fd >= 0) { /* a retry connects again */
		close(b->ctrl.fd);
		b->ctrl.fd = -1;
		b->ctrl.tcp_gone = false;
	}
	if (ret)
		return ret;
	a->via = a->tcp;
	b->rendezvous = "TCP";
	return 0;
}

/* Server: -d/--netdev must name a device before any client comes. */
static int auto_check_flag(struct bench_ctx *b)
{
	enum wire_data_kind kind;
	uint8_t port = (uint8_t)b->cfg.ib_port;

	if (!b->cfg.dev_name[0] && !b->cfg.netdev[0])
		return 0;
	return auto_kind(b->cfg.dev_name, b->cfg.netdev, &port, &kind,
			 &b->why);
}

/*
 * Server: TCP and rdma_cm on -p. An iWARP device's rdma_cm listener is a
 * kernel TCP socket, which the TCP listener holds already: with one on
 * this host, rdma_cm listens on -p + 1 (said at start; LOCATE tells
 * iWARP clients).
 */
static int auto_listen(struct session_be *be)
{
	struct auto_be *a = auto_of(be);
	const struct bench_ctx *b = be->s->b;
	char dev[ROUTE_DEV_LEN];
	uint8_t port;
	int ret;

	ret = auto_check_flag(be->s->b);
	if (!ret)
		ret = a->tcp->ops.listen(a->tcp);
	if (ret)
		return ret;
	a->cm_port = (uint16_t)b->cfg.tcp_port; /* -p 0: TCP's pick */
	if (!dev_open_first_active(WIRE_DATA_IWARP, dev, sizeof(dev), &port))
		a->cm_port = (uint16_t)(b->cfg.tcp_port < 65535 ?
					b->cfg.tcp_port + 1 :
					b->cfg.tcp_port - 1);
	session_cm_at(a->cm, NULL, a->cm_port);
	ret = a->cm->ops.listen(a->cm);
	if (ret) {
		a->tcp->ops.unlisten(a->tcp);
		return ret;
	}
	if (a->cm_port != b->cfg.tcp_port)
		bench_info("rdma_cm clients (-R) connect to port %u: an iWARP "
			   "device's rdma_cm listener is a TCP socket, and TCP "
			   "port %llu is the control channel's", a->cm_port,
			   (unsigned long long)b->cfg.tcp_port);
	return 0;
}

static void auto_unlisten(struct session_be *be)
{
	struct auto_be *a = auto_of(be);

	a->cm->ops.unlisten(a->cm);
	a->tcp->ops.unlisten(a->tcp);
}

/* Server: auto_pick for the client's kind; a --oob tcp client (kind not
 * said) has raw QPs: RoCE, else InfiniBand. */
static int auto_pick_kind(const struct bench_ctx *b, struct auto_pick *p)
{
	static const enum wire_data_kind raw[] = { WIRE_DATA_ROCE,
						   WIRE_DATA_IB };
	size_t i;

	if (p->want != WIRE_DATA_ANY)
		return auto_pick(b, p);
	if (!pick_flag(b, p))
		return 0; /* the user's device, whichever kind */
	for (i = 0; i < sizeof(raw) / sizeof(raw[0]); i++) {
		p->want = raw[i];
		if (!auto_pick(b, p))
			return 0;
	}
	p->want = WIRE_DATA_ANY;
	return -ENODEV;
}

/* Server: the device for a client of kind want, reached on the TCP
 * socket; iWARP: where its rdma_cm connections go, in *ack. */
static int auto_server_dev(struct auto_be *a, enum wire_data_kind want,
			   struct wire_locate_ack *ack)
{
	struct bench_ctx *b = a->be.s->b;
	struct sockaddr_storage sa = { 0 };
	socklen_t len = sizeof(sa);
	char owner[ROUTE_DEV_LEN] = "", ip[ROUTE_IP_LEN], what[120];
	struct auto_pick p = { .want = want, .owner = owner,
			       .owner_what = what };

	if (!getsockname(b->ctrl.fd, (struct sockaddr *)&sa, &len)) {
		route_ip_str((struct sockaddr *)&sa, ip, sizeof(ip));
		snprintf(what, sizeof(what), "%s, the address the client "
			 "reached", ip);
		if (route_owner((struct sockaddr *)&sa, owner, sizeof(owner),
				&p.owner_port))
			owner[0] = '\0';
	}
	if (auto_pick_kind(b, &p)) {
		snprintf(ack->text, sizeof(ack->text), "no active %s RDMA "
			 "device on the server: see ib_doctor there",
			 want == WIRE_DATA_ANY ? "RoCE/IB" : dev_kind_name(want));
		return -ENODEV;
	}
	snprintf(ack->dev_name, sizeof(ack->dev_name), "%s", p.dev);
	snprintf(ack->why, sizeof(ack->why), "%.63s", p.why);
	snprintf(b->dev_note, sizeof(b->dev_note), "%s", p.why);
	if (want != WIRE_DATA_IWARP) {
		int ret = auto_open_raw(b, &p);

		if (ret)
			snprintf(ack->text, sizeof(ack->text), "the server's "
				 "device %.63s cannot serve a %s client (%.60s): "
				 "see its log", p.dev[0] ? p.dev : p.netdev,
				 dev_kind_name(want), p.why);
		return ret;
	}
	ack->cm_port = a->cm_port;
	if (!route_dev_addr(p.dev, ack->addr, sizeof(ack->addr)))
		return 0;
	snprintf(ack->text, sizeof(ack->text), "%s has no IPv4 address for "
		 "rdma_cm: add one to its netdev", p.dev);
	return -EADDRNOTAVAIL;
}

/* Server, a TCP client: its device, its answer; -EAGAIN: sent away. */
static int auto_accept_tcp(struct auto_be *a)
{
	struct bench_ctx *b = a->be.s->b;
	struct wire_msg ack = { .type = WIRE_LOCATE_ACK };
	enum wire_data_kind want;
	bool located;
	int ret;

	ret = session_tcp_accept(a->tcp, timer_deadline_ns(50), &want,
				 &located);
	if (ret == -ETIMEDOUT)
		return -EAGAIN;
	if (ret)
		return ret;
	ret = auto_server_dev(a, want, &ack.u.locate_ack);
	ack.u.locate_ack.status = ret;
	if (ret && ack.u.locate_ack.text[0])
		bench_err("client %s: %s", b->peer, ack.u.locate_ack.text);
	/* an iWARP client's rdma_cm request follows the answer at once: this
	 * TCP session is over, and no thread may turn that one away */
	if (!ret && want == WIRE_DATA_IWARP)
		busy_end(a->be.s);
	if (located && ctrl_send(&b->ctrl, &ack) && !ret)
		ret = -ECONNRESET;
	if (ret || want != WIRE_DATA_IWARP) {
		a->via = a->tcp;
		b->rendezvous = "TCP";
		snprintf(b->ctrl_note, sizeof(b->ctrl_note), "TCP from %s "
			 "(port %llu)", b->peer,
			 (unsigned long long)b->cfg.tcp_port);
		return ret;
	}
	bench_info("client %s has an iWARP device: it connects over rdma_cm "
		   "to %s port %u", b->peer, ack.u.locate_ack.addr,
		   ack.u.locate_ack.cm_port);
	busy_hand_off(a->be.s, b->peer); /* its turn goes on there */
	setup_release(b);
	return -EAGAIN;
}

static int auto_accept_cm(struct auto_be *a)
{
	int ret = a->cm->ops.accept_ctrl(a->cm, timer_deadline_ns(50));

	if (ret == -ETIMEDOUT)
		return -EAGAIN;
	a->via = a->cm;
	a->be.s->b->rendezvous = a->cm->ops.name;
	return ret;
}

/* Server: the next client, on whichever listener it comes. */
static int auto_accept_ctrl(struct session_be *be, uint64_t deadline_ns)
{
	struct auto_be *a = auto_of(be);
	struct pollfd fds[2] = {
		{ .fd = session_tcp_listen_fd(a->tcp), .events = POLLIN },
		{ .fd = session_cm_listen_fd(a->cm), .events = POLLIN },
	};
	bool waiting;
	int ret;

	a->via = NULL;
	for (;;) {
		if (stop_flag)
			return -EINTR;
		if (deadline_ns && timer_expired(deadline_ns))
			return -ETIMEDOUT;
		/* the TCP line's connections: its accept waits on them */
		waiting = session_tcp_waiting(a->tcp);
		if (poll(fds, 2, waiting ? 0 : 200) < 0 && errno != EINTR)
			return -errno;
		/* rdma_cm first, then TCP: a stream of requests on one
		 * listener (all told busy) must not starve the other */
		ret = fds[1].revents ? auto_accept_cm(a) : -EAGAIN;
		if (ret == -EAGAIN && (fds[0].revents || waiting))
			ret = auto_accept_tcp(a);
		if (ret != -EAGAIN)
			return ret;
	}
}

/* Server: the device is opened per client, once it says its kind. */
static int auto_open(struct session_be *be)
{
	return be->s->b->is_server ? 0 : auto_client_open(auto_of(be));
}

const struct session_ops session_auto_ops = {
	.name = "TCP",
	.port_what = "port",
	.listen_note = ", TCP and rdma_cm",
	.retry_hint = "is the server running, and does this host reach it?",
	.log_any = false,
	SESSION_BE_OF(struct auto_be, be),
	.init = auto_init,
	.fini = auto_fini,
	.open = auto_open,
	.attempt = auto_client_attempt,
	/* no data ops: the backend of its handoff connects the data QPs */
	.listen = auto_listen,
	.unlisten = auto_unlisten,
	.accept_ctrl = auto_accept_ctrl,
	.handoff = auto_handoff,
};
