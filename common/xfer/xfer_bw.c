// SPDX-License-Identifier: BSD-2-Clause
/*
 * xfer_bw - the bandwidth loop (either or both directions at once) and the
 * passive side's wait for the FIN.
 *
 * Accounting: a signaled work request's wr_id carries how many operations
 * its QP had posted up to it; RC completes a QP's work in order, so its
 * completion means all of those are done. A completion is asked every
 * cq_mod operations, at the end, and whenever the window fills (so the
 * window always reopens).
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "spec/pace.h"
#include "xfer/xfer_int.h"

#define XFER_PEAK_SLICES 16
/* Posts per QP and turn at most: the window refills over turns, and the
 * clock (heartbeat, stop, --timeout) is looked at between them; where a
 * post does the sending (rxe, siw), a whole window can take seconds. */
#define XFER_POSTS_PER_TURN 32
/* Turns that skip the watch's clock read, at most (bw_watch). */
#define BW_SKIP_MAX 7
/* Clock reads a check period (XFER_CHECK_NS) keeps at least, where
 * turns are that short. */
#define BW_READS_PER_CHECK 16

/* A QP's single request and whole list as xfer.c built them, posted
 * as they are. */
struct bw_one {
	struct ibv_send_wr *wr;  /* NULL: xfer_post builds each post */
	/* --post_list's (NULL: xfer_post). Every whole list asks a
	 * completion (cq_mod divides the list, perftest's rule), so its
	 * last request rests signaled with the wr_id BW_WR_LIST and a post
	 * is the chain as it is (bw_one_init) */
	struct ibv_send_wr *chain;
	uint64_t list;             /* chain's length */
	struct ibv_qp *qp;
	unsigned int flags;      /* its send_flags without SIGNALED */
};

/* A completion's count (XFER_WR_N) that means "one whole list more". */
#define BW_WR_LIST ((1ULL << 48) - 1)

struct bw_run {
	const struct xfer *x;
	const struct xfer_bw_plan *p;
	struct xfer_bw_out *out;
	uint64_t posted[XFER_MAX_QPS];   /* this run, per QP */
	uint64_t done[XFER_MAX_QPS];
	uint64_t unsignaled[XFER_MAX_QPS];
	uint64_t recvd[XFER_MAX_QPS];
	/* receives consumed and not given back yet: --recv_post_list gives
	 * them back in whole lists only */
	uint64_t owed[XFER_MAX_QPS];
	uint64_t done_all, recv_all, recv_target;
	uint64_t posts_all;  /* work requests posted (-e: a turn's moves) */
	uint64_t posts_end;  /* -n: what posts_all ends at; UINT64_MAX */
	uint64_t first_ns, last_ns, recv_first_ns, recv_last_ns;
	uint64_t slice, mark_done, mark_ns;  /* peak slices */
	uint64_t win_done, win_ns;           /* duration: window start */
	int window;      /* duration: 0 before, 1 in, 2 after the window */
	bool posting;
	bool fin_sent;   /* ctrl FIN for a peer that counts receives */
	uint32_t depth;
	/* the watch's clock: read every skip + 1 turns (left: until the
	 * next); turns and turns_ns: the count and the time at the last
	 * look that was due (bw_watch) */
	uint32_t skip, left;
	uint64_t turns, turns_at, turns_ns;
	struct pace_flow pace;   /* --rate_limit SW (plan's pace_per_s) */
	struct bw_one one[XFER_MAX_QPS]; /* each QP's single request */
};

static void bw_peak(struct bw_run *r, uint64_t now_ns)
{
	uint64_t bytes = (r->done_all - r->mark_done) * r->p->size;
	uint64_t ns = now_ns - r->mark_ns;
	struct xfer_bw_out *o = r->out;

	if (ns && (!o->peak_ns || (double)bytes / (double)ns >
				       (double)o->peak_bytes / (double)o->peak_ns)) {
		o->peak_bytes = bytes;
		o->peak_ns = ns;
	}
	r->mark_done = r->done_all;
	r->mark_ns = now_ns;
}

/* --rate_limit SW: at most what the limiter allows now of n (taken). */
static uint64_t bw_pace(struct bw_run *r, uint64_t n)
{
	uint64_t now_ns = timer_now_ns();
	uint64_t room = pace_flow_room(&r->pace, now_ns);

	if (n > room)
		n = room;
	pace_flow_take(&r->pace, now_ns, n);
	return n;
}

/* One post of n requests from iteration first: a single request (only
 * its flags and wr_id set) or a whole list as built (signaled: a whole
 * list always is), else xfer_post (a shorter list, --validate,
 * compare-and-swap). */
static inline int bw_post(const struct bw_run *r, const struct bw_one *o,
			  unsigned int qp, uint64_t first, uint64_t n,
			  bool sig, uint64_t count)
{
	struct ibv_send_wr *bad;
	int ret;

	if (n == 1 && o->wr) {
		o->wr->send_flags = o->flags | (sig ? IBV_SEND_SIGNALED : 0);
		o->wr->wr_id = sig ? XFER_WR_ID(qp, count) : 0;
		ret = ibv_post_send(o->qp, o->wr, &bad);
	} else if (n == o->list && o->chain) {
		ret = ibv_post_send(o->qp, o->chain, &bad);
	} else {
		return xfer_post(r->x, qp, r->p->size, first, (uint32_t)n,
				 sig, count);
	}
	return ret ? xfer_post_failed(r->x, r->p->size, (uint32_t)n, ret) : 0;
}

/*
 * A QP's whole lists of a turn (unpaced): its chain as it is, up to
 * XFER_POSTS_PER_TURN times while a whole list fits before stop (what
 * perftest's loop does: one post, its address and count). How many
 * posts were made goes to *posts, what was posted to *posted.
 */
static int bw_post_lists(struct bw_run *r, const struct bw_one *o,
			 uint64_t stop, uint64_t *posted, unsigned int *posts)
{
	uint64_t at = *posted;
	struct ibv_send_wr *bad;
	unsigned int k;
	int ret = 0;

	if (!r->first_ns && at + o->list <= stop)
		r->first_ns = r->mark_ns = timer_now_ns();
	for (k = 0; at + o->list <= stop && k < XFER_POSTS_PER_TURN; k++) {
		ret = ibv_post_send(o->qp, o->chain, &bad);
		if (ret) {
			ret = xfer_post_failed(r->x, r->p->size,
					       (uint32_t)o->list, ret);
			break;
		}
		at += o->list;
	}
	*posted = at;
	*posts = k;
	return ret;
}

/*
 * Post QP qp's share of a turn: up to XFER_POSTS_PER_TURN posts (a
 * request or a list each) while its window has room. What the loop
 * reads is in locals, loaded once and the counters stored back once:
 * between two posts there is the arithmetic of the next one only, as in
 * perftest's loop. stop is where posting stops this turn: the window's
 * end or the run's, whichever is first; a post that reaches it is
 * signaled (the window reopens, the run's last completes).
 */
static int bw_post_qp(struct bw_run *r, unsigned int qp)
{
	const struct xfer_bw_plan *p = r->p;
	const uint64_t done = r->done[qp], sent = r->x->qs[qp].sent;
	const uint64_t list = p->post_list, cq_mod = p->cq_mod;
	const bool pace = p->pace_per_s > 0;
	const struct bw_one o = r->one[qp];
	uint64_t posted = r->posted[qp], unsig = r->unsignaled[qp], n;
	uint64_t stop = done + r->depth;
	unsigned int posts = 0;
	bool sig;
	int ret = 0;

	if (p->iters && p->iters < stop)
		stop = p->iters;
	if (o.chain && !pace && r->posting)
		ret = bw_post_lists(r, &o, stop, &posted, &posts);
	for (; !ret && r->posting && posted < stop &&
	       posts < XFER_POSTS_PER_TURN; posts++) {
		n = stop - posted < list ? stop - posted : list;
		if (pace && !(n = bw_pace(r, n)))
			break;
		unsig += n;
		sig = unsig >= cq_mod || posted + n == stop;
		if (!r->first_ns)
			r->first_ns = r->mark_ns = timer_now_ns();
		ret = bw_post(r, &o, qp, sent + posted, n, sig, posted + n);
		if (ret)
			break;
		posted += n;
		if (sig)
			unsig = 0;
	}
	r->posts_all += posted - r->posted[qp];
	r->posted[qp] = posted;
	r->unsignaled[qp] = unsig;
	return ret;
}

/* Duration mode: at the end, ask a completion for what was left unsignaled. */
static int bw_flush(struct bw_run *r)
{
	unsigned int qp;
	int ret;

	for (qp = 0; qp < r->x->conn->nqps; qp++) {
		if (!r->unsignaled[qp])
			continue;
		ret = xfer_post(r->x, qp, r->p->size,
				r->x->qs[qp].sent + r->posted[qp], 1, true,
				r->posted[qp] + 1);
		if (ret)
			return ret;
		r->posted[qp]++;
		r->posts_all++;
		r->unsignaled[qp] = 0;
	}
	return 0;
}

/* Reads land here: check them (validate) as they complete. */
static int bw_check_reads(struct bw_run *r, unsigned int qp, uint64_t upto)
{
	const struct xfer *x = r->x;
	uint64_t k;
	int ret;

	if (!x->validate || bench_verb(x->verb)->region != BENCH_REGION_SEND)
		return 0;
	for (k = r->done[qp]; k < upto; k++) {
		uint64_t it = x->qs[qp].sent + k;

		ret = xfer_check(x, xfer_slot(x, qp, BENCH_REGION_RECV,
					      r->p->size, it), r->p->size, it, qp);
		if (ret)
			return ret;
	}
	return 0;
}

static int bw_poll_send(struct bw_run *r)
{
	struct ibv_wc wc[XFER_POLL_BATCH];
	int i, ret, n = ibv_poll_cq(r->x->conn->send_cq, XFER_POLL_BATCH, wc);

	if (n < 0)
		return -EIO;
	for (i = 0; i < n; i++) {
		unsigned int qp = XFER_WR_QP(wc[i].wr_id);
		uint64_t upto = XFER_WR_N(wc[i].wr_id);

		if (wc[i].status)
			return xfer_wc_error(r->x, &wc[i], r->p->size);
		if (upto == BW_WR_LIST)
			upto = r->done[qp] + r->one[qp].list;
		ret = bw_check_reads(r, qp, upto);
		if (ret)
			return ret;
		r->done_all += upto - r->done[qp];
		r->done[qp] = upto;
	}
	if (!n)
		return 0;
	/* the clock where a peak slice ends or the run's last completion
	 * came (all is posted and all completed), not at every poll: on a
	 * device as fast as memory every poll completes all posted */
	if (r->done_all - r->mark_done >= r->slice && !r->p->sample_to_ns)
		bw_peak(r, r->last_ns = timer_now_ns());
	else if (r->done_all >= r->posts_all &&
		 (!r->posting || r->posts_all >= r->posts_end))
		r->last_ns = timer_now_ns();
	return 0;
}

/* How many receives QP qp may still be given in this run (-n: iters). */
static uint64_t bw_recv_room(const struct bw_run *r, unsigned int qp)
{
	const struct xfer_qp_state *s = &r->x->qs[qp];
	uint64_t run_posted = s->recv_posted - (s->recv_done - r->recvd[qp]);

	if (!r->p->iters)
		return UINT64_MAX;
	return run_posted < r->p->iters ? r->p->iters - run_posted : 0;
}

/* One batch of receive completions: check and count them; *used[qp]
 * gets how many each QP consumed. Returns how many, or -errno. */
static int bw_take_recvs(struct bw_run *r, uint32_t *used)
{
	const struct xfer *x = r->x;
	struct ibv_wc wc[XFER_POLL_BATCH];
	int i, ret, n = ibv_poll_cq(x->conn->recv_cq, XFER_POLL_BATCH, wc);

	if (n < 0)
		return -EIO;
	for (i = 0; i < n; i++) {
		unsigned int qp = XFER_WR_QP(wc[i].wr_id);
		uint64_t it = x->qs[qp].recv_done++;

		if (wc[i].status)
			return xfer_wc_error(x, &wc[i], r->p->size);
		ret = xfer_check(x, xfer_slot(x, qp, BENCH_REGION_RECV,
					      r->p->size, it), r->p->size, it, qp);
		if (ret)
			return ret;
		r->recvd[qp]++;
		r->recv_all++;
		used[qp]++;
	}
	return n;
}

/* Give QP qp back the receives it consumed, as many as this run still
 * takes; with --recv_post_list in whole lists (the rest waits). */
static int bw_refill(struct bw_run *r, unsigned int qp, uint32_t used)
{
	uint64_t room = bw_recv_room(r, qp), n;

	r->owed[qp] += used;
	n = xfer_recv_whole(r->x, r->owed[qp] < room ? r->owed[qp] : room,
			    room);
	r->owed[qp] -= n;
	return n ? xfer_post_recv(r->x, qp, r->p->size, n) : 0;
}

/* The first receive's time, and the last one's: with -n once all
 * arrived (not after every poll: the receiver is a send test's limit);
 * with -D, where the count comes with the FIN, at every poll. */
static void bw_recv_clock(struct bw_run *r)
{
	if (!r->recv_first_ns)
		r->recv_first_ns = r->recv_last_ns = timer_now_ns();
	else if (r->recv_all >= r->recv_target || !r->p->iters)
		r->recv_last_ns = timer_now_ns();
}

/*
 * Receives of a send test: check and count what completed, and give each
 * QP as many receives back, a list per QP, batch by batch until the CQ is
 * empty: a receiver that took one batch a turn fell behind a sender
 * posting XFER_POSTS_PER_TURN per QP a turn (-b, -q), its receive queue
 * ran dry and the sender got RNR NAKs (issue 13).
 */
static int bw_poll_recv(struct bw_run *r)
{
	uint32_t used[XFER_MAX_QPS];
	unsigned int qp, nqps = r->x->conn->nqps;
	/* twice what the peer posts a turn, so the clock is still read */
	uint64_t left = 2ull * XFER_POSTS_PER_TURN * nqps;
	int n, ret = 0;

	do {
		memset(used, 0, nqps * sizeof(used[0]));
		n = bw_take_recvs(r, used);
		for (qp = 0; n > 0 && qp < nqps && !ret; qp++)
			if (used[qp])
				ret = bw_refill(r, qp, used[qp]);
		if (n > 0) {
			bw_recv_clock(r);
			left = (uint64_t)n < left ? left - (uint64_t)n : 0;
		}
	} while (n == XFER_POLL_BATCH && !ret && left);
	return n < 0 ? n : ret;
}

/* Duration mode: the measured window and the end of posting. */
static int bw_clock(struct bw_run *r, uint64_t now_ns)
{
	const struct xfer_bw_plan *p = r->p;

	if (!p->end_ns)
		return 0;
	if (r->window == 0 && now_ns >= p->sample_from_ns) {
		r->window = 1;
		r->win_done = r->done_all + r->recv_all;
		r->win_ns = now_ns;
	}
	if (r->window == 1 && now_ns >= p->sample_to_ns) {
		r->window = 2;
		r->out->msgs = r->done_all + r->recv_all - r->win_done;
		r->out->elapsed_ns = now_ns - r->win_ns;
	}
	if (r->window == 2 && !r->out->msgs) /* opened and closed at once */
		r->out->whole_run = true; /* bw_results: the whole run's */
	if (r->posting && now_ns >= p->end_ns) {
		r->posting = false;
		r->last_ns = now_ns; /* the end, unless completions follow */
		return bw_flush(r);
	}
	return 0;
}

/* The peer counts receives: tell it, once, how many to expect. */
static int bw_send_ctrl_fin(struct bw_run *r)
{
	struct wire_msg msg = { .type = WIRE_FIN };

	r->fin_sent = true;
	msg.u.fin.msgs = r->done_all;
	msg.u.fin.bytes = r->done_all * r->p->size;
	return ctrl_send(r->x->ctrl, &msg);
}

static bool bw_sends_done(const struct bw_run *r)
{
	unsigned int qp;

	if (!r->p->sends)
		return true;
	if (r->posting && r->p->iters == 0)
		return false;
	for (qp = 0; qp < r->x->conn->nqps; qp++)
		if (r->done[qp] != r->posted[qp] ||
		    (r->posting && r->posted[qp] < r->p->iters))
			return false;
	return true;
}

static bool bw_recvs_done(const struct bw_run *r)
{
	return !r->p->receives ||
	       (r->recv_target != UINT64_MAX && r->recv_all >= r->recv_target);
}

/* -e: a turn that moved nothing sleeps on the completion channel. */
static int bw_idle(const struct bw_run *r, uint64_t moves_before)
{
	if (r->done_all + r->recv_all + r->posts_all != moves_before)
		return 0;
	return conn_cq_wait(r->x->conn, XFER_EVENT_WAIT_MS);
}

/*
 * The watch, every turn but its clock read only every skip + 1 turns: a
 * turn on a device as fast as memory posts and reaps a window in ~1 us,
 * where one rdtsc is a per cent of the loop that perftest's does not
 * have. skip is set at each look that was due, from the turns of the
 * last check period: BW_READS_PER_CHECK reads a period at least, and at
 * most BW_SKIP_MAX turns unread (a turn that posts for long, rxe's, gets
 * 0: every turn is read).
 */
static int bw_watch(struct bw_run *r, struct xfer_watch *w)
{
	uint64_t per;
	int ret = 0;

	r->turns++;
	if (r->left) {
		r->left--;
		w->due = false;
		return 0;
	}
	r->left = r->skip;
	if (!xfer_watch_idle(r->x, w))
		ret = xfer_watch_look(r->x, w, r->done_all + r->recv_all,
				      r->p->sends && !bw_sends_done(r));
	if (ret || !w->due || w->now_ns <= r->turns_ns)
		return ret;
	per = (r->turns - r->turns_at) * XFER_CHECK_NS /
	      (w->now_ns - r->turns_ns) / BW_READS_PER_CHECK;
	r->skip = per < BW_SKIP_MAX ? (uint32_t)per : BW_SKIP_MAX;
	r->turns_at = r->turns;
	r->turns_ns = w->now_ns;
	return 0;
}

static int bw_turn(struct bw_run *r, struct xfer_watch *w)
{
	const struct bench_verb_info *v = bench_verb(r->x->verb);
	uint64_t moves = r->done_all + r->recv_all + r->posts_all;
	unsigned int qp;
	int ret = 0;

	for (qp = 0; r->p->sends && qp < r->x->conn->nqps && !ret; qp++)
		ret = bw_post_qp(r, qp);
	if (!ret && r->p->sends)
		ret = bw_poll_send(r);
	if (!ret && r->p->receives)
		ret = bw_poll_recv(r);
	if (!ret)
		ret = bw_idle(r, moves);
	if (!ret)
		ret = bw_watch(r, w);
	if (!ret && w->due) {
		ret = bw_clock(r, w->now_ns);
		/* the peer's FIN, heartbeats, or an ERROR (say, it found
		 * corrupt data) */
		if (!ret)
			ret = xfer_poll_ctrl(r->x, &r->recv_target, NULL);
	}
	/* with -n the receiver knows the count; with -D it learns it here */
	if (!ret && !r->fin_sent && v->bw_end == BENCH_END_RECV &&
	    !r->p->iters && r->p->sends && bw_sends_done(r))
		ret = bw_send_ctrl_fin(r);
	return ret;
}

static void bw_results(struct bw_run *r)
{
	struct xfer_bw_out *o = r->out;
	unsigned int qp;

	for (qp = 0; qp < r->x->conn->nqps; qp++) {
		r->x->qs[qp].sent += r->posted[qp];
		r->x->qs[qp].last_run = r->posted[qp];
	}
	o->total_msgs = r->done_all;
	o->recv_msgs = r->recv_all;
	o->recv_elapsed_ns = r->recv_last_ns - r->recv_first_ns;
	if (!r->p->end_ns) { /* iterations: first post -> last completion */
		o->msgs = r->p->sends ? r->done_all : r->recv_all;
		o->elapsed_ns = r->p->sends ? r->last_ns - r->first_ns
					    : o->recv_elapsed_ns;
	}
	if (o->whole_run) { /* -D start -> the last completion, drained */
		o->msgs = r->p->sends ? r->done_all : r->recv_all;
		o->elapsed_ns = (r->p->sends ? r->last_ns : r->recv_last_ns) -
				r->p->start_ns;
	}
	o->bytes = o->msgs * r->p->size;
	if (!o->peak_ns || r->p->end_ns) {
		o->peak_bytes = o->bytes;
		o->peak_ns = o->elapsed_ns;
	}
}

/* Each QP's single request and list, built once for the run's size
 * (none with --validate or compare-and-swap, whose requests change:
 * xfer_post). */
static void bw_one_init(struct bw_run *r)
{
	const struct xfer *x = r->x;
	unsigned int qp;

	for (qp = 0; qp < x->conn->nqps; qp++) {
		r->one[qp].wr = xfer_tmpl_wr(x, qp, r->p->size);
		r->one[qp].chain = xfer_chain_wr(x, qp, r->p->size);
		r->one[qp].list = x->send_list;
		r->one[qp].qp = x->conn->qps[qp].qp;
		r->one[qp].flags = x->qs[qp].tmpl_flags;
		if (r->one[qp].chain) {
			struct ibv_send_wr *last =
				&r->one[qp].chain[x->send_list - 1];

			last->send_flags = r->one[qp].flags | IBV_SEND_SIGNALED;
			last->wr_id = XFER_WR_ID(qp, BW_WR_LIST);
		}
	}
}

int xfer_bw_run(const struct xfer *x, const struct xfer_bw_plan *p,
		struct xfer_bw_out *out)
{
	const struct bench_verb_info *v = bench_verb(x->verb);
	struct bw_run *r;
	struct xfer_watch w;
	int ret = 0;

	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	*r = (struct bw_run){ .x = x, .p = p, .out = out, .posting = true,
			      .posts_end = p->iters ?
				      p->iters * x->conn->nqps : UINT64_MAX,
			      .depth = p->tx_depth };
	r->recv_target = r->posts_end; /* -D: the FIN tells it */
	memset(out, 0, sizeof(*out));
	r->slice = p->iters * x->conn->nqps / XFER_PEAK_SLICES;
	if (!r->slice)
		r->slice = 1;
	if (v->region == BENCH_REGION_SEND && x->validate && r->depth > x->slots)
		r->depth = x->slots; /* a read's slot is checked before reuse */
	if (x->conn->nqps > XFER_MAX_QPS)
		ret = -EINVAL;
	if (!ret && p->sends)
		bw_one_init(r);
	pace_flow_init(&r->pace, p->pace_per_s, p->pace_burst, timer_now_ns());
	xfer_watch_init(&w, x);
	w.ticks = true;
	r->turns_ns = w.ns0;
	while (!ret && !(bw_sends_done(r) && bw_recvs_done(r)))
		ret = bw_turn(r, &w);
	if (!ret)
		bw_results(r);
	free(r);
	return ret;
}

/* What landed from a one-sided run, once its FIN arrived (validate). */
static int fin_check(const struct xfer *x, unsigned int qp, uint64_t size,
		     uint64_t msgs)
{
	const struct bench_verb_info *v = bench_verb(x->verb);
	uint64_t slot, last, counter;
	int ret;

	if (!x->validate || v->region != BENCH_REGION_RECV)
		return 0;
	if (v->fixed_size) { /* atomics: every one added 1 (or moved +1) */
		memcpy(&counter, conn_region(x->conn, qp, v->region), 8);
		if (x->flip_iter >= 0 && (uint64_t)x->flip_iter < msgs)
			counter ^= 1; /* test hook: prove we notice */
		if (counter == msgs)
			return 0;
		bench_err("data corruption: QP %u's atomic counter is %llu "
			  "after %llu operations", qp,
			  (unsigned long long)counter, (unsigned long long)msgs);
		return -EILSEQ;
	}
	/* writes: each slot holds the last iteration that used it */
	for (slot = 0; slot < x->slots && slot < msgs; slot++) {
		last = msgs - 1 - ((msgs - 1 - slot) % x->slots);
		ret = xfer_check(x, xfer_slot(x, qp, BENCH_REGION_RECV, size,
					      last), size, last, qp);
		if (ret)
			return ret;
	}
	return 0;
}

static int fin_take(const struct xfer *x, const struct ibv_wc *wc,
		    uint64_t size, uint64_t *msgs_out)
{
	unsigned int qp = XFER_WR_QP(wc->wr_id);
	struct wire_msg msg;

	x->qs[qp].fin_armed = false;
	if (wc->status)
		return xfer_wc_error(x, wc, 0);
	if (wire_unpack(conn_aux_slot(x->conn, qp, LAYOUT_AUX_FIN_IN),
			wc->byte_len, &msg) || msg.type != WIRE_FIN) {
		bench_err("QP %u: the %s's FIN is malformed", qp,
			  x->ctrl->peer_role);
		return -EPROTO;
	}
	*msgs_out += msg.u.fin.msgs;
	return fin_check(x, qp, size, msg.u.fin.msgs);
}

/* Yield (wake fast) only this close before the run's expected end. */
#define FIN_WAKE_NS (2500ULL * 1000000ULL)

/*
 * How the passive side waits for the FINs, waited_ns into the run: the
 * bulk of a -D run sleeps 50 ms a turn (its FIN comes at the end: a
 * client that holds the server moving no data costs no CPU); around the
 * expected end it yields (a fast wake-up, docs/performance-notes.md,
 * finding 3); past it, 1 ms naps. 0: yield.
 */
static unsigned int fin_nap_ms(const struct xfer *x, uint64_t waited_ns)
{
	if (waited_ns >= x->spin_ns)
		return 1;
	if (x->spin_ns > FIN_WAKE_NS && waited_ns < x->spin_ns - FIN_WAKE_NS)
		return 50;
	return 0;
}

int xfer_bw_fin_wait(const struct xfer *x, uint64_t size, uint64_t *msgs_out)
{
	struct xfer_watch w;
	uint64_t start_ns;
	unsigned int nap_ms, got = 0;
	uint64_t beats = 0;
	struct ibv_wc wc;
	int n, ret;

	*msgs_out = 0;
	xfer_watch_init(&w, x);
	start_ns = w.progress_ns;
	nap_ms = fin_nap_ms(x, 0);
	while (got < x->conn->nqps) {
		n = ibv_poll_cq(x->conn->recv_cq, 1, &wc);
		if (n < 0)
			return -EIO;
		if (n) {
			ret = fin_take(x, &wc, size, msgs_out);
			if (ret)
				return ret;
			got++;
			continue;
		}
		/* the passive side has nothing to do but wait: leave the CPU
		 * to whoever moves the data (fin_nap_ms; decided at the
		 * watch's clock checks: no clock read more) */
		if (nap_ms)
			timer_sleep_ms(nap_ms);
		else
			sched_yield();
		/* a heartbeat is progress: counted apart from w.seen, which
		 * xfer_watch compares the count with */
		ret = xfer_watch(x, &w, beats, false);
		if (!ret && w.due) {
			nap_ms = fin_nap_ms(x, w.now_ns - start_ns);
			ret = xfer_poll_ctrl(x, NULL, &beats);
		}
		if (ret)
			return ret;
	}
	return 0;
}
