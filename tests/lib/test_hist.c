// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/lib/hist.c: bucket error bound over the whole range,
 * percentiles and exact moments against stats.c's exact sort, merge,
 * the -H output, and constant memory.
 */
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <time.h>

#include "lib/hist.h"
#include "lib/stats.h"
#include "tests/test.h"

enum { N = 100003 };

/* xorshift64*: deterministic and 64 bits wide, unlike rand(). */
static uint64_t rng_next(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545F4914F6CDD1DULL;
}

/* Uniform in [0, 1). */
static double rng_unit(uint64_t *state)
{
	return (double)(rng_next(state) >> 11) * 0x1.0p-53;
}

/* Log-uniform over [1, 2^max_log2): the same number of samples per octave. */
static uint64_t rng_log(uint64_t *state, unsigned int max_log2)
{
	unsigned int e = (unsigned int)(rng_next(state) % max_log2);
	uint64_t base = UINT64_C(1) << e;

	return base + rng_next(state) % base;
}

/* |r - v| / v, with r the value v's bucket reports (0 reports 0). */
static double bucket_rel_err(uint64_t v)
{
	uint64_t r = hist_bucket_mid_ns(hist_bucket_index(v));

	if (!v)
		return r ? INFINITY : 0.0;
	return fabs((double)r - (double)v) / (double)v;
}

/*
 * One value: in its bucket's bounds, reported within 1/256 (the design
 * bound; the brief's is 1%). Counts failures so a broken formula prints
 * one line, not a million.
 */
static void check_value(uint64_t v, uint64_t *bad, uint64_t *first_bad)
{
	unsigned int i = hist_bucket_index(v);

	if (i < HIST_BUCKETS && hist_bucket_lo_ns(i) <= v &&
	    v <= hist_bucket_hi_ns(i) && bucket_rel_err(v) <= 1.0 / 256 &&
	    bucket_rel_err(v) <= 0.01)
		return;
	if (!(*bad)++)
		*first_bad = v;
}

/* The buckets tile [0, UINT64_MAX] with no gap or overlap. */
static void test_bucket_tiling(void)
{
	uint64_t bad = 0;
	unsigned int i;

	EXPECT_EQ_INT(HIST_BUCKETS, 7424);
	EXPECT_EQ_U64(hist_bucket_lo_ns(0), 0);
	EXPECT_EQ_U64(hist_bucket_hi_ns(HIST_BUCKETS - 1), UINT64_MAX);
	EXPECT_EQ_INT(hist_bucket_index(UINT64_MAX), HIST_BUCKETS - 1);
	EXPECT_EQ_INT(hist_bucket_index(0), 0);
	EXPECT_EQ_INT(hist_bucket_index(255), 255);
	EXPECT_EQ_INT(hist_bucket_index(256), 256);
	EXPECT_EQ_INT(hist_bucket_index(257), 256);
	for (i = 0; i < HIST_BUCKETS; i++) {
		uint64_t lo = hist_bucket_lo_ns(i), hi = hist_bucket_hi_ns(i);

		if (lo > hi || hist_bucket_index(lo) != i ||
		    hist_bucket_index(hi) != i ||
		    (i && lo != hist_bucket_hi_ns(i - 1) + 1))
			bad++;
	}
	EXPECT_EQ_U64(bad, 0);
}

static void test_bucket_error(void)
{
	uint64_t v, bad = 0, first_bad = 0, rng = 1;
	unsigned int e, i;
	int d;

	for (v = 1; v <= (1u << 20); v++)	/* every value to 1 ms */
		check_value(v, &bad, &first_bad);
	for (e = 1; e < 64; e++) {		/* powers of two +- 1 */
		for (d = -1; d <= 1; d++)
			check_value((UINT64_C(1) << e) + (uint64_t)d, &bad,
				    &first_bad);
	}
	check_value(UINT64_MAX, &bad, &first_bad);
	for (i = 1; i < HIST_BUCKETS - 1; i++) {	/* every boundary */
		for (d = -1; d <= 1; d++) {
			check_value(hist_bucket_lo_ns(i) + (uint64_t)d, &bad,
				    &first_bad);
			check_value(hist_bucket_hi_ns(i) + (uint64_t)d, &bad,
				    &first_bad);
		}
	}
	for (i = 0; i < 2000000; i++) {		/* dense, 1 ns .. 2^40 ns */
		check_value(rng_log(&rng, 40), &bad, &first_bad);
		check_value(rng_log(&rng, 64), &bad, &first_bad);
	}
	EXPECT_EQ_U64(bad, 0);
	EXPECT_EQ_U64(first_bad, 0);
	/* The worst case is the bottom of an octave: just under 1/256. */
	EXPECT_TRUE(bucket_rel_err(1u << 20) > 0.0039);
	EXPECT_TRUE(bucket_rel_err(1u << 20) < 1.0 / 256);
}

/* Percentile path, unclamped: min and max far outside v's bucket. */
static void test_percentile_mid(void)
{
	static const uint64_t vals[] = { 300, 1000, 1001, 4095, 65537,
					 999999937, UINT64_C(1) << 40 };
	struct hist *h = hist_create();
	size_t k;

	EXPECT_TRUE(h != NULL);
	if (!h)
		return;
	for (k = 0; k < sizeof(vals) / sizeof(vals[0]); k++) {
		unsigned int idx = hist_bucket_index(vals[k]);
		uint64_t got, mid = hist_bucket_mid_ns(idx);

		hist_reset(h);
		hist_add(h, 1);
		hist_add(h, vals[k]);
		hist_add(h, UINT64_MAX);
		got = hist_percentile_ns(h, 50.0);
		EXPECT_EQ_U64(got, mid);
		EXPECT_TRUE(fabs((double)got - (double)vals[k]) <=
			    0.01 * (double)vals[k]);
		EXPECT_EQ_U64(hist_percentile_ns(h, 1.0), 1);
		EXPECT_EQ_U64(hist_percentile_ns(h, 100.0), UINT64_MAX);
	}
	hist_destroy(h);
}

enum dist { DIST_UNIFORM, DIST_LOGNORMAL, DIST_OUTLIERS, DIST_WIDE };

static uint64_t draw(enum dist dist, uint64_t *rng)
{
	double z;

	switch (dist) {
	case DIST_UNIFORM:
		return 500 + rng_next(rng) % 100000;
	case DIST_LOGNORMAL:
		/* Box-Muller; median 2 us, a long right tail. */
		z = sqrt(-2.0 * log(1.0 - rng_unit(rng))) *
		    cos(2.0 * M_PI * rng_unit(rng));
		return (uint64_t)exp(log(2000.0) + 0.6 * z);
	case DIST_OUTLIERS:
		/* 1.5 us +- jitter; 0.1% stalls up to ~1 s; a few tiny. */
		if (rng_next(rng) % 1000 == 0)
			return 1000000 + rng_next(rng) % 1000000000;
		if (rng_next(rng) % 5000 == 0)
			return rng_next(rng) % 256;
		return 1500 + rng_next(rng) % 100;
	case DIST_WIDE:
	default:
		return rng_log(rng, 40);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Fill v[n] from dist, add each to h, leave a sorted copy in sorted[]. */
static void fill(enum dist dist, uint64_t seed, uint64_t *v, uint64_t *sorted,
		 size_t n, struct hist *h)
{
	uint64_t rng = seed;
	size_t i;

	hist_reset(h);
	for (i = 0; i < n; i++) {
		v[i] = sorted[i] = draw(dist, &rng);
		hist_add(h, v[i]);
	}
	qsort(sorted, n, sizeof(*sorted), cmp_u64);
}

static void check_percentiles(const struct hist *h, const uint64_t *sorted,
			      size_t n)
{
	static const double pcts[] = { 0.001, 0.1, 1, 10, 25, 50, 75, 90,
				       99, 99.9, 99.99, 99.999, 100 };
	size_t k;

	for (k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		double exact = (double)stats_percentile_sorted(sorted, n,
							       pcts[k]);
		double got = (double)hist_percentile_ns(h, pcts[k]);

		EXPECT_NEAR(got, exact, exact / 256);
		EXPECT_NEAR(got, exact, exact * 0.01);
	}
	EXPECT_EQ_U64(hist_percentile_ns(h, 100.0), sorted[n - 1]);
	EXPECT_EQ_U64(hist_percentile_ns(h, 1e-9), sorted[0]);
}

/* hist_summarize against stats_lat_summarize on the same samples. */
static void check_summary(const struct hist *h, uint64_t *v,
			  const uint64_t *sorted, size_t n, unsigned int div)
{
	struct stats_lat got, ref;
	double p9999;

	EXPECT_EQ_INT(hist_summarize(h, div, &got), 0);
	EXPECT_EQ_INT(stats_lat_summarize(v, n, div, &ref), 0);
	p9999 = (double)stats_percentile_sorted(sorted, n, 99.99) / div / 1e3;
	EXPECT_EQ_U64(got.samples, n);
	EXPECT_TRUE(got.min_us == ref.min_us);
	EXPECT_TRUE(got.max_us == ref.max_us);
	EXPECT_NEAR(got.avg_us, ref.avg_us, 1e-9 * ref.avg_us);
	EXPECT_NEAR(got.stdev_us, ref.stdev_us, 1e-9 * ref.stdev_us);
	EXPECT_NEAR(got.p50_us, ref.p50_us, 0.01 * ref.p50_us);
	EXPECT_NEAR(got.p90_us, ref.p90_us, 0.01 * ref.p90_us);
	EXPECT_NEAR(got.p99_us, ref.p99_us, 0.01 * ref.p99_us);
	EXPECT_NEAR(got.p999_us, ref.p999_us, 0.01 * ref.p999_us);
	EXPECT_NEAR(got.p9999_us, p9999, 0.01 * p9999);
	EXPECT_TRUE(got.min_us <= got.p50_us && got.p50_us <= got.p90_us &&
		    got.p90_us <= got.p99_us && got.p99_us <= got.p999_us &&
		    got.p999_us <= got.p9999_us && got.p9999_us <= got.max_us);
}

static void test_random(void)
{
	static uint64_t v[N], sorted[N];
	struct hist *h = hist_create();
	enum dist d;

	EXPECT_TRUE(h != NULL);
	if (!h)
		return;
	for (d = DIST_UNIFORM; d <= DIST_WIDE; d++) {
		fill(d, 0x9E3779B97F4A7C15ULL + d, v, sorted, N, h);
		check_percentiles(h, sorted, N);
		check_summary(h, v, sorted, N, 1);
		fill(d, 77 + d, v, sorted, N, h);
		check_summary(h, v, sorted, N, 2);
	}
	hist_destroy(h);
}

/* Two halves merged equal the whole; merging into a fresh one copies. */
static void test_merge(void)
{
	static uint64_t v[N], sorted[N];
	struct hist *whole = hist_create(), *a = hist_create();
	struct hist *b = hist_create(), *fresh = hist_create();
	size_t i;

	EXPECT_TRUE(whole && a && b && fresh);
	if (!whole || !a || !b || !fresh)
		goto out;
	fill(DIST_OUTLIERS, 4242, v, sorted, N, whole);
	for (i = 0; i < N; i++)
		hist_add(i < N / 3 ? a : b, v[i]);
	EXPECT_EQ_INT(hist_merge(fresh, b), 0);
	EXPECT_EQ_INT(memcmp(fresh, b, sizeof(*b)), 0);
	EXPECT_EQ_INT(hist_merge(a, b), 0);
	EXPECT_EQ_U64(a->count, whole->count);
	EXPECT_EQ_U64(a->min_ns, whole->min_ns);
	EXPECT_EQ_U64(a->max_ns, whole->max_ns);
	EXPECT_EQ_INT(memcmp(a->counts, whole->counts, sizeof(a->counts)), 0);
	EXPECT_TRUE(a->sum == whole->sum && a->sum2 == whole->sum2);
	check_percentiles(a, sorted, N);
	check_summary(a, v, sorted, N, 2);

	hist_reset(fresh);	/* an empty src changes nothing */
	memcpy(b, a, sizeof(*a));
	EXPECT_EQ_INT(hist_merge(a, fresh), 0);
	EXPECT_EQ_INT(memcmp(a, b, sizeof(*a)), 0);
	EXPECT_EQ_INT(hist_merge(NULL, a), -EINVAL);
	EXPECT_EQ_INT(hist_merge(a, NULL), -EINVAL);
out:
	hist_destroy(whole);
	hist_destroy(a);
	hist_destroy(b);
	hist_destroy(fresh);
}

static void test_small(struct hist *h)
{
	static const uint64_t four[] = { 1600, 1000, 1400, 1200 };
	struct stats_lat lat;
	size_t i;

	hist_reset(h);
	EXPECT_EQ_INT(hist_summarize(h, 1, &lat), -EINVAL);
	EXPECT_EQ_U64(hist_percentile_ns(h, 50.0), 0);
	hist_add(h, 7000);
	EXPECT_EQ_INT(hist_summarize(h, 0, &lat), -EINVAL);
	EXPECT_EQ_INT(hist_summarize(h, 1, NULL), -EINVAL);
	EXPECT_EQ_INT(hist_summarize(NULL, 1, &lat), -EINVAL);
	EXPECT_EQ_INT(hist_summarize(h, 1, &lat), 0);
	EXPECT_EQ_U64(lat.samples, 1);
	EXPECT_TRUE(lat.min_us == 7.0 && lat.p50_us == 7.0 &&
		    lat.p90_us == 7.0 && lat.p99_us == 7.0 &&
		    lat.p999_us == 7.0 && lat.p9999_us == 7.0 &&
		    lat.max_us == 7.0 && lat.avg_us == 7.0 &&
		    lat.stdev_us == 0.0);

	hist_reset(h);
	hist_add(h, 3);
	EXPECT_EQ_INT(hist_summarize(h, 2, &lat), 0);
	EXPECT_NEAR(lat.min_us, 0.0015, 1e-15);
	EXPECT_NEAR(lat.p50_us, 0.0015, 1e-15);
	EXPECT_NEAR(lat.avg_us, 0.0015, 1e-15);
	EXPECT_NEAR(lat.max_us, 0.0015, 1e-15);

	hist_reset(h);
	for (i = 0; i < 4; i++)
		hist_add(h, four[i]);
	EXPECT_EQ_INT(hist_summarize(h, 2, &lat), 0);
	EXPECT_NEAR(lat.avg_us, 0.65, 1e-12);
	EXPECT_NEAR(lat.stdev_us, 0.22360679775 / 2, 1e-10);
	EXPECT_NEAR(lat.min_us, 0.5, 1e-12);
	EXPECT_NEAR(lat.max_us, 0.8, 1e-12);
	EXPECT_NEAR(lat.p50_us, 0.6, 0.6 / 256);
	EXPECT_NEAR(lat.p999_us, 0.8, 1e-12);	/* rank n: exact max */
}

/* Parse one data line of hist_print; 1 if it has all four fields. */
static int parse_line(const char *line, double *lo, double *hi,
		      uint64_t *count, double *cum)
{
	return sscanf(line, "%lf %lf %" SCNu64 " %lf", lo, hi, count,
		      cum) == 4;
}

/*
 * Run hist_print and check its shape: the header, then ascending,
 * disjoint, non-empty ranges covering min and max, whose counts add up
 * and whose cumulative percent ends at 100. Returns the data lines.
 */
static unsigned int check_print(const struct hist *h, unsigned int div)
{
	double lo, hi, cum, prev_hi = -1.0, prev_cum = 0.0, sum_pct;
	char *buf = NULL, *line, *save = NULL;
	unsigned int lines = 0, bad = 0;
	uint64_t count, sum = 0;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	EXPECT_TRUE(f != NULL);
	if (!f)
		return 0;
	hist_print(h, div, f);
	fclose(f);
	line = strtok_r(buf, "\n", &save);
	EXPECT_TRUE(line && line[0] == '#' && strstr(line, "lower_us") &&
		    strstr(line, "upper_us") && strstr(line, "count") &&
		    strstr(line, "cumulative_percent"));
	while ((line = strtok_r(NULL, "\n", &save))) {
		if (!parse_line(line, &lo, &hi, &count, &cum)) {
			bad++;
			continue;
		}
		sum += count;
		sum_pct = 100.0 * (double)sum / (double)h->count;
		if (!(lo < hi) || lo < prev_hi - 1e-4 || !count ||
		    !(cum > prev_cum) || fabs(cum - sum_pct) > 1e-5)
			bad++;
		if (!lines++ && lo > (double)h->min_ns / div / 1e3 + 1e-4)
			bad++;
		prev_hi = hi;
		prev_cum = cum;
	}
	EXPECT_EQ_INT(bad, 0);
	EXPECT_EQ_U64(sum, h->count);
	EXPECT_TRUE(lines <= HIST_PRINT_MAX_LINES);
	if (lines) {
		EXPECT_NEAR(prev_cum, 100.0, 1e-12);
		EXPECT_TRUE(prev_hi >= (double)h->max_ns / div / 1e3);
	}
	free(buf);
	return lines;
}

static void test_print(struct hist *h)
{
	static uint64_t v[N], sorted[N];
	size_t i;

	hist_reset(h);
	EXPECT_EQ_INT(check_print(h, 1), 0);	/* header only */
	for (i = 0; i < 4; i++)
		hist_add(h, 1000 + 200 * i);
	EXPECT_EQ_INT(check_print(h, 1), 4);	/* one line per value */
	EXPECT_EQ_INT(check_print(h, 2), 4);
	hist_add(h, 0);
	hist_add(h, UINT64_MAX);
	EXPECT_EQ_INT(check_print(h, 1), 6);

	fill(DIST_WIDE, 99, v, sorted, N, h);	/* ~5000 buckets: collapse */
	i = check_print(h, 2);
	EXPECT_TRUE(i > 40 && i <= HIST_PRINT_MAX_LINES);
	fill(DIST_OUTLIERS, 98, v, sorted, N, h);
	i = check_print(h, 1);
	EXPECT_TRUE(i > 10 && i <= HIST_PRINT_MAX_LINES);
}

/* 10^7 samples: no allocation, fixed size, well under a second. */
static void test_constant_memory(struct hist *h)
{
	const uint64_t n = 10000000;
	uint64_t i, rng = 5, sum = 0;
	struct timespec t0, t1;
	struct mallinfo2 m0, m1;
	double elapsed_s;

	hist_reset(h);
	m0 = mallinfo2();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++)
		hist_add(h, 1000 + (rng_next(&rng) & 0xfffff));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	m1 = mallinfo2();
	elapsed_s = (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	/* speed is measured in benchmarks, not asserted in tests */
	fprintf(stderr, "  10^%d samples in %.3f s\n", 7, elapsed_s);
	EXPECT_EQ_U64(m1.uordblks, m0.uordblks);
	EXPECT_EQ_U64(m1.hblkhd, m0.hblkhd);
	EXPECT_EQ_U64(h->count, n);
	for (i = 0; i < HIST_BUCKETS; i++)
		sum += h->counts[i];
	EXPECT_EQ_U64(sum, n);
	EXPECT_TRUE(sizeof(struct hist) <= 80 * 1024);
	printf("sizeof(struct hist) = %zu bytes; 10^7 hist_add: %.3f s\n",
	       sizeof(struct hist), elapsed_s);
}

/*
 * Cumulative counts at bounds (after the divisor) and the percentile of
 * what came since a copy: the -H buckets and the per-interval p50.
 */
static void test_cumulative_since(struct hist *h)
{
	static const uint64_t le[] = { 50, 100, 149, 150, 1000 };
	uint64_t out[5];
	struct hist *prev = hist_create();
	unsigned int i;

	hist_reset(h);
	for (i = 0; i < 10; i++)
		hist_add(h, 200); /* 100 ns after / 2 */
	for (i = 0; i < 30; i++)
		hist_add(h, 300); /* 150 ns after / 2 */
	EXPECT_EQ_INT(hist_cumulative(h, 2, le, 5, out), 0);
	EXPECT_EQ_U64(out[0], 0);
	EXPECT_EQ_U64(out[1], 10);
	EXPECT_EQ_U64(out[2], 10);
	EXPECT_EQ_U64(out[3], 40);
	EXPECT_EQ_U64(out[4], 40);
	EXPECT_EQ_INT(hist_cumulative(h, 0, le, 5, out), -EINVAL);
	EXPECT_EQ_INT(hist_cumulative(NULL, 1, le, 5, out), -EINVAL);
	EXPECT_TRUE(prev != NULL);
	if (!prev)
		return;
	memcpy(prev, h, sizeof(*h));
	EXPECT_EQ_U64(hist_percentile_since_ns(h, prev, 50), 0);
	for (i = 0; i < 5; i++)
		hist_add(h, 100);
	/* only the 5 new samples count, not the 40 before */
	EXPECT_EQ_U64(hist_percentile_since_ns(h, prev, 50), 100);
	EXPECT_EQ_U64(hist_percentile_ns(h, 50), 300);
	hist_destroy(prev);
	hist_reset(h);
}

int main(void)
{
	struct hist *h = hist_create();

	if (!h) {
		fprintf(stderr, "test_hist: out of memory\n");
		return 1;
	}
	test_bucket_tiling();
	test_bucket_error();
	test_percentile_mid();
	test_random();
	test_merge();
	test_small(h);
	test_print(h);
	test_constant_memory(h);
	test_cumulative_since(h);
	hist_destroy(h);
	return test_finish("test_hist");
}
