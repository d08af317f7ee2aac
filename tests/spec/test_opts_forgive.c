// SPDX-License-Identifier: BSD-2-Clause
/* Tests for common/spec/opts_forgive.c: spellings, prefixes, "did you
 * mean", ambiguities; on a small table and through opts_parse. */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <stdlib.h>

#include "doctor/doctor.h"
#include "spec/opts.h"
#include "spec/opts_forgive.h"
#include "tests/test.h"

static const struct option small[] = {
	{ "report_gbits", no_argument, NULL, 1 },
	{ "report-both", no_argument, NULL, 2 },
	{ "expect-gbps", required_argument, NULL, 3 },
	{ "expect-mpps", required_argument, NULL, 4 },
	{ "noPeak", no_argument, NULL, 'N' },
	{ "size", required_argument, NULL, 's' },
	{ NULL, 0, NULL, 0 },
};

static char err[256];

/* opts_forgive over a NULL-terminated list; the respelled word at `at`. */
static const char *respell(const char *const *args, int at, int *ret)
{
	static char word[128];
	char *argv[16];
	char **out;
	int argc = 0;

	argv[argc++] = (char *)"tool";
	for (; *args && argc < 15; args++)
		argv[argc++] = (char *)*args;
	argv[argc] = NULL;
	err[0] = '\0';
	out = opts_forgive(small, ":s:N", argc, argv, ret, err, sizeof(err));
	if (!out)
		return NULL;
	snprintf(word, sizeof(word), "%s", out[at]);
	free(out);
	return word;
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void test_spellings(void)
{
	int ret;

	EXPECT_STREQ(respell(ARGS("--report-gbits"), 1, &ret),
		     "--report_gbits");
	EXPECT_STREQ(respell(ARGS("--report_gbits"), 1, &ret),
		     "--report_gbits");
	EXPECT_STREQ(respell(ARGS("--REPORT_BOTH"), 1, &ret), "--report-both");
	EXPECT_STREQ(respell(ARGS("--nopeak"), 1, &ret), "--noPeak");
	EXPECT_STREQ(respell(ARGS("--expect_gbps=5"), 1, &ret),
		     "--expect-gbps=5");
	/* a unique prefix is completed; a value is left alone */
	EXPECT_STREQ(respell(ARGS("--report_g"), 1, &ret), "--report_gbits");
	EXPECT_STREQ(respell(ARGS("--expect-g", "--report_x"), 2, &ret),
		     "--report_x");
	EXPECT_STREQ(respell(ARGS("-s", "--xyz", "--", "--zzz"), 2, &ret),
		     "--xyz");
	EXPECT_STREQ(respell(ARGS("--", "--zzz"), 2, &ret), "--zzz");
	EXPECT_EQ_INT(opts_forgive_cmp("report-gbits", "REPORT_gbits"), 0);
	EXPECT_TRUE(opts_forgive_cmp("report", "report-both") != 0);
}

static void test_mistakes(void)
{
	int ret;

	EXPECT_TRUE(respell(ARGS("--expect"), 1, &ret) == NULL);
	EXPECT_EQ_INT(ret, -EINVAL);
	EXPECT_TRUE(strstr(err, "ambiguous option '--expect': could be "
			   "--expect-gbps or --expect-mpps") != NULL);
	EXPECT_TRUE(respell(ARGS("--reprot-gbits"), 1, &ret) == NULL);
	EXPECT_TRUE(strstr(err, "unknown option '--reprot-gbits': did you "
			   "mean --report_gbits?") != NULL);
	EXPECT_TRUE(respell(ARGS("--expect-gbpz"), 1, &ret) == NULL);
	EXPECT_TRUE(strstr(err, "did you mean --expect-gbps?") != NULL);
	EXPECT_TRUE(respell(ARGS("--zebra"), 1, &ret) == NULL);
	EXPECT_STREQ(err, "unknown option '--zebra' (--help lists them)");
}

static const struct bench_desc bw_desc = {
	.name = "ib_write_bw", .summary = "RDMA write bandwidth",
	.verb = BENCH_VERB_WRITE, .measure = BENCH_MEASURE_BW,
	.default_size = 65536, .default_iters = 5000,
};

/* Through opts_parse: both spellings of the tools' options. */
static int parse(struct bench_cfg *cfg, const char *a, const char *b)
{
	char *argv[] = { (char *)"ib_write_bw", (char *)a, (char *)b, NULL };

	return opts_parse(cfg, &bw_desc, b ? 3 : 2, argv, err, sizeof(err));
}

static void test_parse(void)
{
	struct bench_cfg cfg;

	EXPECT_EQ_INT(parse(&cfg, "--report-gbits", NULL), 0);
	EXPECT_TRUE(cfg.report_gbits);
	EXPECT_EQ_INT(parse(&cfg, "--report_gbits", NULL), 0);
	EXPECT_TRUE(cfg.report_gbits);
	EXPECT_EQ_INT(parse(&cfg, "--tx_depth", "7"), 0);
	EXPECT_EQ_U64(cfg.tx_depth, 7);
	EXPECT_EQ_INT(parse(&cfg, "--connect_timeout=9", NULL), 0);
	EXPECT_EQ_U64(cfg.connect_timeout_s, 9);
	EXPECT_EQ_INT(parse(&cfg, "--expect-gbps", "5"), 0);
	EXPECT_EQ_INT(parse(&cfg, "--expect_gbps", "5"), 0);
	EXPECT_NEAR(cfg.expect_gbps, 5, 0);
	EXPECT_EQ_INT(parse(&cfg, "--expect", "5"), -EINVAL);
	EXPECT_TRUE(strstr(err, "--expect-gbps") &&
		    strstr(err, "--expect-p99-us"));
	EXPECT_EQ_INT(parse(&cfg, "--report_gbist", NULL), -EINVAL);
	EXPECT_TRUE(strstr(err, "did you mean --report_gbits?") != NULL);
	/* refused perftest options keep their answer in either spelling */
	EXPECT_EQ_INT(parse(&cfg, "--aes-xts", NULL), -EINVAL);
	EXPECT_TRUE(strstr(err, "not supported") != NULL);
}

/* ib_doctor: --version, and its options forgiven the same way. */
static void test_doctor(void)
{
	char *argv[] = { (char *)"ib_doctor", (char *)"--VERSION", NULL };
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	EXPECT_EQ_INT(doctor_cli(2, argv, NULL, NULL, out), 0);
	fclose(out);
	EXPECT_TRUE(text && strstr(text, "ib_doctor (rdmabench) ") == text);
	free(text);
}

int main(void)
{
	test_doctor();
	test_spellings();
	test_mistakes();
	test_parse();
	return test_finish("test_opts_forgive");
}
