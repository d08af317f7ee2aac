// SPDX-License-Identifier: BSD-2-Clause
/*
 * rails_doc - the node's document of a --rails run (see rails_doc.h).
 */
#include <stdio.h>
#include <string.h>

#include "report/verdict.h"
#include "run/record.h"
#include "run/rails/rails_doc.h"

/* The node gate: the sum against --expect-node-gbps, the only gate. */
static void rails_doc_gate(struct results_doc *d, const struct bench_cfg *c,
			   double sum, const char *why)
{
	struct results_gate *g = &d->gates[0];

	d->n_gates = 0;
	if (!(c->expect_node_gbps > 0.0))
		return;
	memset(g, 0, sizeof(*g));
	results_copy(g->name, sizeof(g->name), "node_bw_gbps");
	g->size_bytes = d->n_rows ? d->rows[d->n_rows - 1].size_bytes : 0;
	g->figure = sum;
	g->expected = c->expect_node_gbps;
	results_copy(g->unit, sizeof(g->unit), "Gb/s");
	g->passed = !why[0];
	results_copy(g->reason, sizeof(g->reason), why);
	d->n_gates = 1;
}

/* The node's error text: its gate's, else the first rail's that failed. */
static void rails_doc_error(struct results_doc *d,
			    const struct results_rail *rails, size_t n,
			    const char *why)
{
	size_t i;

	d->error[0] = '\0';
	if (why[0]) {
		results_copy(d->error, sizeof(d->error), why);
		return;
	}
	for (i = 0; i < n; i++) {
		if (!rails[i].exit_code)
			continue;
		snprintf(d->error, sizeof(d->error), "rail %zu (%.60s): %.160s",
			 i, rails[i].device, rails[i].error);
		return;
	}
}

int rails_doc_save(const struct bench_cfg *c, struct results_doc *node,
		   const struct results_rail *rails, size_t n, double sum,
		   int code, const char *why)
{
	struct verdict v = verdict_decide(0, code, false);

	if (n > RESULTS_MAX_RAILS)
		n = RESULTS_MAX_RAILS;
	memcpy(node->rails, rails, n * sizeof(*rails));
	node->n_rails = (unsigned int)n;
	rails_doc_gate(node, c, sum, why);
	node->verdict = v.verdict;
	node->exit_code = v.exit_code;
	rails_doc_error(node, rails, n, why);
	return record_save(c, node);
}
