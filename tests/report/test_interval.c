// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/report/interval.c: the --interval row and the live
 * status line, for bandwidth and latency, -D and -n, and an interval in
 * which nothing completed.
 */
#include <errno.h>
#include <math.h>

#include "tests/test.h"
#include "report/interval.h"

static void test_rows(void)
{
	struct interval_fig bw = { .size_bytes = 65536,
				   .from_s = 1,
				   .to_s = 2,
				   .ops = 23552,
				   .gbps = 12.3456 };
	struct interval_fig lat = { .size_bytes = 2,
				    .from_s = 0,
				    .to_s = 1,
				    .ops = 291014,
				    .is_lat = true,
				    .p50_us = 1.714 };
	char buf[160];

	EXPECT_EQ_INT(interval_row(buf, sizeof(buf), &bw), 0);
	EXPECT_STREQ(buf, "[   1.00-   2.00 s]     65536 B       12.35 Gb/s"
			  "       23552 ops");
	EXPECT_EQ_INT(interval_row(buf, sizeof(buf), &lat), 0);
	EXPECT_STREQ(buf, "[   0.00-   1.00 s]         2 B  p50   1.71 us"
			  "      291014 iterations");
	/* nothing completed: no made-up figure */
	bw.ops = 0;
	bw.gbps = 0;
	EXPECT_EQ_INT(interval_row(buf, sizeof(buf), &bw), 0);
	EXPECT_TRUE(strstr(buf, "  - Gb/s") != NULL);
	lat.p50_us = NAN;
	EXPECT_EQ_INT(interval_row(buf, sizeof(buf), &lat), 0);
	EXPECT_TRUE(strstr(buf, "- us") != NULL);
	EXPECT_EQ_INT(interval_row(NULL, 0, &lat), -EINVAL);
	EXPECT_EQ_INT(interval_row(buf, sizeof(buf), NULL), -EINVAL);
	/* truncated, still terminated */
	EXPECT_EQ_INT(interval_row(buf, 8, &lat), 0);
	EXPECT_EQ_INT((int)strlen(buf), 7);
}

static void test_live(void)
{
	struct interval_live l = {
		.tool = "ib_write_bw",
		.total_s = 10,
		.fig = { .size_bytes = 65536,
			 .to_s = 3.04,
			 .ops = 9,
			 .gbps = 12.345 },
	};
	char buf[160];

	EXPECT_EQ_INT(interval_live_line(buf, sizeof(buf), &l), 0);
	EXPECT_STREQ(buf, "ib_write_bw: 65536 B  3.0 s of 10 s, 7.0 s left"
			  "       12.35 Gb/s");
	l.total_s = 0;
	l.total_ops = 5000;
	l.fig.ops = 2250;
	EXPECT_EQ_INT(interval_live_line(buf, sizeof(buf), &l), 0);
	EXPECT_STREQ(buf, "ib_write_bw: 65536 B  3.0 s, 45% of 5000 ops"
			  "       12.35 Gb/s");
	/* past the end (the last completions): never a negative left */
	l.total_s = 2;
	EXPECT_EQ_INT(interval_live_line(buf, sizeof(buf), &l), 0);
	EXPECT_TRUE(strstr(buf, "0.0 s left") != NULL);
	l.tool = NULL;
	EXPECT_EQ_INT(interval_live_line(buf, sizeof(buf), &l), -EINVAL);
	EXPECT_EQ_INT(interval_live_line(buf, sizeof(buf), NULL), -EINVAL);
}

int main(void)
{
	test_rows();
	test_live();
	return test_finish("test_interval");
}
