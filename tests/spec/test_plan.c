// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/spec/plan.c: buffers and rings of a test, the depths
 * setup.c may pick, and sums that saturate instead of wrapping.
 */
#include <stdint.h>

#include "spec/plan.h"
#include "tests/test.h"

static struct test bw_test(void)
{
	return (struct test){
		.verb = BENCH_VERB_WRITE, .measure = BENCH_MEASURE_BW,
		.tx_depth = 128, .cq_mod = 100, .size_bytes = 65536,
		.max_size_bytes = 65536, .iters = 1000, .qps = 1,
		.post_list = 1, .outstanding = 16, .rx_depth = 512,
	};
}

static void test_bw(void)
{
	struct test t = bw_test();
	struct plan p;

	plan_test(&t, &p);
	EXPECT_EQ_U64(p.buffer_bytes, 2 * 65536);
	EXPECT_EQ_U64(p.send_wr, 129);
	EXPECT_EQ_U64(p.recv_wr, PLAN_RECV_BUDGET + 1); /* the whole budget */
	EXPECT_EQ_U64(p.ring_bytes, 129 * PLAN_SEND_WQE_BYTES +
		      (PLAN_RECV_BUDGET + 1) * PLAN_RECV_WQE_BYTES +
		      (129 + PLAN_RECV_BUDGET + 1) * PLAN_CQE_BYTES);
	EXPECT_EQ_U64(p.total_bytes, p.buffer_bytes + p.ring_bytes);
	/* the budget is shared by the QPs; a deeper -t wins */
	t.qps = 4;
	t.tx_depth = 8192;
	plan_test(&t, &p);
	EXPECT_EQ_U64(p.recv_wr, 8192 + 1);
	EXPECT_EQ_U64(p.buffer_bytes, 8 * 65536);
	/* --validate: a slot per message in flight, receives at -t/-r */
	t.validate = true;
	t.tx_depth = 128;
	plan_test(&t, &p);
	EXPECT_EQ_U64(p.recv_wr, 512 + 1);
	EXPECT_EQ_U64(p.buffer_bytes, 8ULL * 512 * 65536);
}

static void test_lat(void)
{
	struct test t = bw_test();
	struct plan p;

	t.measure = BENCH_MEASURE_LAT;
	plan_test(&t, &p);
	EXPECT_EQ_U64(p.send_wr, PLAN_LAT_DEPTH + 1);
	EXPECT_EQ_U64(p.recv_wr, PLAN_LAT_DEPTH + 1);
	EXPECT_EQ_U64(p.buffer_bytes, 2 * 65536);
}

/* Numbers as a peer may send them: the sums saturate. */
static void test_saturate(void)
{
	struct test t = bw_test();
	struct plan p;

	t.max_size_bytes = UINT64_MAX / 2;
	t.qps = UINT32_MAX;
	plan_test(&t, &p);
	EXPECT_EQ_U64(p.buffer_bytes, UINT64_MAX);
	EXPECT_EQ_U64(p.total_bytes, UINT64_MAX);
	t = bw_test();
	t.qps = 0; /* invalid, but no division by zero */
	t.tx_depth = UINT32_MAX;
	plan_test(&t, &p);
	EXPECT_EQ_U64(p.buffer_bytes, 0);
	EXPECT_EQ_U64(p.send_wr, (uint64_t)UINT32_MAX + 1);
}

/* --perform_warm_up's pass: a send queue's worth, at least 128, at most -n. */
static void test_warm_up(void)
{
	struct test t = { .tx_depth = 512, .iters = 5000 };

	EXPECT_EQ_U64(test_warm_up_iters(&t), 0);
	t.warm_up = true;
	EXPECT_EQ_U64(test_warm_up_iters(&t), 512);
	t.tx_depth = 1;
	EXPECT_EQ_U64(test_warm_up_iters(&t), TEST_WARM_UP_MIN);
	t.iters = 20;
	EXPECT_EQ_U64(test_warm_up_iters(&t), 20);
}

int main(void)
{
	test_bw();
	test_lat();
	test_saturate();
	test_warm_up();
	return test_finish("plan");
}
