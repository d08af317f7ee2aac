// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_fabric_plan - every pattern of fabric/plan.c over 2..8 nodes and
 * 1..3 streams: the set of connections against the pattern's definition,
 * the number of rounds and links against their formulas, streams in the
 * same round as their connection, ports unique per server node and round,
 * all-to-all's rounds with each node a client once and a server once.
 */
#include <errno.h>
#include <stdlib.h>

#include "fabric/linkcmd.h"
#include "fabric/plan.h"
#include "tests/test.h"

#define N_MAX 8

/* Connections client -> server the pattern must have over n nodes. */
static int want(enum plan_pattern p, unsigned int n, unsigned int c,
		unsigned int s)
{
	if (c == s)
		return 0;
	switch (p) {
	case PLAN_PAIRS:
		return c < s;
	case PLAN_RING:
		return s == (c + 1) % n;
	case PLAN_ALL_TO_ALL:
		return 1;
	case PLAN_BISECTION:
		return c < n / 2 && s == c + n / 2;
	case PLAN_INCAST:
		return s == 0;
	case PLAN_FAN_OUT:
		return c == 0;
	default:
		return -1;
	}
}

static unsigned int want_rounds(enum plan_pattern p, unsigned int n)
{
	return p == PLAN_PAIRS	    ? n * (n - 1) / 2 :
	       p == PLAN_ALL_TO_ALL ? n - 1 :
				      1;
}

static unsigned int want_conns(enum plan_pattern p, unsigned int n)
{
	switch (p) {
	case PLAN_PAIRS:
		return n * (n - 1) / 2;
	case PLAN_RING:
		return n;
	case PLAN_ALL_TO_ALL:
		return n * (n - 1);
	case PLAN_BISECTION:
		return n / 2;
	default:
		return n - 1;
	}
}

/* ports unique per (round, server); each node once a client and once a
 * server per round of all-to-all (with one stream) */
static void check_rounds(const struct plan *pl)
{
	for (unsigned int r = 0; r < pl->rounds; r++) {
		unsigned int k, as_c[N_MAX] = { 0 }, as_s[N_MAX] = { 0 };
		const struct plan_link *l = plan_round(pl, r, &k);

		EXPECT_TRUE(k > 0);
		for (unsigned int i = 0; i < k; i++) {
			EXPECT_EQ_INT(l[i].round, r);
			as_c[l[i].client]++;
			as_s[l[i].server]++;
			for (unsigned int j = 0; j < i; j++)
				EXPECT_TRUE(l[j].server != l[i].server ||
					    l[j].port != l[i].port);
			EXPECT_TRUE(l[i].port >= pl->base_port &&
				    l[i].port <
					    pl->base_port +
						    pl->nodes * pl->streams);
		}
		for (unsigned int v = 0;
		     pl->pattern == PLAN_ALL_TO_ALL && v < pl->nodes; v++) {
			EXPECT_EQ_INT(as_c[v], pl->streams);
			EXPECT_EQ_INT(as_s[v], pl->streams);
		}
	}
}

static void check_one(enum plan_pattern p, unsigned int n, unsigned int st)
{
	unsigned int got[N_MAX][N_MAX] = { { 0 } },
		     streams[N_MAX][N_MAX] = { { 0 } };
	unsigned int round_of[N_MAX][N_MAX];
	struct plan pl;

	EXPECT_EQ_INT(plan_build(&pl, p, n, st, 18515), 0);
	EXPECT_EQ_INT(pl.rounds, want_rounds(p, n));
	EXPECT_EQ_INT(pl.nlinks, want_conns(p, n) * st);
	for (unsigned int i = 0; i < pl.nlinks; i++) {
		const struct plan_link *l = &pl.links[i];

		if (!got[l->client][l->server]++)
			round_of[l->client][l->server] = l->round;
		EXPECT_EQ_INT(l->round, round_of[l->client][l->server]);
		streams[l->client][l->server] |= 1U << l->stream;
	}
	for (unsigned int c = 0; c < n; c++)
		for (unsigned int s = 0; s < n; s++) {
			EXPECT_EQ_INT(got[c][s],
				      (unsigned int)want(p, n, c, s) * st);
			if (got[c][s])
				EXPECT_EQ_INT(streams[c][s], (1U << st) - 1);
		}
	check_rounds(&pl);
	for (unsigned int v = 0; v < n; v++)
		EXPECT_EQ_INT(plan_idle(&pl, v),
			      p == PLAN_BISECTION && n % 2 && v == n - 1);
	plan_free(&pl);
}

static void test_patterns(void)
{
	for (unsigned int p = 0; p < PLAN_PATTERN_COUNT; p++)
		for (unsigned int n = 2; n <= N_MAX; n++)
			for (unsigned int st = 1; st <= 3; st++)
				check_one((enum plan_pattern)p, n, st);
}

static void test_examples(void)
{
	struct plan pl;
	unsigned int k;
	const struct plan_link *l;

	/* incast of 4 nodes x 2 streams: node 0 serves 6 links on 6 ports */
	EXPECT_EQ_INT(plan_build(&pl, PLAN_INCAST, 4, 2, 100), 0);
	l = plan_round(&pl, 0, &k);
	EXPECT_EQ_INT(k, 6);
	for (unsigned int i = 0; i < k; i++) {
		EXPECT_EQ_INT(l[i].port, 100 + i);
		EXPECT_EQ_INT(l[i].client, 1 + i / 2);
		EXPECT_EQ_INT(l[i].stream, i % 2);
	}
	EXPECT_TRUE(plan_round(&pl, 1, &k) == NULL && k == 0);
	plan_free(&pl);
	/* bisection of 5: 0->2, 1->3, node 4 idle */
	EXPECT_EQ_INT(plan_build(&pl, PLAN_BISECTION, 5, 1, 100), 0);
	EXPECT_EQ_INT(pl.nlinks, 2);
	EXPECT_TRUE(pl.links[0].client == 0 && pl.links[0].server == 2);
	EXPECT_TRUE(pl.links[1].client == 1 && pl.links[1].server == 3);
	plan_free(&pl);
	/* pairs of 3: rounds 0->1, 0->2, 1->2 */
	EXPECT_EQ_INT(plan_build(&pl, PLAN_PAIRS, 3, 1, 100), 0);
	EXPECT_TRUE(pl.links[2].client == 1 && pl.links[2].server == 2 &&
		    pl.links[2].round == 2 && pl.links[2].port == 100);
	plan_free(&pl);
}

static void test_refusals(void)
{
	struct plan pl;

	EXPECT_EQ_INT(plan_build(&pl, PLAN_RING, 1, 1, 100), -EINVAL);
	EXPECT_EQ_INT(plan_build(&pl, PLAN_RING, 4, 0, 100), -EINVAL);
	EXPECT_EQ_INT(plan_build(&pl, PLAN_RING, 4, PLAN_STREAMS_MAX + 1, 100),
		      -EINVAL);
	EXPECT_EQ_INT(plan_build(&pl, PLAN_INCAST, 8, 2, 65530), -EINVAL);
	EXPECT_EQ_INT(plan_build(&pl, PLAN_RING, 4, 1, 0), -EINVAL);
	EXPECT_TRUE(plan_pattern_names[PLAN_PATTERN_COUNT] == NULL);
	for (unsigned int i = 0; i < PLAN_PATTERN_COUNT; i++) {
		const char *name = plan_pattern_name((enum plan_pattern)i);

		EXPECT_STREQ(plan_pattern_names[i], name);
		EXPECT_TRUE(strstr(plan_pattern_list(), name) != NULL);
	}
}

/* the commands of one link: argv, file name, shell quoting */
static void test_linkcmd(void)
{
	struct hostlist hl = { 0 };
	char a0[] = "-D", a1[] = "5", a2[] = "it's a b";
	char *args[] = { a0, a1, a2 };
	struct linkcmd_ctx x = { "ib_write_bw", "out", 30, 3, args, &hl };
	struct plan_link l = { 2, 0, 1, 1, 18516 };
	struct linkcmd c;
	char *text = NULL, file[128];
	size_t len = 0;
	FILE *f;

	EXPECT_EQ_INT(hostlist_parse(&hl, "n1,n2"), 0);
	EXPECT_EQ_INT(linkcmd_build(&c, &x, &l, true), 0);
	EXPECT_EQ_INT(c.argc, 6);
	EXPECT_STREQ(c.argv[2], "18516");
	EXPECT_TRUE(c.argv[6] == NULL);
	EXPECT_EQ_INT(linkcmd_build(&c, &x, &l, false), 0);
	EXPECT_EQ_INT(c.argc, 11);
	EXPECT_STREQ(c.argv[6], "out/link_r002_n1_n2_s1.json");
	EXPECT_STREQ(c.argv[10], "n2");
	EXPECT_EQ_INT(linkcmd_file(file, sizeof(file), &hl, &l), 0);
	EXPECT_STREQ(file, "link_r002_n1_n2_s1.json");
	EXPECT_EQ_INT(linkcmd_file(file, 8, &hl, &l), -ENAMETOOLONG);
	f = open_memstream(&text, &len);
	linkcmd_print(f, c.argv);
	fclose(f);
	EXPECT_STREQ(
		text,
		"ib_write_bw -p 18516 --connect-timeout 30 --json out/link_r002_n1_n2_s1.json -D 5 'it'\\''s a b' n2");
	free(text);
	x.nargs = LINKCMD_ARGS_MAX + 1;
	EXPECT_EQ_INT(linkcmd_build(&c, &x, &l, false), -E2BIG);
	hostlist_free(&hl);
}

int main(void)
{
	test_linkcmd();
	test_patterns();
	test_examples();
	test_refusals();
	return test_finish("test_fabric_plan");
}
