// SPDX-License-Identifier: BSD-2-Clause
/*
 * record_doc - the parts of the results document that both record.c (the
 * sizes, the verdict) and record_dev.c (the device's findings, the port
 * counters) fill: the test section and the gates (which of them the
 * list keeps is report/results_gates.c's rule). Below both: it calls
 * neither.
 */
#include "lib/log.h"
#include "report/results_gates.h"
#include "run/record_int.h"

/* The results' rendezvous, by --oob (opts_oob: -R is rdma_cm). */
static const char *const record_doc_oob[] = {
	[OPTS_OOB_CM] = "rdma_cm", [OPTS_OOB_TCP] = "tcp",
	[OPTS_OOB_AUTO] = "auto",
};

void record_doc_fill_test(struct record *r, const struct bench_ctx *b)
{
	const struct test *t = &b->test;
	struct results_test *rt = &r->doc.test;
	uint64_t size, first, last;

	results_copy(rt->verb, sizeof(rt->verb), bench_verb_name(t->verb));
	results_copy(rt->measure, sizeof(rt->measure),
		     t->measure == BENCH_MEASURE_LAT ? "lat" : "bw");
	results_copy(rt->connection, sizeof(rt->connection),
		     test_conn_name(t));
	test_sizes(t, &first, &last);
	rt->n_sizes = 0;
	for (size = first; size && size <= last &&
	     rt->n_sizes < RESULTS_MAX_SIZES; size *= 2)
		rt->sizes_bytes[rt->n_sizes++] = size;
	rt->iterations = t->duration_s ? 0 : t->iters;
	rt->tx_depth = t->tx_depth;
	rt->qps = t->qps;
	rt->duration_s = t->duration_s;
	rt->bidirectional = t->bidir;
	results_copy(rt->rendezvous, sizeof(rt->rendezvous),
		     record_doc_oob[opts_oob(&b->cfg)]);
}

void record_doc_outcome(struct record *r, const struct gate_outcome *o)
{
	unsigned int i;

	gate_run_add(&r->run, o);
	for (i = 0; i < o->n_items; i++) {
		if (results_gates_keep(&r->doc, &o->items[i], o->size_bytes))
			r->gates_left_out = true;
		if (o->items[i].verdict == GATE_FAIL)
			bench_info("gate failed: %s", o->items[i].reason);
	}
}
