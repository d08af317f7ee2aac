// SPDX-License-Identifier: BSD-2-Clause
#include <stdio.h>
#include <string.h>

#include "lib/afile.h"
#include "lib/log.h"
#include "report/perftest_json.h"
#include "report/report.h"
#include "run/cycles.h"
#include "run/perftest_out.h"
#include "run/portctr.h"

bool perftest_out_table(const struct bench_ctx *b)
{
	return b->cfg.output == OPTS_OUTPUT_TABLE;
}

FILE *perftest_out_notes(const struct bench_ctx *b)
{
	return b->out == stdout ? stderr : b->out;
}

void perftest_out_title(const struct bench_ctx *b, char sep, char *buf,
			size_t len)
{
	const struct test *t = &b->test;
	bool bw = t->measure == BENCH_MEASURE_BW;
	size_t i;

	snprintf(buf, len, "%s %s%s%s Test", bench_verb_title(t->verb),
		 bw && t->bidir ? "Bidirectional " : "",
		 bw && t->post_list > 1 ? "Post List " : "",
		 bw ? "BW" : "Latency");
	for (i = 0; buf[i]; i++)
		if (buf[i] == ' ')
			buf[i] = sep;
}

/* "Outstand reads": -o as the QP has it, capped by the device (as
 * perftest's out_reads; 0 from the device: -o as asked) */
static uint32_t pout_reads(const struct bench_ctx *b)
{
	uint32_t dev = b->dev.max_init_rd_atom;

	return dev && dev < b->test.outstanding ? dev : b->test.outstanding;
}

/* perftest's names: transport_str() and link_layer_str(). */

static void pout_info(const struct bench_ctx *b, char *test, size_t len,
		      struct perftest_json_info *in)
{
	const struct bench_verb_info *v = bench_verb(b->test.verb);
	bool reads = v->lat_mode == BENCH_LAT_ROUND_TRIP;
	/* --reversed: the server is the side that sends */
	bool sender = b->is_server == b->test.reversed;

	perftest_out_title(b, '_', test, len);
	*in = (struct perftest_json_info){
		.test = test,
		.device = b->dev.name,
		.qps = b->test.qps,
		.transport = strcmp(b->dev.transport, "iWARP") ? "IB" : "IW",
		.conn_type = test_conn_name(&b->test),
		.srq = b->test.srq,
		.tx_side = sender || b->test.bidir,
		.tx_depth = b->test.tx_depth,
		.rx_side = v->bw_end == BENCH_END_RECV &&
			   (!sender || b->test.bidir),
		.rx_depth = b->test.rx_depth,
		.bw = b->test.measure == BENCH_MEASURE_BW,
		.cq_mod = b->test.cq_mod,
		.post_list = b->test.post_list,
		.recv_post_list = b->test.recv_post_list,
		.mtu_bytes = b->dev.active_mtu_bytes,
		.link_type = strcmp(b->dev.link_layer, "Ethernet") ? "IB" :
								     "Ethernet",
		.gid_index = b->gid_index,
		.reads = reads,
		.inline_or_reads = reads ? pout_reads(b) :
					   b->data.qps[0].max_inline,
		.rdma_cm = b->data.qps && b->data.qps[0].ep.id, /* cm QPs */
		.cuda_device = (int)b->cfg.use_cuda,
	};
}

struct pout_job {
	const struct perftest_json_info *in;
	const struct perftest_json_row *row;
};

static int pout_render(const void *arg, FILE *out)
{
	const struct pout_job *j = arg;

	return perftest_json_write(out, j->in, j->row);
}

/* --out_json / --out_json_file: the whole file again, this size's. */
static int pout_json(const struct bench_ctx *b,
		     const struct perftest_json_row *row)
{
	const char *path = b->cfg.out_json_path[0] ? b->cfg.out_json_path
						   : PERFTEST_JSON_DEFAULT;
	struct perftest_json_info in;
	struct pout_job job = { &in, row };
	char test[96];

	if (!b->cfg.out_json && !b->cfg.out_json_path[0])
		return 0;
	pout_info(b, test, sizeof(test), &in);
	return afile_write(path, pout_render, &job);
}

bool perftest_out_cpu(const struct bench_ctx *b)
{
	return b->cfg.cpu_util && b->test.duration_s;
}

void perftest_out_cpu_mark(struct bench_ctx *b, bool start)
{
	struct cpuload now;

	if (!perftest_out_cpu(b))
		return;
	if (cpuload_read("/", start ? &b->cpu_at : &now)) {
		bench_warn("--cpu_util: /proc/stat unreadable: 0 shown");
		b->cpu_pct = 0;
		b->cpu_at = (struct cpuload){ 0 };
		return;
	}
	if (!start)
		b->cpu_pct = cpuload_pct(&b->cpu_at, &now);
}

/* The CPU column's value, < 0: no column. */
static double pout_cpu(const struct bench_ctx *b)
{
	return perftest_out_cpu(b) ? b->cpu_pct : -1;
}

int perftest_out_bw(const struct bench_ctx *b, uint64_t size, uint64_t iters,
		    const struct stats_bw *bw, const struct stats_bw *peak)
{
	struct perftest_json_row row = {
		.kind = PERFTEST_JSON_BW, .output = b->cfg.output,
		.gbits = b->cfg.report_gbits, .size = size, .iters = iters,
		.bw = bw, .peak = peak,
	};

	if (b->cfg.output == OPTS_OUTPUT_BW)
		fprintf(b->out, "%f\n", report_bw_value(row.gbits, bw));
	else if (b->cfg.output == OPTS_OUTPUT_MSGRATE)
		fprintf(b->out, "%f\n", bw->mpps);
	else
		report_bw_row_cpu(b->out, row.gbits, size, iters, bw, peak,
				  pout_cpu(b));
	portctr_print(b);
	return pout_json(b, &row);
}

/* perftest's --report-both block: "Local results" (atomic_bw: no blank
 * before the line end) and "Remote results", each a table of one row. */
static void pout_both(const struct bench_ctx *b, uint64_t size,
		      const struct perftest_out_dir *own,
		      const struct perftest_out_dir *peer)
{
	const struct perftest_out_dir *dirs[2] = { own, peer };
	static const char *const names[2] = { "Local", "Remote" };
	/* perftest's atomic_bw.c spells it without the blank */
	const char *end = strcmp(bench_verb_name(b->test.verb), "atomic") ?
			  " " : "";
	bool gbits = b->cfg.report_gbits;
	int i;

	for (i = 0; i < 2; i++) {
		report_rule(b->out);
		fprintf(b->out, "\n %s results:%s\n", names[i], end);
		report_rule(b->out);
		report_bw_head(b->out, gbits);
		report_bw_row(b->out, gbits, size, dirs[i]->iters,
			      &dirs[i]->bw, &dirs[i]->peak);
	}
}

int perftest_out_bidir(const struct bench_ctx *b, uint64_t size,
		       const struct perftest_out_dir *own,
		       const struct perftest_out_dir *peer)
{
	bool gbits = b->cfg.report_gbits;
	struct stats_bw sum, sum_peak;
	int ret;

	report_bw_add(&own->bw, &peer->bw, &sum);
	report_bw_add(&own->peak, &peer->peak, &sum_peak);
	ret = perftest_out_bw(b, size, own->iters, &sum, &sum_peak);
	if (ret || !perftest_out_table(b))
		return ret;
	report_bw_note(perftest_out_notes(b), gbits, b->is_server ?
		       "server sent" : "client sent", &own->bw);
	report_bw_note(perftest_out_notes(b), gbits, b->is_server ?
		       "client sent" :
		       "server sent", &peer->bw);
	if (b->cfg.report_both && !b->test.all_sizes)
		pout_both(b, size, own, peer);
	return 0;
}

/* -C: the figures in cycles, k a us (0: as they are, in usec). */
static struct stats_lat pout_cycles(const struct stats_lat *l, double k)
{
	if (!(k > 0))
		return *l;
	return (struct stats_lat){
		.samples = l->samples,
		.min_us = l->min_us * k,
		.p50_us = l->p50_us * k,
		.avg_us = l->avg_us * k,
		.stdev_us = l->stdev_us * k,
		.p90_us = l->p90_us * k,
		.p99_us = l->p99_us * k,
		.p999_us = l->p999_us * k,
		.p9999_us = l->p9999_us * k,
		.max_us = l->max_us * k,
	};
}

int perftest_out_lat(const struct bench_ctx *b, uint64_t size, uint64_t iters,
		     const struct stats_lat *lat_us, double tps)
{
	struct stats_lat cyc = pout_cycles(lat_us, cycles_per_us(b));
	const struct stats_lat *lat = &cyc;
	struct perftest_json_row row = {
		.kind = tps > 0 ? PERFTEST_JSON_LAT_DUR : PERFTEST_JSON_LAT,
		.output = b->cfg.output, .size = size, .iters = iters,
		.lat = lat, .tps = tps,
	};

	if (b->cfg.output == OPTS_OUTPUT_LATENCY)
		fprintf(b->out, "%f\n", lat->avg_us);
	else if (tps > 0)
		report_lat_dur_row(b->out, size, iters, lat->avg_us, tps,
				   pout_cpu(b));
	else
		report_lat_row(b->out, size, iters, lat);
	portctr_print(b);
	return pout_json(b, &row);
}
