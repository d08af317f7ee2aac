// SPDX-License-Identifier: BSD-2-Clause
/*
 * session_tcp - the --oob tcp rendezvous backend: the control channel
 * is a TCP socket (the server can be reached by any name, e.g. a headless
 * Service), the device is -d / --netdev / the first one, the GID is -x or
 * the best RoCEv2 GID, and the QPs are connected by hand with the numbers
 * exchanged over the socket. iWARP QPs connect only through rdma_cm.
 */
#define _GNU_SOURCE /* POLLRDHUP: a client that sent part and hung up */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <ifaddrs.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/container.h"
#include "lib/log.h"
#include "lib/stop.h"
#include "lib/timer.h"
#include "rdma/ctrl_tcp.h"
#include "rdma/qp_raw.h"
#include "run/session/busy.h"
#include "run/session/session_auth.h"
#include "run/session/session_ctx.h"
#include "run/session/session_tcp.h"
#include "run/setup.h"
#include "spec/limit.h"
#include "spec/opts_rate.h"
#include "spec/trust.h"
#include "spec/turns.h"

/* The backend's state: its handle, the listener, the route. */
struct tcp_be {
	struct session_be be;
	int listen_fd;              /* server: the socket; -1: none */
	struct route route;         /* client: to the server, once found */
	/* server: the connections in its line (s->turns' slots) */
	int wait_fd[TURNS_WAIT_MAX];
	bool wait_part[TURNS_WAIT_MAX]; /* a part of its message is in */
	char wait_peer[TURNS_WAIT_MAX][80];
};

static struct tcp_be *tcp_of(struct session_be *be)
{
	return container_of(be, struct tcp_be, be);
}

static int tcp_init(struct session_be *be)
{
	struct tcp_be *t = tcp_of(be);

	t->listen_fd = -1;
	for (unsigned int i = 0; i < TURNS_WAIT_MAX; i++)
		t->wait_fd[i] = -1;
	return 0;
}

int session_tcp_open(struct bench_ctx *b, const char *dev,
		     const char *netdev)
{
	struct ibv_context *verbs;
	int ret;

	ret = dev_open(dev, netdev, &verbs, &b->port, &b->why);
	if (ret)
		return ret;
	return ctrl_setup_tcp(&b->ctrl, verbs); /* the ctrl owns verbs now */
}

int session_tcp_gid(struct bench_ctx *b)
{
	struct ibv_context *verbs = b->ctrl.verbs;
	int ret;

	ret = dev_open_pick_gid(verbs, b->port, b->cfg.has_gid_index ?
			   (int)b->cfg.gid_index : -1, b->cfg.netdev,
			   &b->gid_index, b->local, sizeof(b->local));
	if (!ret)
		bench_info("data path: %s port %u, GID %s (index %d)",
			   ibv_get_device_name(verbs->device), b->port, b->local,
			   b->gid_index);
	return ret;
}

int session_tcp_route(struct session_be *tcp, const struct route **out)
{
	struct tcp_be *t = tcp_of(tcp);
	int ret;

	if (!t->route.dst[0]) {
		ret = route_lookup(tcp->s->b->cfg.server_addr, &t->route,
				   &tcp->s->b->why);
		if (ret)
			return ret;
	}
	*out = &t->route;
	return 0;
}

/*
 * Open the device, check it can do this, pick the GID, set up the PD:
 * before the control channel, and again for each client of a server.
 */
static int tcp_device(struct session_be *be)
{
	struct bench_ctx *b = be->s->b;
	const struct route *route;
	struct ibv_context *verbs;
	int ret;

	/* client: the name resolved once (bounded), a bad one said at once */
	if (!b->is_server) {
		ret = session_tcp_route(be, &route);
		if (ret)
			return ret;
	}
	b->port = (uint8_t)b->cfg.ib_port;
	snprintf(b->dev_note, sizeof(b->dev_note), "%s", b->cfg.dev_name[0] ?
		 "from -d" : b->cfg.netdev[0] ? "from --netdev" :
		 "the first device: name one with -d");
	ret = session_tcp_open(b, b->cfg.dev_name, b->cfg.netdev);
	if (ret)
		return ret;
	verbs = b->ctrl.verbs;
	if (verbs->device->transport_type == IBV_TRANSPORT_IWARP) {
		bench_err("%s is iWARP: its QPs connect only through rdma_cm, so "
			  "it has no TCP out-of-band path: drop --oob tcp",
			  ibv_get_device_name(verbs->device));
		return -EOPNOTSUPP;
	}
	return session_tcp_gid(b);
}

/* -m in bytes as a verbs MTU (opts_check allows only these). */
static enum ibv_mtu tcp_mtu(uint64_t bytes)
{
	enum ibv_mtu m = IBV_MTU_256;

	while (m < IBV_MTU_4096 && dev_mtu_bytes(m) < bytes)
		m++;
	return m;
}

/*
 * This side's path for the raw QPs: port, GID, MTU (the smaller of what
 * each side offers: -m, else its port's active MTU; peer_mtu 0: this
 * side's offer), reads in flight (-o), and this side's -T, -S, -L, -u and
 * --retry_count (each side sets its own QPs, as in perftest).
 */
static void tcp_path(const struct bench_ctx *b, enum ibv_mtu peer_mtu,
		     struct qp_raw_path *path)
{
	struct ibv_port_attr pa = { .active_mtu = IBV_MTU_1024 };
	struct ibv_device_attr da = { .max_qp_rd_atom = 16,
				      .max_qp_init_rd_atom = 16 };
	const struct bench_cfg *c = &b->cfg;
	enum ibv_mtu mine;

	ibv_query_port(b->ctrl.verbs, b->port, &pa);
	ibv_query_device(b->ctrl.verbs, &da);
	path->port = b->port;
	path->uc = b->test.uc;
	path->ud = b->test.ud;
	path->gid_index = b->gid_index;
	mine = c->has_mtu ? tcp_mtu(c->mtu) : pa.active_mtu;
	path->mtu = mine < peer_mtu || !peer_mtu ? mine : peer_mtu;
	path->traffic_class = (uint8_t)c->tos;
	path->sl = (uint8_t)c->sl;
	path->hop_limit = c->has_hop_limit ? (uint8_t)c->hop_limit : 64;
	path->timeout = (uint8_t)c->qp_timeout;
	path->retry_cnt = (uint8_t)c->retry_count;
	path->flow_label = (uint32_t)c->flow_label;
	path->pkey_index = (uint16_t)c->pkey_index;
	path->dlid = (uint16_t)c->dlid;
	path->static_rate = c->rate_limiter != OPTS_RATE_HW ? 0 :
		(uint8_t)mbps_to_ibv_rate((int)(opts_rate_static_gbps(
			c->rate_limit) * 1000));
	/* perftest's out_reads: -o on the wire as initiator, all the
	 * device serves as responder, both capped by the device */
	path->max_dest_rd_atomic = dev_rd_atom_u8((uint64_t)da.max_qp_rd_atom);
	path->max_rd_atomic = dev_rd_atom_u8((uint64_t)da.max_qp_init_rd_atom);
	if (c->outstanding < path->max_rd_atomic)
		path->max_rd_atomic = (uint8_t)c->outstanding;
}

static void tcp_info_pack(const struct qp_raw_addr *a, unsigned int i,
			  enum ibv_mtu mtu, struct wire_msg *m)
{
	*m = (struct wire_msg){ .type = WIRE_QP_INFO };
	m->u.qp_info.qp_index = (uint16_t)i;
	m->u.qp_info.lid = a->lid;
	m->u.qp_info.qpn = a->qpn;
	m->u.qp_info.psn = a->psn;
	m->u.qp_info.mtu = (uint8_t)mtu;
	memcpy(m->u.qp_info.gid, a->gid, sizeof(a->gid));
}

static void tcp_info_unpack(const struct wire_msg *m, struct qp_raw_addr *a)
{
	a->qpn = m->u.qp_info.qpn;
	a->psn = m->u.qp_info.psn;
	a->lid = m->u.qp_info.lid;
	memcpy(a->gid, m->u.qp_info.gid, sizeof(a->gid));
}

/* -m: at most the port's active MTU (a larger one cannot be sent). */
static int tcp_check_mtu(const struct bench_ctx *b)
{
	struct ibv_port_attr pa = { .active_mtu = IBV_MTU_4096 };

	ibv_query_port(b->ctrl.verbs, b->port, &pa);
	if (!b->cfg.has_mtu || tcp_mtu(b->cfg.mtu) <= pa.active_mtu)
		return 0;
	bench_err("-m %llu exceeds the active MTU of port %u (%u B): give -m "
		  "%u or less", (unsigned long long)b->cfg.mtu, b->port,
		  dev_mtu_bytes(pa.active_mtu), dev_mtu_bytes(pa.active_mtu));
	return -EINVAL;
}

/* Is gid one of this host's addresses (a client on this host, which
 * reached us over loopback or another local address)? */
static bool tcp_gid_is_local(const uint8_t *gid)
{
	uint8_t mine[TRUST_GID_BYTES];
	struct ifaddrs *ifs, *i;
	bool local = false;

	if (getifaddrs(&ifs))
		return false;
	for (i = ifs; i && !local; i = i->ifa_next)
		local = i->ifa_addr && !trust_gid_of_addr(i->ifa_addr, mine) &&
			!memcmp(mine, gid, sizeof(mine));
	freeifaddrs(ifs);
	return local;
}

/*
 * Either side: what the check of the peer's QPs needs, found once a
 * session: whether their GIDs are checked at all, the control
 * connection's peer, and the last GID that passed (a peer's QPs share
 * one).
 */
struct tcp_peer {
	bool check_gid;
	struct sockaddr_storage sa;
	bool have_ok;
	uint8_t ok_gid[TRUST_GID_BYTES];
};

/*
 * The GID is checked unless --allow-foreign-gid (a client that proved
 * --auth-key-file's key too: the key is no licence to aim traffic); an
 * InfiniBand port's GIDs name no IP: not checked there
 * (docs/trust.md).
 */
static void tcp_peer_init(const struct session *s, struct tcp_peer *p)
{
	struct ibv_port_attr pa = { .link_layer = IBV_LINK_LAYER_ETHERNET };
	const struct bench_ctx *b = s->b;
	socklen_t len = sizeof(p->sa);

	memset(p, 0, sizeof(*p));
	ibv_query_port(b->ctrl.verbs, b->port, &pa);
	p->check_gid = !b->cfg.allow_foreign_gid &&
		       pa.link_layer != IBV_LINK_LAYER_INFINIBAND;
	if (p->check_gid &&
	    getpeername(b->ctrl.fd, (struct sockaddr *)&p->sa, &len))
		p->sa.ss_family = AF_UNSPEC;
}

/*
 * The peer's QP must be its own (spec/trust.h): a GID of the control
 * connection's address (or of this host: a peer on this host) where p
 * says GIDs are checked; on the server, its QP number a client's.
 */
static int tcp_check_peer_qp(struct bench_ctx *b, struct tcp_peer *p,
			     const struct qp_raw_addr *a)
{
	char why[WIRE_TEXT_MAX];
	int ret = 0;

	if (b->is_server)
		ret = trust_check_qpn(a->qpn, why, sizeof(why));
	if (!ret && p->check_gid &&
	    !(p->have_ok && !memcmp(p->ok_gid, a->gid, sizeof(p->ok_gid)))) {
		ret = (b->is_server ? trust_check_gid : trust_check_server_gid)
			((struct sockaddr *)&p->sa, a->gid, why, sizeof(why));
		if (ret && tcp_gid_is_local(a->gid))
			ret = 0;
		if (!ret) {
			memcpy(p->ok_gid, a->gid, sizeof(p->ok_gid));
			p->have_ok = true;
		}
	}
	if (!ret)
		return 0;
	bench_err("%s %s: %s", b->is_server ? "client" : "server", b->peer,
		  why);
	ctrl_send_error(&b->ctrl, ret, why);
	return ret;
}

/* --dlid on a port that routes by GID (RoCE, as perftest's: the address
 * carries it, the port does not use it): a note of the header's. */
static void tcp_note_dlid(struct bench_ctx *b)
{
	struct ibv_port_attr pa = { .link_layer = IBV_LINK_LAYER_ETHERNET };

	if (!(b->cfg.dlid & 0xffff))
		return;
	ibv_query_port(b->ctrl.verbs, b->port, &pa);
	if (pa.link_layer != IBV_LINK_LAYER_INFINIBAND)
		opts_note(&b->cfg, "--dlid (a RoCE port routes by the peer's "
			  "GID: a LID is not used)");
}

/*
 * --rate_limit HW, perftest's: the static rate of an InfiniBand QP's
 * address. A QP that did not take it (a RoCE or iWARP port has none):
 * refused where --rate_limit_type HW asked for it, naming SW; else SW
 * instead, as perftest falls back (said here and in the header).
 */
static int tcp_rate_check(struct bench_ctx *b, unsigned int i,
			  const struct qp_raw_path *path)
{
	char why[WIRE_TEXT_MAX];

	if (!path->static_rate || !qp_raw_rate_held(&b->data, i, path))
		return 0;
	if (!b->cfg.has_rate_limit_type) {
		bench_warn("--rate_limit %s: %s port %u takes no HW rate limit "
			   "(InfiniBand's static rate): pacing the posts (SW) "
			   "instead, as perftest", b->cfg.rate_limit,
			   b->dev.name, b->port);
		opts_rate_no_hw(&b->cfg, b->desc); /* the next path: none */
		return 0;
	}
	snprintf(why, sizeof(why), "--rate_limit_type HW: %.32s port %u "
		 "(%.16s) took no static rate, InfiniBand's HW limit: use "
		 "--rate_limit_type SW (paced posts)", b->dev.name, b->port,
		 b->dev.link_layer);
	bench_err("%s", why);
	ctrl_send_error(&b->ctrl, -EOPNOTSUPP, why);
	return -EOPNOTSUPP;
}

/*
 * Every QP: the client creates its QP and sends its address; the server
 * creates its own, connects it and answers; the client connects.
 */
static int tcp_connect_qps(struct session_be *be)
{
	struct bench_ctx *b = be->s->b;
	struct qp_raw_addr mine, theirs;
	struct qp_raw_path path;
	struct tcp_peer peer;
	struct wire_msg msg;
	unsigned int i;
	int ret = 0;

	ret = tcp_check_mtu(b);
	if (ret)
		return ret;
	tcp_peer_init(be->s, &peer);
	tcp_note_dlid(b);
	tcp_path(b, 0, &path); /* path.mtu: what this side offers */
	for (i = 0; i < b->test.qps && !ret; i++) {
		uint32_t inl = setup_inline_bytes(b);

		ret = qp_raw_create(&b->data, i, b->ctrl.pd, inl, &path, &mine);
		if (!ret && !b->is_server) {
			tcp_info_pack(&mine, i, path.mtu, &msg);
			ret = ctrl_send(&b->ctrl, &msg);
		}
		if (!ret)
			ret = ctrl_recv(&b->ctrl, WIRE_QP_INFO, &msg);
		if (!ret && msg.u.qp_info.qp_index != i) {
			bench_err("QP_INFO for QP %u, expected %u",
				  msg.u.qp_info.qp_index, i);
			ret = -EPROTO;
		}
		if (ret)
			break;
		tcp_info_unpack(&msg, &theirs);
		ret = tcp_check_peer_qp(b, &peer, &theirs);
		if (ret)
			break;
		tcp_path(b, (enum ibv_mtu)msg.u.qp_info.mtu, &path);
		ret = qp_raw_connect(&b->data, i, b->ctrl.pd, &path,
				     &theirs);
		if (!ret)
			ret = tcp_rate_check(b, i, &path);
		if (!ret && b->is_server) {
			tcp_info_pack(&mine, i, path.mtu, &msg);
			ret = ctrl_send(&b->ctrl, &msg);
		}
	}
	return ret;
}

/* Client: one attempt at the TCP connection (a retryable failure logs
 * nothing), then --auth-key-file's exchange. */
static int tcp_attempt(struct session_be *be, uint64_t deadline_ns)
{
	struct bench_ctx *b = be->s->b;
	const struct route *route = &tcp_of(be)->route;
	int ret;

	snprintf(b->peer, sizeof(b->peer), "%.60s:%llu (TCP)",
		 b->cfg.server_addr, (unsigned long long)b->cfg.tcp_port);
	snprintf(b->ctrl_note, sizeof(b->ctrl_note), "TCP to %.60s:%llu",
		 b->cfg.server_addr, (unsigned long long)b->cfg.tcp_port);
	/* the name was resolved once already (route) */
	ret = ctrl_tcp_connect(route->dst[0] ? route->dst :
			       b->cfg.server_addr, (uint16_t)b->cfg.tcp_port,
			       deadline_ns, &b->ctrl.fd);
	if (!ret)
		ret = ctrl_setup_tcp(&b->ctrl, NULL);
	return ret ? ret : session_auth_client(be->s);
}

static int tcp_listen(struct session_be *be)
{
	struct tcp_be *t = tcp_of(be);
	const struct bench_ctx *b = be->s->b;
	const struct sockaddr *addr;
	struct sockaddr_storage sa;
	int ret;

	ret = session_bind_addr(b, &sa, &addr);
	if (!ret)
		ret = ctrl_tcp_listen(addr, (uint16_t)b->cfg.tcp_port,
				      &t->listen_fd);
	if (!ret && !b->cfg.tcp_port) /* -p 0: the port the kernel picked */
		be->s->b->cfg.tcp_port = ctrl_tcp_port_of(t->listen_fd);
	if (!ret)
		busy_watch_tcp(be->s, t->listen_fd);
	return session_bind_err(b, ret);
}

/* Server: a connection leaves the line, closed; strike: it wasted its
 * place (its source is slowed). */
static void tcp_line_drop(struct tcp_be *t, int slot, bool strike)
{
	struct turns *turns = &t->be.s->turns;

	if (strike)
		turns_strike(turns, turns->wait[slot].host, timer_now_ns());
	close(t->wait_fd[slot]);
	t->wait_fd[slot] = -1;
	turns_free(turns, slot);
}

static void tcp_unlisten(struct session_be *be)
{
	struct tcp_be *t = tcp_of(be);

	for (int i = 0; i < TURNS_WAIT_MAX; i++)
		if (t->wait_fd[i] >= 0)
			tcp_line_drop(t, i, false);
	if (t->listen_fd < 0)
		return;
	busy_watch_tcp(be->s, -1);
	close(t->listen_fd);
	t->listen_fd = -1;
}

int session_tcp_listen_fd(struct session_be *tcp)
{
	return tcp_of(tcp)->listen_fd;
}

bool session_tcp_waiting(struct session_be *tcp)
{
	for (unsigned int i = 0; i < TURNS_WAIT_MAX; i++)
		if (tcp_of(tcp)->wait_fd[i] >= 0)
			return true;
	return false;
}

/* "ADDR:PORT" without the port: a source of the line. */
static void tcp_host(const char *peer, char *host, size_t len)
{
	const char *colon = strrchr(peer, ':');

	snprintf(host, len, "%.*s", (int)(colon ? (size_t)(colon - peer) :
					  strlen(peer)), peer);
}

/* Server: a new connection joins the line (a full line gives one up). */
static void tcp_line_join(struct tcp_be *t)
{
	struct session *s = t->be.s;
	char peer[80], host[TURNS_HOST_MAX];
	int fd, slot, evict;

	if (ctrl_tcp_accept(t->listen_fd, timer_deadline_ns(1), &fd, peer,
			    sizeof(peer)))
		return;
	tcp_host(peer, host, sizeof(host));
	slot = turns_add(&s->turns, host, timer_now_ns(), busy_since(s, peer),
			 &evict);
	if (evict >= 0)
		close(t->wait_fd[evict]); /* its slot is the newcomer's */
	t->wait_fd[slot] = fd;
	t->wait_part[slot] = false;
	snprintf(t->wait_peer[slot], sizeof(t->wait_peer[slot]), "%s", peer);
}

/* Server: whose first message is whole now, who left, who is past the
 * HELLO's hard limit (dropped, slowed: the line goes on without them). */
static void tcp_line_check(struct tcp_be *t, const struct pollfd *fds)
{
	struct turns *turns = &t->be.s->turns;
	int i, whole;

	for (i = 0; i < TURNS_WAIT_MAX; i++) {
		if (t->wait_fd[i] < 0 || (!fds[i].revents && !t->wait_part[i]))
			continue;
		whole = ctrl_tcp_first_whole(t->wait_fd[i], fds[i].revents &
					     (POLLHUP | POLLRDHUP | POLLERR),
					     &t->wait_part[i]);
		if (whole < 0) /* a probe, or a part and then gone */
			tcp_line_drop(t, i, true);
		else
			turns->wait[i].ready = whole;
	}
	while ((i = turns_expired(turns, timer_now_ns(), LIMIT_HELLO_MS)) >= 0) {
		bench_warn("client %s sent no whole first message within this "
			   "server's hard limit (%llu s): dropped, the next in "
			   "line goes first", t->wait_peer[i],
			   LIMIT_HELLO_MS / 1000);
		tcp_line_drop(t, i, true);
	}
}

/* Server: wait on the listener and the line until deadline_ns (0: no
 * end), at most 200 ms (a stop is noticed) or the line's next limit. */
static int tcp_line_wait(struct tcp_be *t, uint64_t deadline_ns)
{
	struct pollfd fds[TURNS_WAIT_MAX + 1];
	uint64_t now_ns = timer_now_ns(), until_ns = now_ns + 200 * NS_PER_MS;
	uint64_t next_ns = turns_next_ns(&t->be.s->turns, LIMIT_HELLO_MS);
	int i, ms;

	if (deadline_ns && deadline_ns < until_ns)
		until_ns = deadline_ns;
	if (next_ns && next_ns < until_ns)
		until_ns = next_ns;
	for (i = 0; i < TURNS_WAIT_MAX; i++) {
		/* a part in: readable until it is read, so looked at again
		 * every 20 ms rather than polled for (no spin) */
		fds[i] = (struct pollfd){ .fd = t->wait_fd[i],
			.events = t->wait_part[i] ? POLLRDHUP :
						    POLLIN | POLLRDHUP };
		if (t->wait_part[i] && now_ns + 20 * NS_PER_MS < until_ns)
			until_ns = now_ns + 20 * NS_PER_MS;
	}
	fds[i] = (struct pollfd){ .fd = t->listen_fd, .events = POLLIN };
	ms = until_ns > now_ns ? (int)((until_ns - now_ns + NS_PER_MS - 1) /
				       NS_PER_MS) : 0;
	if (poll(fds, TURNS_WAIT_MAX + 1, ms) < 0)
		return errno == EINTR ? 0 : -errno;
	tcp_line_check(t, fds);
	if (fds[TURNS_WAIT_MAX].revents & POLLIN)
		tcp_line_join(t);
	return 0;
}

/* Server: everyone else in the line is told busy (the session is one
 * client's from now on; a client keeps its place by asking again). */
static void tcp_line_turn_away(struct tcp_be *t)
{
	for (int i = 0; i < TURNS_WAIT_MAX; i++) {
		if (t->wait_fd[i] < 0)
			continue;
		busy_turn_away(t->be.s, t->wait_fd[i], t->wait_peer[i]);
		t->wait_fd[i] = -1;
		turns_free(&t->be.s->turns, i);
	}
}

/*
 * Server: the next client's socket: the first in the server's line whose
 * first message is whole (spec/turns.h; each within the HELLO's hard
 * limit of its own connect); its session starts there (busy.c: others
 * are told busy, the HELLO's hard limit runs on). A connection that
 * leaves or idles without one loses its place, its source slowed.
 */
static int tcp_accept_sock(struct session_be *be, uint64_t deadline_ns)
{
	struct tcp_be *t = tcp_of(be);
	struct session *s = be->s;
	struct bench_ctx *b = s->b;
	uint64_t since_ns;
	int slot, ret;

	for (;;) {
		slot = turns_pick(&s->turns, timer_now_ns());
		if (slot >= 0)
			break;
		if (stop_flag)
			return -EINTR;
		if (deadline_ns && timer_expired(deadline_ns))
			return -ETIMEDOUT;
		ret = tcp_line_wait(t, deadline_ns);
		if (ret)
			return ret;
	}
	b->ctrl.fd = t->wait_fd[slot];
	snprintf(b->peer, sizeof(b->peer), "%s", t->wait_peer[slot]);
	since_ns = s->turns.wait[slot].since_ns;
	t->wait_fd[slot] = -1;
	turns_free(&s->turns, slot);
	busy_expect(s, since_ns + LIMIT_HELLO_MS * NS_PER_MS);
	tcp_line_turn_away(t);
	busy_begin(s);
	/* the HELLO's hard limit runs from its connect, not its turn */
	b->ctrl.hard_ns = since_ns + LIMIT_HELLO_MS * NS_PER_MS;
	return 0;
}

int session_tcp_accept(struct session_be *tcp, uint64_t deadline_ns,
		       enum wire_data_kind *want, bool *located)
{
	struct bench_ctx *b = tcp->s->b;
	struct wire_msg msg;
	int ret;

	ret = tcp_accept_sock(tcp, deadline_ns);
	if (!ret)
		ret = ctrl_setup_tcp(&b->ctrl, NULL);
	if (!ret)
		ret = ctrl_poll(&b->ctrl, &msg);
	if (ret == -EAGAIN)
		ret = -ECONNRESET;
	if (!ret) /* --auth-key-file: before LOCATE or HELLO */
		ret = session_auth_server(tcp->s, &msg);
	if (ret)
		return ret;
	*located = msg.type == WIRE_LOCATE;
	*want = *located ? (enum wire_data_kind)msg.u.locate.kind :
			   WIRE_DATA_ANY;
	if (*located && *want > WIRE_DATA_IWARP) {
		bench_err("client %s asked for data kind %u", b->peer, *want);
		return -EPROTO;
	}
	if (*located) /* a well-formed LOCATE: a client, not a stranger */
		tcp->s->hello_in = true;
	if (!*located)
		ctrl_unread(&b->ctrl, &msg);
	return 0;
}

/* Server, --oob tcp: a client's LOCATE (--oob auto) gets this device. */
static int tcp_accept_ctrl(struct session_be *be, uint64_t deadline_ns)
{
	struct bench_ctx *b = be->s->b;
	struct wire_msg ack = { .type = WIRE_LOCATE_ACK };
	struct wire_locate_ack *a = &ack.u.locate_ack;
	enum wire_data_kind want;
	bool located;
	int ret;

	ret = session_tcp_accept(be, deadline_ns, &want, &located);
	if (ret || !located)
		return ret;
	snprintf(a->dev_name, sizeof(a->dev_name), "%s",
		 ibv_get_device_name(b->ctrl.verbs->device));
	if (want == WIRE_DATA_IWARP) {
		a->status = -EOPNOTSUPP;
		snprintf(a->text, sizeof(a->text), "the server runs --oob tcp, "
			 "and iWARP QPs connect only through rdma_cm: run the "
			 "server without --oob tcp");
		bench_err("client %s: %s", b->peer, a->text);
	}
	ret = ctrl_send(&b->ctrl, &ack);
	return a->status ? a->status : ret;
}

const struct session_ops session_tcp_ops = {
	.name = "TCP (--oob tcp)",
	.port_what = "TCP port",
	.listen_note = ", --oob tcp",
	.retry_hint = "is the server running with --oob tcp?",
	.log_any = true,
	SESSION_BE_OF(struct tcp_be, be),
	.init = tcp_init,
	.fini = tcp_unlisten,
	.open = tcp_device,
	.attempt = tcp_attempt,
	.connect_data = tcp_connect_qps,
	.listen = tcp_listen,
	.unlisten = tcp_unlisten,
	.accept_ctrl = tcp_accept_ctrl,
	.accept_data = tcp_connect_qps,
};
