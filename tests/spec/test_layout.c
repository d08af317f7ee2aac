// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/spec/layout.h: QP i's recv and send regions side by
 * side, no two regions or host slots overlapping, and the buffer sizes
 * covering exactly what the offsets reach.
 */
#include "spec/layout.h"
#include "tests/test.h"

static void test_regions(void)
{
	EXPECT_EQ_U64(layout_region(0, BENCH_REGION_RECV, 4096), 0);
	EXPECT_EQ_U64(layout_region(0, BENCH_REGION_SEND, 4096), 4096);
	EXPECT_EQ_U64(layout_region(1, BENCH_REGION_RECV, 4096), 8192);
	EXPECT_EQ_U64(layout_region(3, BENCH_REGION_SEND, 100), 700);
	/* no 32-bit overflow: 16 QPs of 1 GiB regions */
	EXPECT_EQ_U64(layout_region(15, BENCH_REGION_SEND, 1ULL << 30),
		      31ULL << 30);
	EXPECT_EQ_U64(layout_data_bytes(16, 1ULL << 30), 32ULL << 30);
	EXPECT_EQ_U64(layout_data_bytes(1, 64), 128);
}

/* The last region of n QPs ends where the buffer does. */
static void test_data_fits(void)
{
	unsigned int n;
	uint64_t rb = 65536;

	for (n = 1; n <= 8; n++)
		EXPECT_EQ_U64(layout_region(n - 1, BENCH_REGION_SEND, rb) + rb,
			      layout_data_bytes(n, rb));
}

static void test_aux(void)
{
	unsigned int i, w, n = 4;
	size_t prev = 0;

	EXPECT_EQ_U64(layout_aux(0, LAYOUT_AUX_ATOMIC), 0);
	EXPECT_EQ_U64(layout_aux(0, LAYOUT_AUX_FIN_OUT), LAYOUT_AUX_SLOT_BYTES);
	EXPECT_EQ_U64(layout_aux(1, LAYOUT_AUX_ATOMIC),
		      LAYOUT_AUX_COUNT * LAYOUT_AUX_SLOT_BYTES);
	/* each slot follows the one before it: no overlap, no gap */
	for (i = 0; i < n; i++)
		for (w = 0; w < LAYOUT_AUX_COUNT; w++) {
			if (i || w)
				EXPECT_EQ_U64(layout_aux(i, w),
					      prev + LAYOUT_AUX_SLOT_BYTES);
			prev = layout_aux(i, w);
		}
	EXPECT_EQ_U64(prev + LAYOUT_AUX_SLOT_BYTES, layout_aux_bytes(n));
}

int main(void)
{
	test_regions();
	test_data_fits();
	test_aux();
	return test_finish("test_layout");
}
