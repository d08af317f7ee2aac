/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opts_refuse - perftest's options that rdmabench does not do, each with
 * why and what to use instead. The benches' program (opts_table.c) hands
 * them to the option engine, which builds them into its getopt table, so
 * a perftest command line gets an answer for every option, never a bare
 * "unknown option". Pure data.
 */
#ifndef RDMABENCH_SPEC_OPTS_REFUSE_H
#define RDMABENCH_SPEC_OPTS_REFUSE_H

#include <stdbool.h>
#include <stddef.h>

struct opts_refusal {
	const char *name;    /* the long option, without "--" */
	char short_name;     /* perftest's short option, 0: none */
	bool has_arg;        /* perftest's option takes a value */
	const char *why;     /* what rdmabench does not do */
	const char *instead; /* an imperative: what to do instead */
};

/* opts_refuse_count rows, then a zeroed one. */
extern const struct opts_refusal opts_refuse_rows[];
extern const size_t opts_refuse_count;

#endif
