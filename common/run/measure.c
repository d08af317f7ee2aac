// SPDX-License-Identifier: BSD-2-Clause
/*
 * measure - one size of one test, on each side: the SYNC/READY handshake, the
 * hot loop, the peer's RESULT, the checks and the report row.
 */
#include <errno.h>
#include <string.h>

#include "run/cycles.h"
#include "run/measure.h"
#include "lib/log.h"
#include "report/report.h"
#include "run/perftest_out.h"
#include "run/progress.h"
#include "run/record.h"
#include "lib/stats.h"
#include "lib/timer.h"
#include "spec/opts_rate.h"

static int measure_handshake_client(struct bench_ctx *b, uint64_t size)
{
	struct wire_msg msg = { .type = WIRE_SYNC };
	int ret;

	msg.u.sync.size_bytes = size;
	msg.u.sync.iters = b->test.iters;
	ret = ctrl_send(&b->ctrl, &msg);
	if (!ret)
		ret = ctrl_recv(&b->ctrl, WIRE_READY, &msg);
	return ret;
}

static int measure_ready(struct bench_ctx *b)
{
	struct wire_msg msg = { .type = WIRE_READY };

	return ctrl_send(&b->ctrl, &msg);
}

static int measure_send_result(struct bench_ctx *b, const struct wire_result *r)
{
	struct wire_msg msg = { .type = WIRE_RESULT, .u.result = *r };

	return ctrl_send(&b->ctrl, &msg);
}

static int measure_recv_result(struct bench_ctx *b, struct wire_result *r)
{
	struct wire_msg msg;
	int ret = ctrl_recv(&b->ctrl, WIRE_RESULT, &msg);

	if (ret)
		return ret;
	*r = msg.u.result;
	if (r->status) {
		bench_err_why(&b->why, "the server failed this size: %s",
			      strerror(-r->status));
		return r->status;
	}
	return 0;
}

/* The duration plan, from now. */
static void measure_clock(const struct bench_ctx *b, struct xfer_bw_plan *p)
{
	uint64_t d_ns = b->test.duration_s * NS_PER_S;
	uint64_t m_ns = b->test.margin_s * NS_PER_S;

	if (!d_ns)
		return;
	p->start_ns = timer_now_ns();
	p->sample_from_ns = p->start_ns + m_ns;
	p->sample_to_ns = p->start_ns + d_ns - m_ns;
	p->end_ns = p->start_ns + d_ns;
}

/* ---- bandwidth ---- */

static uint32_t bw_send_depth(const struct test *test)
{
	return test->tx_depth;
}

static void bw_head(const struct bench_ctx *b)
{
	if (perftest_out_table(b))
		report_bw_head_cpu(b->out, b->cfg.report_gbits,
				   perftest_out_cpu(b));
}

/* The client's row, perftest's; what the server saw on a note line. */
static int bw_client_show(struct bench_ctx *b, uint64_t size,
			  const struct stats_bw *bw,
			  const struct stats_bw *peak,
			  const struct stats_bw *peer)
{
	int ret = perftest_out_bw(b, size, bw->msgs, bw, peak);

	if (!ret && perftest_out_table(b))
		report_bw_note(perftest_out_notes(b), b->cfg.report_gbits,
			       "server (what arrived)", peer);
	return ret;
}

/* -b: what this side sent, as the RESULT it tells the peer (-N: no peak). */
static void bw_own_result(const struct bench_ctx *b, uint64_t size,
			  const struct xfer_bw_out *out, struct wire_result *r)
{
	*r = (struct wire_result){
		.msgs = out->msgs, .bytes = out->msgs * size,
		.elapsed_ns = out->elapsed_ns,
		.peak_bytes = b->cfg.no_peak ? 0 : out->peak_bytes,
		.peak_ns = out->peak_ns,
	};
}

static void bw_dir(const struct wire_result *r, struct perftest_out_dir *d)
{
	d->iters = r->msgs;
	stats_bw_compute(r->bytes, r->msgs, r->elapsed_ns ? r->elapsed_ns : 1,
			 &d->bw);
	stats_bw_compute(r->peak_bytes, 0, r->peak_ns ? r->peak_ns : 1,
			 &d->peak);
}

/* -b, either side: both rows print the sum (perftest_out_bidir). */
static int bw_bidir_show(struct bench_ctx *b, uint64_t size,
			 const struct wire_result *own,
			 const struct wire_result *peer)
{
	struct perftest_out_dir mine, theirs;
	int ret;

	bw_dir(own, &mine);
	bw_dir(peer, &theirs);
	ret = perftest_out_bidir(b, size, &mine, &theirs);
	if (ret)
		return ret;
	return record_bw(b, size, &mine.bw, b->cfg.no_peak ? NULL : &mine.peak,
			 &theirs.bw);
}

/* A bandwidth run's iterations per QP; 0 with -D (no count ends it). */
static uint64_t bw_iters(const struct bench_ctx *b)
{
	return b->test.duration_s ? 0 : b->test.iters;
}

static void bw_plan(const struct bench_ctx *b, uint64_t size, bool sends,
		    bool peer_sends, struct xfer_bw_plan *p)
{
	const struct bench_verb_info *v = bench_verb(b->test.verb);

	*p = (struct xfer_bw_plan){
		.size = size, .iters = bw_iters(b),
		.tx_depth = b->test.tx_depth, .cq_mod = b->test.cq_mod,
		.post_list = b->test.post_list, .sends = sends,
		.receives = peer_sends && v->bw_end == BENCH_END_RECV,
	};
	/* reads and atomics post up to -t too: -o bounds only those on
	 * the wire, in the QP's attributes (perftest's out_reads) */
	if (p->cq_mod > p->tx_depth)
		p->cq_mod = p->tx_depth;
	if (p->post_list > p->tx_depth)
		p->post_list = p->tx_depth;
	/* --rate_limit SW: the client's posts of a one-way run (perftest's
	 * run_iter_bw; opts_rate.c turned it off elsewhere) */
	if (sends && !b->test.bidir) {
		p->pace_per_s = opts_rate_per_s(&b->cfg, size);
		p->pace_burst = (uint32_t)b->cfg.burst_size;
	}
	measure_clock(b, p);
}

/*
 * One side's traffic: run the plan, then for one-sided verbs the FIN on
 * every QP (when this side sent) and the wait for the peer's (when it
 * did). *peer_msgs: what the peer's FIN or our receives counted.
 */
static int bw_traffic(struct bench_ctx *b, uint64_t size, bool sends,
		      bool peer_sends, struct xfer_bw_out *out,
		      uint64_t *peer_msgs)
{
	const struct bench_verb_info *v = bench_verb(b->test.verb);
	struct xfer_bw_plan plan;
	struct progress prog;
	int ret = 0;

	bw_plan(b, size, sends, peer_sends, &plan);
	memset(out, 0, sizeof(*out));
	*peer_msgs = 0;
	perftest_out_cpu_mark(b, true);
	progress_begin(&prog, b, size);
	if (sends || plan.receives)
		ret = xfer_bw_run(&b->xfer, &plan, out);
	progress_end(&prog, b);
	if (!ret && out->whole_run)
		bench_warn("size %llu: -D %u s was shorter than one round of "
			   "posts (%u s margins), so no measuring window "
			   "formed: the figures are the whole run's; use a "
			   "longer -D or smaller messages",
			   (unsigned long long)size, b->test.duration_s,
			   b->test.margin_s);
	if (!ret && sends && v->bw_end == BENCH_END_FIN)
		ret = xfer_fin_send(&b->xfer);
	if (!ret && peer_sends && v->bw_end == BENCH_END_FIN)
		ret = xfer_bw_fin_wait(&b->xfer, size, peer_msgs);
	else if (peer_sends)
		*peer_msgs = out->recv_msgs;
	perftest_out_cpu_mark(b, false);
	return ret;
}

/*
 * --reversed, the client: what arrived, from READY to the last byte, is
 * its row (the server's figure of a plain run, turned round); what the
 * server sent goes on a note line.
 */
static int bw_rev_client_show(struct bench_ctx *b, uint64_t size, uint64_t msgs,
			      uint64_t elapsed_ns,
			      const struct wire_result *sent)
{
	struct stats_bw bw, peer;
	int ret;

	if (!b->test.duration_s && msgs != sent->msgs) {
		bench_err_why(&b->why,
			      "size %llu: the server sent %llu "
			      "messages, %llu arrived",
			      (unsigned long long)size,
			      (unsigned long long)sent->msgs,
			      (unsigned long long)msgs);
		return -EPROTO;
	}
	stats_bw_compute(msgs * size, msgs, elapsed_ns ? elapsed_ns : 1, &bw);
	stats_bw_compute(sent->bytes, sent->msgs,
			 sent->elapsed_ns ? sent->elapsed_ns : 1, &peer);
	ret = perftest_out_bw(b, size, msgs, &bw, &bw);
	if (!ret && perftest_out_table(b))
		report_bw_note(perftest_out_notes(b), b->cfg.report_gbits,
			       "server (what it sent)", &peer);
	return ret ? ret : record_bw(b, size, &bw, NULL, &peer);
}

static int bw_client_size(struct bench_ctx *b, uint64_t size)
{
	struct stats_bw bw, peak, peer;
	struct wire_result r, mine;
	struct xfer_bw_out out;
	bool rev = b->test.reversed;
	uint64_t peer_msgs, start_ns, elapsed_ns;
	int ret;

	ret = xfer_prepare(&b->xfer, size, b->test.bidir || rev, bw_iters(b));
	/* before SYNC: the server cannot send before it has it (see
	 * bw_server_size) */
	start_ns = timer_now_ns();
	if (!ret)
		ret = measure_handshake_client(b, size);
	if (!ret)
		ret = bw_traffic(b, size, !rev, b->test.bidir || rev, &out,
				 &peer_msgs);
	elapsed_ns = timer_now_ns() - start_ns;
	if (!ret)
		ret = measure_recv_result(b, &r);
	if (!ret && rev)
		return b->warming ? 0 :
				    bw_rev_client_show(b, size, peer_msgs,
						       elapsed_ns, &r);
	if (!ret && b->test.bidir) {
		bw_own_result(b, size, &out, &mine);
		ret = measure_send_result(b, &mine);
		if (ret || b->warming)
			return ret;
		return bw_bidir_show(b, size, &mine, &r);
	}
	if (ret || b->warming)
		return ret;
	if (r.msgs != out.total_msgs) {
		bench_err_why(&b->why, "size %llu: the server counted %llu "
			      "messages, we sent %llu",
			      (unsigned long long)size,
			      (unsigned long long)r.msgs,
			      (unsigned long long)out.total_msgs);
		return -EPROTO;
	}
	stats_bw_compute(out.bytes, out.msgs, out.elapsed_ns, &bw);
	/* -N: no peak, printed 0.00 as perftest prints it */
	stats_bw_compute(b->cfg.no_peak ? 0 : out.peak_bytes, 0, out.peak_ns,
			 &peak);
	stats_bw_compute(r.bytes, r.msgs, r.elapsed_ns ? r.elapsed_ns : 1,
			 &peer);
	ret = bw_client_show(b, size, &bw, &peak, &peer);
	return ret ? ret : record_bw(b, size, &bw, b->cfg.no_peak ? NULL :
				     &peak, &peer);
}

/* --reversed, the server: what it sent, as a plain run's client shows
 * it (peak too), after telling the client. */
static int bw_rev_server(struct bench_ctx *b, uint64_t size,
			 const struct xfer_bw_out *out)
{
	struct stats_bw bw, peak;
	struct wire_result r;
	int ret;

	bw_own_result(b, size, out, &r);
	ret = measure_send_result(b, &r);
	if (ret || b->warming)
		return ret;
	stats_bw_compute(out->bytes, out->msgs, out->elapsed_ns, &bw);
	stats_bw_compute(b->cfg.no_peak ? 0 : out->peak_bytes, 0, out->peak_ns,
			 &peak);
	ret = perftest_out_bw(b, size, out->msgs, &bw, &peak);
	return ret ? ret :
		     record_bw(b, size, &bw, b->cfg.no_peak ? NULL : &peak,
			       NULL);
}

/*
 * The server's figure: what it received (the FINs vouch for one-sided
 * verbs), from READY to the end (one network trip longer than the
 * client's window); in -b, what it sent itself. The clock starts before
 * READY goes out, never after: a server that loses its CPU once READY is
 * sent (the woken client preempting it on a shared core, a pod's CPU
 * quota) would otherwise start it after much of the data, and report a
 * rate the link never had.
 */
static int bw_server_size(struct bench_ctx *b, const struct wire_sync *sync)
{
	uint64_t size = sync->size_bytes, start_ns, peer_msgs;
	struct wire_result r = { 0 }, peer;
	struct xfer_bw_out out;
	struct stats_bw bw;
	int ret;

	ret = xfer_prepare(&b->xfer, size, !b->test.reversed, bw_iters(b));
	start_ns = timer_now_ns();
	if (!ret)
		ret = measure_ready(b);
	if (!ret)
		ret = bw_traffic(b, size, b->test.bidir || b->test.reversed,
				 !b->test.reversed, &out, &peer_msgs);
	if (ret)
		return ret;
	if (b->test.reversed)
		return bw_rev_server(b, size, &out);
	if (b->test.bidir) {
		bw_own_result(b, size, &out, &r);
		ret = measure_send_result(b, &r);
		if (!ret)
			ret = measure_recv_result(b, &peer);
		if (ret || b->warming)
			return ret;
		return bw_bidir_show(b, size, &r, &peer);
	}
	r.msgs = peer_msgs;
	r.elapsed_ns = timer_now_ns() - start_ns;
	r.bytes = r.msgs * size;
	ret = measure_send_result(b, &r);
	if (ret || b->warming)
		return ret;
	stats_bw_compute(r.bytes, r.msgs, r.elapsed_ns ? r.elapsed_ns : 1, &bw);
	ret = perftest_out_bw(b, size, r.msgs, &bw, &bw);
	return ret ? ret : record_bw(b, size, &bw, NULL, NULL);
}

/* ---- latency ---- */

static uint32_t lat_send_depth(const struct test *test)
{
	(void)test;
	return 16; /* xfer_lat keeps at most 16 sends unreaped */
}

/* The passive side of a round trip has no rows, so no head (perftest's). */
static void lat_head(const struct bench_ctx *b)
{
	bool passive = b->is_server && bench_verb(b->test.verb)->lat_mode ==
					       BENCH_LAT_ROUND_TRIP;

	if (perftest_out_table(b) && !passive)
		report_lat_head_cpu(b->out, b->test.duration_s > 0,
				    perftest_out_cpu(b));
}

/*
 * -U: perftest's unsorted list ("#, usec", then "N, value" in the order
 * taken), then its rule and column head again before the row; a note
 * when more were taken than kept.
 */
static void lat_show_unsorted(const struct bench_ctx *b, unsigned int div)
{
	const struct samples *s = &b->raw;
	double k = cycles_per_us(b); /* -C: cycles, perftest's unit word */
	uint64_t i;

	if (!b->xfer.raw || !s->n)
		return;
	fprintf(b->out, "#, %s\n", k > 0 ? "cycles" : "usec");
	for (i = 0; i < s->n; i++)
		fprintf(b->out, "%llu, %g\n", (unsigned long long)i + 1,
			(double)s->ns[i] * b->hist->ns_per_tick / 1000.0 / div *
				(k > 0 ? k : 1));
	if (s->seen > s->n)
		report_note(perftest_out_notes(b), "-U: the first %llu of %llu "
			    "samples (the row has them all)",
			    (unsigned long long)s->n,
			    (unsigned long long)s->seen);
	report_rule(b->out);
	report_lat_head(b->out, false);
}

/*
 * A side's latency row, perftest's layout (-D: t_avg and round trips per
 * second), then what perftest's row has no column for on a note line.
 */
static int lat_show(struct bench_ctx *b, uint64_t size, uint64_t n,
		    const struct stats_lat *lat, const struct stats_lat *peer)
{
	unsigned int div = bench_verb_lat_divisor(b->test.verb);
	double tps = 0;
	int ret;

	if (b->test.duration_s && lat->avg_us > 0)
		tps = 1e6 / (lat->avg_us * div);
	if (perftest_out_table(b))
		lat_show_unsorted(b, div);
	ret = perftest_out_lat(b, size, n, lat, tps);
	if (!perftest_out_table(b))
		return ret;
	if (tps > 0)
		report_lat_note(perftest_out_notes(b), "", lat);
	if (peer && peer->samples)
		report_lat_note(perftest_out_notes(b), "server", peer);
	if (b->cfg.histogram)
		hist_print(b->hist, div, b->out);
	return ret;
}

static void lat_to_wire(const struct stats_lat *l, struct wire_result *r)
{
	const double v[9] = { l->min_us, l->p50_us, l->avg_us, l->stdev_us,
			      l->p90_us, l->p99_us, l->p999_us, l->max_us,
			      l->p9999_us };

	r->lat_samples = l->samples;
	memcpy(r->lat_us, v, sizeof(v));
}

static void lat_from_wire(const struct wire_result *r, struct stats_lat *l)
{
	*l = (struct stats_lat){ .samples = r->lat_samples,
				 .min_us = r->lat_us[0], .p50_us = r->lat_us[1],
				 .avg_us = r->lat_us[2], .stdev_us = r->lat_us[3],
				 .p90_us = r->lat_us[4], .p99_us = r->lat_us[5],
				 .p999_us = r->lat_us[6], .max_us = r->lat_us[7],
				 .p9999_us = r->lat_us[8] };
}

static bool lat_round_trip(const struct bench_ctx *b)
{
	return bench_verb(b->test.verb)->lat_mode == BENCH_LAT_ROUND_TRIP;
}

/* Duration mode: tell the responder how many iterations there were. */
static int lat_tell_count(struct bench_ctx *b, uint64_t n)
{
	struct wire_msg msg = { .type = WIRE_FIN };

	b->xfer.qs[0].last_run = n;
	if (lat_round_trip(b))
		return xfer_fin_send(&b->xfer);
	if (!b->test.duration_s)
		return 0;
	msg.u.fin.msgs = n;
	return ctrl_send(&b->ctrl, &msg);
}

static int lat_client_size(struct bench_ctx *b, uint64_t size)
{
	struct stats_lat lat = { 0 }, peer;
	struct progress prog;
	struct wire_result r;
	uint64_t n = 0, end_ns = 0;
	int ret;

	hist_reset(b->hist);
	samples_reset(&b->raw);
	memset(conn_region(&b->data, 0, BENCH_REGION_RECV), 0, size);
	ret = xfer_prepare(&b->xfer, size, !lat_round_trip(b), b->test.iters);
	if (!ret)
		ret = measure_handshake_client(b, size);
	if (!ret && b->test.duration_s)
		end_ns = timer_deadline_ns(b->test.duration_s * 1000);
	progress_begin(&prog, b, size);
	perftest_out_cpu_mark(b, true);
	if (!ret)
		ret = xfer_lat_run(&b->xfer, true, size, end_ns ? 0 : b->test.iters,
				   end_ns, b->hist, &n);
	perftest_out_cpu_mark(b, false);
	progress_end(&prog, b);
	if (!ret)
		ret = lat_tell_count(b, n);
	if (!ret)
		ret = measure_recv_result(b, &r);
	if (ret || b->warming)
		return ret;
	hist_summarize(b->hist, bench_verb_lat_divisor(b->test.verb), &lat);
	lat_from_wire(&r, &peer);
	ret = lat_show(b, size, n, &lat, &peer);
	return ret ? ret : record_lat(b, size, n, &lat, &peer);
}

static int lat_server_size(struct bench_ctx *b, const struct wire_sync *sync)
{
	uint64_t size = sync->size_bytes, n = 0;
	struct wire_result r = { 0 };
	struct stats_lat lat = { 0 };
	int ret;

	hist_reset(b->hist);
	samples_reset(&b->raw);
	memset(conn_region(&b->data, 0, BENCH_REGION_RECV), 0, size);
	ret = xfer_prepare(&b->xfer, size, true, b->test.iters);
	if (!ret)
		ret = measure_ready(b);
	perftest_out_cpu_mark(b, true);
	if (!ret && lat_round_trip(b))
		ret = xfer_bw_fin_wait(&b->xfer, size, &n);
	else if (!ret)
		ret = xfer_lat_run(&b->xfer, false, size,
				   b->test.duration_s ? 0 : sync->iters,
				   b->test.duration_s ? 1 : 0, b->hist, &n);
	perftest_out_cpu_mark(b, false);
	if (ret)
		return ret;
	if (b->hist->count)
		hist_summarize(b->hist, bench_verb_lat_divisor(b->test.verb),
			       &lat);
	lat_to_wire(&lat, &r);
	r.msgs = n;
	ret = measure_send_result(b, &r);
	if (ret || b->warming)
		return ret;
	if (lat.samples)
		ret = lat_show(b, size, n, &lat, NULL);
	else if (perftest_out_table(b)) /* the passive side: no row */
		report_note(perftest_out_notes(b), "%llu B, %llu iterations: "
			    "the client times each round trip",
			    (unsigned long long)size, (unsigned long long)n);
	return ret ? ret : record_lat(b, size, n, &lat, NULL);
}

/* ---- --perform_warm_up ---- */

typedef int (*measure_client_fn)(struct bench_ctx *b, uint64_t size);
typedef int (*measure_server_fn)(struct bench_ctx *b,
				 const struct wire_sync *sync);

static const struct {
	measure_client_fn client;
	measure_server_fn server;
} measure_fns[] = {
	[BENCH_MEASURE_BW] = { bw_client_size, bw_server_size },
	[BENCH_MEASURE_LAT] = { lat_client_size, lat_server_size },
};

/*
 * The warm-up pass: the size's whole round (SYNC to RESULT) by
 * iterations, test_warm_up_iters() of them, also in -D; both sides
 * swap the same fields, so they agree without a message of their own.
 */
static void measure_warm_begin(struct bench_ctx *b)
{
	b->test.iters = test_warm_up_iters(&b->test);
	b->test.duration_s = 0;
	b->test.margin_s = 0;
	b->warming = true;
}

static void measure_warm_end(struct bench_ctx *b, const struct test *keep)
{
	b->test = *keep;
	b->warming = false;
}

static int measure_client_size(struct bench_ctx *b, uint64_t size)
{
	measure_client_fn fn = measure_fns[b->test.measure].client;
	struct test keep = b->test;
	int ret;

	if (!test_warm_up_iters(&b->test))
		return fn(b, size);
	measure_warm_begin(b);
	ret = fn(b, size);
	measure_warm_end(b, &keep);
	return ret ? ret : fn(b, size);
}

/* With a warm-up, a size comes as two SYNCs: the pass's, then its own. */
static int measure_server_size(struct bench_ctx *b,
			       const struct wire_sync *sync)
{
	measure_server_fn fn = measure_fns[b->test.measure].server;
	struct wire_msg msg;
	struct test keep = b->test;
	int ret;

	if (!test_warm_up_iters(&b->test))
		return fn(b, sync);
	measure_warm_begin(b);
	ret = fn(b, sync);
	measure_warm_end(b, &keep);
	if (!ret)
		ret = ctrl_recv(&b->ctrl, WIRE_SYNC, &msg);
	if (!ret && msg.u.sync.size_bytes != sync->size_bytes) {
		bench_err_why(&b->why, "the client's SYNC after the warm-up "
			      "of %llu B was for %llu B: run the same "
			      "rdmabench on both ends",
			      (unsigned long long)sync->size_bytes,
			      (unsigned long long)msg.u.sync.size_bytes);
		ret = -EPROTO;
	}
	return ret ? ret : fn(b, &msg.u.sync);
}

static const struct measure_ops measure_ops[] = {
	[BENCH_MEASURE_BW] = { .send_depth = bw_send_depth,
			       .head = bw_head,
			       .client_size = measure_client_size,
			       .server_size = measure_server_size },
	[BENCH_MEASURE_LAT] = { .send_depth = lat_send_depth,
				.head = lat_head,
				.client_size = measure_client_size,
				.server_size = measure_server_size },
};

const struct measure_ops *measure_ops_get(enum bench_measure measure)
{
	return &measure_ops[measure];
}
