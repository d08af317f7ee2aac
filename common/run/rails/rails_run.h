/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rails_run - --rails: every rail of this node in one process. Rail i is
 * a thread running the one-link flow (the driver's, handed in as fn) on
 * its own struct bench_ctx: a copy of the parsed one with -d (or
 * --netdev) set to the rail's device, -p PORT + i, --numa from NAME@NODE,
 * pinned by the usual placement to its NIC's NUMA node. Both sides run
 * it: the server serves rail i on port PORT + i. Each rail's report is
 * buffered and printed in rail order once all have ended, then the
 * node's table (report/rails_report.h). Results files (--json, --junit,
 * --prom, --out_json) are the node's, not a rail's: --json gets one
 * document with a "rails" array.
 */
#ifndef RDMABENCH_RUN_RAILS_RAILS_RUN_H
#define RDMABENCH_RUN_RAILS_RAILS_RUN_H

#include "run/ctx.h"

/* One link's whole run on b; returns its exit code (BENCH_EXIT_*). */
typedef int (*rails_run_fn)(struct bench_ctx *b);

/*
 * Run every rail of tmpl->cfg.rails at once through fn and return the
 * node's exit code: the rails' by precedence, GATE when the sum is below
 * --expect-node-gbps.
 */
int rails_run(const struct bench_ctx *tmpl, rails_run_fn fn);

#endif
