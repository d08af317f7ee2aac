/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * budget - what a congestion budget says (--expect-max-pause,
 * --expect-max-cnp, --expect-max-ecn, --expect-max-out-of-buffer): at
 * most N counted events per second of the run ("100/s") or per GB of
 * payload it moved ("5/GB", 1 GB = 1e9 bytes). Pure: text in, numbers
 * out; report/gate_budget.c judges a run's counters against it.
 */
#ifndef RDMABENCH_SPEC_BUDGET_H
#define RDMABENCH_SPEC_BUDGET_H

#include <stddef.h>

struct bench_cfg;

/* What a budget counts; the order of its options. */
enum budget_kind {
	BUDGET_PAUSE,	/* --expect-max-pause: PFC and pause frames */
	BUDGET_CNP,	/* --expect-max-cnp: CNPs sent and handled */
	BUDGET_ECN,	/* --expect-max-ecn: ECN-marked packets */
	BUDGET_OOB,	/* --expect-max-out-of-buffer: receive drops */
	BUDGET_KINDS
};

enum budget_per {
	BUDGET_UNSET,	/* no budget: the option was not given */
	BUDGET_PER_S,	/* "N/s" */
	BUDGET_PER_GB,	/* "N/GB" */
};

struct budget {
	double max;		/* at most this many per unit; 0: none at all */
	enum budget_per per;
};

/*
 * Parse "N/s" or "N/GB" (N a finite number >= 0; the unit's case is
 * free: "/gb", "/S") into *out. "" is BUDGET_UNSET. Returns 0, or
 * -EINVAL with a sentence naming option, the text and the syntax in why.
 */
int budget_parse(const char *option, const char *text, struct budget *out,
		 char *why, size_t len);

/*
 * Every budget of cfg, by kind, into out[]. Returns 0, or budget_parse()'s
 * -EINVAL and sentence.
 */
int budget_of_cfg(const struct bench_cfg *cfg, struct budget out[BUDGET_KINDS],
		  char *why, size_t len);

/* "--expect-max-pause", ... ("?" for a kind out of range). */
const char *budget_option(enum budget_kind k);

/* "/s" or "/GB" ("" for BUDGET_UNSET). */
const char *budget_unit(enum budget_per per);

#endif
