// SPDX-License-Identifier: BSD-2-Clause
/*
 * xfer_lat - latency: a ping-pong through memory (write) or receives
 * (send), or one operation as the round trip (read, atomic), on QP 0.
 * Samples go into a histogram: constant memory for any -n or -D; with -U
 * the first ones are kept in order too (lib/samples.h, bounded).
 *
 * One clock read per iteration, at the post (perftest's tposted): a
 * sample is the time from one post to the next, the whole round trip
 * with the loop's own work in it, as perftest's. The sample a post closes
 * goes into the histogram right after that post, while the ping is out
 * (perftest's bookkeeping sits there too), so between a pong landing and
 * the next post there is only the clock read. The reads are ticks of
 * x->clock, scaled to ns by the calibration over the run (lib/tick.h).
 * --latency_gap adds a read before the gap, which closes the sample, so
 * the gap is never in one.
 */
#include <errno.h>
#include <string.h>

#include "lib/log.h"
#include "lib/stop.h"
#include "xfer/xfer_int.h"

#define XFER_LAT_DEPTH 16    /* sends left unreaped at most */

struct lat_run {
	const struct xfer *x;
	uint64_t size;
	uint64_t iters;          /* 0: until end_ns */
	uint64_t end_ns;
	uint64_t stop_at;        /* responder, duration: the initiator's count */
	uint64_t outstanding;    /* sends not yet reaped */
	uint64_t stamp; /* ticks at the last post ... */
	bool stamped; /* ... when there is one open */
	bool by_recv;            /* the ping lands in a receive (send) */
	/* without --validate every ping uses one slot: its last bytes,
	 * looked up once (NULL: --validate, each iteration its slot) */
	volatile uint8_t *recv_last;
	uint8_t *send_last;
	struct xfer_watch w;
	struct hist *hist;
	/* every post's request when they are all one (xfer_tmpl_wr), with
	 * the QP it goes to; NULL: xfer_post builds each */
	struct ibv_send_wr *wr;
	struct ibv_qp *qp;
};

/* Post iteration i, signaled: the one request as it is, or xfer_post. */
static inline int lat_post(struct lat_run *r, uint64_t i)
{
	struct ibv_send_wr *bad;
	int ret;

	if (!r->wr)
		return xfer_post(r->x, 0, r->size, i, 1, true, i + 1);
	r->wr->wr_id = XFER_WR_ID(0, i + 1);
	ret = ibv_post_send(r->qp, r->wr, &bad);
	return ret ? xfer_post_failed(r->x, r->size, 1, ret) : 0;
}

/* After an empty poll: wait for the CQ's event with -e, else nothing. */
static inline int lat_cq_wait(const struct lat_run *r)
{
	const struct conn *c = r->x->conn;

	return c->channel ? conn_cq_wait(c, XFER_EVENT_WAIT_MS) : 0;
}

/* A closed sample into the histogram (and -U's list); 0: none. */
static void lat_add(const struct lat_run *r, uint64_t ticks)
{
	if (!ticks)
		return;
	hist_add(r->hist, ticks);
	if (r->x->raw)
		samples_add(r->x->raw, ticks);
}

/* Close the open sample (into *sample, 0: none) and open the next one. */
static void lat_stamp(struct lat_run *r, uint64_t *sample, bool reopen)
{
	uint64_t now = tick_now(r->x->clock);

	*sample = r->stamped ? now - r->stamp : 0;
	r->stamp = now;
	r->stamped = reopen;
}

/* Reap send completions until at most max_left are outstanding. */
static int lat_reap(struct lat_run *r, uint64_t max_left, uint64_t i)
{
	struct ibv_wc wc[XFER_POLL_BATCH];
	int k, n, ret = 0;

	/* the CQ is looked at once the sends fill the depth, not on
	 * every iteration: one poll takes a batch (perftest's cq_mod) */
	if (r->outstanding <= max_left)
		return 0;
	while (!ret) {
		n = ibv_poll_cq(r->x->conn->send_cq, XFER_POLL_BATCH, wc);
		if (n < 0)
			return -EIO;
		for (k = 0; k < n; k++)
			if (wc[k].status)
				return xfer_wc_error(r->x, &wc[k], r->size);
		r->outstanding -= (uint64_t)n;
		if (r->outstanding <= max_left)
			return 0;
		ret = n ? 0 : lat_cq_wait(r);
		if (!ret)
			ret = xfer_watch(r->x, &r->w, i, false);
	}
	return ret;
}

/*
 * The bookkeeping of a wait, done every XFER_LAT_SPINS empty looks (and
 * at each wait with -e), never between two looks: the watch (stop,
 * --timeout, heartbeat) and, when it found a check due and ctrl is set,
 * the control channel: the peer may have stopped (-D: its count), failed
 * (e.g. found corrupt data) or gone. The clock costs more than a look: a
 * round trip that lands within a few looks reads no clock but its stamp.
 */
static int lat_watch(struct lat_run *r, uint64_t i, bool ctrl)
{
	int ret = xfer_watch(r->x, &r->w, i, false);

	if (!ret && ctrl && r->w.due)
		ret = xfer_poll_ctrl(r->x, &r->stop_at, NULL);
	return ret;
}

/* An empty look at a CQ, the spins-th of this wait (from 0): the watch on
 * every XFER_LAT_SPINS-th, or on each with -e (it slept on the event). */
static int lat_idle(struct lat_run *r, uint64_t i, unsigned int spins,
		    bool ctrl)
{
	if (!r->x->conn->channel && (spins + 1) % XFER_LAT_SPINS)
		return 0;
	return lat_watch(r, i, ctrl);
}

/* Wait for iteration i's receive: 1 when it came, 0 when the run ended. */
static int lat_await_recv(struct lat_run *r, bool initiator, uint64_t i)
{
	const struct xfer *x = r->x;
	unsigned int spins = 0;
	struct ibv_wc wc;
	int n, ret;

	for (;; spins++) {
		n = ibv_poll_cq(x->conn->recv_cq, 1, &wc);
		if (n < 0)
			return -EIO;
		if (n)
			return wc.status ? xfer_wc_error(x, &wc, r->size) : 1;
		ret = lat_cq_wait(r);
		if (!ret)
			ret = lat_idle(r, i, spins, true);
		if (ret)
			return ret;
		if (!initiator && r->stop_at == i)
			return 0;
	}
}

/*
 * Wait for iteration i's write to land: its marker in the slot's last
 * byte. The look is one load and one compare, as perftest's; the watch
 * runs between rounds of XFER_LAT_SPINS looks. 1: landed, 0: the run
 * ended (the responder learnt the initiator's count).
 */
static int lat_await_mark(struct lat_run *r, bool initiator, uint64_t i)
{
	volatile uint8_t *last = r->recv_last ? r->recv_last :
		xfer_slot(r->x, 0, BENCH_REGION_RECV, r->size, i) + r->size - 1;
	uint8_t want = pattern_marker(i);
	unsigned int k;
	int ret;

	for (;;) {
		for (k = XFER_LAT_SPINS; k; k--)
			if (*last == want)
				return 1;
		ret = lat_watch(r, i, true);
		if (ret)
			return ret;
		if (!initiator && r->stop_at == i)
			return 0;
	}
}

/* Wait for iteration i to arrive: 1 when it did, 0 when the run ended. */
static int lat_await(struct lat_run *r, bool initiator, uint64_t i)
{
	return r->by_recv ? lat_await_recv(r, initiator, i) :
			    lat_await_mark(r, initiator, i);
}

/* The landed ping: check it, give a receive back. */
static int lat_landed(struct lat_run *r, uint64_t i)
{
	const struct xfer *x = r->x;
	int ret = 0;

	if (x->validate)
		ret = xfer_check(x, xfer_slot(x, 0, BENCH_REGION_RECV,
					      r->size, i), r->size, i, 0);
	if (ret || !r->by_recv)
		return ret;
	x->qs[0].recv_done++;
	return xfer_post_recv(x, 0, r->size, 1);
}

/* Stamp, post iteration i, then (the ping out) file the sample the
 * stamp closed and reap sends: the bookkeeping waits with the ping. */
static int lat_send(struct lat_run *r, uint64_t i)
{
	uint64_t sample;
	int ret;

	lat_stamp(r, &sample, true);
	if (r->send_last) /* the marker alone tells the peer it landed */
		*r->send_last = pattern_marker(i);
	r->outstanding++;
	ret = lat_post(r, i);
	lat_add(r, sample);
	return ret ? ret : lat_reap(r, XFER_LAT_DEPTH - 1, i);
}

/* One ping-pong iteration on either side; 1: the initiator stopped. */
static int lat_ping(struct lat_run *r, bool initiator, uint64_t i)
{
	int ret = 0;

	if (!initiator) {
		ret = lat_await(r, false, i);
		if (ret <= 0)
			return ret ? ret : 1; /* 1: the initiator stopped */
		ret = lat_landed(r, i);
	}
	if (!ret)
		ret = lat_send(r, i);
	if (!ret && initiator) {
		ret = lat_await(r, true, i);
		ret = ret < 0 ? ret : lat_landed(r, i);
	}
	return ret;
}

/* Read/atomic: one operation is the round trip; the peer is passive. */
static int lat_round_trip(struct lat_run *r, uint64_t i)
{
	const struct xfer *x = r->x;
	unsigned int spins = 0;
	uint64_t sample;
	struct ibv_wc wc;
	int n, ret;

	lat_stamp(r, &sample, true);
	ret = lat_post(r, i);
	lat_add(r, sample);
	while (!ret && !(n = ibv_poll_cq(x->conn->send_cq, 1, &wc))) {
		ret = lat_cq_wait(r);
		if (!ret)
			ret = lat_idle(r, i, spins++, false);
	}
	if (ret)
		return ret;
	if (n < 0)
		return -EIO;
	if (wc.status)
		return xfer_wc_error(x, &wc, r->size);
	if (!x->validate || bench_verb(x->verb)->fixed_size)
		return 0; /* nothing to look at: the round trip is done */
	return xfer_check(x, xfer_slot(x, 0, BENCH_REGION_RECV, r->size, i),
			  r->size, i, 0);
}

/*
 * --latency_gap: spin (perftest spins on the TSC) until gap_ns has passed,
 * outside the sample; a stop ends the wait (the loop's next look sees it).
 */
static void lat_gap(const struct xfer *x)
{
	uint64_t end_ns = timer_now_ns() + x->gap_ns;

	while (!stop_flag && timer_now_ns() < end_ns)
		;
}

static bool lat_more(const struct lat_run *r, uint64_t i)
{
	if (r->iters)
		return i < r->iters;
	return i % 64 || !timer_expired(r->end_ns);
}

/* Close the open sample now (before a gap, after the last pong). */
static void lat_close(struct lat_run *r)
{
	uint64_t ticks;

	if (!r->stamped)
		return;
	lat_stamp(r, &ticks, false);
	lat_add(r, ticks);
}

int xfer_lat_run(const struct xfer *x, bool initiator, uint64_t size,
		 uint64_t iters, uint64_t end_ns, struct hist *hist,
		 uint64_t *iters_done)
{
	bool round_trip = bench_verb(x->verb)->lat_mode == BENCH_LAT_ROUND_TRIP;
	struct lat_run r = { .x = x, .size = size, .iters = iters,
			     .end_ns = end_ns, .stop_at = UINT64_MAX,
			     .hist = hist };
	struct tick_cal cal;
	uint64_t i;
	int ret = 0;

	r.by_recv = bench_verb(x->verb)->lat_mode == BENCH_LAT_PING_RECV;
	if (!x->validate && !round_trip) {
		r.recv_last = xfer_slot(x, 0, BENCH_REGION_RECV, size, 0) +
			      size - 1;
		r.send_last = xfer_slot(x, 0, BENCH_REGION_SEND, size, 0) +
			      size - 1;
	}
	r.wr = xfer_tmpl_wr(x, 0, size);
	r.qp = x->conn->qps[0].qp;
	xfer_watch_init(&r.w, x);
	r.w.ticks = true;
	hist_set_scale(hist, x->ns_per_tick_guess);
	tick_cal_begin(&cal, x->clock);
	for (i = 0; !ret && (initiator ? lat_more(&r, i) : !iters || i < iters);
	     i++) {
		if (initiator && x->gap_ns) {
			lat_close(&r);
			lat_gap(x);
		}
		ret = round_trip ? lat_round_trip(&r, i) :
				   lat_ping(&r, initiator, i);
		if (ret == 1) /* the responder learnt the initiator stopped */
			break;
	}
	*iters_done = i;
	if (ret == 1)
		ret = 0;
	else if (!ret && initiator)
		lat_close(&r);
	hist_set_scale(hist, tick_cal_ns_per_tick(&cal));
	return ret ? ret : lat_reap(&r, 0, i);
}
