// SPDX-License-Identifier: BSD-2-Clause
/*
 * run - one size of one test, on each side: the SYNC/READY handshake, the
 * hot loop, the peer's RESULT and the report row.
 */
#include <errno.h>
#include <string.h>

#include "driver.h"
#include "log.h"
#include "report.h"
#include "stats.h"
#include "timer.h"

static int run_handshake_client(struct bench_ctx *b, uint64_t size)
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

static int run_ready(struct bench_ctx *b)
{
	struct wire_msg msg = { .type = WIRE_READY };

	return ctrl_send(&b->ctrl, &msg);
}

static int run_send_result(struct bench_ctx *b, const struct wire_result *r)
{
	struct wire_msg msg = { .type = WIRE_RESULT, .u.result = *r };

	return ctrl_send(&b->ctrl, &msg);
}

static int run_recv_result(struct bench_ctx *b, struct wire_result *r)
{
	struct wire_msg msg;
	int ret = ctrl_recv(&b->ctrl, WIRE_RESULT, &msg);

	if (ret)
		return ret;
	*r = msg.u.result;
	if (r->status) {
		bench_err("the server failed this size: %s", strerror(-r->status));
		return r->status;
	}
	return 0;
}

/* ---- bandwidth ---- */

static uint32_t bw_send_depth(const struct wire_hello *test)
{
	return test->tx_depth;
}

static void bw_head(const struct bench_ctx *b)
{
	report_bw_head(stdout, b->cfg.report_gbits, !b->is_server);
}

static int bw_client_size(struct bench_ctx *b, uint64_t size)
{
	struct stats_bw bw, peak, peer;
	struct xfer_bw_out out;
	struct wire_result r;
	struct wire_fin fin;
	int ret;

	ret = run_handshake_client(b, size);
	if (!ret)
		ret = xfer_bw_run(&b->xfer, size, b->test.iters,
				  b->test.tx_depth, b->test.cq_mod, &out);
	if (ret)
		return ret;
	fin.msgs = out.msgs;
	fin.bytes = out.bytes;
	ret = xfer_fin_send(&b->xfer, &fin);
	if (!ret)
		ret = run_recv_result(b, &r);
	if (ret)
		return ret;
	if (r.bytes != out.bytes || r.msgs != out.msgs) {
		bench_err("size %llu: the server counted %llu bytes in %llu "
			  "messages, we sent %llu in %llu",
			  (unsigned long long)size, (unsigned long long)r.bytes,
			  (unsigned long long)r.msgs,
			  (unsigned long long)out.bytes,
			  (unsigned long long)out.msgs);
		return -EPROTO;
	}
	stats_bw_compute(out.bytes, out.msgs, out.elapsed_ns, &bw);
	stats_bw_compute(out.peak_bytes, 0, out.peak_ns, &peak);
	stats_bw_compute(r.bytes, r.msgs, r.elapsed_ns ? r.elapsed_ns : 1,
			 &peer);
	report_bw_row(stdout, b->cfg.report_gbits, size, b->test.iters, &bw,
		      &peak, &peer);
	return 0;
}

/*
 * The server's figure: bytes the FIN vouches for, from READY sent to the
 * FIN's arrival (one network trip longer than the client's window).
 */
static int bw_server_size(struct bench_ctx *b, const struct wire_sync *sync)
{
	struct wire_result r = { 0 };
	struct stats_bw bw;
	struct wire_fin fin;
	uint64_t start_ns;
	int ret;

	ret = xfer_fin_arm(&b->xfer);
	if (!ret)
		ret = run_ready(b);
	start_ns = timer_now_ns();
	if (!ret)
		ret = xfer_fin_wait(&b->xfer, &fin);
	if (ret)
		return ret;
	r.elapsed_ns = timer_now_ns() - start_ns;
	r.bytes = fin.bytes;
	r.msgs = fin.msgs;
	if (fin.msgs != sync->iters || fin.bytes != sync->iters * sync->size_bytes)
		r.status = -EPROTO;
	ret = run_send_result(b, &r);
	if (ret || r.status) {
		if (r.status)
			bench_err("the client announced %llu messages and sent "
				  "%llu", (unsigned long long)sync->iters,
				  (unsigned long long)fin.msgs);
		return ret ? ret : r.status;
	}
	stats_bw_compute(r.bytes, r.msgs, r.elapsed_ns, &bw);
	report_bw_row(stdout, b->cfg.report_gbits, sync->size_bytes,
		      sync->iters, &bw, &bw, NULL);
	return 0;
}

/* ---- latency ---- */

static uint32_t lat_send_depth(const struct wire_hello *test)
{
	(void)test;
	return 16; /* xfer's ping-pong keeps at most 16 sends unreaped */
}

static void lat_head(const struct bench_ctx *b)
{
	report_lat_head(stdout, !b->is_server);
}

static void lat_to_wire(const struct stats_lat *l, struct wire_result *r)
{
	const double v[8] = { l->min_us, l->p50_us, l->avg_us, l->stdev_us,
			      l->p90_us, l->p99_us, l->p999_us, l->max_us };

	r->lat_samples = l->samples;
	memcpy(r->lat_us, v, sizeof(v));
}

static void lat_from_wire(const struct wire_result *r, struct stats_lat *l)
{
	*l = (struct stats_lat){ .samples = r->lat_samples,
				 .min_us = r->lat_us[0], .p50_us = r->lat_us[1],
				 .avg_us = r->lat_us[2], .stdev_us = r->lat_us[3],
				 .p90_us = r->lat_us[4], .p99_us = r->lat_us[5],
				 .p999_us = r->lat_us[6], .max_us = r->lat_us[7] };
}

/* Run the ping-pong and summarize; an empty run gives zeros. */
static int lat_measure(struct bench_ctx *b, bool initiator, uint64_t size,
		       struct stats_lat *lat)
{
	unsigned int div = bench_verb_lat_divisor(b->test.verb);
	uint64_t n = 0;
	int ret;

	ret = xfer_lat_run(&b->xfer, initiator, size, b->test.iters,
			   b->lat_samples_ns, &n);
	if (ret)
		return ret;
	memset(lat, 0, sizeof(*lat));
	if (n)
		stats_lat_summarize(b->lat_samples_ns, n, div, lat);
	return 0;
}

static int lat_client_size(struct bench_ctx *b, uint64_t size)
{
	struct stats_lat lat, peer;
	struct wire_result r;
	int ret;

	memset(conn_recv_region(&b->data), 0, size);
	ret = run_handshake_client(b, size);
	if (!ret)
		ret = lat_measure(b, true, size, &lat);
	if (!ret)
		ret = run_recv_result(b, &r);
	if (ret)
		return ret;
	lat_from_wire(&r, &peer);
	report_lat_row(stdout, size, b->test.iters, &lat, &peer);
	return 0;
}

static int lat_server_size(struct bench_ctx *b, const struct wire_sync *sync)
{
	struct wire_result r = { 0 };
	struct stats_lat lat;
	int ret;

	memset(conn_recv_region(&b->data), 0, sync->size_bytes);
	ret = run_ready(b);
	if (!ret)
		ret = lat_measure(b, false, sync->size_bytes, &lat);
	if (ret)
		return ret;
	lat_to_wire(&lat, &r);
	ret = run_send_result(b, &r);
	if (!ret)
		report_lat_row(stdout, sync->size_bytes, sync->iters, &lat,
			       NULL);
	return ret;
}

static const struct measure_ops measure_ops[] = {
	[BENCH_MEASURE_BW] = { .send_depth = bw_send_depth,
			       .head = bw_head,
			       .client_size = bw_client_size,
			       .server_size = bw_server_size },
	[BENCH_MEASURE_LAT] = { .send_depth = lat_send_depth,
				.head = lat_head,
				.client_size = lat_client_size,
				.server_size = lat_server_size },
};

const struct measure_ops *run_measure_ops(enum bench_measure measure)
{
	return &measure_ops[measure];
}
