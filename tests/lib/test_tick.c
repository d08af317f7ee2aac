// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/lib/tick.c (the latency loop's clock) and the
 * histogram's scale (lib/hist.h): the table's words, the calibration
 * against CLOCK_MONOTONIC_RAW, and ticks read back as ns. On a CPU
 * without an invariant TSC the TSC's cases check its refusal instead.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/hist.h"
#include "lib/tick.h"
#include "lib/timer.h"
#include "tests/test.h"

static void test_pick(void)
{
	const struct tick_src *a = tick_src_pick("auto");
	const struct tick_src *m = tick_src_pick("monotonic");
	const struct tick_src *t = tick_src_pick("tsc");

	EXPECT_TRUE(a != NULL);
	EXPECT_TRUE(tick_src_pick(NULL) == a);
	EXPECT_TRUE(m != NULL && !strcmp(m->name, "monotonic"));
	EXPECT_TRUE(tick_src_pick("bogus") == NULL);
	/* auto is the TSC where there is one, else the monotonic clock */
	EXPECT_TRUE(a == (t ? t : m));
	EXPECT_STREQ(tick_src_names[0], "auto");
}

/* A calibration over ~20 ms agrees with the monotonic clock's span. */
static void test_calibration(void)
{
	const struct tick_src *src = tick_src_pick("auto");
	struct tick_cal c;
	uint64_t t0, t1, ns0, ns1;
	double k;

	tick_cal_begin(&c, src);
	ns0 = timer_now_ns();
	t0 = src->now();
	timer_sleep_ms(20);
	t1 = src->now();
	ns1 = timer_now_ns();
	k = tick_cal_ns_per_tick(&c);
	EXPECT_TRUE(k > 0.0);
	/* the ticks of 20 ms, scaled, are 20 ms within 0.5 % */
	EXPECT_NEAR((double)(t1 - t0) * k, (double)(ns1 - ns0),
		    (double)(ns1 - ns0) * 0.005);
	tick_cal_begin(&c, tick_src_pick("monotonic"));
	EXPECT_NEAR(tick_cal_ns_per_tick(&c), 1.0, 0.0);
	k = tick_guess_ns_per_tick(src, 2);
	EXPECT_TRUE(k > 0.0 && k < 100.0);
}

/*
 * A read of src between two reads of CLOCK_MONOTONIC_RAW: *n is their
 * middle. False when the two are more than 2 us apart: something (an
 * interrupt, another process on a busy host) came between them, and the
 * pair says nothing of the clocks.
 */
static bool tick_pair(const struct tick_src *src, uint64_t *t, uint64_t *n)
{
	uint64_t a = timer_now_ns(), b;

	*t = src->now();
	b = timer_now_ns();
	*n = a + (b - a) / 2;
	return b - a < 2000;
}

/* One interval of ~20 us in both clocks; up to 8 tries while its edges'
 * pairs are parted. False: every try was. */
static bool tick_interval(const struct tick_src *src, uint64_t *ticks,
			  uint64_t *ns)
{
	uint64_t t0, n0, t1, n1;
	int tries;

	for (tries = 0; tries < 8; tries++) {
		if (!tick_pair(src, &t0, &n0))
			continue;
		while (timer_now_ns() - n0 < 20000)
			;
		if (!tick_pair(src, &t1, &n1))
			continue;
		*ticks = t1 - t0;
		*ns = n1 - n0;
		return true;
	}
	return false;
}

/*
 * The same intervals timed by both clocks: 2000 spins of ~20 us, each
 * measured in ticks (scaled by the window's calibration) and in
 * CLOCK_MONOTONIC_RAW ns, agree within 1 % (issue 27's bound) in at
 * least 99 % of them. An edge whose reads something came between is
 * taken again (tick_pair), so a busy host (CI's, helpers building) tests
 * the clocks, not the scheduler. On rxe the lab's guests have no
 * invariant TSC, so this host is where the TSC is compared.
 */
static void test_agreement(void)
{
	const struct tick_src *src = tick_src_pick("auto");
	static uint64_t ticks[2000], ns[2000];
	unsigned int i, ok = 0, got = 0;
	struct tick_cal c;
	double k;

	tick_cal_begin(&c, src);
	for (i = 0; i < 2000; i++)
		got += tick_interval(src, &ticks[i], &ns[i]);
	k = tick_cal_ns_per_tick(&c);
	for (i = 0; i < 2000; i++)
		ok += ns[i] && fabs((double)ticks[i] * k - (double)ns[i]) <=
				       0.01 * (double)ns[i];
	EXPECT_TRUE(ok >= 1980);
	printf("agreement: %s (%.4f ns a tick) and CLOCK_MONOTONIC_RAW "
	       "within 1 %% on %u of 2000 intervals of 20 us (%u measured)\n",
	       src->name, k, ok, got);
}

/* Values added in ticks read back in ns at the scale set. */
static void test_hist_scale(void)
{
	struct hist *h = hist_create(), *g = hist_create();
	struct stats_lat s;
	uint64_t i;

	for (i = 1000; i <= 3000; i++)
		hist_add(h, i);
	hist_set_scale(h, 0.5);
	EXPECT_EQ_INT(hist_summarize(h, 1, &s), 0);
	EXPECT_NEAR(s.min_us, 0.5, 1e-9);
	EXPECT_NEAR(s.max_us, 1.5, 1e-9);
	EXPECT_NEAR(s.avg_us, 1.0, 1e-6);
	EXPECT_NEAR(s.p50_us, 1.0, 0.01);
	EXPECT_NEAR((double)hist_percentile_ns(h, 50), 1000.0, 10.0);
	/* a merge takes the scale into an empty histogram, refuses two */
	EXPECT_EQ_INT(hist_merge(g, h), 0);
	EXPECT_NEAR(g->ns_per_tick, 0.5, 0.0);
	hist_set_scale(g, 0.25);
	EXPECT_EQ_INT(hist_merge(g, h), -EINVAL);
	hist_reset(h);
	EXPECT_NEAR(h->ns_per_tick, 1.0, 0.0);
	hist_destroy(h);
	hist_destroy(g);
}

int main(void)
{
	test_pick();
	test_calibration();
	test_agreement();
	test_hist_scale();
	return test_finish("test_tick");
}
