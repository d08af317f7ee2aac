// SPDX-License-Identifier: BSD-2-Clause
/*
 * progress - the interval rows and the live status line of a size while
 * it runs (see progress.h); their text is report/interval.c's.
 */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "lib/hist.h"
#include "lib/timer.h"
#include "report/interval.h"
#include "report/results.h"
#include "run/ctx.h"
#include "run/progress.h"

#define PROGRESS_LIVE_NS (NS_PER_S / 3) /* ~3 redraws a second */

/* A terminal, and nothing on stdout that a status line could spoil. */
static bool progress_live_wanted(const struct bench_ctx *b)
{
	const struct bench_cfg *c = &b->cfg;

	/* --rails: one line per rail thread would overwrite each other */
	return c->output == OPTS_OUTPUT_TABLE && !c->rails[0] &&
	       isatty(STDERR_FILENO) &&
	       !results_is_stdout(c->json_path) &&
	       !results_is_stdout(c->junit_path) &&
	       !results_is_stdout(c->prom_path) &&
	       !results_is_stdout(c->summary_path);
}

static void progress_erase(struct progress *p)
{
	if (!p->shown)
		return;
	fputs("\r\033[K", stderr);
	p->shown = false;
}

static double progress_s(const struct progress *p, uint64_t ns)
{
	return (double)(ns - p->start_ns) / 1e9;
}

static double progress_us(const struct progress *p, uint64_t ns)
{
	return (double)ns / bench_verb_lat_divisor(p->b->test.verb) / 1e3;
}

/* Payload Gb/s of ops operations over ns: bits per ns. */
static double progress_gbps(const struct progress *p, uint64_t ops, uint64_t ns)
{
	return ns ? (double)(ops * p->size) * 8.0 / (double)ns : NAN;
}

static void progress_row(struct progress *p)
{
	const struct bench_ctx *b = p->b;
	struct interval_fig f = {
		.size_bytes = p->size,
		.from_s = progress_s(p, p->row_ns),
		.to_s = progress_s(p, p->now_ns),
		.ops = p->done - p->row_done,
		.is_lat = p->is_lat,
		.p50_us = NAN,
	};
	char line[160];

	if (p->is_lat && p->prev && b->hist) {
		f.p50_us = progress_us(
			p, hist_percentile_since_ns(b->hist, p->prev, 50));
		memcpy(p->prev, b->hist, sizeof(*p->prev));
	}
	f.gbps = progress_gbps(p, f.ops, p->now_ns - p->row_ns);
	interval_row(line, sizeof(line), &f);
	progress_erase(p);
	fprintf(b->cfg.output == OPTS_OUTPUT_TABLE ? b->out : stderr, "%s\n",
		line);
	p->row_ns = p->now_ns;
	p->row_done = p->done;
}

static void progress_live(struct progress *p)
{
	const struct bench_ctx *b = p->b;
	struct interval_live l = {
		.tool = b->desc->name,
		.total_s = (double)b->test.duration_s,
		.total_ops = p->total_ops,
		.fig = { .size_bytes = p->size,
			 .to_s = progress_s(p, p->now_ns),
			 .ops = p->done,
			 .is_lat = p->is_lat,
			 .p50_us = NAN },
	};
	char line[160];

	if (p->is_lat && b->hist)
		l.fig.p50_us = progress_us(p, hist_percentile_ns(b->hist, 50));
	/* since the size began: a device that completes in bursts (rxe)
	 * would show "-" between them over a redraw's third of a second */
	l.fig.gbps = progress_gbps(p, p->done, p->now_ns - p->start_ns);
	interval_live_line(line, sizeof(line), &l);
	fprintf(stderr, "\r%s\033[K", line);
	p->shown = true;
	p->next_live_ns = p->now_ns + PROGRESS_LIVE_NS;
}

/* struct xfer's tick: two compares unless something is due. */
static void progress_tick(void *arg, uint64_t now_ns, uint64_t done)
{
	struct progress *p = arg;

	p->now_ns = now_ns;
	p->done = done;
	p->ticked = true;
	if (p->interval_ns && now_ns >= p->next_row_ns) {
		progress_row(p);
		/* on the grid from the start, not drifting with late ticks */
		while (p->next_row_ns <= now_ns)
			p->next_row_ns += p->interval_ns;
	}
	if (p->live && now_ns >= p->next_live_ns)
		progress_live(p);
}

/* All operations of an iteration run, both directions counted. */
static uint64_t progress_total(const struct bench_ctx *b)
{
	const struct test *t = &b->test;

	if (t->duration_s)
		return 0;
	if (t->measure == BENCH_MEASURE_LAT)
		return t->iters;
	return t->iters * (t->qps ? t->qps : 1) * (t->bidir ? 2 : 1);
}

void progress_begin(struct progress *p, struct bench_ctx *b, uint64_t size)
{
	bool live = progress_live_wanted(b);
	/* a year at most: beyond, the ns would not fit (and mean "never") */
	double iv_s = b->cfg.interval_s < 31536000 ? b->cfg.interval_s
						   : 31536000;
	uint64_t iv = (uint64_t)(iv_s * NS_PER_S);

	memset(p, 0, sizeof(*p));
	if (!live && !iv)
		return;
	*p = (struct progress){
		.b = b,
		.live = live,
		.interval_ns = iv,
		.size = size,
		.is_lat = b->test.measure == BENCH_MEASURE_LAT,
		.total_ops = progress_total(b),
		.start_ns = timer_now_ns(),
	};
	p->now_ns = p->row_ns = p->start_ns;
	p->next_row_ns = p->start_ns + iv;
	p->next_live_ns = p->start_ns + PROGRESS_LIVE_NS;
	if (p->is_lat && iv && b->hist) {
		p->prev = hist_create();
		if (p->prev)
			memcpy(p->prev, b->hist, sizeof(*p->prev));
	}
	b->xfer.tick = progress_tick;
	b->xfer.tick_arg = p;
}

/*
 * The last, partial interval: with -D, when it began before the planned
 * end (what comes after is the drain: -D 5 --interval 1 prints 5 rows);
 * with -n, when it is at least half an interval long.
 */
static bool progress_last_row(const struct progress *p)
{
	uint64_t d_ns = p->b->test.duration_s * NS_PER_S;

	if (!p->ticked || !p->interval_ns)
		return false;
	if (d_ns)
		return p->row_ns - p->start_ns < d_ns && p->now_ns > p->row_ns;
	return p->now_ns - p->row_ns >= p->interval_ns / 2;
}

void progress_end(struct progress *p, struct bench_ctx *b)
{
	b->xfer.tick = NULL;
	b->xfer.tick_arg = NULL;
	if (!p->b)
		return;
	if (progress_last_row(p))
		progress_row(p);
	progress_erase(p);
	hist_destroy(p->prev);
	memset(p, 0, sizeof(*p));
}
