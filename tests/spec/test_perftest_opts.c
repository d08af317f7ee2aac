// SPDX-License-Identifier: BSD-2-Clause
/*
 * Every perftest option of the eight tools gets an answer: each line of
 * tests/fixtures/perftest-options.txt (perftest's own option list), with a
 * plausible value where it takes one, goes through opts_parse and
 * opts_check of every tool as a client. It must be honoured (0) or refused
 * with a message that names the option, says why and what to do instead;
 * a bare "unknown option" fails the test, and so does an option honoured
 * by a tool whose perftest --help does not list it. One perftest takes
 * there and ignores (-t on a latency tool, --tcp) is accepted, not used,
 * and named in the run's " Changes nothing" lists (issue 26).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "spec/opts.h"
#include "tests/test.h"
#include "tests/spec/perftest_samples.h"

#define SERVER "192.0.2.1"

#define TOOL(n, v, m, size, iters) \
	{ .name = n, .summary = n, .verb = BENCH_VERB_##v, \
	  .measure = BENCH_MEASURE_##m, .default_size = size, \
	  .default_iters = iters }

static const struct bench_desc all_tools[] = {
	TOOL("ib_write_bw", WRITE, BW, 65536, 5000),
	TOOL("ib_write_lat", WRITE, LAT, 2, 1000),
	TOOL("ib_read_bw", READ, BW, 65536, 1000),
	TOOL("ib_read_lat", READ, LAT, 2, 1000),
	TOOL("ib_send_bw", SEND, BW, 65536, 1000),
	TOOL("ib_send_lat", SEND, LAT, 2, 1000),
	TOOL("ib_atomic_bw", ATOMIC_FAA, BW, 8, 1000),
	TOOL("ib_atomic_lat", ATOMIC_FAA, LAT, 8, 1000),
};
#define TOOL_COUNT (sizeof(all_tools) / sizeof(all_tools[0]))

/* Values a perftest user would give; "1" for the rest. */
static const struct { const char *name, *value; } samples[] = {
	PERFTEST_SAMPLES,
	{ "rate_limit_type", "HW" }, { "rate_units", "g" },
};

/* What a refusal must carry: an imperative for what to do instead. */
static const char *const alternatives[] = {
	"use ", "add ", "drop ", "give ", "run ", "pick ", "size ",
	"swap ", "measure ",
};

struct tally {
	unsigned int honoured, ignored, refused, bare, other_tool;
};

static const char *sample(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
		if (!strcmp(samples[i].name, name))
			return samples[i].value;
	return "1";
}

static bool has_alternative(const char *msg)
{
	size_t i;

	for (i = 0; i < sizeof(alternatives) / sizeof(alternatives[0]); i++)
		if (strstr(msg, alternatives[i]))
			return true;
	return false;
}

/* A refusal names the option (long, or short as perftest users give it),
 * gives a reason after ':' and an alternative. */
static bool good_refusal(const char *msg, const char *name, char shrt)
{
	char s[4] = { '-', shrt, '\0' };
	char l[80];

	snprintf(l, sizeof(l), "--%s", name);
	return !strstr(msg, "unknown option") &&
	       (strstr(msg, l) || (shrt != '-' && strstr(msg, s))) &&
	       strchr(msg, ':') && has_alternative(msg);
}

/* Is tool d in the fixture's tools column ("-": in no --help)? */
static bool perftest_lists(const char *tools, const struct bench_desc *d)
{
	const char *p = strstr(tools, d->name + 3); /* "write_bw" */
	size_t n = strlen(d->name + 3);

	return !strcmp(tools, "-") ||
	       (p && (p == tools || p[-1] == ',') && (!p[n] || p[n] == ','));
}

/* One option on one tool: "--name [value] SERVER" as a client, or
 * "-c [value] SERVER" when shrt is not '-'. An option perftest's --help
 * of that tool does not list must not be honoured there. */
static void one(const struct bench_desc *d, const char *name, char shrt,
		bool has_arg, const char *tools, struct tally *t)
{
	char a0[32], a1[96], a2[96], a3[32], err[512] = "";
	char *argv[] = { a0, a1, a2, a3, NULL };
	struct bench_cfg cfg;
	int argc = 0, ret;

	snprintf(argv[argc++], sizeof(a0), "%s", d->name);
	if (shrt != '-')
		snprintf(argv[argc++], sizeof(a1), "-%c", shrt);
	else
		snprintf(argv[argc++], sizeof(a1), "--%s", name);
	if (has_arg)
		snprintf(argv[argc++], sizeof(a2), "%s", sample(name));
	snprintf(argv[argc++], sizeof(a3), "%s", SERVER);
	argv[argc] = NULL;
	ret = opts_parse(&cfg, d, argc, argv, err, sizeof(err));
	if (!ret && !cfg.show_help && !cfg.show_version)
		EXPECT_STREQ(cfg.server_addr, SERVER); /* the value is not it */
	if (!ret && !cfg.show_help && !cfg.show_version)
		ret = opts_check(&cfg, d, err, sizeof(err));
	if (!ret && (strstr(cfg.noop_ignored, name) ||
		     strstr(cfg.noop_notes, name))) {
		t->ignored++;
		return;
	}
	if (!ret && !perftest_lists(tools, d) && strcmp(name, "help") &&
	    strcmp(name, "version")) {
		t->other_tool++;
		fprintf(stderr, "  %s %s: honoured, but perftest's %s --help "
			"has no such option\n", d->name, a1, d->name);
	}
	if (!ret) {
		t->honoured++;
		return;
	}
	if (good_refusal(err, name, shrt)) {
		t->refused++;
		return;
	}
	t->bare++;
	fprintf(stderr, "  %s %s: \"%s\"\n", d->name, a1, err);
}

static FILE *open_fixture(void)
{
	const char *src = getenv("TEST_SRCDIR");
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/tests/fixtures/perftest-options.txt",
		 src && src[0] ? src : ".");
	return fopen(path, "r");
}

static void test_every_option(void)
{
	struct tally t = { 0 };
	unsigned int lines = 0;
	char line[512], name[80], shrt[8], tl[256];
	int has_arg;
	size_t i;
	FILE *f = open_fixture();

	EXPECT_TRUE(f != NULL);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%79s %7s %d %255s", name, shrt, &has_arg,
			   tl) != 4) {
			fprintf(stderr, "  bad fixture line: %s", line);
			EXPECT_TRUE(false);
			continue;
		}
		lines++;
		for (i = 0; i < TOOL_COUNT; i++) {
			one(&all_tools[i], name, '-', has_arg, tl, &t);
			if (shrt[0] != '-')
				one(&all_tools[i], name, shrt[0], has_arg, tl, &t);
		}
	}
	fclose(f);
	fprintf(stderr, "perftest options: %u x %zu tools: %u honoured, %u "
		"taken and ignored (noted), %u refused with why, %u bare\n",
		lines, TOOL_COUNT, t.honoured, t.ignored, t.refused, t.bare);
	EXPECT_TRUE(lines >= 150);
	EXPECT_EQ_INT(t.bare, 0);
	EXPECT_EQ_INT(t.other_tool, 0);
}

int main(void)
{
	test_every_option();
	return test_finish("test_perftest_opts");
}
