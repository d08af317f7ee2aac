/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stats - bandwidth and latency statistics. Pure, double precision.
 *
 * Percentiles are nearest-rank: the p-th percentile of n sorted samples is
 * sample number ceil(p/100 * n) (1-based), i.e. the smallest sample such
 * that at least p% of all samples are <= it. No sample is ever dropped.
 * The standard deviation is the population one (divide by n).
 */
#ifndef RDMABENCH_LIB_STATS_H
#define RDMABENCH_LIB_STATS_H

#include <stddef.h>
#include <stdint.h>

struct stats_bw {
	uint64_t bytes;       /* payload bytes moved */
	uint64_t msgs;        /* messages moved */
	uint64_t elapsed_ns;  /* first post -> last completion */
	double gbps;          /* 10^9 bit/s */
	double mibps;         /* 2^20 B/s */
	double mpps;          /* 10^6 messages/s */
};

struct stats_lat {
	uint64_t samples;
	double min_us;
	double p50_us;
	double avg_us;
	double stdev_us;
	double p90_us;
	double p99_us;
	double p999_us;
	double p9999_us;
	double max_us;
};

/* Fill *out from totals. Returns 0, or -EINVAL when elapsed_ns is 0. */
int stats_bw_compute(uint64_t bytes, uint64_t msgs, uint64_t elapsed_ns,
		     struct stats_bw *out);

/*
 * The 1-based nearest rank ceil(pct/100 * n), clamped to [1, n], with the
 * rounding noise of pct snapped away (99.9% of 1000 is rank 999).
 */
uint64_t stats_nearest_rank(uint64_t n, double pct);

/*
 * Nearest-rank percentile (0 < pct <= 100) of n ascending samples.
 * n must be > 0.
 */
uint64_t stats_percentile_sorted(const uint64_t *sorted, size_t n, double pct);

/*
 * Summarize n latency samples in ns (sorted in place). Each sample is one
 * latency already (the caller halves round trips where that applies, in
 * double precision through `divisor`: sample_us = sample_ns / divisor / 1000).
 * Returns 0, or -EINVAL when n == 0 or divisor == 0.
 */
int stats_lat_summarize(uint64_t *samples_ns, size_t n, unsigned int divisor,
			struct stats_lat *out);

#endif
