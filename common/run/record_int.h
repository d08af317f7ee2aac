/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * record_int - private to record.c, record_dev.c and record_doc.c: the
 * state of the results document of one run (struct record, behind
 * bench_ctx.rec). Calls go one way: record.c -> record_dev.c ->
 * record_doc.c, and record.c -> record_doc.c.
 */
#ifndef RDMABENCH_RUN_RECORD_INT_H
#define RDMABENCH_RUN_RECORD_INT_H

#include <stdbool.h>

#include "host/counters.h"
#include "run/ctx.h"
#include "report/gate.h"
#include "report/results.h"
#include "spec/budget.h"

struct record {
	struct results_doc doc;
	struct gate_expect expect;	/* achievable_gbps: record_dev_collect() */
	struct gate_run run;		/* the AND of every gate so far */
	/* --expect-line-rate set, but no achievable rate: why, per size */
	char line_rate_unknown[RESULTS_TEXT_LEN];
	bool has_device;		/* record_dev_collect() ran */
	bool has_ctr_start;		/* ctr_start read at record_dev_collect() */
	bool gates_left_out;		/* more gates than the document holds */
	struct counters_snap ctr_start;	/* and the netdev's pause counters */
	uint64_t ctr_start_ns;		/* when ctr_start was read */
	char netdev[32];		/* the port's netdev ("": none) */
	struct budget budgets[BUDGET_KINDS];	/* --expect-max-*: record_begin */
	/* "--json -" and the like: the document's own stdout (the text
	 * goes to stderr then), and which option has it */
	FILE *std_out;
	const char *std_opt;
};

/* record_doc.c: */

/*
 * One size's (or, with size 0, the run's) gate outcome: into the run's
 * verdict, into the document, and each failure on stderr at once.
 */
void record_doc_outcome(struct record *r, const struct gate_outcome *o);

/* The document's test section from b->test (the client's configuration). */
void record_doc_fill_test(struct record *r, const struct bench_ctx *b);

/* record_dev.c: */

/* At record_begin(): the kernel's, rdma-core's and NVIDIA's versions. */
void record_dev_software(struct record *r);

/*
 * At record_end(): the counters' deltas into the document and, with
 * --expect-no-errors, the "port_errors" gate.
 */
void record_dev_counters_end(struct bench_ctx *b);

#endif
