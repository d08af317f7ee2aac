/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * results_prom - the results document in the Prometheus text format (for
 * node_exporter's textfile collector). Pure.
 *
 * Gauges in base units (bytes/s, s, bytes; rdmabench_* names, labels
 * device, test, role, peer, size_bytes, side), latency as a summary, the
 * verdict, the exit code and the port counters' changes.
 */
#ifndef RDMABENCH_REPORT_RESULTS_PROM_H
#define RDMABENCH_REPORT_RESULTS_PROM_H

#include <stdio.h>

#include "report/results.h"

/*
 * Write d to out as one complete document. Returns 0, -EINVAL for a
 * document results_check() refuses, -EIO when out reported a write error.
 */
int results_prom_write(const struct results_doc *d, FILE *out);

#endif
