// SPDX-License-Identifier: BSD-2-Clause
/*
 * test - arithmetic on what one run is: its sizes and its buffers' slots.
 */
#include "spec/opts.h"
#include "spec/test.h"

void test_sizes(const struct test *t, uint64_t *first, uint64_t *last)
{
	if (t->all_sizes) {
		*first = OPTS_SWEEP_MIN_BYTES;
		/* max_size_bytes 0: not yet set (bench_main sets it from
		 * here) */
		*last = t->ud && t->max_size_bytes &&
			t->max_size_bytes < OPTS_SWEEP_MAX_BYTES ?
			t->max_size_bytes : OPTS_SWEEP_MAX_BYTES;
	} else {
		*first = *last = t->size_bytes;
	}
}

const char *test_conn_name(const struct test *t)
{
	return opts_conn_name(t->ud ? OPTS_CONN_UD :
			      t->uc ? OPTS_CONN_UC : OPTS_CONN_RC);
}

void test_clamp_ud(struct test *t, uint64_t mtu_bytes, bool *note)
{
	*note = false;
	if (!t->ud || t->max_size_bytes <= mtu_bytes)
		return;
	*note = t->all_sizes;
	if (t->size_bytes > mtu_bytes)
		t->size_bytes = mtu_bytes;
	t->max_size_bytes = mtu_bytes;
}

uint32_t test_slots(const struct test *t)
{
	uint64_t slots = t->tx_depth > t->rx_depth ? t->tx_depth : t->rx_depth;

	if (!t->validate || t->measure == BENCH_MEASURE_LAT)
		return 1;
	if (slots * t->max_size_bytes > (64ULL << 20))
		slots = (64ULL << 20) / t->max_size_bytes;
	if (slots % 255 == 0) /* keep consecutive markers apart */
		slots--;
	return slots ? (uint32_t)slots : 1;
}

uint64_t test_warm_up_iters(const struct test *t)
{
	uint64_t n = t->tx_depth > TEST_WARM_UP_MIN ? t->tx_depth
						    : TEST_WARM_UP_MIN;

	if (!t->warm_up)
		return 0;
	return t->iters && t->iters < n ? t->iters : n;
}
