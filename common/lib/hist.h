/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hist - latency statistics in constant memory. Pure.
 *
 * A log-bucketed histogram of samples in ns, so a run of 10^9 iterations
 * costs the same memory as one of 10^3. Buckets (HDR style): values below
 * 256 ns have one bucket each (exact); above, every power of two
 * [2^e, 2^(e+1)) is cut into 128 equal sub-buckets of width 2^(e-7). A
 * bucket's midpoint is therefore within 1/256 (0.4%) of any value in it.
 * The buckets cover the whole uint64_t range, so no sample is clamped.
 *
 * Count, min and max are exact; so are the sums of the values and of
 * their squares (128-bit integers), from which the mean and population
 * stdev are taken in long double at the end. Percentiles are nearest-rank like stats.h
 * (rank ceil(p/100 * n)), found exactly among the buckets, then reported
 * as the bucket's midpoint clamped to [min, max]: relative error <= 1/256.
 * Rank 1 and rank n report min and max exactly.
 */
#ifndef RDMABENCH_LIB_HIST_H
#define RDMABENCH_LIB_HIST_H

#include <stdint.h>
#include <stdio.h>

#include "lib/stats.h"

#define HIST_SUB_BITS	7			/* 128 sub-buckets / octave */
/* Index of UINT64_MAX, plus one: shift 56, mantissa 255. */
#define HIST_BUCKETS	((56u << HIST_SUB_BITS) + 256u)	/* 7424 */

/*
 * Public so hist_add() can be inline; treat the fields as private. It is
 * ~58 KiB: allocate it once (hist_create(), or embed it and hist_reset()).
 */
struct hist {
	uint64_t count;		/* samples added */
	uint64_t min_ns;	/* UINT64_MAX while empty */
	uint64_t max_ns;
	unsigned __int128 sum;	/* of the values */
	unsigned __int128 sum2;	/* of their squares; all ones: overflowed */
	double ns_per_tick; /* the values' unit (lib/tick.h): readers
				 * scale by it; 1.0 after hist_reset */
	uint64_t counts[HIST_BUCKETS];
};

/*
 * Bucket of a value. OR-ing in 128 makes every value below 256 land on
 * shift 0 (index == value), so there is no branch: one clz, two shifts.
 */
static inline unsigned int hist_bucket_index(uint64_t value_ns)
{
	unsigned int shift;

	shift = 56u - (unsigned int)__builtin_clzll(value_ns | 128u);

	return (shift << HIST_SUB_BITS) + (unsigned int)(value_ns >> shift);
}

/* Smallest and largest value (inclusive) of bucket idx < HIST_BUCKETS. */
uint64_t hist_bucket_lo_ns(unsigned int idx);
uint64_t hist_bucket_hi_ns(unsigned int idx);
/* The value reported for a bucket: its midpoint, rounded down. */
uint64_t hist_bucket_mid_ns(unsigned int idx);

/* calloc + hist_reset; NULL when out of memory. */
struct hist *hist_create(void);
void hist_destroy(struct hist *h);
void hist_reset(struct hist *h);

/*
 * Hot path: once per ping-pong iteration. Integer sums, no division (a
 * running mean's division chained one iteration's sample to the next);
 * exact, so a sub-µs spread on a multi-ms mean keeps its digits. The sum
 * of squares sticks at all ones past 2^128 (2^40 samples of 2^44 ticks).
 */
static inline void hist_add(struct hist *h, uint64_t value_ns)
{
	unsigned __int128 sq = (unsigned __int128)value_ns * value_ns;

	h->counts[hist_bucket_index(value_ns)]++;
	h->count++;
	if (value_ns < h->min_ns)
		h->min_ns = value_ns;
	if (value_ns > h->max_ns)
		h->max_ns = value_ns;
	h->sum += value_ns;
	if (__builtin_add_overflow(h->sum2, sq, &h->sum2))
		h->sum2 = ~(unsigned __int128)0;
}

/* The values' unit: ns per tick, set when a window's calibration ends
 * (and a first guess while it runs). The ns fields above and the bucket
 * bounds are in ticks; every reader below returns ns. */
void hist_set_scale(struct hist *h, double ns_per_tick);

/*
 * dst += src: buckets, count, sums summed, min/max: exact. Returns 0, or -EINVAL on NULL
 * or on two scales (merge histograms of one clock's window).
 */
int hist_merge(struct hist *dst, const struct hist *src);

/* Nearest-rank percentile (0 < pct <= 100) in ns; 0 when empty. */
uint64_t hist_percentile_ns(const struct hist *h, double pct);

/*
 * The samples added to cur since prev was copied from it (cur - prev,
 * bucket by bucket: prev must be an earlier copy of the same histogram):
 * their nearest-rank percentile as its bucket's midpoint, in ns (within
 * 1/256); 0 when there are none. For a running figure per interval.
 */
uint64_t hist_percentile_since_ns(const struct hist *cur,
				  const struct hist *prev, double pct);

/*
 * Cumulative counts at n ascending bounds le_ns[] of the reported value
 * (sample_ns / divisor): out[i] = the samples whose value is <= le_ns[i],
 * each counted at its bucket's midpoint clamped to [min, max] (within
 * 1/256, as the percentiles). Prometheus' histogram buckets. Returns 0,
 * or -EINVAL on NULL or divisor 0.
 */
int hist_cumulative(const struct hist *h, unsigned int divisor,
		    const uint64_t *le_ns, unsigned int n, uint64_t *out);

/*
 * Fill *out (min/avg/stdev/max exact, p50 .. p99.99 from the buckets),
 * sample_us = sample_ns / divisor / 1000 in double, as stats_lat_summarize.
 * Returns 0, or -EINVAL when empty, divisor == 0 or a pointer is NULL.
 */
int hist_summarize(const struct hist *h, unsigned int divisor,
		   struct stats_lat *out);

/*
 * The -H output: a '#' header line, then one line per non-empty range
 * "lower_us upper_us count cumulative_percent", the range half-open
 * [lower_us, upper_us), ascending. Adjacent buckets are merged (in aligned
 * groups of 2, 4, .. 128) until there are at most HIST_PRINT_MAX_LINES.
 */
#define HIST_PRINT_MAX_LINES 200
void hist_print(const struct hist *h, unsigned int divisor, FILE *out);

#endif
