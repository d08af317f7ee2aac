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
 * arrives picks the backend for that client (b->via).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/log.h"
#include "lib/stop.h"
#include "lib/timer.h"
#include "rdma/ctrl_tcp.h"
#include "run/session/busy.h"
#include "run/session/session_ops.h"
#include "run/setup.h"

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

/* The kind of device dev (or netdev's) at *port (netdev: its own). */
static int auto_kind(const char *dev, const char *netdev, uint8_t *port,
		     enum wire_data_kind *kind)
{
	struct ibv_context *verbs;
	int ret = dev_open(dev, netdev, &verbs, port);

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
	    auto_kind(p->owner, NULL, &port, &kind) ||
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
static int auto_iwarp_check(const struct bench_ctx *b)
{
	const struct { bool bad; const char *opt, *why; } rules[] = {
		{ b->test.uc, "-c UC", "rdma_cm connects RC QPs only" },
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
			  "%s: drop %s", rules[i].opt, b->data_dev, rules[i].why,
			  rules[i].opt);
		return -EINVAL;
	}
	return 0;
}

/* Client: the route to the server, the data device, opened (iWARP: its
 * kind only; rdma_cm opens it with the connection). */
static int auto_client_open(struct bench_ctx *b)
{
	char what[120];
	struct auto_pick p = { .want = WIRE_DATA_ANY, .owner_what = what };
	int ret;

	ret = route_lookup(b->cfg.server_addr, &b->route);
	if (ret)
		return ret;
	snprintf(what, sizeof(what), "the route to %s", b->route.dst);
	p.owner = b->route.dev;
	p.owner_port = b->route.port;
	if (auto_pick(b, &p)) {
		bench_err("no active RDMA device on this host for a data path "
			  "to %s: see ib_doctor (is an RDMA link up?), or name "
			  "one with -d", b->cfg.server_addr);
		return -ENODEV;
	}
	ret = auto_kind(p.dev, p.netdev, &p.port, &b->data_kind);
	if (ret)
		return ret;
	snprintf(b->dev_note, sizeof(b->dev_note), "%s", p.why);
	snprintf(b->data_dev, sizeof(b->data_dev), "%s", p.dev);
	return b->data_kind == WIRE_DATA_IWARP ? auto_iwarp_check(b) :
						 auto_open_raw(b, &p);
}

/* Client: LOCATE: where the server's data device is (0: *ack). */
static int auto_locate(struct bench_ctx *b, struct wire_locate_ack *ack)
{
	struct wire_msg msg = { .type = WIRE_LOCATE };
	int ret;

	msg.u.locate.kind = (uint8_t)b->data_kind;
	snprintf(msg.u.locate.dev_name, sizeof(msg.u.locate.dev_name), "%s",
		 b->data_dev);
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
		  "(%s): %s", b->cfg.server_addr, b->data_dev,
		  dev_kind_name(b->data_kind), ack->text);
	return ack->status;
}

/* Client, iWARP: the session goes over rdma_cm to the server's address. */
static int auto_redirect(struct bench_ctx *b, const struct wire_locate_ack *a,
			 uint64_t deadline_ns)
{
	int ret;

	snprintf(b->srv_addr, sizeof(b->srv_addr), "%s", a->addr);
	b->srv_port = a->cm_port;
	setup_release(b); /* the TCP connection ends here */
	b->via = &session_cm_ops;
	b->rendezvous = "rdma_cm (iWARP, located over TCP)";
	ret = session_cm_ops.attempt(b, deadline_ns);
	if (!ret)
		snprintf(b->ctrl_note, sizeof(b->ctrl_note), "rdma_cm to "
			 "%.48s:%u (iWARP: the server at %.40s named it)",
			 a->addr, a->cm_port, b->cfg.server_addr);
	return ret;
}

/* Client: TCP to the server, LOCATE, then raw QPs or rdma_cm. */
static int auto_client_attempt(struct bench_ctx *b, uint64_t deadline_ns)
{
	struct wire_locate_ack ack;
	int ret;

	ret = session_tcp_ops.attempt(b, deadline_ns);
	if (!ret)
		ret = auto_locate(b, &ack);
	if (!ret && ack.addr[0])
		return auto_redirect(b, &ack, deadline_ns);
	if (ret && b->ctrl.fd >= 0) { /* a retry connects again */
		close(b->ctrl.fd);
		b->ctrl.fd = -1;
		b->ctrl.tcp_gone = false;
	}
	if (ret)
		return ret;
	b->via = &session_tcp_ops;
	b->rendezvous = "TCP";
	return 0;
}

/* Server: -d/--netdev must name a device before any client comes. */
static int auto_check_flag(const struct bench_ctx *b)
{
	enum wire_data_kind kind;
	uint8_t port = (uint8_t)b->cfg.ib_port;

	if (!b->cfg.dev_name[0] && !b->cfg.netdev[0])
		return 0;
	return auto_kind(b->cfg.dev_name, b->cfg.netdev, &port, &kind);
}

/*
 * Server: TCP and rdma_cm on -p. An iWARP device's rdma_cm listener is a
 * kernel TCP socket, which the TCP listener holds already: with one on
 * this host, rdma_cm listens on -p + 1 (said at start; LOCATE tells
 * iWARP clients).
 */
static int auto_listen(struct bench_ctx *b)
{
	char dev[ROUTE_DEV_LEN];
	uint8_t port;
	int ret;

	ret = auto_check_flag(b);
	if (!ret)
		ret = session_tcp_ops.listen(b);
	if (ret)
		return ret;
	if (!dev_open_first_active(WIRE_DATA_IWARP, dev, sizeof(dev), &port))
		b->cm_port = (uint16_t)(b->cfg.tcp_port < 65535 ?
					b->cfg.tcp_port + 1 :
					b->cfg.tcp_port - 1);
	ret = session_cm_ops.listen(b);
	if (ret)
		session_tcp_ops.unlisten(b);
	return ret;
}

static void auto_unlisten(struct bench_ctx *b)
{
	session_cm_ops.unlisten(b);
	session_tcp_ops.unlisten(b);
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
static int auto_server_dev(struct bench_ctx *b, enum wire_data_kind want,
			   struct wire_locate_ack *ack)
{
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
	ack->cm_port = b->cm_port;
	if (!route_dev_addr(p.dev, ack->addr, sizeof(ack->addr)))
		return 0;
	snprintf(ack->text, sizeof(ack->text), "%s has no IPv4 address for "
		 "rdma_cm: add one to its netdev", p.dev);
	return -EADDRNOTAVAIL;
}

/* Server, a TCP client: its device, its answer; -EAGAIN: sent away. */
static int auto_accept_tcp(struct bench_ctx *b)
{
	struct wire_msg ack = { .type = WIRE_LOCATE_ACK };
	enum wire_data_kind want;
	bool located;
	int ret;

	ret = session_tcp_accept(b, timer_deadline_ns(50), &want, &located);
	if (ret == -ETIMEDOUT)
		return -EAGAIN;
	if (ret)
		return ret;
	ret = auto_server_dev(b, want, &ack.u.locate_ack);
	ack.u.locate_ack.status = ret;
	if (ret && ack.u.locate_ack.text[0])
		bench_err("client %s: %s", b->peer, ack.u.locate_ack.text);
	/* an iWARP client's rdma_cm request follows the answer at once: this
	 * TCP session is over, and no thread may turn that one away */
	if (!ret && want == WIRE_DATA_IWARP)
		busy_end(b);
	if (located && ctrl_send(&b->ctrl, &ack) && !ret)
		ret = -ECONNRESET;
	if (ret || want != WIRE_DATA_IWARP) {
		b->via = &session_tcp_ops;
		b->rendezvous = "TCP";
		snprintf(b->ctrl_note, sizeof(b->ctrl_note), "TCP from %s "
			 "(port %llu)", b->peer,
			 (unsigned long long)b->cfg.tcp_port);
		return ret;
	}
	bench_info("client %s has an iWARP device: it connects over rdma_cm "
		   "to %s port %u", b->peer, ack.u.locate_ack.addr,
		   ack.u.locate_ack.cm_port);
	setup_release(b);
	return -EAGAIN;
}

static int auto_accept_cm(struct bench_ctx *b)
{
	int ret = session_cm_ops.accept_ctrl(b, timer_deadline_ns(50));

	if (ret == -ETIMEDOUT)
		return -EAGAIN;
	b->via = &session_cm_ops;
	b->rendezvous = session_cm_ops.name;
	return ret;
}

/* Server: the next client, on whichever listener it comes. */
static int auto_accept_ctrl(struct bench_ctx *b, uint64_t deadline_ns)
{
	struct pollfd fds[2] = {
		{ .fd = b->listen_fd, .events = POLLIN },
		{ .fd = b->listener.ch->fd, .events = POLLIN },
	};
	int ret;

	for (;;) {
		if (stop_flag)
			return -EINTR;
		if (deadline_ns && timer_expired(deadline_ns))
			return -ETIMEDOUT;
		if (poll(fds, 2, 200) < 0 && errno != EINTR)
			return -errno;
		ret = fds[1].revents ? auto_accept_cm(b) :
		      fds[0].revents ? auto_accept_tcp(b) : -EAGAIN;
		if (ret != -EAGAIN)
			return ret;
	}
}

/* Server: the device is opened per client, once it says its kind. */
static int auto_no_open(struct bench_ctx *b)
{
	return b->is_server ? 0 : auto_client_open(b);
}

/* Not called: the flow goes on with b->via. */
static int auto_unreached(struct bench_ctx *b)
{
	(void)b;
	return -EPROTO;
}

const struct session_ops session_auto_ops = {
	.name = "TCP",
	.port_what = "port",
	.listen_note = ", TCP and rdma_cm",
	.retry_hint = "is the server running, and does this host reach it?",
	.log_any = false,
	.open = auto_no_open,
	.attempt = auto_client_attempt,
	.connect_data = auto_unreached,
	.listen = auto_listen,
	.unlisten = auto_unlisten,
	.accept_ctrl = auto_accept_ctrl,
	.accept_data = auto_unreached,
};
