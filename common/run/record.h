/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * record - the entry points of the run's results document (record.c,
 * record_dev.c): what the driver, the set-up and each size hand it.
 */
#ifndef RDMABENCH_RUN_RECORD_H
#define RDMABENCH_RUN_RECORD_H

#include <stdint.h>

#include "lib/stats.h"
#include "run/ctx.h"
#include "spec/opts.h"

struct results_doc;

/*
 * record.c: the run's results document (JSON, JUnit, Prometheus) and its
 * gates. record_begin() before anything connects; record_dev_collect()
 * (record_dev.h) once the data connections are up; record_bw() or
 * record_lat() per size; record_end() always, with the run's error (0 or
 * -errno): it writes the files asked for (a run that failed midway still
 * leaves valid JSON, verdict "error") and returns the exit code.
 */
struct record;
int record_begin(struct bench_ctx *b);
int record_end(struct bench_ctx *b, int err, int exit_code);

/* d into every results file c asks for (--json, --junit, --prom). */
int record_save(const struct bench_cfg *c, const struct results_doc *d);

/*
 * The options were refused (exit 2) before the run began: still the
 * documents asked for (verdict "error", the reason), so that "--json - |
 * jq" reads JSON; b->argc/argv set. Nothing when no file was asked for.
 */
void record_refused(struct bench_ctx *b, const char *why);

/*
 * A size's figures for the results document and the gates (record.c).
 * peak (this side's, NULL: not measured) and peer may be NULL. Returns 0
 * or -errno.
 */
int record_bw(struct bench_ctx *b, uint64_t size, const struct stats_bw *bw,
	      const struct stats_bw *peak, const struct stats_bw *peer);
int record_lat(struct bench_ctx *b, uint64_t size, uint64_t iters,
		     const struct stats_lat *lat, const struct stats_lat *peer);

#endif
