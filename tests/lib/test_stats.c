// SPDX-License-Identifier: BSD-2-Clause
/* Tests for common/lib/stats.c: nearest-rank percentiles, stdev, bandwidth. */
#include <errno.h>
#include <stdlib.h>

#include "lib/stats.h"
#include "tests/test.h"

static void fill_ascending(uint64_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = i + 1;
}

static void test_percentiles(void)
{
	static uint64_t v[1000];
	uint64_t one = 42;

	EXPECT_EQ_U64(stats_percentile_sorted(&one, 1, 50.0), 42);
	EXPECT_EQ_U64(stats_percentile_sorted(&one, 1, 99.9), 42);
	EXPECT_EQ_U64(stats_percentile_sorted(&one, 1, 100.0), 42);
	EXPECT_EQ_U64(stats_percentile_sorted(&one, 1, 0.001), 42);

	fill_ascending(v, 100);
	EXPECT_EQ_U64(stats_percentile_sorted(v, 100, 50.0), 50);
	EXPECT_EQ_U64(stats_percentile_sorted(v, 100, 90.0), 90);
	EXPECT_EQ_U64(stats_percentile_sorted(v, 100, 99.0), 99);
	EXPECT_EQ_U64(stats_percentile_sorted(v, 100, 99.9), 100);
	EXPECT_EQ_U64(stats_percentile_sorted(v, 100, 100.0), 100);
	EXPECT_EQ_U64(stats_percentile_sorted(v, 100, 0.5), 1);

	fill_ascending(v, 1000);
	EXPECT_EQ_U64(stats_percentile_sorted(v, 1000, 50.0), 500);
	EXPECT_EQ_U64(stats_percentile_sorted(v, 1000, 99.0), 990);
	EXPECT_EQ_U64(stats_percentile_sorted(v, 1000, 99.9), 999);
	EXPECT_EQ_U64(stats_percentile_sorted(v, 1000, 99.95), 1000);
}

static void test_lat_basic(void)
{
	uint64_t s[4] = { 1600, 1000, 1400, 1200 };	/* unsorted on purpose */
	uint64_t one = 7000, three = 3;
	struct stats_lat lat;

	EXPECT_EQ_INT(stats_lat_summarize(s, 4, 1, &lat), 0);
	EXPECT_EQ_U64(lat.samples, 4);
	EXPECT_EQ_U64(s[0], 1000);	/* sorted in place */
	EXPECT_NEAR(lat.avg_us, 1.3, 1e-12);
	EXPECT_NEAR(lat.stdev_us, 0.2236, 1e-4);
	EXPECT_NEAR(lat.stdev_us, 0.22360679775, 1e-10);
	EXPECT_NEAR(lat.min_us, 1.0, 1e-12);
	EXPECT_NEAR(lat.max_us, 1.6, 1e-12);
	EXPECT_NEAR(lat.p50_us, 1.2, 1e-12);

	EXPECT_EQ_INT(stats_lat_summarize(s, 4, 2, &lat), 0);
	EXPECT_NEAR(lat.avg_us, 0.65, 1e-12);
	EXPECT_NEAR(lat.stdev_us, 0.22360679775 / 2, 1e-10);
	EXPECT_NEAR(lat.min_us, 0.5, 1e-12);
	EXPECT_NEAR(lat.max_us, 0.8, 1e-12);

	EXPECT_EQ_INT(stats_lat_summarize(&three, 1, 2, &lat), 0);
	EXPECT_NEAR(lat.min_us, 0.0015, 1e-15);
	EXPECT_NEAR(lat.p50_us, 0.0015, 1e-15);
	EXPECT_NEAR(lat.avg_us, 0.0015, 1e-15);
	EXPECT_NEAR(lat.stdev_us, 0.0, 1e-15);

	EXPECT_EQ_INT(stats_lat_summarize(&one, 1, 1, &lat), 0);
	EXPECT_TRUE(lat.min_us == 7.0 && lat.p50_us == 7.0 &&
		    lat.p90_us == 7.0 && lat.p99_us == 7.0 &&
		    lat.p999_us == 7.0 && lat.max_us == 7.0 &&
		    lat.avg_us == 7.0 && lat.stdev_us == 0.0);

	EXPECT_EQ_INT(stats_lat_summarize(s, 0, 1, &lat), -EINVAL);
	EXPECT_EQ_INT(stats_lat_summarize(s, 4, 0, &lat), -EINVAL);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Independent nearest rank in exact integers (pct given in tenths): the
 * smallest k with k >= pct/100 * n, i.e. k * 1000 >= pct_x10 * n.
 */
static uint64_t ref_percentile(const uint64_t *sorted, size_t n,
			       unsigned int pct_x10)
{
	size_t k = 1;

	while (k < n && k * 1000 < (size_t)pct_x10 * n)
		k++;
	return sorted[k - 1];
}

static void test_lat_random(void)
{
	enum { N = 10007 };
	static uint64_t s[N], ref[N];
	struct stats_lat lat;
	size_t i;

	srand(12345);
	for (i = 0; i < N; i++)
		s[i] = ref[i] = 500 + (uint64_t)rand() % 100000;
	qsort(ref, N, sizeof(ref[0]), cmp_u64);
	EXPECT_EQ_INT(stats_lat_summarize(s, N, 1, &lat), 0);
	EXPECT_EQ_INT(memcmp(s, ref, sizeof(s)), 0);
	EXPECT_NEAR(lat.min_us, ref[0] / 1e3, 1e-12);
	EXPECT_NEAR(lat.max_us, ref[N - 1] / 1e3, 1e-12);
	EXPECT_NEAR(lat.p50_us, ref_percentile(ref, N, 500) / 1e3, 1e-12);
	EXPECT_NEAR(lat.p90_us, ref_percentile(ref, N, 900) / 1e3, 1e-12);
	EXPECT_NEAR(lat.p99_us, ref_percentile(ref, N, 990) / 1e3, 1e-12);
	EXPECT_NEAR(lat.p999_us, ref_percentile(ref, N, 999) / 1e3, 1e-12);
}

static void test_bw(void)
{
	const uint64_t tib = 1ULL << 40, sec_ns = 1000000000ULL;
	struct stats_bw bw;

	EXPECT_EQ_INT(stats_bw_compute(tib, 1ULL << 20, sec_ns, &bw), 0);
	EXPECT_EQ_U64(bw.bytes, tib);
	EXPECT_EQ_U64(bw.msgs, 1ULL << 20);
	EXPECT_EQ_U64(bw.elapsed_ns, sec_ns);
	EXPECT_TRUE(bw.mibps == 1048576.0);	/* exact in double */
	EXPECT_TRUE(bw.gbps == 8796.093022208);
	EXPECT_NEAR(bw.mpps, 1.048576, 1e-12);

	EXPECT_EQ_INT(stats_bw_compute(125000000, 1, sec_ns, &bw), 0);
	EXPECT_NEAR(bw.gbps, 1.0, 1e-12);
	EXPECT_EQ_INT(stats_bw_compute(tib, 1, 2 * sec_ns, &bw), 0);
	EXPECT_TRUE(bw.mibps == 524288.0);

	EXPECT_EQ_INT(stats_bw_compute(tib, 1, 0, &bw), -EINVAL);
	EXPECT_EQ_U64(bw.msgs, 1); /* filled all the same, rates 0 */
	EXPECT_TRUE(bw.gbps == 0.0 && bw.mibps == 0.0 && bw.mpps == 0.0);
	EXPECT_EQ_INT(stats_bw_compute(tib, 1, sec_ns, NULL), -EINVAL);
}

int main(void)
{
	test_percentiles();
	test_lat_basic();
	test_lat_random();
	test_bw();
	return test_finish("test_stats");
}
