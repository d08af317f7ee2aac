// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_opts_rate - perftest's rate limiter options (spec/opts_rate.c):
 * what they resolve to, perftest's refusals with what to do, the notes
 * where nothing is paced, and the SW limiter's messages a second.
 */
#include <errno.h>
#include <string.h>

#include "spec/opts.h"
#include "spec/opts_rate.h"
#include "tests/test.h"

static const struct bench_desc bw_desc = {
	.name = "ib_write_bw", .verb = BENCH_VERB_WRITE,
	.measure = BENCH_MEASURE_BW, .default_size = 65536,
	.default_iters = 5000,
};

static const struct bench_desc lat_desc = {
	.name = "ib_write_lat", .verb = BENCH_VERB_WRITE,
	.measure = BENCH_MEASURE_LAT, .default_size = 2,
	.default_iters = 1000,
};

static char err[256];

/* opts_parse + opts_check of args (the program name added). */
static int run(struct bench_cfg *cfg, const struct bench_desc *d,
	       const char *const *args)
{
	char store[16][64], *argv[17];
	int argc = 0, ret;

	snprintf(store[argc], sizeof(store[argc]), "%s", d->name);
	argv[argc] = store[argc];
	for (argc++; *args && argc < 16; args++, argc++) {
		snprintf(store[argc], sizeof(store[argc]), "%s", *args);
		argv[argc] = store[argc];
	}
	argv[argc] = NULL;
	err[0] = '\0';
	ret = opts_parse(cfg, d, argc, argv, err, sizeof(err));
	return ret ? ret : opts_check(cfg, d, err, sizeof(err));
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void test_resolve(void)
{
	struct bench_cfg c;

	EXPECT_EQ_INT(run(&c, &bw_desc, ARGS("h")), 0);
	EXPECT_EQ_INT((int)c.rate_limiter, OPTS_RATE_OFF);
	/* --rate_limit alone: HW, perftest's default */
	EXPECT_EQ_INT(run(&c, &bw_desc, ARGS("--rate_limit", "10", "h")), 0);
	EXPECT_EQ_INT((int)c.rate_limiter, OPTS_RATE_HW);
	EXPECT_NEAR(opts_rate_static_gbps(c.rate_limit), 10.0, 1e-9);
	EXPECT_EQ_INT(run(&c, &bw_desc, ARGS("--rate_limit", "0.02",
					     "--rate_limit_type", "SW", "-t",
					     "64", "h")), 0);
	EXPECT_EQ_INT((int)c.rate_limiter, OPTS_RATE_SW);
	EXPECT_EQ_INT((int)c.burst_size, 64); /* -t */
	/* 0.02 Gb/s of 4096 B: 610.35 messages a second */
	EXPECT_NEAR(opts_rate_per_s(&c, 4096), 0.02e9 / 8 / 4096, 1e-6);
	EXPECT_EQ_INT(run(&c, &bw_desc, ARGS("--rate_limit", "2",
					     "--rate_units", "M",
					     "--rate_limit_type", "SW",
					     "--burst_size", "8", "h")), 0);
	EXPECT_NEAR(opts_rate_per_s(&c, 1024), 2048.0, 1e-9);
	EXPECT_EQ_INT((int)c.burst_size, 8);
}

static void test_refusals(void)
{
	const struct {
		const struct bench_desc *d;
		const char *const *args;
		const char *msg;
	} rows[] = {
		{ &bw_desc, ARGS("--rate_limit", "3", "h"),
		  "the HW limiter sets one of the static rates" },
		{ &bw_desc, ARGS("--rate_limit", "0", "h"),
		  "must be a number above 0" },
		{ &bw_desc, ARGS("--rate_limit", "10", "-R", "h"),
		  "drop -R/-z, or add --rate_limit_type SW" },
		{ &bw_desc, ARGS("--burst_size", "4", "h"),
		  "--burst_size needs a rate limiter" },
		{ &lat_desc, ARGS("--rate_limit", "1", "--rate_limit_type",
				  "SW", "h"), "one-way bandwidth run" },
		{ &bw_desc, ARGS("--rate_limit_type", "PP", "h"),
		  "packet pacing is raw Ethernet's" },
		{ &bw_desc, ARGS("--rate_limit", "10", "--rate_units", "p",
				 "h"), "the HW limiter takes g or M" },
		{ &bw_desc, ARGS("--rate_limit", "1", "--rate_limit_type",
				 "SW", "--run_infinitely", "h"),
		  "--run_infinitely with a rate limiter" },
	};
	struct bench_cfg c;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		EXPECT_EQ_INT(run(&c, rows[i].d, rows[i].args), -EINVAL);
		if (!strstr(err, rows[i].msg))
			fprintf(stderr, "  row %zu: \"%s\"\n", i, err);
		EXPECT_TRUE(strstr(err, rows[i].msg) != NULL);
	}
}

/* Nothing paced, said: the server, SW with -b, a type without a rate. */
static void test_notes(void)
{
	struct bench_cfg c;

	EXPECT_EQ_INT(run(&c, &bw_desc, ARGS("--rate_limit", "10")), 0);
	EXPECT_EQ_INT((int)c.rate_limiter, OPTS_RATE_OFF);
	EXPECT_TRUE(strstr(c.noop_notes, "the client paces") != NULL);
	EXPECT_EQ_INT(run(&c, &bw_desc, ARGS("--rate_limit", "1", "-b",
					     "--rate_limit_type", "SW", "h")),
		      0);
	EXPECT_EQ_INT((int)c.rate_limiter, OPTS_RATE_OFF);
	EXPECT_TRUE(strstr(c.noop_notes, "with -b") != NULL);
	EXPECT_EQ_INT(run(&c, &bw_desc, ARGS("--rate_limit_type", "SW", "h")),
		      0);
	EXPECT_TRUE(strstr(c.noop_notes, "no rate to keep") != NULL);
	/* HW that the port did not take: SW where it paces, else none */
	EXPECT_EQ_INT(run(&c, &bw_desc, ARGS("--rate_limit", "10", "h")), 0);
	opts_rate_no_hw(&c, &bw_desc);
	EXPECT_EQ_INT((int)c.rate_limiter, OPTS_RATE_SW);
	EXPECT_EQ_INT(run(&c, &lat_desc, ARGS("--rate_limit", "10", "h")), 0);
	opts_rate_no_hw(&c, &lat_desc);
	EXPECT_EQ_INT((int)c.rate_limiter, OPTS_RATE_OFF);
	EXPECT_TRUE(strstr(c.noop_notes, "InfiniBand's") != NULL);
}

int main(void)
{
	test_resolve();
	test_refusals();
	test_notes();
	return test_finish("test_opts_rate");
}
