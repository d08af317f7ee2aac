// SPDX-License-Identifier: BSD-2-Clause
/* plan - traffic patterns as rounds of links (see plan.h). */
#include "fabric/plan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"

/* Fills links (or only counts them, links == NULL) as rounds go by. */
struct builder {
	const struct plan *pl;
	struct plan_link *links;
	unsigned int *served; /* links each server has in this round */
	unsigned int n, round, max_port;
};

static void conn(struct builder *b, unsigned int round, unsigned int client,
		 unsigned int server)
{
	if (round != b->round) {
		memset(b->served, 0, b->pl->nodes * sizeof(*b->served));
		b->round = round;
	}
	for (unsigned int s = 0; s < b->pl->streams; s++) {
		unsigned int port = b->pl->base_port + b->served[server]++;

		if (port > b->max_port)
			b->max_port = port;
		if (b->links && b->n < PLAN_LINKS_MAX)
			b->links[b->n] = (struct plan_link){ round, client,
							     server, s, port };
		b->n++;
	}
}

static void gen_pairs(struct builder *b, unsigned int n)
{
	unsigned int r = 0;

	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = i + 1; j < n; j++)
			conn(b, r++, i, j);
}

static void gen_ring(struct builder *b, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		conn(b, 0, i, (i + 1) % n);
}

static void gen_all_to_all(struct builder *b, unsigned int n)
{
	for (unsigned int r = 1; r < n; r++)
		for (unsigned int i = 0; i < n; i++)
			conn(b, r - 1, i, (i + r) % n);
}

static void gen_bisection(struct builder *b, unsigned int n)
{
	for (unsigned int i = 0; i < n / 2; i++)
		conn(b, 0, i, i + n / 2);
}

static void gen_incast(struct builder *b, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++)
		conn(b, 0, i, 0);
}

static void gen_fan_out(struct builder *b, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++)
		conn(b, 0, 0, i);
}

const char *const plan_pattern_names[PLAN_PATTERN_COUNT + 1] = {
	[PLAN_PAIRS] = "pairs",
	[PLAN_RING] = "ring",
	[PLAN_ALL_TO_ALL] = "all-to-all",
	[PLAN_BISECTION] = "bisection",
	[PLAN_INCAST] = "incast",
	[PLAN_FAN_OUT] = "fan-out",
	[PLAN_PATTERN_COUNT] = NULL,
};

static void (*const pattern_gen[PLAN_PATTERN_COUNT])(struct builder *b,
						     unsigned int n) = {
	[PLAN_PAIRS] = gen_pairs,
	[PLAN_RING] = gen_ring,
	[PLAN_ALL_TO_ALL] = gen_all_to_all,
	[PLAN_BISECTION] = gen_bisection,
	[PLAN_INCAST] = gen_incast,
	[PLAN_FAN_OUT] = gen_fan_out,
};

const char *plan_pattern_list(void)
{
	return "pairs, ring, all-to-all, bisection, incast, fan-out";
}

const char *plan_pattern_name(enum plan_pattern p)
{
	return (unsigned int)p < PLAN_PATTERN_COUNT ? plan_pattern_names[p] :
						      "?";
}

static int plan_check(enum plan_pattern pattern, unsigned int nodes,
		      unsigned int streams, unsigned int base_port)
{
	if ((unsigned int)pattern >= PLAN_PATTERN_COUNT)
		return -EINVAL;
	if (nodes < 2 || nodes > PLAN_NODES_MAX) {
		bench_err("a fabric of %u nodes: want 2..%d hosts", nodes,
			  PLAN_NODES_MAX);
		return -EINVAL;
	}
	if (streams < 1 || streams > PLAN_STREAMS_MAX) {
		bench_err("--streams %u: want 1..%d", streams,
			  PLAN_STREAMS_MAX);
		return -EINVAL;
	}
	if (base_port < 1 || base_port > 65535) {
		bench_err("--port %u: want 1..65535", base_port);
		return -EINVAL;
	}
	return 0;
}

/* round_first[] from the links' rounds (generated in round order). */
static int plan_index(struct plan *pl)
{
	unsigned int r = 0;

	pl->rounds = pl->nlinks ? pl->links[pl->nlinks - 1].round + 1 : 0;
	pl->round_first = calloc(pl->rounds + 1, sizeof(*pl->round_first));
	if (!pl->round_first)
		return -ENOMEM;
	for (unsigned int i = 0; i < pl->nlinks; i++)
		while (r <= pl->links[i].round)
			pl->round_first[r++] = i;
	pl->round_first[pl->rounds] = pl->nlinks;
	return 0;
}

int plan_build(struct plan *pl, enum plan_pattern pattern, unsigned int nodes,
	       unsigned int streams, unsigned int base_port)
{
	struct builder b = { .pl = pl };
	int err = plan_check(pattern, nodes, streams, base_port);

	*pl = (struct plan){ pattern, nodes, streams, base_port };
	if (err)
		return err;
	b.served = calloc(nodes, sizeof(*b.served));
	if (!b.served)
		return -ENOMEM;
	pattern_gen[pattern](&b, nodes); /* count */
	if (b.n > PLAN_LINKS_MAX || b.max_port > 65535) {
		bench_err(
			"%s over %u nodes x %u streams: %u links up to port %u: too many (at most %u links, port 65535)",
			plan_pattern_names[pattern], nodes, streams, b.n,
			b.max_port, PLAN_LINKS_MAX);
		free(b.served);
		return b.n > PLAN_LINKS_MAX ? -E2BIG : -EINVAL;
	}
	pl->nlinks = b.n;
	b.links = pl->links = calloc(b.n ? b.n : 1, sizeof(*pl->links));
	if (b.links) {
		b.n = 0;
		b.round = 0;
		memset(b.served, 0, nodes * sizeof(*b.served));
		pattern_gen[pattern](&b, nodes); /* fill */
	}
	free(b.served);
	err = b.links ? plan_index(pl) : -ENOMEM;
	if (err)
		plan_free(pl);
	return err;
}

const struct plan_link *plan_round(const struct plan *pl, unsigned int r,
				   unsigned int *count)
{
	if (r >= pl->rounds) {
		*count = 0;
		return NULL;
	}
	*count = pl->round_first[r + 1] - pl->round_first[r];
	return &pl->links[pl->round_first[r]];
}

bool plan_link_has(const struct plan_link *l, unsigned int node)
{
	return l->client == node || l->server == node;
}

bool plan_idle(const struct plan *pl, unsigned int node)
{
	for (unsigned int i = 0; i < pl->nlinks; i++)
		if (plan_link_has(&pl->links[i], node))
			return false;
	return true;
}

void plan_free(struct plan *pl)
{
	free(pl->links);
	free(pl->round_first);
	pl->links = NULL;
	pl->round_first = NULL;
	pl->nlinks = pl->rounds = 0;
}
