// SPDX-License-Identifier: BSD-2-Clause
/*
 * plan - the memory of one test, buffers and rings, saturating (plan.h).
 */
#include <string.h>

#include "spec/plan.h"

static uint64_t plan_mul(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

static uint64_t plan_add(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* The receive depth setup.c picks at most for t, per QP. */
static uint64_t plan_recv_depth(const struct test *t)
{
	uint64_t depth = t->rx_depth > t->tx_depth ? t->rx_depth : t->tx_depth;
	uint64_t budget = t->qps ? PLAN_RECV_BUDGET / t->qps : PLAN_RECV_BUDGET;

	if (t->measure == BENCH_MEASURE_LAT)
		return PLAN_LAT_DEPTH;
	if (t->validate)
		return depth;
	return budget > depth ? budget : depth;
}

void plan_test(const struct test *t, struct plan *out)
{
	uint64_t per_qp, cqes;

	memset(out, 0, sizeof(*out));
	out->send_wr = (t->measure == BENCH_MEASURE_LAT ? PLAN_LAT_DEPTH :
			(uint64_t)t->tx_depth) + 1;
	out->recv_wr = plan_recv_depth(t) + 1;
	out->buffer_bytes = plan_mul(plan_mul(2ULL * t->qps, test_slots(t)),
				     t->max_size_bytes);
	per_qp = plan_add(plan_mul(out->send_wr, PLAN_SEND_WQE_BYTES),
			  plan_mul(out->recv_wr, PLAN_RECV_WQE_BYTES));
	cqes = plan_mul(t->qps, out->send_wr + out->recv_wr);
	out->ring_bytes = plan_add(plan_mul(per_qp, t->qps),
				   plan_mul(cqes, PLAN_CQE_BYTES));
	out->total_bytes = plan_add(out->buffer_bytes, out->ring_bytes);
}
