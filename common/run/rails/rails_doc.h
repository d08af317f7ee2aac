/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rails_doc - the node's results document of a --rails run: rail 0's
 * document (its device, placement, test and rows) with a "rails" entry
 * per rail, the node's verdict and exit code, and the --expect-node-gbps
 * gate (node_bw_gbps) as its only gate; written to the files asked for
 * (record_save). The rails' own gates are summed up in their entries.
 */
#ifndef RDMABENCH_RUN_RAILS_RAILS_DOC_H
#define RDMABENCH_RUN_RAILS_RAILS_DOC_H

#include <stddef.h>

#include "report/results.h"
#include "spec/opts.h"

/*
 * node: rail 0's document, made the node's in place; rails[0..n): the
 * rails' entries (n <= RESULTS_MAX_RAILS); sum: the node's Gb/s; code:
 * its exit code; why: the node gate's failure or "". Returns 0 or -errno
 * (a file could not be written; logged).
 */
int rails_doc_save(const struct bench_cfg *c, struct results_doc *node,
		   const struct results_rail *rails, size_t n, double sum,
		   int code, const char *why);

#endif
