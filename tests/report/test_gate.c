// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/report/gate.c: every size must pass (AND), no tolerance, the
 * exact reason strings, latency gates (lower is better), the line rate.
 */
#include <errno.h>

#include "report/gate.h"
#include "tests/test.h"

static struct gate_figures bw(uint64_t size, double gbps, double mpps)
{
	return (struct gate_figures){ .size_bytes = size, .gbps = gbps,
				      .mpps = mpps, .has_bw = true };
}

static struct gate_figures lat(uint64_t size, double p50, double p99)
{
	return (struct gate_figures){ .size_bytes = size, .p50_us = p50,
				      .p99_us = p99, .has_lat = true };
}

/* gate_check() of f against e succeeds, with verdict v and n items. */
static void expect_check(const struct gate_expect *e,
			 const struct gate_figures *f, struct gate_outcome *o,
			 enum gate_verdict v, unsigned int n)
{
	EXPECT_EQ_INT(gate_check(e, f, o), 0);
	EXPECT_EQ_INT(o->verdict, v);
	EXPECT_EQ_U64(o->n_items, n);
}

/* Item k of o: its name, verdict and reason. */
static void expect_item(const struct gate_outcome *o, unsigned int k,
			const char *name, enum gate_verdict v,
			const char *reason)
{
	EXPECT_TRUE(k < o->n_items);
	EXPECT_STREQ(o->items[k].name, name);
	EXPECT_EQ_INT(o->items[k].verdict, v);
	EXPECT_STREQ(o->items[k].reason, reason);
}

static void test_unchecked(void)
{
	struct gate_expect e = { 0 };
	struct gate_figures f = bw(65536, 195.25, 0.37);
	struct gate_outcome o;
	struct gate_run run;

	gate_run_init(&run);
	EXPECT_EQ_INT(gate_run_verdict(&run), GATE_UNCHECKED);
	EXPECT_EQ_INT(gate_check(&e, &f, &o), 0);
	EXPECT_EQ_INT(o.verdict, GATE_UNCHECKED);
	EXPECT_EQ_U64(o.n_items, 0);
	EXPECT_EQ_INT(gate_run_add(&run, &o), 0);
	EXPECT_EQ_INT(gate_run_add(&run, &o), 0);
	EXPECT_EQ_INT(gate_run_verdict(&run), GATE_UNCHECKED);
	EXPECT_EQ_U64(run.sizes, 2);
	EXPECT_EQ_U64(run.sizes_checked, 0);
	EXPECT_STREQ(gate_verdict_name(gate_run_verdict(&run)), "UNCHECKED");
}

static void test_gbps_reasons(void)
{
	struct gate_expect e = { .gbps = 200.0 };
	struct gate_figures f = bw(65536, 195.25, 0.37);
	struct gate_outcome o;

	expect_check(&e, &f, &o, GATE_FAIL, 1);
	expect_item(&o, 0, "bw_gbps", GATE_FAIL,
		    "size 65536: 195.25 Gb/s < expected 200.00 Gb/s");
	EXPECT_STREQ(o.items[0].unit, "Gb/s");
	EXPECT_NEAR(o.items[0].figure, 195.25, 0);
	EXPECT_NEAR(o.items[0].expected, 200.0, 0);
	f.gbps = 201.0;
	expect_check(&e, &f, &o, GATE_PASS, 1);
	expect_item(&o, 0, "bw_gbps", GATE_PASS,
		    "size 65536: 201.00 Gb/s >= expected 200.00 Gb/s");
	/* Exactly the bound passes; a hair below fails, and says why. */
	f.gbps = 200.0;
	expect_check(&e, &f, &o, GATE_PASS, 1);
	f.gbps = 199.999;
	expect_check(&e, &f, &o, GATE_FAIL, 1);
	expect_item(&o, 0, "bw_gbps", GATE_FAIL,
		    "size 65536: 199.999000 Gb/s < expected 200.000000 Gb/s");
	f.gbps = NAN;
	expect_check(&e, &f, &o, GATE_FAIL, 1);
}

/* perftest passes an -a run if any size passes; every size must here. */
static void test_and_across_sizes(void)
{
	static const double gbps[] = { 210, 205, 199.5, 220, 230 };
	struct gate_expect e = { .gbps = 200.0 };
	struct gate_outcome o;
	struct gate_figures f;
	struct gate_run run;
	unsigned i;

	gate_run_init(&run);
	for (i = 0; i < 5; i++) {
		f = bw(4096ULL << i, gbps[i], 1.0);
		EXPECT_EQ_INT(gate_check(&e, &f, &o), 0);
		EXPECT_EQ_INT(gate_run_add(&run, &o), 0);
	}
	EXPECT_EQ_INT(gate_run_verdict(&run), GATE_FAIL);
	EXPECT_EQ_U64(run.sizes, 5);
	EXPECT_EQ_U64(run.sizes_checked, 5);
	EXPECT_EQ_U64(run.sizes_failed, 1);
	EXPECT_EQ_U64(run.gates_failed, 1);
	EXPECT_STREQ(run.first_failure,
		     "size 16384: 199.50 Gb/s < expected 200.00 Gb/s");

	/* All pass -> PASS; then one late failure turns it for good. */
	gate_run_init(&run);
	for (i = 0; i < 3; i++) {
		f = bw(65536, 200.0 + i, 1.0);
		gate_check(&e, &f, &o);
		gate_run_add(&run, &o);
	}
	EXPECT_EQ_INT(gate_run_verdict(&run), GATE_PASS);
	EXPECT_STREQ(run.first_failure, "");
	f = bw(1 << 20, 10.0, 1.0);
	gate_check(&e, &f, &o);
	gate_run_add(&run, &o);
	f = bw(1 << 21, 300.0, 1.0);
	gate_check(&e, &f, &o);
	gate_run_add(&run, &o);
	EXPECT_EQ_INT(gate_run_verdict(&run), GATE_FAIL);
	EXPECT_STREQ(gate_verdict_name(GATE_FAIL), "FAIL");
	EXPECT_EQ_INT(gate_run_add(NULL, &o), -EINVAL);
	EXPECT_EQ_INT(gate_run_add(&run, NULL), -EINVAL);
}

static void test_latency(void)
{
	struct gate_expect e = { .p50_us = 2.0, .p99_us = 3.0 };
	struct gate_figures f = lat(2, 1.5, 3.1);
	struct gate_outcome o;

	expect_check(&e, &f, &o, GATE_FAIL, 2);
	expect_item(&o, 0, "p50_us", GATE_PASS,
		    "size 2: p50 1.50 us <= expected 2.00 us");
	expect_item(&o, 1, "p99_us", GATE_FAIL,
		    "size 2: p99 3.10 us > expected 3.00 us");
	f.p99_us = 3.0;		/* equal is fine: at most */
	expect_check(&e, &f, &o, GATE_PASS, 2);
}

static void test_line_rate(void)
{
	/* 0.95 of 190.2 = 180.69 Gb/s. */
	struct gate_expect e = { .line_rate_frac = 0.95,
				 .achievable_gbps = 190.2 };
	struct gate_figures f = bw(65536, 180.5, 0.34);
	struct gate_outcome o;

	expect_check(&e, &f, &o, GATE_FAIL, 1);
	expect_item(&o, 0, "line_rate", GATE_FAIL,
		    "size 65536: 180.50 Gb/s < expected 180.69 Gb/s (0.95 of 190.20 Gb/s achievable)");
	EXPECT_NEAR(o.items[0].expected, 180.69, 1e-9);
	f.gbps = 181.0;
	expect_check(&e, &f, &o, GATE_PASS, 1);
	expect_item(&o, 0, "line_rate", GATE_PASS,
		    "size 65536: 181.00 Gb/s >= expected 180.69 Gb/s (0.95 of 190.20 Gb/s achievable)");
}

static void test_several_gates(void)
{
	struct gate_expect e = { .gbps = 100.0, .line_rate_frac = 0.5,
				 .achievable_gbps = 190.2, .mpps = 12.0 };
	struct gate_figures f = bw(64, 150.0, 10.5);
	struct gate_outcome o;
	struct gate_run run;

	expect_check(&e, &f, &o, GATE_FAIL, 3);
	EXPECT_EQ_INT(o.items[0].verdict, GATE_PASS);
	EXPECT_EQ_INT(o.items[1].verdict, GATE_PASS);
	expect_item(&o, 2, "msg_rate_mpps", GATE_FAIL,
		    "size 64: 10.50 Mpps < expected 12.00 Mpps");
	EXPECT_STREQ(o.items[2].unit, "Mpps");
	gate_run_init(&run);
	gate_run_add(&run, &o);
	EXPECT_EQ_INT(gate_run_verdict(&run), GATE_FAIL);
	EXPECT_STREQ(run.first_failure,
		     "size 64: 10.50 Mpps < expected 12.00 Mpps");

	/* A latency gate on bandwidth figures fails, saying why. */
	e = (struct gate_expect){ .p99_us = 5.0 };
	expect_check(&e, &f, &o, GATE_FAIL, 1);
	EXPECT_STREQ(o.items[0].reason,
		     "size 64: --expect-p99-us set, but this run measures no latency");
	e = (struct gate_expect){ .gbps = 5.0 };
	f = lat(2, 1.0, 2.0);
	EXPECT_EQ_INT(gate_check(&e, &f, &o), 0);
	EXPECT_STREQ(o.items[0].reason,
		     "size 2: --expect-gbps set, but this run measures no bandwidth");
}

static void test_bad_expectations(void)
{
	struct gate_figures f = bw(65536, 195.25, 0.37);
	struct gate_outcome o = { .n_items = 99 };
	struct gate_expect e;
	char why[160];

	e = (struct gate_expect){ .gbps = -1 };
	EXPECT_EQ_INT(gate_check(&e, &f, &o), -EINVAL);
	e = (struct gate_expect){ .p99_us = NAN };
	EXPECT_EQ_INT(gate_check(&e, &f, &o), -EINVAL);
	e = (struct gate_expect){ .mpps = INFINITY };
	EXPECT_EQ_INT(gate_check(&e, &f, &o), -EINVAL);
	e = (struct gate_expect){ .line_rate_frac = 1.5,
				  .achievable_gbps = 190.2 };
	EXPECT_EQ_INT(gate_check(&e, &f, &o), -ERANGE);
	EXPECT_EQ_INT(gate_validate(&e, true, false, why, sizeof(why)),
		      -ERANGE);
	EXPECT_STREQ(why,
		     "--expect-line-rate is a share of the achievable rate: it must be in (0, 1]");
	e = (struct gate_expect){ .line_rate_frac = 0.95 };
	EXPECT_EQ_INT(gate_check(&e, &f, &o), -EINVAL);
	EXPECT_EQ_INT(gate_validate(&e, true, false, why, sizeof(why)),
		      -EINVAL);
	EXPECT_STREQ(why,
		     "--expect-line-rate needs the achievable rate, which is unknown for this port; use --expect-gbps");
	EXPECT_EQ_U64(o.n_items, 99);	/* untouched */
	EXPECT_EQ_INT(gate_check(NULL, &f, &o), -EINVAL);

	e = (struct gate_expect){ .p99_us = 3.0 };
	EXPECT_EQ_INT(gate_validate(&e, true, false, why, sizeof(why)),
		      -EINVAL);
	EXPECT_STREQ(why,
		     "--expect-p50-us and --expect-p99-us need a latency test (ib_*_lat)");
	EXPECT_EQ_INT(gate_validate(&e, false, true, why, sizeof(why)), 0);
	e = (struct gate_expect){ .mpps = 3.0 };
	EXPECT_EQ_INT(gate_validate(&e, false, true, why, sizeof(why)),
		      -EINVAL);
	EXPECT_STREQ(why,
		     "--expect-gbps, --expect-line-rate and --expect-mpps need a bandwidth test (ib_*_bw)");
	EXPECT_EQ_INT(gate_validate(&e, true, false, NULL, 0), 0);
}

int main(void)
{
	test_unchecked();
	test_gbps_reasons();
	test_and_across_sizes();
	test_latency();
	test_line_rate();
	test_several_gates();
	test_bad_expectations();
	return test_finish("test_gate");
}
