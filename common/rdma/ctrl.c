// SPDX-License-Identifier: BSD-2-Clause
/*
 * ctrl - framing, deadlines and errors of the control channel, over a
 * transport table: the RC QP below (ctrl_qp_transport) or TCP
 * (ctrl_tcp_transport, ctrl_tcp.c).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "spec/bench.h"
#include "rdma/conn.h"
#include "rdma/ctrl.h"
#include "rdma/ctrl_tcp.h"
#include "lib/log.h"
#include "lib/stop.h"
#include "lib/timer.h"

static const struct ctrl_transport ctrl_qp_transport;

void ctrl_init(struct ctrl *c)
{
	memset(c, 0, sizeof(*c));
	c->tr = &ctrl_qp_transport;
	c->fd = -1;
}

/* Slot CTRL_RECV_SLOTS is the send slot. */
static uint8_t *ctrl_slot(struct ctrl *c, unsigned int i)
{
	return (uint8_t *)c->mem.addr + (size_t)i * WIRE_MSG_MAX;
}

static int ctrl_post_recv(struct ctrl *c, unsigned int i)
{
	struct ibv_sge sge = { .addr = (uintptr_t)ctrl_slot(c, i),
			       .length = WIRE_MSG_MAX,
			       .lkey = c->mem.mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;
	int ret = ibv_post_recv(c->ep.id->qp, &wr, &bad);

	if (ret)
		bench_err("ibv_post_recv(control): %s", strerror(ret));
	return -ret;
}

static struct ibv_cq *ctrl_cq_create(struct ctrl *c, int depth)
{
	struct ibv_cq *cq = ibv_create_cq(c->verbs, depth, NULL, NULL, 0);

	if (!cq)
		bench_err("ibv_create_cq(%d): %s", depth, strerror(errno));
	return cq;
}

static int ctrl_alloc_pd(struct ctrl *c)
{
	int ret;

	c->pd = ibv_alloc_pd(c->verbs);
	if (!c->pd) {
		ret = -errno;
		bench_err("ibv_alloc_pd: %s", strerror(-ret));
		return ret;
	}
	return 0;
}

int ctrl_setup(struct ctrl *c)
{
	unsigned int i;
	int ret = -ENOMEM;

	c->verbs = c->ep.id->verbs;
	ret = ctrl_alloc_pd(c);
	if (ret)
		return ret;
	c->send_cq = ctrl_cq_create(c, 4);
	c->recv_cq = ctrl_cq_create(c, CTRL_RECV_SLOTS);
	if (!c->send_cq || !c->recv_cq)
		goto err_destroy;
	ret = conn_qp_create(c->ep.id, c->pd, c->send_cq, c->recv_cq, 4,
			     CTRL_RECV_SLOTS, 0, NULL);
	if (ret)
		goto err_destroy;
	ret = mem_host_alloc((CTRL_RECV_SLOTS + 1) * WIRE_MSG_MAX, -1, &c->mem);
	if (!ret)
		ret = mem_register(&c->mem, c->pd, 0);
	for (i = 0; !ret && i < CTRL_RECV_SLOTS; i++)
		ret = ctrl_post_recv(c, i);
	if (ret)
		goto err_destroy;
	return 0;

err_destroy:
	ctrl_destroy(c);
	return ret;
}

int ctrl_setup_tcp(struct ctrl *c, struct ibv_context *verbs)
{
	c->tr = &ctrl_tcp_transport;
	if (!verbs)
		return 0;
	c->verbs = verbs;
	c->own_verbs = true;
	return ctrl_alloc_pd(c);
}

void ctrl_destroy(struct ctrl *c)
{
	cm_close(&c->ep);
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	mem_free(&c->mem);
	if (c->send_cq)
		ibv_destroy_cq(c->send_cq);
	if (c->recv_cq)
		ibv_destroy_cq(c->recv_cq);
	c->send_cq = c->recv_cq = NULL;
	if (c->pd && ibv_dealloc_pd(c->pd))
		bench_warn("ibv_dealloc_pd: %s", strerror(errno));
	c->pd = NULL;
	if (c->own_verbs && c->verbs)
		ibv_close_device(c->verbs);
	c->verbs = NULL;
	c->own_verbs = false;
}

bool ctrl_peer_gone(struct ctrl *c)
{
	return c->tr->gone(c);
}

/* A completion that failed: name it, with the verbs status string. */
static int ctrl_wc_error(struct ctrl *c, const struct ibv_wc *wc,
			 const char *what)
{
	bench_err("control %s failed: %s (%d), vendor_err 0x%x: the %s is "
		  "gone or unreachable", what, ibv_wc_status_str(wc->status),
		  wc->status, wc->vendor_err, c->peer_role);
	return -ECONNRESET;
}

/*
 * ctrl_poll runs in the hot loops (every 0.5 ms): looking for rdma_cm's
 * DISCONNECTED costs a system call and a malloc/free in librdmacm
 * (rdma_get_cm_event), so it is done every CTRL_PEER_CHECK_NS only; a
 * dead peer is still noticed within that, or at once by the QP.
 */
#define CTRL_PEER_CHECK_NS (100 * NS_PER_MS)

static bool ctrl_peer_check_due(struct ctrl *c)
{
	uint64_t now_ns = timer_now_ns();

	if (now_ns < c->peer_check_ns)
		return false;
	c->peer_check_ns = now_ns + CTRL_PEER_CHECK_NS;
	return true;
}

/*
 * Poll cq for one completion until deadline_ns (0: just once). Sleeps
 * between empty polls (control traffic is rare; spinning would steal the
 * CPU from the data path of a peer on the same host), longer after the
 * first 100 ms. Returns 1, 0 (none,
 * no deadline), -ETIMEDOUT, -EINTR, -ECONNRESET (the peer disconnected:
 * looked for while waiting, every CTRL_PEER_CHECK_NS), -EIO.
 */
/*
 * The peer has disconnected: a message it sent just before is still taken
 * (the disconnect event can be seen before the receive's completion, as
 * siw was seen to do under load: the server then lost the client's last
 * message and ended with exit 5 after a good run). 1, or -ECONNRESET.
 */
static int ctrl_last_wc(struct ibv_cq *cq, struct ibv_wc *wc)
{
	if (ibv_poll_cq(cq, 1, wc) == 1 && wc->status == IBV_WC_SUCCESS)
		return 1;
	return -ECONNRESET;
}

#define CTRL_NAP_AFTER 100 /* empty polls, then 1 ms sleeps ... */
#define CTRL_DOZE_AFTER (CTRL_NAP_AFTER + 100) /* ... then 10 ms ones */

static int ctrl_wait_wc(struct ctrl *c, struct ibv_cq *cq, struct ibv_wc *wc,
			uint64_t deadline_ns)
{
	unsigned int spins = 0;

	for (;;) {
		int n = ibv_poll_cq(cq, 1, wc);

		if (n)
			return n < 0 ? -EIO : 1;
		if (!deadline_ns)
			return 0; /* ctrl_poll looks for a disconnect itself */
		if (ctrl_peer_check_due(c) && cm_check_peer(&c->ep))
			return ctrl_last_wc(cq, wc);
		if (stop_flag)
			return -EINTR;
		if (timer_expired(deadline_ns))
			return -ETIMEDOUT;
		/* a long wait (a held server) costs ~100 wake-ups a second */
		if (++spins > CTRL_DOZE_AFTER)
			timer_sleep_ms(10);
		else if (spins > CTRL_NAP_AFTER)
			timer_sleep_ms(1);
	}
}

/* QP transport: send len bytes from the send slot. */
static int ctrl_qp_send(struct ctrl *c, const uint8_t *buf, size_t len,
			uint64_t deadline_ns)
{
	uint8_t *slot = ctrl_slot(c, CTRL_RECV_SLOTS);
	struct ibv_sge sge = { .addr = (uintptr_t)slot, .length = (uint32_t)len,
			       .lkey = c->mem.mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr *bad;
	struct ibv_wc wc;
	int ret;

	memcpy(slot, buf, len);
	ret = ibv_post_send(c->ep.id->qp, &wr, &bad);
	if (ret) {
		bench_err("ibv_post_send(control): %s", strerror(ret));
		return -ret;
	}
	ret = ctrl_wait_wc(c, c->send_cq, &wc, deadline_ns);
	if (ret < 0)
		return ret;
	return wc.status ? ctrl_wc_error(c, &wc, "send") : 0;
}

/* QP transport: the next message into buf; 0 with *len, -EAGAIN (none). */
static int ctrl_qp_recv(struct ctrl *c, uint8_t *buf, size_t *len,
			uint64_t deadline_ns)
{
	struct ibv_wc wc;
	int ret;

	ret = ctrl_wait_wc(c, c->recv_cq, &wc, deadline_ns);
	if (ret <= 0)
		return ret ? ret : -EAGAIN;
	if (wc.status)
		return ctrl_wc_error(c, &wc, "receive");
	*len = wc.byte_len < WIRE_MSG_MAX ? wc.byte_len : WIRE_MSG_MAX;
	memcpy(buf, ctrl_slot(c, (unsigned int)wc.wr_id), *len);
	return ctrl_post_recv(c, (unsigned int)wc.wr_id);
}

static bool ctrl_qp_gone(struct ctrl *c)
{
	return cm_check_peer(&c->ep) != 0;
}

static bool ctrl_qp_up(const struct ctrl *c)
{
	return c->ep.id && c->ep.id->qp;
}

static const char *ctrl_qp_peer(const struct ctrl *c, char *buf, size_t len)
{
	return cm_peer_str(&c->ep, buf, len);
}

static const struct ctrl_transport ctrl_qp_transport = {
	.send = ctrl_qp_send,
	.recv = ctrl_qp_recv,
	.gone = ctrl_qp_gone,
	.closed = ctrl_qp_gone,
	.up = ctrl_qp_up,
	.peer = ctrl_qp_peer,
};

static const char *ctrl_wait_why(int ret)
{
	return ret == -ETIMEDOUT ? "timed out" :
	       ret == -EINTR	 ? "interrupted" :
	       ret == -ECONNRESET ? "disconnected" : "failed";
}

/* Send msg; wait until it is out. 0 or -errno, not logged. */
static int ctrl_send_raw(struct ctrl *c, const struct wire_msg *msg)
{
	uint64_t deadline_ns = timer_deadline_ns(c->timeout_ms);
	uint8_t buf[WIRE_MSG_MAX];
	int len;

	len = wire_pack(msg, buf, sizeof(buf));
	if (len < 0)
		return len;
	return c->tr->send(c, buf, (size_t)len, deadline_ns);
}

int ctrl_send(struct ctrl *c, const struct wire_msg *msg)
{
	int ret = ctrl_send_raw(c, msg);

	if (ret && ret != -EINTR) /* a stop: the driver says it */
		bench_err("sending %s to the %s: %s", wire_type_name(msg->type),
			  c->peer_role, ctrl_wait_why(ret));
	return ret;
}

/* What the peer is told: the reason, where it can act on it. */
static const char *ctrl_error_text(int status, const char *text)
{
	switch (status) {
	case -EPROTONOSUPPORT:
		return "another rdmabench protocol version: run the same "
		       "rdmabench version on both sides";
	case -ENOMEM:
		return "cannot allocate or register its buffers (memory, or "
		       "RLIMIT_MEMLOCK without CAP_IPC_LOCK): see its log";
	default:
		return text;
	}
}

/*
 * After an ERROR: let the peer read it and hang up first, for up to
 * timeout_ms. Tearing down at once can lose it: an iWARP (TCP) or TCP
 * connection closed with unread data is reset, and a reset drops what the
 * peer had not read yet (seen on siw: the peer then reports a lost peer
 * instead of our reason).
 */
#define CTRL_LINGER_MS 1000

static void ctrl_linger(struct ctrl *c, unsigned int timeout_ms)
{
	uint64_t deadline_ns = timer_deadline_ns(timeout_ms);

	while (!timer_expired(deadline_ns)) {
		if (c->tr->closed(c))
			return;
		timer_sleep_ms(10);
	}
}

int ctrl_tell(struct ctrl *c, int status, const char *text)
{
	struct wire_msg msg = { .type = WIRE_ERROR };

	msg.u.error.status = status;
	snprintf(msg.u.error.text, sizeof(msg.u.error.text), "%s", text);
	return ctrl_send_raw(c, &msg);
}

void ctrl_send_error(struct ctrl *c, int status, const char *text)
{
	if (!c->tr->up(c) || ctrl_peer_gone(c) || c->error_sent)
		return;
	c->error_sent = true;
	c->timeout_ms = 1000; /* we are leaving: do not wait long */
	/* best effort: a peer that already left is not news */
	if (!ctrl_tell(c, status, ctrl_error_text(status, text)))
		ctrl_linger(c, CTRL_LINGER_MS);
}

void ctrl_unread(struct ctrl *c, const struct wire_msg *msg)
{
	c->pending = *msg;
	c->has_pending = true;
}

/*
 * Bytes that are not our message: -WIRE_EPERFTEST (said here) when they
 * are perftest's; that peer reads no ERROR of ours. Else -EPROTO.
 */
static int ctrl_foreign(struct ctrl *c, const uint8_t *buf, size_t len)
{
	char peer[80];

	if (wire_peer_kind(buf, len) != WIRE_PEER_PERFTEST)
		return -EPROTO;
	bench_err(WIRE_PERFTEST_FMT, c->tr->peer(c, peer, sizeof(peer)));
	c->error_sent = true;
	return -WIRE_EPERFTEST;
}

/* One message, raw; deadline_ns 0: do not wait. */
static int ctrl_take(struct ctrl *c, struct wire_msg *msg,
		     uint64_t deadline_ns)
{
	uint8_t buf[WIRE_MSG_MAX];
	size_t len = 0;
	int ret;

	if (c->has_pending) {
		*msg = c->pending;
		c->has_pending = false;
		return 0;
	}
	ret = c->tr->recv(c, buf, &len, deadline_ns);
	if (ret)
		return ret;
	ret = wire_unpack(buf, len, msg);
	if (ret == -EPROTO)
		ret = ctrl_foreign(c, buf, len);
	if (ret == -WIRE_EPERFTEST)
		return ret;
	if (ret == -EPROTONOSUPPORT)
		bench_err("the %s speaks rdmabench protocol version %u, we "
			  "speak %u: run the same version on both sides",
			  c->peer_role, msg->version, WIRE_VERSION);
	else if (ret)
		bench_err("a malformed control message from the %s: %s",
			  c->peer_role, strerror(-ret));
	return ret;
}

int ctrl_peer_status(const struct wire_msg *msg)
{
	int32_t status = msg->u.error.status;

	/* corrupt data, another protocol version, a key refused: the same
	 * on both sides; a busy server: the client tries again */
	return status == -EILSEQ || status == -EPROTONOSUPPORT ||
	       status == -EKEYREJECTED || status == -EBUSY ? status :
							      -ECONNABORTED;
}

int ctrl_poll(struct ctrl *c, struct wire_msg *msg)
{
	int ret = ctrl_take(c, msg, 0);

	if (ret == -EAGAIN && ctrl_peer_check_due(c) && ctrl_peer_gone(c))
		return -ECONNRESET;
	return ret;
}

int ctrl_await_error(struct ctrl *c, unsigned int timeout_ms)
{
	uint64_t deadline_ns = timer_deadline_ns(timeout_ms);
	struct wire_msg msg;
	int ret;

	for (;;) {
		ret = ctrl_poll(c, &msg);
		if (!ret && msg.type == WIRE_ERROR) {
			bench_err("the %s reports: %s", c->peer_role,
				  msg.u.error.text);
			return ctrl_peer_status(&msg);
		}
		if (ret && ret != -EAGAIN)
			return -ECONNRESET;
		if (timer_expired(deadline_ns))
			return 0;
		if (ret == -EAGAIN)
			timer_sleep_ms(10);
	}
}

uint64_t ctrl_deadline_ns(const struct ctrl *c)
{
	uint64_t deadline_ns = timer_deadline_ns(c->timeout_ms);

	return c->hard_ns && c->hard_ns < deadline_ns ? c->hard_ns :
							deadline_ns;
}

/* The peer's ERROR: logged (a busy server's is the caller's to say). */
static int ctrl_peer_error(struct ctrl *c, const struct wire_msg *msg)
{
	snprintf(c->peer_text, sizeof(c->peer_text), "%s", msg->u.error.text);
	if (msg->u.error.status != -EBUSY)
		bench_err("the %s reports: %s", c->peer_role,
			  msg->u.error.text);
	return ctrl_peer_status(msg);
}

static int ctrl_recv_failed(struct ctrl *c, uint16_t type, int ret)
{
	if (ret == -ETIMEDOUT && c->hard_ns && timer_expired(c->hard_ns)) {
		bench_err("waiting for %s from the %s: it passed this "
			  "server's hard limit for %s, which no message "
			  "extends", type ? wire_type_name(type) : "a message",
			  c->peer_role, c->hard_what ? c->hard_what :
			  "this phase");
		return ret;
	}
	if ((ret == -ETIMEDOUT && c->quiet_timeout) || ret == -EINTR)
		return ret; /* a stop: the driver says it */
	bench_err("waiting for %s from the %s: %s%s",
		  type ? wire_type_name(type) : "a message", c->peer_role,
		  ctrl_wait_why(ret), ret == -ETIMEDOUT ? " (see --timeout)" :
		  "");
	return ret;
}

int ctrl_recv(struct ctrl *c, uint16_t type, struct wire_msg *msg)
{
	uint64_t deadline_ns = ctrl_deadline_ns(c);
	int ret;

	for (;;) {
		ret = ctrl_take(c, msg, deadline_ns);
		if (ret == -ETIMEDOUT || ret == -EINTR || ret == -ECONNRESET)
			return ctrl_recv_failed(c, type, ret);
		if (ret)
			return ret;
		/* a heartbeat can overtake the end of a run: it is not an
		 * answer; a HELLO or AUTH sent again (ctrl_ask) is not
		 * either; neither moves the deadline */
		if ((msg->type != WIRE_ALIVE && msg->type != WIRE_HELLO &&
		     msg->type != WIRE_AUTH) || type == msg->type)
			break;
	}
	if (msg->type == WIRE_ERROR)
		return ctrl_peer_error(c, msg);
	if (type && msg->type != type) {
		bench_err("expected %s from the %s, got %s",
			  wire_type_name(type), c->peer_role,
			  wire_type_name(msg->type));
		return -EPROTO;
	}
	return 0;
}

int ctrl_ask(struct ctrl *c, const struct wire_msg *msg, uint16_t type,
	     struct wire_msg *reply, unsigned int resend_ms)
{
	uint64_t deadline_ns = timer_deadline_ns(c->timeout_ms);
	uint64_t timeout_ms = c->timeout_ms;
	int ret;

	c->timeout_ms = resend_ms;
	c->quiet_timeout = true;
	do {
		ret = ctrl_send(c, msg);
		if (!ret)
			ret = ctrl_recv(c, type, reply);
	} while (ret == -ETIMEDOUT && !timer_expired(deadline_ns));
	c->quiet_timeout = false;
	c->timeout_ms = timeout_ms;
	if (ret == -ETIMEDOUT)
		bench_err("the %s did not answer %s within %llu ms (see "
			  "--timeout)", c->peer_role, wire_type_name(msg->type),
			  (unsigned long long)timeout_ms);
	return ret;
}
