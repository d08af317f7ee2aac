// SPDX-License-Identifier: BSD-2-Clause
/*
 * results_gates - the gates of a results document. See results_gates.h.
 */
#include "report/results_gates.h"

#include <string.h>

/* Make room in a full list: drop the oldest pass. False: none to drop. */
static bool results_gates_drop_pass(struct results_doc *d)
{
	unsigned int i;

	for (i = 0; i < d->n_gates && !d->gates[i].passed; i++)
		;
	if (i == d->n_gates)
		return false;
	memmove(&d->gates[i], &d->gates[i + 1],
		(d->n_gates - i - 1) * sizeof(d->gates[0]));
	d->n_gates--;
	return true;
}

bool results_gates_keep(struct results_doc *d, const struct gate_item *it,
			uint64_t size_bytes)
{
	bool passed = it->verdict == GATE_PASS;
	bool is_full = d->n_gates == RESULTS_MAX_GATES;
	struct results_gate *g;

	if (is_full && (passed || !results_gates_drop_pass(d)))
		return true;
	g = &d->gates[d->n_gates++];
	results_copy(g->name, sizeof(g->name), it->name);
	g->size_bytes = size_bytes;
	g->figure = it->figure;
	g->expected = it->expected;
	results_copy(g->unit, sizeof(g->unit), it->unit);
	g->passed = passed;
	results_copy(g->reason, sizeof(g->reason), passed ? "" : it->reason);
	return is_full;
}
