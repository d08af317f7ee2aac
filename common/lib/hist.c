// SPDX-License-Identifier: BSD-2-Clause
/*
 * hist - latency statistics in constant memory. See hist.h.
 */
#include "lib/hist.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t hist_bucket_lo_ns(unsigned int idx)
{
	unsigned int shift;

	if (idx >= HIST_BUCKETS)
		return UINT64_MAX;
	if (idx < 256)		/* the exact, one-value buckets */
		return idx;
	/* Inverse of hist_bucket_index: idx = shift * 128 + mantissa. */
	shift = (idx >> HIST_SUB_BITS) - 1;
	return (uint64_t)(idx - (shift << HIST_SUB_BITS)) << shift;
}

uint64_t hist_bucket_hi_ns(unsigned int idx)
{
	unsigned int shift;

	if (idx >= HIST_BUCKETS)
		return UINT64_MAX;
	shift = idx < 256 ? 0 : (idx >> HIST_SUB_BITS) - 1;
	/* The top bucket ends at UINT64_MAX exactly: lo + (2^shift - 1). */
	return hist_bucket_lo_ns(idx) + ((UINT64_C(1) << shift) - 1);
}

uint64_t hist_bucket_mid_ns(unsigned int idx)
{
	uint64_t lo = hist_bucket_lo_ns(idx);

	return lo + (hist_bucket_hi_ns(idx) - lo) / 2;
}

void hist_reset(struct hist *h)
{
	if (!h)
		return;
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
	h->ns_per_tick = 1.0;
}

void hist_set_scale(struct hist *h, double ns_per_tick)
{
	if (h && ns_per_tick > 0.0)
		h->ns_per_tick = ns_per_tick;
}

/* A value in ticks as ns, rounded. */
static uint64_t hist_ns(const struct hist *h, uint64_t ticks)
{
	if (h->ns_per_tick == 1.0 || ticks == UINT64_MAX)
		return ticks;
	return (uint64_t)((double)ticks * h->ns_per_tick + 0.5);
}

struct hist *hist_create(void)
{
	struct hist *h = calloc(1, sizeof(*h));

	hist_reset(h);
	return h;
}

void hist_destroy(struct hist *h)
{
	free(h);
}

int hist_merge(struct hist *dst, const struct hist *src)
{
	uint64_t min_ns, max_ns;
	unsigned int i;

	if (!dst || !src)
		return -EINVAL;
	if (!src->count)
		return 0;
	if (!dst->count)
		dst->ns_per_tick = src->ns_per_tick;
	else if (dst->ns_per_tick != src->ns_per_tick)
		return -EINVAL;
	min_ns = src->min_ns < dst->min_ns ? src->min_ns : dst->min_ns;
	max_ns = src->max_ns > dst->max_ns ? src->max_ns : dst->max_ns;
	dst->sum += src->sum;
	if (__builtin_add_overflow(dst->sum2, src->sum2, &dst->sum2))
		dst->sum2 = ~(unsigned __int128)0;
	dst->count += src->count;
	dst->min_ns = min_ns;
	dst->max_ns = max_ns;
	for (i = 0; i < HIST_BUCKETS; i++)
		dst->counts[i] += src->counts[i];
	return 0;
}

static uint64_t hist_percentile_ticks(const struct hist *h, double pct)
{
	uint64_t rank, cum = 0, mid_ns;
	unsigned int i, last;

	if (!h || !h->count)
		return 0;
	rank = stats_nearest_rank(h->count, pct);
	/* The extremes are known exactly: no need for a bucket's estimate. */
	if (rank == 1)
		return h->min_ns;
	if (rank == h->count)
		return h->max_ns;
	last = hist_bucket_index(h->max_ns);
	for (i = hist_bucket_index(h->min_ns); i < last; i++) {
		cum += h->counts[i];
		if (cum >= rank)
			break;
	}
	/*
	 * The rank-th sample lies in bucket i and between min and max, so
	 * clamping only moves the estimate towards it.
	 */
	mid_ns = hist_bucket_mid_ns(i);
	if (mid_ns < h->min_ns)
		return h->min_ns;
	return mid_ns > h->max_ns ? h->max_ns : mid_ns;
}

uint64_t hist_percentile_ns(const struct hist *h, double pct)
{
	return h ? hist_ns(h, hist_percentile_ticks(h, pct)) : 0;
}

uint64_t hist_percentile_since_ns(const struct hist *cur,
				  const struct hist *prev, double pct)
{
	uint64_t n, rank, cum = 0;
	unsigned int i;

	if (!cur || !prev || cur->count <= prev->count)
		return 0;
	n = cur->count - prev->count;
	rank = stats_nearest_rank(n, pct);
	for (i = 0; i < HIST_BUCKETS; i++) {
		cum += cur->counts[i] - prev->counts[i];
		if (cum >= rank)
			return hist_ns(cur, hist_bucket_mid_ns(i));
	}
	return 0;
}

/* The value a bucket's samples are counted at: its clamped midpoint. */
static uint64_t hist_value_ns(const struct hist *h, unsigned int idx)
{
	uint64_t mid_ns = hist_bucket_mid_ns(idx);

	if (mid_ns < h->min_ns)
		return hist_ns(h, h->min_ns);
	return hist_ns(h, mid_ns > h->max_ns ? h->max_ns : mid_ns);
}

int hist_cumulative(const struct hist *h, unsigned int divisor,
		    const uint64_t *le_ns, unsigned int n, uint64_t *out)
{
	unsigned int i, j = 0;
	uint64_t cum = 0;

	if (!h || !le_ns || !out || !divisor)
		return -EINVAL;
	for (i = 0; i < HIST_BUCKETS && j < n; i++) {
		if (!h->counts[i])
			continue;
		/* value <= le, with value = ns / divisor, in integers */
		while (j < n &&
		       (double)hist_value_ns(h, i) > (double)le_ns[j] * divisor)
			out[j++] = cum;
		cum += h->counts[i];
	}
	while (j < n)
		out[j++] = cum;
	return 0;
}

/* Per stats.h: sample_us = sample_ns / divisor / 1000, in double. */
static double ns_to_us(double ns, unsigned int divisor)
{
	return ns / (double)divisor / 1e3;
}

static double pct_us(const struct hist *h, double pct, unsigned int divisor)
{
	return ns_to_us((double)hist_percentile_ns(h, pct), divisor);
}

int hist_summarize(const struct hist *h, unsigned int divisor,
		   struct stats_lat *out)
{
	long double n, mean, var;

	if (!h || !out || !h->count || !divisor)
		return -EINVAL;
	n = (long double)h->count;
	mean = (long double)h->sum / n;
	/* E[x^2] - mean^2: rounding can leave it a hair below 0 */
	var = (long double)h->sum2 / n - mean * mean;
	if (var < 0.0L)
		var = 0.0L;
	out->samples = h->count;
	out->min_us = ns_to_us((double)hist_ns(h, h->min_ns), divisor);
	out->max_us = ns_to_us((double)hist_ns(h, h->max_ns), divisor);
	out->avg_us = ns_to_us((double)mean * h->ns_per_tick, divisor);
	out->stdev_us = ns_to_us(sqrt((double)var) * h->ns_per_tick,
				 divisor);
	out->p50_us = pct_us(h, 50.0, divisor);
	out->p90_us = pct_us(h, 90.0, divisor);
	out->p99_us = pct_us(h, 99.0, divisor);
	out->p999_us = pct_us(h, 99.9, divisor);
	out->p9999_us = pct_us(h, 99.99, divisor);
	return 0;
}

/* Non-empty groups of 2^group_bits adjacent buckets: the lines printed. */
static unsigned int print_lines(const struct hist *h, unsigned int group_bits)
{
	unsigned int i, lines = 0, prev = UINT32_MAX;

	for (i = 0; i < HIST_BUCKETS; i++) {
		if (!h->counts[i] || i >> group_bits == prev)
			continue;
		prev = i >> group_bits;
		lines++;
	}
	return lines;
}

static void print_line(FILE *out, const struct hist *h, unsigned int divisor,
		       unsigned int group, unsigned int group_bits,
		       uint64_t count, uint64_t cum)
{
	unsigned int first = group << group_bits;
	unsigned int last = first + (1u << group_bits) - 1;
	/* + 1.0 in double: the top bucket's end, 2^64, has no uint64_t. */
	double upper_ns = (double)hist_bucket_hi_ns(last) + 1.0;

	fprintf(out, "%14.4f %14.4f %14" PRIu64 " %18.5f\n",
		ns_to_us((double)hist_bucket_lo_ns(first) * h->ns_per_tick,
			 divisor),
		ns_to_us(upper_ns * h->ns_per_tick, divisor), count,
		100.0 * ((double)cum / (double)h->count));
}

void hist_print(const struct hist *h, unsigned int divisor, FILE *out)
{
	unsigned int i, bits = 0, group;
	uint64_t count = 0, cum = 0;

	if (!h || !out || !divisor)
		return;
	fprintf(out, "# %12s %14s %14s %18s\n", "lower_us", "upper_us",
		"count", "cumulative_percent");
	if (!h->count)
		return;
	/*
	 * 128 divides every octave's first index, so a group never straddles
	 * two octaves and at 2^7 there is one line per octave (<= 58).
	 */
	while (bits < HIST_SUB_BITS &&
	       print_lines(h, bits) > HIST_PRINT_MAX_LINES)
		bits++;
	group = hist_bucket_index(h->min_ns) >> bits;
	for (i = group << bits; i < HIST_BUCKETS; i++) {
		if (i >> bits != group) {
			if (count)
				print_line(out, h, divisor, group, bits,
					   count, cum);
			group = i >> bits;
			count = 0;
		}
		count += h->counts[i];
		cum += h->counts[i];
	}
	if (count)
		print_line(out, h, divisor, group, bits, count, cum);
}
