// SPDX-License-Identifier: BSD-2-Clause
/*
 * ntest_judge - nccl-tests' output against its gates (see ntest.h): the
 * transport, the expectation (given, or derived from the node's NICs:
 * docs/fabric.md has the formula and its sources), #wrong.
 */
#include <stdio.h>
#include <string.h>

#include "fabric/ntest.h"

static const char *const net_names[] = {
	[NTEST_NET_UNKNOWN] = "unknown", [NTEST_NET_NONE] = "none",
	[NTEST_NET_IB] = "IB",		 [NTEST_NET_IB_NO_GDR] = "IB-no-GDRDMA",
	[NTEST_NET_PLUGIN] = "plugin",	 [NTEST_NET_INTRA] = "intra-node",
	[NTEST_NET_SOCKET] = "Socket",
};

static const char *const verdict_names[] = {
	[NTEST_PASS] = "passed",     [NTEST_BELOW] = "below",
	[NTEST_SOCKET] = "socket",   [NTEST_ERROR] = "error",
	[NTEST_CORRUPT] = "corrupt",
};

/* Exit codes of the project's table (spec/bench.h's values). */
static const int verdict_exit[] = {
	[NTEST_PASS] = 0,  [NTEST_BELOW] = 3,	[NTEST_SOCKET] = 3,
	[NTEST_ERROR] = 1, [NTEST_CORRUPT] = 4,
};

/* The tests and the bound of their busbw (docs/fabric.md). */
static const struct {
	const char *prefix;
	enum ntest_bound bound;
} test_bounds[] = {
	{ "all_reduce", NTEST_BOUND_NODE },
	{ "all_gather", NTEST_BOUND_NODE },
	{ "reduce_scatter", NTEST_BOUND_NODE },
	{ "alltoall", NTEST_BOUND_ALLTOALL },
	{ "sendrecv", NTEST_BOUND_NIC },
};

const char *ntest_net_name(enum ntest_net n)
{
	return net_names[n];
}

const char *ntest_verdict_name(enum ntest_verdict v)
{
	return verdict_names[v];
}

/*
 * The one function to swap for ib_doctor's host-aware verdict. The
 * channels first: a run of one node's GPUs logs "Using network Socket"
 * (the network set up for other nodes) while every channel goes via P2P.
 */
enum ntest_net ntest_transport(const struct nccl_log *l)
{
	if (!l->nccl_lines)
		return NTEST_NET_UNKNOWN;
	if (l->paths[NCCL_PATH_SOCKET])
		return NTEST_NET_SOCKET;
	if (nccl_log_intra_node(l, NULL, 0))
		return NTEST_NET_INTRA;
	if (l->net == NCCL_NET_SOCKET)
		return NTEST_NET_SOCKET;
	if (l->net == NCCL_NET_PLUGIN || l->paths[NCCL_PATH_PLUGIN])
		return NTEST_NET_PLUGIN;
	if (l->paths[NCCL_PATH_IB])
		return NTEST_NET_IB_NO_GDR;
	if (l->net == NCCL_NET_IB || l->paths[NCCL_PATH_IB_GDR])
		return NTEST_NET_IB;
	return NTEST_NET_NONE;
}

enum ntest_bound ntest_bound_of(const char *test)
{
	const char *base = strrchr(test, '/');

	base = base ? base + 1 : test;
	for (size_t i = 0; i < sizeof(test_bounds) / sizeof(test_bounds[0]);
	     i++)
		if (!strncmp(base, test_bounds[i].prefix,
			     strlen(test_bounds[i].prefix)))
			return test_bounds[i].bound;
	return NTEST_BOUND_NONE;
}

double ntest_derive(enum ntest_bound b, const struct ntest_nics *n,
		    unsigned int nodes, unsigned int gpus, double fraction,
		    char *why, size_t why_len)
{
	double g = gpus ? gpus : 1, nn = nodes, gbs;

	snprintf(why, why_len, "none");
	if (nodes < 2 || !n->ports || b == NTEST_BOUND_NONE)
		return 0;
	if (b == NTEST_BOUND_NIC) {
		gbs = n->max_gbps / 8;
		snprintf(why, why_len,
			 "%.2g x one NIC (%.0f Gb/s) / 8 = %.1f GB/s", fraction,
			 n->max_gbps, fraction * gbs);
	} else if (b == NTEST_BOUND_ALLTOALL) {
		gbs = n->sum_gbps / 8 * (g * nn - 1) / (g * g * (nn - 1));
		snprintf(
			why, why_len,
			"%.2g x %u NIC port(s) (%.0f Gb/s) / 8 x (GN-1)/(G^2(N-1)) with G=%u N=%u = %.1f GB/s",
			fraction, n->ports, n->sum_gbps, (unsigned int)g, nodes,
			fraction * gbs);
	} else {
		gbs = n->sum_gbps / 8;
		snprintf(
			why, why_len,
			"%.2g x %u NIC port(s) of the node (%.0f Gb/s) / 8 = %.1f GB/s",
			fraction, n->ports, n->sum_gbps, fraction * gbs);
	}
	return fraction * gbs;
}

/* Largest size, the large rows' floor, the best busbw there. */
static void figure(const struct ntest_out *o, struct ntest_judgement *j)
{
	uint64_t max = 0;
	size_t i;
	int p;

	for (i = 0; i < o->nrows; i++)
		max = o->rows[i].size > max ? o->rows[i].size : max;
	j->large_from = max / 8 ? max / 8 : max;
	for (i = 0; i < o->nrows; i++)
		for (p = 0; p < NTEST_PLACES; p++) {
			const struct ntest_half *h = &o->rows[i].h[p];

			if (h->have && h->wrong > 0)
				j->wrong += h->wrong;
			if (h->have && o->rows[i].size >= j->large_from &&
			    (!j->at_size || h->busbw > j->busbw))
				j->busbw = h->busbw,
				j->at_size = o->rows[i].size;
		}
}

/* Raise the verdict to v (worse wins) and add why to the reason. */
static void fail(struct ntest_judgement *j, enum ntest_verdict v,
		 const char *why)
{
	size_t n = strlen(j->reason);

	if (v > j->verdict)
		j->verdict = v;
	snprintf(j->reason + n, sizeof(j->reason) - n, "%s%s", n ? "; " : "",
		 why);
}

static void judge_table(const struct ntest_out *o, const struct ntest_expect *e,
			struct ntest_judgement *j)
{
	char why[NTEST_REASON];

	if (!o->nrows) {
		if (e->table_due)
			fail(j, NTEST_ERROR,
			     "no nccl-tests table in the output: did the program run (see its log)?");
		return;
	}
	if (j->wrong > 0 || (o->have_oob && o->oob > 0)) {
		snprintf(why, sizeof(why),
			 "corrupt: #wrong %.0f, out of bounds values %ld",
			 j->wrong, o->have_oob ? o->oob : 0L);
		fail(j, NTEST_CORRUPT, why);
	}
	if (e->busbw > 0 && j->busbw < e->busbw) {
		snprintf(
			why, sizeof(why),
			"busbw %.2f GB/s at %llu B is below the expected %.2f GB/s (%s)",
			j->busbw, (unsigned long long)j->at_size, e->busbw,
			e->from ? e->from : "--expect-busbw");
		fail(j, NTEST_BELOW, why);
	}
}

void ntest_judge(const struct ntest_out *o, const struct ntest_expect *e,
		 struct ntest_judgement *j)
{
	char why[NTEST_REASON];

	memset(j, 0, sizeof(*j));
	j->net = ntest_transport(&o->nccl);
	figure(o, j);
	if (j->net == NTEST_NET_SOCKET) {
		snprintf(
			why, sizeof(why),
			"NCCL used sockets, not RDMA (%s%s): a failure whatever the bandwidth; ib_doctor --nccl-log says why",
			o->nccl.ib_none ? "NET/IB : No device found; " : "",
			o->nccl.sockets[0] ? o->nccl.sockets :
					     "Using network Socket");
		fail(j, NTEST_SOCKET, why);
	}
	judge_table(o, e, j);
	if (e->exit_status) {
		snprintf(why, sizeof(why), "the program exited %d",
			 e->exit_status);
		fail(j, NTEST_ERROR, why);
	}
	j->exit_code = verdict_exit[j->verdict];
	if (j->reason[0])
		return;
	if (j->net != NTEST_NET_INTRA ||
	    !nccl_log_intra_node(&o->nccl, j->reason, sizeof(j->reason)))
		snprintf(j->reason, sizeof(j->reason), "passed");
}
