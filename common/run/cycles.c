// SPDX-License-Identifier: BSD-2-Clause
/*
 * cycles - perftest's -C/--report-cycles. See cycles.h.
 */
#include "run/cycles.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "host/cpuload.h"
#include "lib/hist.h"
#include "lib/tick.h"

#define CYCLES_GUESS_MS 50

static bool cycles_wanted(const struct bench_ctx *b)
{
	return b->cfg.report_cycles && !b->test.duration_s &&
	       b->test.measure == BENCH_MEASURE_LAT;
}

/* The clock is the TSC: each size's calibration (b->cycle_mhz 0). */
static void cycles_from_clock(struct bench_ctx *b)
{
	b->cycle_mhz = 0;
	snprintf(b->cycle_note, sizeof(b->cycle_note),
		 "the invariant TSC's "
		 "rate, measured against CLOCK_MONOTONIC_RAW over each size's "
		 "window (~%.0f MHz)",
		 1000.0 / b->xfer.ns_per_tick_guess);
}

/* An invariant TSC, but another clock times the samples. */
static void cycles_from_tsc(struct bench_ctx *b, const struct tick_src *tsc)
{
	b->cycle_mhz = 1000.0 / tick_guess_ns_per_tick(tsc, CYCLES_GUESS_MS);
	snprintf(b->cycle_note, sizeof(b->cycle_note),
		 "%.1f MHz, the invariant "
		 "TSC counted against CLOCK_MONOTONIC_RAW over %d ms",
		 b->cycle_mhz, CYCLES_GUESS_MS);
}

/* No invariant TSC: /proc/cpuinfo's figure, as perftest's. */
static int cycles_from_cpuinfo(struct bench_ctx *b)
{
	if (cpuload_mhz("/", &b->cycle_mhz)) {
		bench_err_why(&b->why,
			      "-C: this CPU has no invariant TSC "
			      "and /proc/cpuinfo has no \"cpu MHz\" line, so "
			      "there is no cycle rate: drop -C (the figures "
			      "in usec need none)");
		return -ENOENT;
	}
	snprintf(b->cycle_note, sizeof(b->cycle_note),
		 "%.1f MHz, /proc/"
		 "cpuinfo's cpu MHz (perftest's source): this CPU has no "
		 "invariant TSC, so no cycle rate could be measured",
		 b->cycle_mhz);
	return 0;
}

int cycles_setup(struct bench_ctx *b)
{
	const struct tick_src *tsc = tick_src_pick("tsc");

	b->cycle_note[0] = '\0';
	b->cycle_mhz = 0;
	if (!cycles_wanted(b))
		return 0;
	if (tsc && b->xfer.clock == tsc) {
		cycles_from_clock(b);
		return 0;
	}
	if (tsc) {
		cycles_from_tsc(b, tsc);
		return 0;
	}
	return cycles_from_cpuinfo(b);
}

double cycles_per_us(const struct bench_ctx *b)
{
	if (!cycles_wanted(b) || !b->cycle_note[0])
		return 0;
	if (b->cycle_mhz > 0)
		return b->cycle_mhz;
	return b->hist && b->hist->ns_per_tick > 0 ?
		       1000.0 / b->hist->ns_per_tick :
		       0;
}
