// SPDX-License-Identifier: BSD-2-Clause
/*
 * record_doc - the parts of the results document that both record.c (the
 * sizes, the verdict) and record_dev.c (the device's findings, the port
 * counters) fill: the test section and the list of gates. Below both: it
 * calls neither.
 */
#include <string.h>

#include "lib/log.h"
#include "run/record_int.h"

void record_doc_fill_test(struct record *r, const struct bench_ctx *b)
{
	const struct wire_hello *t = &b->test;
	struct results_test *rt = &r->doc.test;
	uint64_t size, first, last;

	results_copy(rt->verb, sizeof(rt->verb), bench_verb_name(t->verb));
	results_copy(rt->measure, sizeof(rt->measure),
		     t->measure == BENCH_MEASURE_LAT ? "lat" : "bw");
	results_copy(rt->connection, sizeof(rt->connection),
		     t->flags & WIRE_HELLO_UC ? "UC" : "RC");
	bench_sizes(t, &first, &last);
	rt->n_sizes = 0;
	for (size = first; size && size <= last &&
	     rt->n_sizes < RESULTS_MAX_SIZES; size *= 2)
		rt->sizes_bytes[rt->n_sizes++] = size;
	rt->iterations = t->duration_s ? 0 : t->iters;
	rt->tx_depth = t->tx_depth;
	rt->qps = t->qps;
	rt->duration_s = t->duration_s;
	rt->bidirectional = t->flags & WIRE_HELLO_BIDIR;
	results_copy(rt->rendezvous, sizeof(rt->rendezvous),
		     b->cfg.oob == OPTS_OOB_TCP ? "tcp" : "rdma_cm");
}

/*
 * Keep a gate in the document. When it is full a failure still gets in,
 * in place of the oldest pass: the failures are what a reader looks for
 * (the verdict itself comes from r->run and never depends on this).
 */
static void record_doc_keep_gate(struct record *r, const struct gate_item *it,
			     uint64_t size)
{
	struct results_doc *d = &r->doc;
	bool passed = it->verdict == GATE_PASS;
	struct results_gate *g;
	unsigned int i;

	if (d->n_gates == RESULTS_MAX_GATES) {
		r->gates_left_out = true;
		if (passed)
			return;
		for (i = 0; i < d->n_gates && !d->gates[i].passed; i++)
			;
		if (i == d->n_gates)
			return;
		memmove(&d->gates[i], &d->gates[i + 1],
			(d->n_gates - i - 1) * sizeof(d->gates[0]));
		d->n_gates--;
	}
	g = &d->gates[d->n_gates++];
	results_copy(g->name, sizeof(g->name), it->name);
	g->size_bytes = size;
	g->figure = it->figure;
	g->expected = it->expected;
	results_copy(g->unit, sizeof(g->unit), it->unit);
	g->passed = passed;
	/* the schema's reason is for failures: null when the gate held */
	results_copy(g->reason, sizeof(g->reason), passed ? "" : it->reason);
}

void record_doc_outcome(struct record *r, const struct gate_outcome *o)
{
	unsigned int i;

	gate_run_add(&r->run, o);
	for (i = 0; i < o->n_items; i++) {
		record_doc_keep_gate(r, &o->items[i], o->size_bytes);
		if (o->items[i].verdict == GATE_FAIL)
			bench_info("gate failed: %s", o->items[i].reason);
	}
}
