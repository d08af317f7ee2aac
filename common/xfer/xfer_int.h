/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xfer_int - what xfer.c, xfer_bw.c and xfer_lat.c share. Private.
 */
#ifndef RDMABENCH_XFER_XFER_INT_H
#define RDMABENCH_XFER_XFER_INT_H

#include "lib/pattern.h"
#include "lib/timer.h"
#include "xfer/xfer.h"

/*
 * How often a loop looks up from its work (stop flag, deadline, heartbeat,
 * the control channel): by the clock, not by turns, since one turn can
 * take from 50 ns (an empty poll) to many ms (posts on a software device).
 * A clock read is ~20 ns (vDSO).
 */
#define XFER_CHECK_NS (NS_PER_MS / 2)
#define XFER_HEARTBEAT_NS NS_PER_S
#define XFER_POLL_BATCH 16
/*
 * -e: a loop that found nothing to do sleeps on the completion channel
 * this long at most, then looks up (deadlines, the control channel).
 */
#define XFER_EVENT_WAIT_MS 1
/* Empty looks of a latency spin between two reads of the clock (watch):
 * under 1 us on any host, so stop and --timeout are seen as before. */
#define XFER_LAT_SPINS 256

/* wr_id: the QP in the top 16 bits, a count in the low 48. */
#define XFER_WR_ID(qp, n) (((uint64_t)(qp) << 48) | ((n) & ((1ULL << 48) - 1)))
#define XFER_WR_QP(id) ((unsigned int)((id) >> 48))
#define XFER_WR_N(id) ((id) & ((1ULL << 48) - 1))
#define XFER_MAX_QPS 256

/* Periodic check: stop flag, progress deadline, heartbeat. */
struct xfer_watch {
	uint64_t progress_ns;    /* when `seen` last changed */
	uint64_t seen;
	uint64_t alive_ns;       /* last heartbeat sent */
	uint64_t next_ns;        /* when to look up next */
	uint64_t now_ns;         /* the clock at the last look */
	bool due;                /* the last xfer_watch() looked up */
	bool ticks;              /* a measuring loop: call x->tick */
	/* x->clock is the TSC: the turns between two looks read it alone
	 * (one rdtsc) against next_tick, the look's deadline in ticks, 0
	 * until a look could scale ticks to ns (tick0, ns0: both clocks at
	 * init, each look measures the rate since) */
	bool tsc;
	uint64_t next_tick, tick0, ns0;
};

void xfer_watch_init(struct xfer_watch *w, const struct xfer *x);

/* xfer_watch's look: the clock, and what is due. */
int xfer_watch_look(const struct xfer *x, struct xfer_watch *w,
		    uint64_t progress, bool send_heartbeat);

/*
 * Every XFER_CHECK_NS (w->due says when it did): -EINTR on stop,
 * -ETIMEDOUT when progress has not moved for io_timeout_ns, and a
 * heartbeat when asked. Callers poll the control channel when w->due.
 * Called every turn, however long turns are (a post on rxe can take a
 * second): where the TSC is the clock, a turn with no look due costs
 * one rdtsc and a compare, not a clock_gettime (~2x the cost).
 */
static inline bool xfer_watch_idle(const struct xfer *x,
				   struct xfer_watch *w)
{
	if (w->next_tick && tick_now(x->clock) < w->next_tick) {
		w->due = false;
		return true;
	}
	return false;
}

static inline int xfer_watch(const struct xfer *x, struct xfer_watch *w,
			     uint64_t progress, bool send_heartbeat)
{
	if (xfer_watch_idle(x, w))
		return 0;
	return xfer_watch_look(x, w, progress, send_heartbeat);
}

/*
 * Post n (>= 1) operations of size on QP qp for iterations first ..
 * first + n - 1; when signal_last, the last one asks for a completion whose
 * wr_id carries `count` (what the caller needs to account it).
 */
int xfer_post(const struct xfer *x, unsigned int qp, uint64_t size,
	      uint64_t first, uint32_t n, bool signal_last, uint64_t count);

/*
 * Post n receives on QP qp, for the next iterations' slots (from its
 * recv_posted on), as lists of x->recv_list (the last may be shorter),
 * or of up to XFER_POLL_BATCH without one.
 */
int xfer_post_recv(const struct xfer *x, unsigned int qp, uint64_t size,
		   uint64_t n);

/*
 * --recv_post_list: of n receives owed to a QP, how many to post now:
 * whole lists only, unless n is all that room (the receives this run
 * still takes) leaves, which may end in a shorter list. n without it.
 */
uint64_t xfer_recv_whole(const struct xfer *x, uint64_t n, uint64_t room);

/* Post the receive for QP qp's FIN (into its host slot). */
int xfer_post_fin_recv(const struct xfer *x, unsigned int qp);

/*
 * The control channel during a run, non-blocking: the peer's FIN count goes
 * to *fin_msgs (when not NULL), heartbeats count in *beats (when not NULL);
 * an ERROR from the peer, or the peer gone, ends the run (logged).
 */
int xfer_poll_ctrl(const struct xfer *x, uint64_t *fin_msgs, uint64_t *beats);

/*
 * The request of every post of size on QP qp when they all are one (no
 * --validate, no compare-and-swap): built now, then posted as it is by a
 * latency loop, which sets only its wr_id. NULL: build each (xfer_post).
 */
struct ibv_send_wr *xfer_tmpl_wr(const struct xfer *x, unsigned int qp,
				 uint64_t size);

/*
 * --post_list: QP qp's list of x->send_list requests of size, linked and
 * built once, none signaled at rest (a post that signals its last puts
 * the flags and wr_id back after). NULL where each is built (no list,
 * --validate, compare-and-swap).
 */
struct ibv_send_wr *xfer_chain_wr(const struct xfer *x, unsigned int qp,
				  uint64_t size);

/* A refused post of n requests (ret from ibv_post_send): logged; -errno. */
int xfer_post_failed(const struct xfer *x, uint64_t size, uint32_t n,
		     int ret);

/* A failed completion: log it (verbs status string) and classify it. */
int xfer_wc_error(const struct xfer *x, const struct ibv_wc *wc,
		  uint64_t size);

/* Where iteration iter of QP qp lives in region r. */
uint8_t *xfer_slot(const struct xfer *x, unsigned int qp,
		   enum bench_region r, uint64_t size, uint64_t iter);

/* Write iteration iter's pattern at buf, in QP qp's buffer (host or GPU
 * memory). */
void xfer_fill(const struct xfer *x, unsigned int qp, uint8_t *buf,
	       uint64_t size, uint64_t iter);

/*
 * Check the landed data of iteration iter (validate); -EILSEQ logged.
 * Reads fetch the peer's slot contents, written once before the run:
 * their pattern is that of the slot, not of the iteration.
 */
int xfer_check(const struct xfer *x, const uint8_t *buf, uint64_t size,
	       uint64_t iter, unsigned int qp);

#endif
