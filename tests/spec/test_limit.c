// SPDX-License-Identifier: BSD-2-Clause
/* Tests for common/spec/limit.c: a server's hard limits per phase. */
#include "tests/test.h"
#include "spec/limit.h"

/* -D: the duration and its margins, plus the margin of every size. */
static void test_duration(void)
{
	struct test t = { .duration_s = 5, .margin_s = 2, .iters = 1000 };

	EXPECT_EQ_U64(limit_size_ms(&t, 65536), 9000 + LIMIT_MARGIN_MS);
	t.duration_s = UINT32_MAX;
	EXPECT_TRUE(limit_size_ms(&t, 2) > 4000000000000ULL);
}

/* -n: every operation at the floor rate, on every QP, both ways with -b. */
static void test_iters(void)
{
	struct test t = { .iters = 1000, .qps = 1 };

	EXPECT_EQ_U64(limit_size_ms(&t, 2), 1000 + LIMIT_MARGIN_MS);
	/* 64 KiB at 1 MB/s: 65.536 ms each */
	EXPECT_EQ_U64(limit_size_ms(&t, 65536), 65536 + LIMIT_MARGIN_MS);
	t.qps = 4;
	t.bidir = true;
	EXPECT_EQ_U64(limit_size_ms(&t, 2), 8000 + LIMIT_MARGIN_MS);
	t.qps = 0; /* as from the wire: counted as one */
	EXPECT_EQ_U64(limit_size_ms(&t, 2), 2000 + LIMIT_MARGIN_MS);
}

/* Numbers from the wire cannot wrap a limit to something short. */
static void test_saturates(void)
{
	struct test t = { .iters = UINT64_MAX, .qps = UINT32_MAX,
			  .bidir = true };

	EXPECT_TRUE(limit_size_ms(&t, UINT64_MAX) >= UINT64_MAX / 1000000);
	EXPECT_EQ_U64(limit_session_ms(UINT64_MAX), UINT64_MAX);
	EXPECT_EQ_U64(limit_session_ms(60), 60000 + LIMIT_SETUP_MS);
	EXPECT_EQ_U64(limit_setup_ms(&t), UINT64_MAX > LIMIT_SETUP_MS +
		      (uint64_t)UINT32_MAX * LIMIT_SETUP_QP_MS ?
		      LIMIT_SETUP_MS + (uint64_t)UINT32_MAX * LIMIT_SETUP_QP_MS :
		      UINT64_MAX);
}

/* The whole test: set-up, then each size and the gap after it. */
static void test_whole(void)
{
	struct test t = { .iters = 1000, .qps = 1, .size_bytes = 2 };

	EXPECT_EQ_U64(limit_setup_ms(&t), LIMIT_SETUP_MS + LIMIT_SETUP_QP_MS);
	EXPECT_EQ_U64(limit_test_ms(&t), limit_setup_ms(&t) + 1000 +
		      LIMIT_MARGIN_MS + LIMIT_GAP_MS);
	t.all_sizes = true; /* 2 B .. 8 MiB: 23 sizes */
	EXPECT_TRUE(limit_test_ms(&t) > LIMIT_SETUP_MS + 23 *
		    (LIMIT_MARGIN_MS + LIMIT_GAP_MS));
}

int main(void)
{
	test_whole();
	test_duration();
	test_iters();
	test_saturates();
	return test_finish("test_limit");
}
