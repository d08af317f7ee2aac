// SPDX-License-Identifier: BSD-2-Clause
/*
 * stats - bandwidth and latency statistics. See stats.h.
 */
#include "lib/stats.h"
#include "lib/units.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

int stats_bw_compute(uint64_t bytes, uint64_t msgs, uint64_t elapsed_ns,
		     struct stats_bw *out)
{
	if (!out)
		return -EINVAL;
	*out = (struct stats_bw){ .bytes = bytes, .msgs = msgs,
				  .elapsed_ns = elapsed_ns };
	if (!elapsed_ns) /* no time: no rate (0), never an unset one */
		return -EINVAL;
	out->gbps = units_gbps(bytes, elapsed_ns);
	out->mibps = units_mibps(bytes, elapsed_ns);
	out->mpps = units_mpps(msgs, elapsed_ns);
	return 0;
}

uint64_t stats_nearest_rank(uint64_t n, double pct)
{
	double x, whole;

	if (!(pct > 0.0))	/* also catches NaN */
		return 1;
	if (pct >= 100.0)
		return n;
	x = pct * (double)n / 100.0;
	/*
	 * pct = 99.9 is not exact in binary, so 99.9% of 1000 can come out
	 * as 999.0000000000001 and ceil() would pick rank 1000. Snap values
	 * within rounding noise of an integer onto it first.
	 */
	whole = round(x);
	if (fabs(x - whole) <= 1e-9 * whole)
		x = whole;
	x = ceil(x);
	if (x < 1.0)
		return 1;
	return x >= (double)n ? n : (size_t)x;
}

uint64_t stats_percentile_sorted(const uint64_t *sorted, size_t n, double pct)
{
	/* Contract says n > 0; don't read out of bounds if it is broken. */
	if (!sorted || !n)
		return 0;
	return sorted[stats_nearest_rank(n, pct) - 1];
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Per the header: sample_us = sample_ns / divisor / 1000, in double. */
static double ns_to_us(double ns, unsigned int divisor)
{
	return ns / (double)divisor / 1e3;
}

/*
 * Welford's update: a naive sum of squares minus square of sums cancels
 * catastrophically when the spread is tiny next to the mean (sub-µs jitter
 * on multi-µs latencies). Population variance: divide by n.
 */
static void mean_stdev_ns(const uint64_t *samples_ns, size_t n,
			  double *mean_out, double *stdev_out)
{
	double mean = 0.0, m2 = 0.0;
	size_t i;

	for (i = 0; i < n; i++) {
		double x = (double)samples_ns[i];
		double delta = x - mean;

		mean += delta / (double)(i + 1);
		m2 += delta * (x - mean);
	}
	*mean_out = mean;
	*stdev_out = sqrt(m2 / (double)n);
}

static double pct_us(const uint64_t *sorted, size_t n, double pct,
		     unsigned int divisor)
{
	uint64_t ns = stats_percentile_sorted(sorted, n, pct);

	return ns_to_us((double)ns, divisor);
}

int stats_lat_summarize(uint64_t *samples_ns, size_t n, unsigned int divisor,
			struct stats_lat *out)
{
	double mean_ns, stdev_ns;

	if (!samples_ns || !out || !n || !divisor)
		return -EINVAL;
	qsort(samples_ns, n, sizeof(*samples_ns), cmp_u64);
	mean_stdev_ns(samples_ns, n, &mean_ns, &stdev_ns);
	out->samples = n;
	out->min_us = ns_to_us((double)samples_ns[0], divisor);
	out->max_us = ns_to_us((double)samples_ns[n - 1], divisor);
	out->avg_us = ns_to_us(mean_ns, divisor);
	out->stdev_us = ns_to_us(stdev_ns, divisor);
	out->p50_us = pct_us(samples_ns, n, 50.0, divisor);
	out->p90_us = pct_us(samples_ns, n, 90.0, divisor);
	out->p99_us = pct_us(samples_ns, n, 99.0, divisor);
	out->p999_us = pct_us(samples_ns, n, 99.9, divisor);
	out->p9999_us = pct_us(samples_ns, n, 99.99, divisor);
	return 0;
}
