// SPDX-License-Identifier: BSD-2-Clause
#include <errno.h>
#include <string.h>

#include "bench.h"
#include "conn.h"
#include "ctrl.h"
#include "log.h"
#include "timer.h"

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
	struct ibv_cq *cq = ibv_create_cq(c->ep.id->verbs, depth, NULL, NULL, 0);

	if (!cq)
		bench_err("ibv_create_cq(%d): %s", depth, strerror(errno));
	return cq;
}

int ctrl_setup(struct ctrl *c)
{
	unsigned int i;
	int ret = -ENOMEM;

	c->pd = ibv_alloc_pd(c->ep.id->verbs);
	if (!c->pd) {
		ret = -errno;
		bench_err("ibv_alloc_pd: %s", strerror(-ret));
		return ret;
	}
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

void ctrl_destroy(struct ctrl *c)
{
	cm_close(&c->ep);
	mem_free(&c->mem);
	if (c->send_cq)
		ibv_destroy_cq(c->send_cq);
	if (c->recv_cq)
		ibv_destroy_cq(c->recv_cq);
	c->send_cq = c->recv_cq = NULL;
	if (c->pd && ibv_dealloc_pd(c->pd))
		bench_warn("ibv_dealloc_pd: %s", strerror(errno));
	c->pd = NULL;
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
 * Poll cq for one completion until deadline_ns. Sleeps between empty polls
 * (control traffic is rare; spinning would steal the CPU from the data
 * path of a peer on the same host). Returns 1, -ETIMEDOUT, -EINTR, -EIO.
 */
static int ctrl_wait_wc(struct ctrl *c, struct ibv_cq *cq, struct ibv_wc *wc,
			uint64_t deadline_ns)
{
	unsigned int spins = 0;

	for (;;) {
		int n = ibv_poll_cq(cq, 1, wc);

		if (n)
			return n < 0 ? -EIO : 1;
		if (bench_stop)
			return -EINTR;
		if (timer_expired(deadline_ns))
			return -ETIMEDOUT;
		if (cm_check_peer(&c->ep))
			return -ECONNRESET;
		if (++spins > 100)
			timer_sleep_ms(1);
	}
}

static const char *ctrl_wait_why(int ret)
{
	return ret == -ETIMEDOUT ? "timed out" :
	       ret == -EINTR	 ? "interrupted" :
	       ret == -ECONNRESET ? "disconnected" : "failed";
}

int ctrl_send(struct ctrl *c, const struct wire_msg *msg)
{
	uint8_t *slot = ctrl_slot(c, CTRL_RECV_SLOTS);
	struct ibv_sge sge = { .addr = (uintptr_t)slot,
			       .lkey = c->mem.mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr *bad;
	struct ibv_wc wc;
	int len, ret;

	len = wire_pack(msg, slot, WIRE_MSG_MAX);
	if (len < 0)
		return len;
	sge.length = (uint32_t)len;
	ret = ibv_post_send(c->ep.id->qp, &wr, &bad);
	if (ret) {
		bench_err("ibv_post_send(control %s): %s",
			  wire_type_name(msg->type), strerror(ret));
		return -ret;
	}
	ret = ctrl_wait_wc(c, c->send_cq, &wc, timer_deadline_ns(c->timeout_ms));
	if (ret < 0) {
		bench_err("sending %s to the %s: %s", wire_type_name(msg->type),
			  c->peer_role, ctrl_wait_why(ret));
		return ret;
	}
	return wc.status ? ctrl_wc_error(c, &wc, "send") : 0;
}

void ctrl_send_error(struct ctrl *c, int status, const char *text)
{
	struct wire_msg msg = { .type = WIRE_ERROR };

	if (!c->ep.id || !c->ep.id->qp || cm_check_peer(&c->ep))
		return;
	c->timeout_ms = 1000; /* we are leaving: do not wait long */
	msg.u.error.status = status;
	snprintf(msg.u.error.text, sizeof(msg.u.error.text), "%s", text);
	ctrl_send(c, &msg);
}

/* Unpack slot i after a receive completion and give the slot back. */
static int ctrl_take(struct ctrl *c, const struct ibv_wc *wc,
		     struct wire_msg *msg)
{
	unsigned int i = (unsigned int)wc->wr_id;
	int ret;

	if (wc->status)
		return ctrl_wc_error(c, wc, "receive");
	ret = wire_unpack(ctrl_slot(c, i), wc->byte_len, msg);
	if (ret == -EPROTONOSUPPORT)
		bench_err("the %s speaks rdmabench protocol version %u, we "
			  "speak %u: run the same version on both sides",
			  c->peer_role, msg->version, WIRE_VERSION);
	else if (ret)
		bench_err("a malformed control message from the %s: %s",
			  c->peer_role, strerror(-ret));
	if (!ret)
		ret = ctrl_post_recv(c, i);
	return ret;
}

int ctrl_poll(struct ctrl *c, struct wire_msg *msg)
{
	struct ibv_wc wc;
	int n = ibv_poll_cq(c->recv_cq, 1, &wc);

	if (n < 0)
		return -EIO;
	if (n == 0)
		return cm_check_peer(&c->ep) ? -ECONNRESET : -EAGAIN;
	return ctrl_take(c, &wc, msg);
}

int ctrl_recv(struct ctrl *c, uint16_t type, struct wire_msg *msg)
{
	struct ibv_wc wc;
	int ret;

again:
	ret = ctrl_wait_wc(c, c->recv_cq, &wc, timer_deadline_ns(c->timeout_ms));
	if (ret < 0) {
		bench_err("waiting for %s from the %s: %s%s", wire_type_name(type),
			  c->peer_role, ctrl_wait_why(ret),
			  ret == -ETIMEDOUT ? " (see --timeout)" : "");
		return ret;
	}
	ret = ctrl_take(c, &wc, msg);
	if (ret)
		return ret;
	/* a heartbeat can overtake the end of a run: it is not an answer */
	if (msg->type == WIRE_ALIVE && type != WIRE_ALIVE)
		goto again;
	if (msg->type == WIRE_ERROR) {
		bench_err("the %s reports: %s", c->peer_role, msg->u.error.text);
		return msg->u.error.status < 0 ? msg->u.error.status : -EPROTO;
	}
	if (type && msg->type != type) {
		bench_err("expected %s from the %s, got %s",
			  wire_type_name(type), c->peer_role,
			  wire_type_name(msg->type));
		return -EPROTO;
	}
	return 0;
}
