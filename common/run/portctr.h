/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * portctr - perftest's -W/--report-counters LIST: the named port counters
 * (files under /sys/class/infiniband/DEV/ports/N/, read by host/counters.h:
 * counters/... and hw_counters/...), read at set-up and again after each
 * row, each row followed by perftest's lines: "\tNAME=CHANGE" a counter
 * (the change since the last read), then an empty line. The results
 * document's "report_counters" keeps each one's change from set-up to the
 * last row.
 *
 * Counters are the port's, not the process's: other traffic on the port
 * moves them too (perftest's are the same files).
 */
#ifndef RDMABENCH_RUN_PORTCTR_H
#define RDMABENCH_RUN_PORTCTR_H

#include "host/counters.h"
#include "run/ctx.h"

/* The most counters -W may name (the document's RESULTS_MAX_NAMED). */
#define PORTCTR_MAX 32

/*
 * With -W: the first read of b's device and port (after dev_query), each
 * name checked there. 0 (nothing to do without -W), -ENOMEM, or -EINVAL
 * logged with the name and where the names come from.
 */
int portctr_open(struct bench_ctx *b);

/* After a row (to b->out): each counter's change since the last read,
 * perftest's lines. */
void portctr_print(const struct bench_ctx *b);

/* The counters' changes from set-up to the last row, into out[] (at most
 * max): how many; 0 without -W. */
unsigned int portctr_totals(const struct bench_ctx *b,
			    struct counters_delta *out, unsigned int max);

void portctr_close(struct bench_ctx *b);

#endif
