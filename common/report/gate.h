/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * gate - expectations (--expect-gbps, --expect-line-rate, --expect-mpps,
 * --expect-p50-us, --expect-p99-us) and their verdicts. Pure.
 *
 * Every gate is checked at every size, and a run passes only if every
 * size passes (perftest passes a whole -a run when any size does; not
 * here). Comparisons are exact: no hidden tolerance. Bandwidth and
 * message rate must be >= the expectation, latencies <= it.
 */
#ifndef RDMABENCH_REPORT_GATE_H
#define RDMABENCH_REPORT_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Expectations; 0 = unset. */
struct gate_expect {
	double gbps;		/* --expect-gbps: payload Gb/s, at least */
	double line_rate_frac;	/* --expect-line-rate: share of achievable */
	double achievable_gbps;	/* rate_achievable()'s, for line_rate_frac */
	double mpps;		/* --expect-mpps: at least */
	double p50_us;		/* --expect-p50-us: at most */
	double p99_us;		/* --expect-p99-us: at most */
};

/* One size's figures (client side). */
struct gate_figures {
	uint64_t size_bytes;
	double gbps, mpps;	/* valid when has_bw */
	double p50_us, p99_us;	/* valid when has_lat */
	bool has_bw, has_lat;
};

enum gate_verdict { GATE_UNCHECKED, GATE_PASS, GATE_FAIL };

#define GATE_REASON_LEN 160
#define GATE_MAX_ITEMS 5

/* One gate at one size. */
struct gate_item {
	/*
	 * The figure's key in results: "bw_gbps", "msg_rate_mpps",
	 * "p50_us", "p99_us"; "line_rate" for --expect-line-rate.
	 */
	const char *name;
	double figure;		/* measured */
	double expected;	/* the bound compared against */
	const char *unit;	/* "Gb/s", "Mpps", "us" */
	enum gate_verdict verdict;	/* PASS or FAIL */
	/* "size 65536: 195.25 Gb/s < expected 200.00 Gb/s" */
	char reason[GATE_REASON_LEN];
};

/* Every gate evaluated for one size, in the order of struct gate_expect. */
struct gate_outcome {
	uint64_t size_bytes;
	unsigned n_items;
	struct gate_item items[GATE_MAX_ITEMS];
	enum gate_verdict verdict;	/* FAIL if any item fails; PASS if
					 * all pass; UNCHECKED if none set */
};

/*
 * Evaluate every set expectation against one size's figures. A set
 * expectation whose figure the run does not measure (p99 in a bandwidth
 * test) is a FAIL that says so, never a silent pass. Returns 0; -EINVAL
 * for a negative or NaN expectation, or line_rate_frac set without
 * achievable_gbps; -ERANGE for line_rate_frac > 1. *out only on success.
 */
int gate_check(const struct gate_expect *e, const struct gate_figures *f,
	       struct gate_outcome *out);

/*
 * Check the expectations once, before a run, against what it will
 * measure; fills why (e.g. "--expect-p99-us needs a latency test") on
 * failure. Returns 0, or gate_check()'s errors, or -EINVAL when a set
 * expectation cannot apply.
 */
int gate_validate(const struct gate_expect *e, bool has_bw, bool has_lat,
		  char *why, size_t len);

/* The run so far: the AND of its sizes. */
struct gate_run {
	enum gate_verdict verdict;	/* UNCHECKED until a size has a gate */
	unsigned sizes;			/* outcomes added */
	unsigned sizes_checked;		/* of which had at least one gate */
	unsigned sizes_failed;
	unsigned gates_failed;		/* items, over all sizes */
	char first_failure[GATE_REASON_LEN];	/* reason, "" if none */
};

/* Start a run: UNCHECKED, no sizes. */
void gate_run_init(struct gate_run *run);

/*
 * Add one size's outcome: any FAIL makes the run FAIL for good; PASS
 * needs every checked size to pass. Returns 0, or -EINVAL for NULLs.
 */
int gate_run_add(struct gate_run *run, const struct gate_outcome *o);

/* The final verdict (the exit code 3 decision: GATE_FAIL). */
enum gate_verdict gate_run_verdict(const struct gate_run *run);

/* "UNCHECKED", "PASS", "FAIL". */
const char *gate_verdict_name(enum gate_verdict v);

#endif
