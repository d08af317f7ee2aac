/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xfer - the hot loops over the data connections. What each verb needs
 * comes from the verb table's columns (bench.h); nothing here asks which
 * verb it runs.
 *
 * Bandwidth: a window of tx_depth operations per QP, a completion asked
 * every cq_mod, post lists of post_list; the receiving side of a send test
 * keeps rx_depth receives posted and counts them. Latency: ping-pong
 * through memory (write), through receives (send), or one operation as the
 * round trip (read, atomic).
 *
 * Nothing waits forever: a loop that sees no progress for io_timeout_ns
 * returns -ETIMEDOUT; a stop_flag returns -EINTR. With validate, data is
 * checked where it lands; a wrong byte is -EILSEQ, logged with size,
 * iteration, offset, expected and actual bytes.
 */
#ifndef RDMABENCH_XFER_XFER_H
#define RDMABENCH_XFER_XFER_H

#include <stdbool.h>
#include <stdint.h>

#include "spec/bench.h"
#include "rdma/conn.h"
#include "rdma/ctrl.h"
#include "lib/hist.h"
#include "lib/samples.h"
#include "lib/tick.h"

/* Per-QP counters that live as long as the connection (see xfer.c). */
struct xfer_qp_state {
	uint64_t sent;           /* operations posted by this side */
	uint64_t recv_posted;    /* receives posted */
	uint64_t recv_done;      /* receives completed */
	bool fin_armed;          /* a receive for the FIN is posted */
	uint64_t last_run;       /* operations of the last bandwidth run */
	/* the work request of a single post, built once per size (not with
	 * --validate or atomics, whose requests change every iteration) */
	struct ibv_send_wr tmpl;
	struct ibv_sge tmpl_sge;
	uint64_t tmpl_size;      /* 0: not built */
	unsigned int tmpl_flags; /* its send_flags without SIGNALED */
	/* --post_list without --validate: the list of copies of tmpl,
	 * linked once per size (x->send_wr), posted as it is */
	uint64_t chain_size;     /* 0: not built */
};

struct xfer {
	struct conn *conn;
	struct xfer_qp_state *qs; /* conn->nqps entries */
	struct ctrl *ctrl;       /* heartbeats and the peer's liveness */
	enum bench_verb verb;
	uint64_t io_timeout_ns;
	/* A passive wait (the FIN) yields the CPU for this long, for a
	 * fast wake-up, then sleeps 1 ms between looks. */
	uint64_t spin_ns;
	uint32_t slots;          /* messages a region holds (validate) */
	bool validate;
	/* --recv_post_list: receives go in lists of this many, a post each
	 * (an -n run's last may be shorter); 0: up to XFER_POLL_BATCH a post,
	 * as the refill finds them */
	uint32_t recv_list;
	/* room for one list longer than XFER_POLL_BATCH (xfer_room);
	 * NULL: a list fits on the stack */
	struct ibv_recv_wr *recv_wr;
	struct ibv_sge *recv_sge; /* 2 a receive: UD's GRH, the message */
	/* --post_list: send_list requests a QP, QP q's from q * send_list;
	 * NULL: no list (or --validate: each built apart, on the stack) */
	struct ibv_send_wr *send_wr;
	struct ibv_sge *send_sge; /* each request of send_wr its own */
	uint32_t send_list;
	struct samples *raw;     /* -U: latency samples in order; NULL: none */
	uint64_t gap_ns;         /* --latency_gap: the initiator waits this
				  * long before each sample's post */
	int64_t flip_iter;       /* test hook: corrupt this iteration, -1 off */
	/* The latency loop's clock (lib/tick.h): one read per iteration,
	 * turned into ns by a calibration over each run; the guess scales
	 * what progress shows while a run is open. */
	const struct tick_src *clock;
	double ns_per_tick_guess;
	/*
	 * Progress (run/progress.c), NULL: none. Called from the measuring
	 * loops' coarse check (every XFER_CHECK_NS, no clock read of its
	 * own) with the clock and the operations completed so far.
	 */
	void (*tick)(void *arg, uint64_t now_ns, uint64_t done);
	void *tick_arg;
};

/* One bandwidth run of one size, on one side. */
struct xfer_bw_plan {
	uint64_t size;
	uint64_t iters;          /* per QP; 0 in duration mode */
	uint64_t start_ns;       /* duration mode: the run's start ... */
	uint64_t sample_from_ns; /* ... the measured window ... */
	uint64_t sample_to_ns;
	uint64_t end_ns;         /* ... and when posting stops */
	uint32_t tx_depth;
	uint32_t cq_mod;
	uint32_t post_list;
	double pace_per_s;       /* --rate_limit SW: messages a second at
				  * most, all QPs together; 0: no limit */
	uint32_t pace_burst;     /* ... posted at once after a pause */
	bool sends;              /* this side initiates operations */
	bool receives;           /* this side counts receives (send verb) */
};

struct xfer_bw_out {
	uint64_t msgs;           /* in the measured window, all QPs */
	uint64_t bytes;
	uint64_t elapsed_ns;     /* first post -> last completion (or window) */
	uint64_t peak_bytes;     /* the fastest of up to 16 equal slices */
	uint64_t peak_ns;
	uint64_t total_msgs;     /* everything posted, margins included */
	uint64_t recv_msgs;      /* receives counted (send verb) */
	uint64_t recv_elapsed_ns;
	bool whole_run;          /* -D: no tick fell inside the window (one
				  * turn's posts outlasted it): the figures
				  * are the whole run's, margins included */
};

/* Set x->recv_list, with the room its lists need, and the room of nqps
 * send lists of post_list (0 or -ENOMEM). */
int xfer_room(struct xfer *x, unsigned int nqps, uint32_t post_list,
	      uint32_t recv_list);

/* Free what xfer_room() took. */
void xfer_room_free(struct xfer *x);

/* Run a bandwidth plan (either or both directions). */
int xfer_bw_run(const struct xfer *x, const struct xfer_bw_plan *p,
		struct xfer_bw_out *out);

/*
 * Before READY: post what the peer's traffic needs on this side (receives
 * for a send test or a FIN, the source pattern of reads, zeroed counters).
 */
int xfer_prepare(const struct xfer *x, uint64_t size, bool peer_sends,
		 uint64_t iters);

/* After a one-sided run: send a FIN on every QP with its last_run count. */
int xfer_fin_send(const struct xfer *x);

/*
 * The passive side of a one-sided run: wait for every QP's FIN while the
 * peer's heartbeats keep coming; then check what landed (validate).
 * *msgs_out is the total the FINs vouch for.
 */
int xfer_bw_fin_wait(const struct xfer *x, uint64_t size, uint64_t *msgs_out);

/*
 * Latency, iters round trips on QP 0 (or until end_ns when non-zero). The
 * initiator (client) sends first; hist gets one sample per round trip on
 * the side that measures one (both for ping-pongs; the initiator for a
 * round-trip verb, whose peer then waits with xfer_bw_fin_wait()).
 */
int xfer_lat_run(const struct xfer *x, bool initiator, uint64_t size,
		 uint64_t iters, uint64_t end_ns, struct hist *hist,
		 uint64_t *iters_done);

#endif
