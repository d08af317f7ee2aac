// SPDX-License-Identifier: BSD-2-Clause
/*
 * clockpair - the latency loop's two clocks over the same intervals.
 *
 * For SECONDS seconds it times short intervals (a spin of about SPIN_NS)
 * with both clocks at once: each edge reads the TSC and then
 * CLOCK_MONOTONIC_RAW, so both figures of an interval cover the same
 * stretch of time. The TSC's ticks become ns as the latency loop's
 * do (lib/tick.c: one calibration against CLOCK_MONOTONIC_RAW over the
 * whole window), and the percentiles are the loop's own (lib/stats.c's
 * nearest rank). Prints one line per percentile: the two figures and
 * their ratio, tsc / monotonic. Needs an invariant TSC.
 *
 * Built and run by scripts/bench/clock_agree.sh. A benchmark, not a test.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/stats.h"
#include "lib/tick.h"
#include "lib/timer.h"

struct pair_run {
	uint64_t *tsc, *mono; /* ticks and ns of each interval */
	size_t n, cap;
	double ns_per_tick;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* One interval: both clocks at each edge, a spin between them. */
static void pair_one(struct pair_run *r, const struct tick_src *tsc,
		     uint64_t spin_ns)
{
	uint64_t t0 = tick_now(tsc), n0 = timer_now_ns();
	uint64_t end = n0 + spin_ns, t1, n1;

	while (timer_now_ns() < end)
		;
	t1 = tick_now(tsc); /* the same order as at the start */
	n1 = timer_now_ns();
	r->tsc[r->n] = t1 - t0;
	r->mono[r->n] = n1 - n0;
	r->n++;
}

static int pair_collect(struct pair_run *r, const struct tick_src *tsc,
			double seconds, uint64_t spin_ns)
{
	struct tick_cal cal;
	uint64_t stop;

	r->cap = (size_t)(seconds * 1e9 / (double)spin_ns) + 1;
	r->tsc = calloc(r->cap, sizeof(*r->tsc));
	r->mono = calloc(r->cap, sizeof(*r->mono));
	if (!r->tsc || !r->mono)
		return -1;
	tick_cal_begin(&cal, tsc);
	stop = timer_now_ns() + (uint64_t)(seconds * 1e9);
	while (r->n < r->cap && timer_now_ns() < stop)
		pair_one(r, tsc, spin_ns);
	r->ns_per_tick = tick_cal_ns_per_tick(&cal);
	return 0;
}

static void pair_print(struct pair_run *r)
{
	static const double pcts[] = { 50.0, 90.0, 99.0, 99.9 };
	size_t i;

	qsort(r->tsc, r->n, sizeof(*r->tsc), cmp_u64);
	qsort(r->mono, r->n, sizeof(*r->mono), cmp_u64);
	printf("intervals %zu ns_per_tick %.9f\n", r->n, r->ns_per_tick);
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		double t =
			(double)stats_percentile_sorted(r->tsc, r->n, pcts[i]) *
			r->ns_per_tick;
		double m =
			(double)stats_percentile_sorted(r->mono, r->n, pcts[i]);

		printf("p%-5g tsc_ns %.1f monotonic_ns %.1f ratio %.6f\n",
		       pcts[i], t, m, m > 0 ? t / m : 0.0);
	}
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 10.0;
	uint64_t spin_ns = argc > 2 ? strtoull(argv[2], NULL, 10) : 10000;
	const struct tick_src *tsc = tick_src_pick("tsc");
	struct pair_run r = { 0 };

	if (!tsc) {
		fprintf(stderr, "clockpair: no invariant TSC on this CPU: "
				"nothing to compare (the loop uses "
				"CLOCK_MONOTONIC_RAW alone there)\n");
		return 2;
	}
	if (seconds <= 0 || spin_ns == 0 ||
	    pair_collect(&r, tsc, seconds, spin_ns)) {
		fprintf(stderr,
			"clockpair: usage: clockpair [SECONDS>0] [SPIN_NS>0] "
			"(or out of memory)\n");
		return 2;
	}
	pair_print(&r);
	free(r.tsc);
	free(r.mono);
	return 0;
}
