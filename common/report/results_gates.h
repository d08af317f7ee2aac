/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * results_gates - the list of gates in a results document: a gate item as
 * the schema has it, and which gates stay when the list is full. Pure.
 */
#ifndef RDMABENCH_REPORT_RESULTS_GATES_H
#define RDMABENCH_REPORT_RESULTS_GATES_H

#include <stdbool.h>
#include <stdint.h>

#include "report/gate.h"
#include "report/results.h"

/*
 * Add it, a gate of size size_bytes (0: of the run), to d->gates; a
 * passed gate has no reason (the schema's null). When the list is full
 * a failure still gets in, in place of the oldest pass: the failures are
 * what a reader looks for (the verdict never depends on the list). A
 * pass then, or a failure when every gate listed failed, is left out.
 * Returns true when the list was full (some gate is not listed).
 */
bool results_gates_keep(struct results_doc *d, const struct gate_item *it,
			uint64_t size_bytes);

#endif
