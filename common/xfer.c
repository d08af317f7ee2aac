// SPDX-License-Identifier: BSD-2-Clause
#include <errno.h>
#include <string.h>

#include "log.h"
#include "timer.h"
#include "xfer.h"

/* The one place the verb table's opcode column is expanded. */
static const enum ibv_wr_opcode verb_opcode[BENCH_VERB_COUNT] = {
#define X(e, name, title, op, region, end, lat, div, uc, fixed) \
	[BENCH_VERB_##e] = op,
	BENCH_VERBS(X)
#undef X
};

/* Loop turns between clock reads: keeps clock_gettime out of the hot path. */
#define XFER_CHECK_EVERY 1024
#define XFER_HEARTBEAT_NS NS_PER_S
#define XFER_PEAK_SLICES 16
#define XFER_POLL_BATCH 16
#define XFER_LAT_DEPTH 16

static int xfer_post(const struct xfer *x, enum ibv_wr_opcode op,
		     uint64_t size, uint64_t wr_id, bool signaled)
{
	struct conn *c = x->conn;
	struct ibv_sge sge = { .addr = (uintptr_t)conn_send_region(c),
			       .length = (uint32_t)size,
			       .lkey = c->mem.mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = wr_id, .sg_list = &sge, .num_sge = 1, .opcode = op,
		.wr.rdma = { .remote_addr = c->remote.addr,
			     .rkey = c->remote.rkey },
	};
	struct ibv_send_wr *bad;
	int ret;

	if (signaled)
		wr.send_flags |= IBV_SEND_SIGNALED;
	if (size <= c->max_inline)
		wr.send_flags |= IBV_SEND_INLINE;
	ret = ibv_post_send(c->ep.id->qp, &wr, &bad);
	if (ret)
		bench_err("ibv_post_send(%s, %llu bytes): %s",
			  bench_verb_name(x->verb), (unsigned long long)size,
			  strerror(ret));
	return -ret;
}

/*
 * After a failed completion: did the peer go away? Its process ending shows
 * as a disconnect on the control connection, which may trail the error by
 * a moment.
 */
static bool xfer_peer_gone(const struct xfer *x)
{
	uint64_t deadline_ns = timer_deadline_ns(2000);

	while (!cm_check_peer(&x->ctrl->ep)) {
		if (timer_expired(deadline_ns))
			return false;
		timer_sleep_ms(10);
	}
	return true;
}

/* A failed completion: say what, where, with the verbs status string. */
static int xfer_wc_error(const struct xfer *x, const struct ibv_wc *wc,
			 uint64_t size, uint64_t iter)
{
	bool gone = xfer_peer_gone(x);

	bench_err("%s completion failed: %s (%d), vendor_err 0x%x, size %llu, "
		  "near iteration %llu", bench_verb_name(x->verb),
		  ibv_wc_status_str(wc->status), wc->status, wc->vendor_err,
		  (unsigned long long)size, (unsigned long long)iter);
	if (gone)
		bench_err("the %s disconnected (its process ended or it "
			  "closed the connection)", x->ctrl->peer_role);
	switch (wc->status) {
	case IBV_WC_RETRY_EXC_ERR:
	case IBV_WC_RNR_RETRY_EXC_ERR:
	case IBV_WC_WR_FLUSH_ERR:
	case IBV_WC_REM_ABORT_ERR:
		return -ECONNRESET; /* the peer is unreachable */
	default:
		return gone ? -ECONNRESET : -EIO;
	}
}

/* Periodic check: stop flag, progress deadline, heartbeat. */
struct xfer_watch {
	uint64_t progress_ns;    /* when `seen` last changed */
	uint64_t seen;
	uint64_t alive_ns;       /* last heartbeat sent */
	unsigned int turns;
};

static int xfer_watch(const struct xfer *x, struct xfer_watch *w,
		      uint64_t progress, bool send_heartbeat)
{
	uint64_t now_ns;

	if (++w->turns < XFER_CHECK_EVERY)
		return 0;
	w->turns = 0;
	if (bench_stop)
		return -EINTR;
	now_ns = timer_now_ns();
	if (progress != w->seen) {
		w->seen = progress;
		w->progress_ns = now_ns;
	} else if (now_ns - w->progress_ns > x->io_timeout_ns) {
		bench_err("%s: no progress for %llu s (after %llu operations): "
			  "the peer is lost or stuck (see --timeout)",
			  bench_verb_name(x->verb),
			  (unsigned long long)(x->io_timeout_ns / NS_PER_S),
			  (unsigned long long)progress);
		return -ETIMEDOUT;
	}
	if (send_heartbeat && now_ns - w->alive_ns > XFER_HEARTBEAT_NS) {
		struct wire_msg msg = { .type = WIRE_ALIVE };

		w->alive_ns = now_ns;
		return ctrl_send(x->ctrl, &msg);
	}
	return 0;
}

static void xfer_peak(struct xfer_bw_out *out, uint64_t bytes, uint64_t ns)
{
	if (!ns)
		return;
	if (!out->peak_ns ||
	    (double)bytes / (double)ns >
		    (double)out->peak_bytes / (double)out->peak_ns) {
		out->peak_bytes = bytes;
		out->peak_ns = ns;
	}
}

int xfer_bw_run(const struct xfer *x, uint64_t size, uint64_t iters,
		uint32_t tx_depth, uint32_t cq_mod, struct xfer_bw_out *out)
{
	enum ibv_wr_opcode op = verb_opcode[x->verb];
	uint64_t slice = iters / XFER_PEAK_SLICES ? iters / XFER_PEAK_SLICES : 1;
	uint64_t posted = 0, done = 0, mark_done = 0, start_ns, mark_ns;
	struct xfer_watch w = { 0 };
	struct ibv_wc wc[XFER_POLL_BATCH];
	uint32_t unsignaled = 0;
	int i, n, ret;

	if (cq_mod > tx_depth) /* else the window never reopens */
		cq_mod = tx_depth;
	memset(out, 0, sizeof(*out));
	start_ns = mark_ns = w.progress_ns = w.alive_ns = timer_now_ns();
	while (done < iters) {
		while (posted < iters && posted - done < tx_depth) {
			bool sig = ++unsignaled == cq_mod || posted + 1 == iters;

			ret = xfer_post(x, op, size, unsignaled, sig);
			if (ret)
				return ret;
			if (sig)
				unsignaled = 0;
			posted++;
		}
		n = ibv_poll_cq(x->conn->cq, XFER_POLL_BATCH, wc);
		if (n < 0)
			return -EIO;
		for (i = 0; i < n; i++) {
			if (wc[i].status)
				return xfer_wc_error(x, &wc[i], size, done);
			done += wc[i].wr_id;
		}
		if (n && done - mark_done >= slice) {
			uint64_t now_ns = timer_now_ns();

			xfer_peak(out, (done - mark_done) * size, now_ns - mark_ns);
			mark_done = done;
			mark_ns = now_ns;
		}
		ret = xfer_watch(x, &w, done, true);
		if (ret)
			return ret;
	}
	out->elapsed_ns = timer_now_ns() - start_ns;
	out->msgs = iters;
	out->bytes = iters * size;
	if (!out->peak_ns) {
		out->peak_bytes = out->bytes;
		out->peak_ns = out->elapsed_ns;
	}
	return 0;
}

int xfer_fin_arm(const struct xfer *x)
{
	struct conn *c = x->conn;
	struct ibv_sge sge = { .addr = (uintptr_t)conn_fin_slot(c),
			       .length = CONN_FIN_SLOT_BYTES,
			       .lkey = c->mem.mr->lkey };
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;
	int ret = ibv_post_recv(c->ep.id->qp, &wr, &bad);

	if (ret)
		bench_err("ibv_post_recv(FIN): %s", strerror(ret));
	return -ret;
}

/*
 * The FIN travels on the data QP after the data: RC delivers in order, so
 * when it arrives every byte before it has been placed.
 */
int xfer_fin_send(const struct xfer *x, const struct wire_fin *fin)
{
	struct wire_msg msg = { .type = WIRE_FIN, .u.fin = *fin };
	struct conn *c = x->conn;
	uint8_t *slot = conn_fin_slot(c);
	struct ibv_sge sge = { .addr = (uintptr_t)slot, .lkey = c->mem.mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr *bad;
	struct xfer_watch w = { .progress_ns = timer_now_ns() };
	struct ibv_wc wc;
	int len, n, ret;

	len = wire_pack(&msg, slot, CONN_FIN_SLOT_BYTES);
	if (len < 0)
		return len;
	sge.length = (uint32_t)len;
	ret = ibv_post_send(c->ep.id->qp, &wr, &bad);
	if (ret) {
		bench_err("ibv_post_send(FIN): %s", strerror(ret));
		return -ret;
	}
	while (!(n = ibv_poll_cq(c->cq, 1, &wc))) {
		ret = xfer_watch(x, &w, 0, false);
		if (ret)
			return ret;
	}
	if (n < 0)
		return -EIO;
	return wc.status ? xfer_wc_error(x, &wc, (uint64_t)len, 0) : 0;
}

/* Server: drain heartbeats; any other control message is a protocol error. */
static int xfer_heartbeats(const struct xfer *x, struct xfer_watch *w)
{
	struct wire_msg msg;
	int ret;

	while (!(ret = ctrl_poll(x->ctrl, &msg))) {
		if (msg.type == WIRE_ERROR) {
			bench_err("the client reports: %s", msg.u.error.text);
			return msg.u.error.status < 0 ? msg.u.error.status
						      : -EPROTO;
		}
		w->seen++; /* a heartbeat is progress */
	}
	if (ret == -ECONNRESET)
		bench_err("the client disconnected during the run (its "
			  "process ended or it closed the connection)");
	return ret == -EAGAIN ? 0 : ret;
}

int xfer_fin_wait(const struct xfer *x, struct wire_fin *fin)
{
	struct xfer_watch w = { .progress_ns = timer_now_ns() };
	struct wire_msg msg;
	struct ibv_wc wc;
	int n, ret;

	while (!(n = ibv_poll_cq(x->conn->cq, 1, &wc))) {
		if (w.turns + 1 == XFER_CHECK_EVERY) {
			ret = xfer_heartbeats(x, &w);
			if (ret)
				return ret;
		}
		ret = xfer_watch(x, &w, w.seen, false);
		if (ret)
			return ret;
	}
	if (n < 0)
		return -EIO;
	if (wc.status)
		return xfer_wc_error(x, &wc, 0, 0);
	ret = wire_unpack(conn_fin_slot(x->conn), wc.byte_len, &msg);
	if (ret || msg.type != WIRE_FIN) {
		bench_err("the client's FIN is malformed");
		return -EPROTO;
	}
	*fin = msg.u.fin;
	return 0;
}

/* Ping marker for iteration i: never 0, the value a fresh region holds. */
static uint8_t xfer_marker(uint64_t i)
{
	return (uint8_t)(i % 255 + 1);
}

/* Spin until the peer's write of iteration i has landed. */
static int xfer_lat_await(const struct xfer *x, struct xfer_watch *w,
			  uint64_t size, uint64_t i)
{
	volatile uint8_t *last = conn_recv_region(x->conn) + size - 1;
	uint8_t want = xfer_marker(i);
	int ret;

	while (*last != want) {
		ret = xfer_watch(x, w, i, false);
		if (ret)
			return ret;
	}
	return 0;
}

/* Reap send completions until at most max_left are outstanding. */
static int xfer_lat_reap(const struct xfer *x, struct xfer_watch *w,
			 uint64_t *outstanding, uint64_t max_left,
			 uint64_t size, uint64_t i)
{
	struct ibv_wc wc[XFER_POLL_BATCH];
	int k, n, ret;

	do {
		n = ibv_poll_cq(x->conn->cq, XFER_POLL_BATCH, wc);
		if (n < 0)
			return -EIO;
		for (k = 0; k < n; k++)
			if (wc[k].status)
				return xfer_wc_error(x, &wc[k], size, i);
		*outstanding -= (uint64_t)n;
		if (*outstanding <= max_left)
			return 0;
		ret = xfer_watch(x, w, i, false);
	} while (!ret);
	return ret;
}

int xfer_lat_run(const struct xfer *x, bool initiator, uint64_t size,
		 uint64_t iters, uint64_t *samples_ns, uint64_t *n_out)
{
	enum ibv_wr_opcode op = verb_opcode[x->verb];
	uint8_t *send_last = conn_send_region(x->conn) + size - 1;
	struct xfer_watch w = { .progress_ns = timer_now_ns() };
	uint64_t i, n = 0, outstanding = 0, post_ns = 0;
	int ret;

	for (i = 0; i < iters; i++) {
		if (!initiator) {
			ret = xfer_lat_await(x, &w, size, i);
			if (ret)
				return ret;
			if (i)
				samples_ns[n++] = timer_now_ns() - post_ns;
		}
		*send_last = xfer_marker(i);
		post_ns = timer_now_ns();
		ret = xfer_post(x, op, size, i, true);
		if (ret)
			return ret;
		outstanding++;
		if (initiator) {
			ret = xfer_lat_await(x, &w, size, i);
			if (ret)
				return ret;
			samples_ns[n++] = timer_now_ns() - post_ns;
		}
		ret = xfer_lat_reap(x, &w, &outstanding, XFER_LAT_DEPTH - 1,
				    size, i);
		if (ret)
			return ret;
	}
	*n_out = n;
	return xfer_lat_reap(x, &w, &outstanding, 0, size, i);
}
