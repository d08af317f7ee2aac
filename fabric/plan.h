/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * plan - which node tests which, in which round: one planner for every
 * launcher (mpirun, srun, Kubernetes, --rank). Nodes are indexes into a
 * hostlist. A connection (client node -> server node) becomes --streams
 * links, each a process pair of its own; a round is a set of links that
 * run at the same time, and the next round starts when all have ended.
 * A link's port is base + the number of links its server node already
 * serves in that round, so several servers on one node never collide.
 *
 * Patterns (n nodes, S streams; links = connections x S):
 *   pairs       i -> j for each i < j, one connection a round:
 *               n(n-1)/2 rounds (finds the one bad link)
 *   ring        i -> i+1 mod n, all at once: 1 round, n connections
 *   all-to-all  every ordered pair, as n-1 rounds of shifts
 *               (round r: i -> i+r mod n), so each node is a client
 *               once and a server once in every round: n(n-1) connections
 *   bisection   i -> i + n/2 for i < n/2, all at once; with n odd the
 *               last node sits out (plan_idle() names it)
 *   incast      every other node -> node 0, all at once: n-1 connections
 *   fan-out     node 0 -> every other node, all at once: n-1 connections
 * Pure; plan_build allocates, plan_free releases.
 */
#ifndef RDMABENCH_FABRIC_PLAN_H
#define RDMABENCH_FABRIC_PLAN_H

#include <stdbool.h>

enum plan_pattern {
	PLAN_PAIRS,
	PLAN_RING,
	PLAN_ALL_TO_ALL,
	PLAN_BISECTION,
	PLAN_INCAST,
	PLAN_FAN_OUT,
	PLAN_PATTERN_COUNT
};

#define PLAN_NODES_MAX 4096
#define PLAN_STREAMS_MAX 64
#define PLAN_LINKS_MAX (1U << 22)

struct plan_link {
	unsigned int round, client, server, stream, port;
};

struct plan {
	enum plan_pattern pattern;
	unsigned int nodes, streams, base_port;
	unsigned int rounds, nlinks;
	struct plan_link *links; /* by round, then as generated */
	unsigned int *round_first; /* rounds + 1 entries */
};

/* The patterns' names by enum plan_pattern, NULL last (ib_fabric's
 * --pattern takes one: fabric/cli.c). */
extern const char *const plan_pattern_names[PLAN_PATTERN_COUNT + 1];

/* PLAN_RING -> "ring". */
const char *plan_pattern_name(enum plan_pattern p);

/* The names of every pattern, "pairs, ring, ..." (static storage). */
const char *plan_pattern_list(void);

/*
 * Build the plan of pattern over nodes, streams links per connection,
 * ports from base_port. -EINVAL (logged) for nodes outside 2..PLAN_NODES_MAX, streams
 * outside 1..PLAN_STREAMS_MAX or a port past 65535; -E2BIG past
 * PLAN_LINKS_MAX links; -ENOMEM.
 */
int plan_build(struct plan *pl, enum plan_pattern pattern, unsigned int nodes,
	       unsigned int streams, unsigned int base_port);

/* The links of round r: *count of them from the returned one. */
const struct plan_link *plan_round(const struct plan *pl, unsigned int r,
				   unsigned int *count);

/* Whether node takes part in link (as its client or its server). */
bool plan_link_has(const struct plan_link *l, unsigned int node);

/* Whether node is in no link at all (the odd node of a bisection). */
bool plan_idle(const struct plan *pl, unsigned int node);

void plan_free(struct plan *pl);

#endif
