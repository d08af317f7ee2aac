/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opts_refuse - perftest's options that rdmabench does not do, each with
 * why and what to use instead. opts.c builds them into its getopt table, so
 * a perftest command line gets an answer for every option, never a bare
 * "unknown option". Pure data.
 */
#ifndef RDMABENCH_OPTS_REFUSE_H
#define RDMABENCH_OPTS_REFUSE_H

#include <stdbool.h>
#include <stddef.h>

struct opts_refusal {
	const char *name;    /* the long option, without "--" */
	char short_name;     /* perftest's short option, 0: none */
	bool has_arg;        /* perftest's option takes a value */
	const char *why;     /* what rdmabench does not do */
	const char *instead; /* an imperative: what to do instead */
};

/* At most this many rows (opts.c sizes its getopt table by it). */
#define OPTS_REFUSE_MAX 128

extern const struct opts_refusal opts_refuse_rows[];
extern const size_t opts_refuse_count;

#endif
