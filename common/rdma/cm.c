// SPDX-License-Identifier: BSD-2-Clause
/*
 * cm - rdma_cm with deadlines. Every id gets its own event channel in
 * non-blocking mode, so a wait is poll(2) on one fd with a timeout and the
 * events of one connection never have to be sorted from another's.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "spec/bench.h"
#include "rdma/cm.h"
#include "rdma/dev.h"
#include "lib/log.h"
#include "lib/resolve.h"
#include "lib/timer.h"

static int cm_channel_nonblock(struct rdma_event_channel *ch)
{
	int flags = fcntl(ch->fd, F_GETFL);

	if (flags < 0 || fcntl(ch->fd, F_SETFL, flags | O_NONBLOCK) < 0)
		return -errno;
	return 0;
}

static int cm_ep_create(struct cm_ep *ep)
{
	int ret;

	ep->id = NULL;
	ep->ch = rdma_create_event_channel();
	if (!ep->ch) {
		ret = -errno;
		bench_err("rdma_create_event_channel: %s (is rdma_ucm loaded?)",
			  strerror(-ret));
		return ret;
	}
	ret = cm_channel_nonblock(ep->ch);
	if (ret)
		goto err_destroy_channel;
	if (rdma_create_id(ep->ch, &ep->id, NULL, RDMA_PS_TCP)) {
		ret = -errno;
		bench_err("rdma_create_id: %s", strerror(-ret));
		goto err_destroy_channel;
	}
	return 0;

err_destroy_channel:
	rdma_destroy_event_channel(ep->ch);
	ep->ch = NULL;
	return ret;
}

static const char *cm_addr_str(const struct sockaddr *sa, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN] = "?";
	const void *a;
	uint16_t port;

	if (sa->sa_family == AF_INET) {
		a = &((const struct sockaddr_in *)sa)->sin_addr;
		port = ntohs(((const struct sockaddr_in *)sa)->sin_port);
	} else {
		a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
		port = ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
	}
	inet_ntop(sa->sa_family, a, host, sizeof(host));
	snprintf(buf, len, "%s:%u", host, port);
	return buf;
}

/* What a failure event means, as -errno. */
static int cm_event_errno(const struct rdma_cm_event *ev)
{
	switch (ev->event) {
	case RDMA_CM_EVENT_REJECTED:
		return -ECONNREFUSED;
	case RDMA_CM_EVENT_ADDR_ERROR:
		return -EHOSTUNREACH;
	case RDMA_CM_EVENT_ROUTE_ERROR:
		return -ENETUNREACH;
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_CONNECT_ERROR:
		return -ETIMEDOUT;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
		return -ECONNRESET;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		return -ENODEV;
	default:
		return -EPROTO;
	}
}

/*
 * Wait for the next event on ep until deadline_ns (0: no deadline, only
 * stop_flag). Returns 0 with *ev to be acked by the caller, -ETIMEDOUT,
 * -EINTR (stop), or -errno.
 */
static int cm_next_event(struct cm_ep *ep, uint64_t deadline_ns,
			 struct rdma_cm_event **ev)
{
	int ret;

	for (;;) {
		if (!rdma_get_cm_event(ep->ch, ev))
			return 0;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -errno;
		ret = timer_poll_until(ep->ch->fd, POLLIN, deadline_ns);
		if (ret)
			return ret;
	}
}

/* Check a REJECT's private data for a version mismatch (logged once) or
 * a busy server (its answer kept in ep->busy). */
static int cm_rejected(struct cm_ep *ep, const struct rdma_cm_event *ev)
{
	struct wire_msg msg;
	int ret;

	if (!ev->param.conn.private_data || !ev->param.conn.private_data_len)
		return -ECONNREFUSED;
	/* IB/RoCE pad a REJ's private data: a CONNECT is its start */
	ret = wire_unpack(ev->param.conn.private_data,
			  ev->param.conn.private_data_len < WIRE_CONNECT_BYTES ?
			  ev->param.conn.private_data_len : WIRE_CONNECT_BYTES,
			  &msg);
	if (ret == -EPROTONOSUPPORT) {
		bench_err("the server speaks rdmabench protocol version %u, "
			  "we speak %u: run the same rdmabench version on both "
			  "sides", msg.version, WIRE_VERSION);
		return ret;
	}
	if (!ret && msg.type == WIRE_CONNECT &&
	    msg.u.connect.kind == WIRE_CONN_BUSY) {
		ep->busy = msg.u.connect;
		return -EBUSY;
	}
	return -ECONNREFUSED;
}

/*
 * Wait for event `want`: 0 with *ev, to be acked by the caller. Any other
 * event is a failure mapped to -errno (acked here); nothing is logged here
 * (the caller knows which step failed).
 */
static int cm_wait_event(struct cm_ep *ep, enum rdma_cm_event_type want,
			 uint64_t deadline_ns, struct rdma_cm_event **ev)
{
	int ret;

	ret = cm_next_event(ep, deadline_ns, ev);
	if (ret)
		return ret;
	if ((*ev)->event == want)
		return 0; /* the caller acks it */
	if ((*ev)->event == RDMA_CM_EVENT_REJECTED)
		ret = cm_rejected(ep, *ev);
	else
		ret = cm_event_errno(*ev);
	rdma_ack_cm_event(*ev);
	return ret;
}

/* cm_wait_event for callers that need only whether `want` came. */
static int cm_wait(struct cm_ep *ep, enum rdma_cm_event_type want,
		   uint64_t deadline_ns)
{
	struct rdma_cm_event *ev;
	int ret;

	ret = cm_wait_event(ep, want, deadline_ns, &ev);
	if (!ret)
		rdma_ack_cm_event(ev);
	return ret;
}

/* -T / -u on an id (rdma_set_option); 0 or -errno, logged. */
static int cm_set_option(struct cm_ep *ep, int name, bool has, uint8_t value,
			 const char *what)
{
	int ret;

	if (!has)
		return 0;
	if (!rdma_set_option(ep->id, RDMA_OPTION_ID, name, &value,
			     sizeof(value)))
		return 0;
	ret = -errno;
	bench_err("rdma_cm refused %s %u: %s", what, value, strerror(-ret));
	return ret;
}

/* Binding the listener failed (ret): what it means, logged. */
static void cm_listen_fail(const struct sockaddr *sa, uint16_t tcp_port,
			   int ret)
{
	char ip[64];

	bench_err("rdma_bind_addr(%s port %u): %s%s",
		  cm_addr_str(sa, ip, sizeof(ip)), tcp_port, strerror(-ret),
		  ret == -EADDRINUSE ? ": another server listens there; use "
		  "-p" : ret == -EADDRNOTAVAIL || ret == -ENODEV ||
		  ret == -EINVAL ? ": not an address of an RDMA device of this "
		  "host; give --bind one (ib_doctor lists them)" : "");
}

uint16_t cm_listen_port(const struct cm_ep *listener)
{
	return ntohs(rdma_get_src_port(listener->id));
}

int cm_listen(const struct sockaddr *addr, uint16_t tcp_port,
	      struct cm_ep *listener)
{
	/* IPv4 any: iWARP (siw) does not take IPv4 clients on [::] */
	struct sockaddr_storage sa = { .ss_family = AF_INET };
	int ret;

	if (addr)
		memcpy(&sa, addr, addr->sa_family == AF_INET6 ?
		       sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in));
	if (sa.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&sa)->sin6_port = htons(tcp_port);
	else
		((struct sockaddr_in *)&sa)->sin_port = htons(tcp_port);
	ret = cm_ep_create(listener);
	if (ret)
		return ret;
	ret = cm_set_option(listener, RDMA_OPTION_ID_TOS,
			    listener->attr.has_tos, listener->attr.tos, "-T");
	if (ret)
		goto err_close;
	if (rdma_bind_addr(listener->id, (struct sockaddr *)&sa)) {
		ret = -errno;
		cm_listen_fail((struct sockaddr *)&sa, tcp_port, ret);
		goto err_close;
	}
	if (rdma_listen(listener->id, 8)) {
		ret = -errno;
		bench_err("rdma_listen(port %u): %s", tcp_port, strerror(-ret));
		goto err_close;
	}
	return 0;

err_close:
	cm_close(listener);
	return ret;
}

/*
 * A perftest peer, told by the private data of its request (server) or
 * accept (client): said once here, -WIRE_EPERFTEST; else 0.
 */
static int cm_peer_perftest(struct rdma_cm_id *id,
			    const struct rdma_conn_param *conn)
{
	char peer[INET6_ADDRSTRLEN + 8];

	if (wire_peer_cm_kind(conn->private_data, conn->private_data_len) !=
	    WIRE_PEER_PERFTEST)
		return 0;
	bench_err(WIRE_PERFTEST_FMT,
		  cm_addr_str(rdma_get_peer_addr(id), peer, sizeof(peer)));
	return -WIRE_EPERFTEST;
}

/* Parse a request's CONNECT; reply to a stranger with our header. */
static int cm_request_check(struct rdma_cm_event *ev, struct wire_connect *req)
{
	struct wire_msg msg;
	const void *pd = ev->param.conn.private_data;
	int ret = cm_peer_perftest(ev->id, &ev->param.conn);

	if (ret)
		return ret;
	ret = -EPROTO;
	/* a CONNECT of another version may be shorter (iWARP: exact) */
	if (pd && ev->param.conn.private_data_len >= WIRE_HEADER_BYTES)
		ret = wire_unpack(pd, ev->param.conn.private_data_len <
				  WIRE_CONNECT_BYTES ?
				  ev->param.conn.private_data_len :
				  WIRE_CONNECT_BYTES, &msg);
	if (!ret && msg.type != WIRE_CONNECT)
		ret = -EPROTO;
	if (ret == -EPROTONOSUPPORT)
		bench_err("a client speaking rdmabench protocol version %u "
			  "connected; we speak %u: run the same rdmabench "
			  "version on both sides", msg.version, WIRE_VERSION);
	else if (ret)
		bench_warn("refused a connection that is not from an "
			   "rdmabench client (another tool?)");
	else
		*req = msg.u.connect;
	return ret;
}

/* Our CONNECT header, for an accept or a reject: the peer knows us by it
 * (and a client of another version learns ours). Returns its length. */
static uint8_t cm_our_connect(uint8_t buf[WIRE_CONNECT_BYTES])
{
	struct wire_msg msg = { .type = WIRE_CONNECT };
	int len = wire_pack(&msg, buf, WIRE_CONNECT_BYTES);

	return len > 0 ? (uint8_t)len : 0;
}

static void cm_reject_with_version(struct rdma_cm_id *id)
{
	uint8_t buf[WIRE_CONNECT_BYTES];
	uint8_t len = cm_our_connect(buf);

	rdma_reject(id, len ? buf : NULL, len);
}

/* Refuse id's request with answer, a CONNECT the client reads. */
static void cm_reject_answer(struct rdma_cm_id *id,
			     const struct wire_connect *answer)
{
	struct wire_msg msg = { .type = WIRE_CONNECT };
	uint8_t buf[WIRE_CONNECT_BYTES];
	int len;

	msg.u.connect = *answer;
	/* kind 0: refused without an answer (its host is over its rate) */
	len = answer->kind ? wire_pack(&msg, buf, sizeof(buf)) : 0;
	rdma_reject(id, len > 0 ? buf : NULL, len > 0 ? (uint8_t)len : 0);
}

int cm_turn_away(struct cm_ep *listener,
		 void (*answer)(void *arg, const char *peer,
				const struct wire_connect *req,
				struct wire_connect *answer),
		 void *arg, char *peer, size_t len)
{
	struct wire_connect conn, req = { 0 };
	struct rdma_cm_event *ev;
	struct rdma_cm_id *id;

	for (;;) {
		if (rdma_get_cm_event(listener->ch, &ev))
			return errno == EAGAIN || errno == EWOULDBLOCK ?
			       -EAGAIN : -errno;
		if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST)
			break;
		rdma_ack_cm_event(ev);
	}
	id = ev->id;
	cm_addr_str(rdma_get_peer_addr(id), peer, len);
	if (cm_request_check(ev, &req))
		req.kind = 0;
	answer(arg, peer, &req, &conn);
	cm_reject_answer(id, &conn);
	rdma_ack_cm_event(ev);
	rdma_destroy_id(id);
	return 0;
}

void cm_reject_with(struct cm_ep *ep, const struct wire_connect *answer)
{
	if (ep->id)
		cm_reject_answer(ep->id, answer);
	cm_close(ep);
}

int cm_get_request(struct cm_ep *listener, uint64_t deadline_ns,
		   struct cm_ep *ep, struct wire_connect *req)
{
	struct rdma_cm_event *ev;
	int ret;

	for (;;) {
		ret = cm_next_event(listener, deadline_ns, &ev);
		if (ret)
			return ret;
		if (ev->event != RDMA_CM_EVENT_CONNECT_REQUEST) {
			rdma_ack_cm_event(ev);
			continue;
		}
		ret = cm_request_check(ev, req);
		if (ret) {
			cm_reject_with_version(ev->id);
			rdma_destroy_id(ev->id);
			rdma_ack_cm_event(ev);
			if (ret == -WIRE_EPERFTEST)
				return ret; /* a mixed pair: no use waiting */
			continue;
		}
		ep->id = ev->id;
		ep->attr = listener->attr; /* the server's -u, --retry_count */
		rdma_ack_cm_event(ev);
		break;
	}
	ep->ch = rdma_create_event_channel();
	if (!ep->ch) {
		ret = -errno;
		goto err_reject;
	}
	ret = cm_channel_nonblock(ep->ch);
	if (!ret && rdma_migrate_id(ep->id, ep->ch))
		ret = -errno;
	if (ret)
		goto err_destroy_channel;
	return 0;

err_destroy_channel:
	rdma_destroy_event_channel(ep->ch);
	ep->ch = NULL;
err_reject:
	bench_err("setting up an event channel for a client: %s",
		  strerror(-ret));
	rdma_reject(ep->id, NULL, 0);
	rdma_destroy_id(ep->id);
	ep->id = NULL;
	return ret;
}

/* Connection parameters: private data, retries (--retry_count), and
 * reads/atomics in flight: as initiator -o (ep->attr.out_reads), as
 * responder all this device serves; both capped by the device. */
static void cm_conn_param(struct rdma_conn_param *p, const struct cm_ep *ep,
			  const void *data, uint8_t len)
{
	struct ibv_context *verbs = ep->id->verbs;
	struct ibv_device_attr attr;

	memset(p, 0, sizeof(*p));
	p->private_data = data;
	p->private_data_len = len;
	p->responder_resources = 16;
	p->initiator_depth = 16;
	p->retry_count = ep->attr.has_retry ? ep->attr.retry_count : 7;
	p->rnr_retry_count = 7;
	if (ibv_query_device(verbs, &attr))
		return;
	/* perftest's out_reads: -o bounds the reads on the wire, the
	 * responder serves all its device allows; the software window is
	 * -t (docs/performance-notes.md, findings 6 and 12) */
	p->responder_resources = dev_rd_atom_u8((uint64_t)attr.max_qp_rd_atom);
	p->initiator_depth = dev_rd_atom_u8((uint64_t)attr.max_qp_init_rd_atom);
	if (ep->attr.out_reads && ep->attr.out_reads < p->initiator_depth)
		p->initiator_depth = ep->attr.out_reads;
}

/*
 * rdma_cm sets an RC QP's min RNR timer to 0 on the way to RTR, which is
 * the longest wait (655 ms) a sender makes after a receiver-not-ready NAK:
 * one RNR stalls a run. 12 (0.64 ms) as perftest sets after its accept and
 * as --oob tcp's QPs have (qp_raw.c). iWARP has no RNR NAK.
 */
#define CM_MIN_RNR_TIMER 12

static void cm_rnr_timer(struct cm_ep *ep)
{
	struct ibv_qp_attr attr = { .min_rnr_timer = CM_MIN_RNR_TIMER };
	int ret;

	if (!ep->id->qp ||
	    ep->id->verbs->device->transport_type != IBV_TRANSPORT_IB)
		return;
	ret = ibv_modify_qp(ep->id->qp, &attr, IBV_QP_MIN_RNR_TIMER);
	if (ret)
		bench_warn("cannot shorten the RNR timer of QP %u (%s): a "
			   "receiver-not-ready NAK will stall its sender 655 ms",
			   ep->id->qp->qp_num, strerror(ret));
}

int cm_accept(struct cm_ep *ep, uint64_t deadline_ns)
{
	struct rdma_conn_param param;
	uint8_t buf[WIRE_CONNECT_BYTES];
	int ret;

	ret = cm_set_option(ep, RDMA_OPTION_ID_ACK_TIMEOUT,
			    ep->attr.has_timeout, ep->attr.timeout, "-u");
	if (ret)
		return ret;
	cm_conn_param(&param, ep, buf, cm_our_connect(buf));
	if (rdma_accept(ep->id, &param)) {
		ret = -errno;
		bench_err("rdma_accept: %s", strerror(-ret));
		return ret;
	}
	ret = cm_wait(ep, RDMA_CM_EVENT_ESTABLISHED, deadline_ns);
	if (ret && ret != -EINTR) /* a stop: the driver says it */
		bench_err("the client did not complete the connection: %s",
			  strerror(-ret));
	else
		cm_rnr_timer(ep);
	return ret;
}

void cm_reject(struct cm_ep *ep)
{
	if (ep->id)
		rdma_reject(ep->id, NULL, 0);
	cm_close(ep);
}

static int cm_getaddr(const char *addr, uint16_t tcp_port,
		      struct addrinfo **res)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM };
	char port[8];
	int ret;

	snprintf(port, sizeof(port), "%u", tcp_port);
	ret = resolve_addr(addr, port, &hints, res);
	if (!ret)
		return 0;
	/* a name not resolving yet is retried by the caller: not said here,
	 * once a try (the session waited for it, and says why at the end) */
	if (!resolve_retryable(addr, ret))
		bench_err("cannot resolve server address '%s': %s", addr,
			  gai_strerror(ret));
	return -EHOSTUNREACH;
}

/* --source_ip, resolved: *src NULL when none was given. */
static int cm_getsrc(const char *src, struct addrinfo **res)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_flags = AI_NUMERICHOST };
	int ret;

	*res = NULL;
	if (!src || !src[0])
		return 0;
	ret = getaddrinfo(src, NULL, &hints, res);
	if (!ret)
		return 0;
	bench_err("--source_ip '%s': %s: give an IP of this host", src,
		  gai_strerror(ret));
	return -EINVAL;
}

int cm_resolve(const char *addr, uint16_t tcp_port, uint64_t deadline_ns,
	       struct cm_ep *ep)
{
	struct addrinfo *ai, *src;
	int step_ms, ret;

	ret = cm_getsrc(ep->attr.src, &src);
	if (ret)
		return ret;
	ret = cm_getaddr(addr, tcp_port, &ai);
	if (ret)
		goto out_src;
	ret = cm_ep_create(ep);
	if (ret)
		goto out_free;
	step_ms = timer_remaining_ms(deadline_ns);
	if (step_ms < 1)
		step_ms = 1;
	if (rdma_resolve_addr(ep->id, src ? src->ai_addr : NULL, ai->ai_addr,
			      step_ms))
		ret = -errno;
	if (ret && src)
		bench_err("--source_ip %s to %s: %s", ep->attr.src, addr,
			  strerror(-ret));
	if (!ret)
		ret = cm_wait(ep, RDMA_CM_EVENT_ADDR_RESOLVED, deadline_ns);
	if (!ret) /* the route (and on RoCE its traffic class) follows it */
		ret = cm_set_option(ep, RDMA_OPTION_ID_TOS, ep->attr.has_tos,
				    ep->attr.tos, "-T");
	if (!ret && rdma_resolve_route(ep->id, step_ms))
		ret = -errno;
	if (!ret)
		ret = cm_wait(ep, RDMA_CM_EVENT_ROUTE_RESOLVED, deadline_ns);
	if (!ret)
		ret = cm_set_option(ep, RDMA_OPTION_ID_ACK_TIMEOUT,
				    ep->attr.has_timeout, ep->attr.timeout,
				    "-u");
	if (ret)
		cm_close(ep);
out_free:
	freeaddrinfo(ai);
out_src:
	if (src)
		freeaddrinfo(src);
	return ret;
}

int cm_connect(struct cm_ep *ep, const struct wire_connect *req,
	       uint64_t deadline_ns)
{
	struct wire_msg msg = { .type = WIRE_CONNECT, .u.connect = *req };
	struct rdma_conn_param param;
	uint8_t buf[WIRE_CONNECT_BYTES];
	struct rdma_cm_event *ev;
	int len, ret;

	len = wire_pack(&msg, buf, sizeof(buf));
	if (len < 0)
		return len;
	cm_conn_param(&param, ep, buf, (uint8_t)len);
	if (rdma_connect(ep->id, &param))
		return -errno;
	ret = cm_wait_event(ep, RDMA_CM_EVENT_ESTABLISHED, deadline_ns, &ev);
	if (ret)
		return ret;
	ret = cm_peer_perftest(ep->id, &ev->param.conn);
	rdma_ack_cm_event(ev);
	if (!ret)
		cm_rnr_timer(ep);
	return ret;
}

int cm_check_peer(struct cm_ep *ep)
{
	struct rdma_cm_event *ev;

	if (ep->peer_gone)
		return -ECONNRESET;
	if (!ep->ch || rdma_get_cm_event(ep->ch, &ev))
		return 0;
	if (ev->event == RDMA_CM_EVENT_DISCONNECTED ||
	    ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL)
		ep->peer_gone = true;
	rdma_ack_cm_event(ev);
	return ep->peer_gone ? -ECONNRESET : 0;
}

void cm_close(struct cm_ep *ep)
{
	if (ep->id) {
		if (ep->id->qp) {
			rdma_disconnect(ep->id);
			rdma_destroy_qp(ep->id);
		}
		rdma_destroy_id(ep->id);
		ep->id = NULL;
	}
	if (ep->ch) {
		rdma_destroy_event_channel(ep->ch);
		ep->ch = NULL;
	}
	ep->peer_gone = false;
}

const char *cm_peer_str(const struct cm_ep *ep, char *buf, size_t len)
{
	return cm_addr_str(rdma_get_peer_addr(ep->id), buf, len);
}

const char *cm_local_str(const struct cm_ep *ep, char *buf, size_t len)
{
	return cm_addr_str(rdma_get_local_addr(ep->id), buf, len);
}
