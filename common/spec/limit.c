// SPDX-License-Identifier: BSD-2-Clause
/*
 * limit - the hard limits of a server's session (limit.h). Saturating
 * arithmetic: every number here may come from the wire.
 */
#include "spec/limit.h"

#define MS_PER_S 1000ULL

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* One operation of size bytes at the floor rate, in ns. */
static uint64_t limit_op_ns(uint64_t size)
{
	uint64_t by_bytes = sat_mul(size, 1000000000ULL /
				    LIMIT_FLOOR_BYTES_PER_S);

	return by_bytes > LIMIT_FLOOR_OP_NS ? by_bytes : LIMIT_FLOOR_OP_NS;
}

uint64_t limit_setup_ms(const struct test *t)
{
	return sat_add(LIMIT_SETUP_MS, sat_mul(t->qps, LIMIT_SETUP_QP_MS));
}

uint64_t limit_size_ms(const struct test *t, uint64_t size)
{
	uint64_t ops, ms;

	if (t->duration_s) {
		ms = sat_mul((uint64_t)t->duration_s +
			     2ULL * t->margin_s, MS_PER_S);
	} else {
		ops = sat_mul(t->iters, t->qps ? t->qps : 1);
		if (t->bidir)
			ops = sat_mul(ops, 2);
		ms = sat_mul(ops, limit_op_ns(size)) / 1000000ULL;
	}
	return sat_add(ms, LIMIT_MARGIN_MS);
}

uint64_t limit_test_ms(const struct test *t)
{
	uint64_t size, first, last, ms = limit_setup_ms(t);

	test_sizes(t, &first, &last);
	for (size = first; size && size <= last; size *= 2) {
		ms = sat_add(ms, sat_add(limit_size_ms(t, size),
					 LIMIT_GAP_MS));
		if (size > UINT64_MAX / 2)
			break;
	}
	return ms;
}

uint64_t limit_session_ms(uint64_t max_duration_s)
{
	return sat_add(sat_mul(max_duration_s, MS_PER_S), LIMIT_SETUP_MS);
}
