// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/report/results_gates.c: a gate as the document holds
 * it, and a full list making room for failures, never for passes.
 */
#include <stdlib.h>
#include <string.h>

#include "report/results_gates.h"
#include "tests/test.h"

static struct gate_item item(enum gate_verdict v, const char *reason)
{
	struct gate_item it = { .name = "bw_gbps", .figure = 1.5,
				.expected = 2.0, .unit = "Gb/s", .verdict = v };

	snprintf(it.reason, sizeof(it.reason), "%s", reason);
	return it;
}

static void test_one(struct results_doc *d)
{
	struct gate_item f = item(GATE_FAIL, "size 64: 1.50 < 2.00");
	struct gate_item p = item(GATE_PASS, "size 128: 2.50 >= 2.00");

	results_init(d);
	EXPECT_TRUE(!results_gates_keep(d, &f, 64));
	EXPECT_TRUE(!results_gates_keep(d, &p, 128));
	EXPECT_EQ_U64(d->n_gates, 2);
	EXPECT_STREQ(d->gates[0].name, "bw_gbps");
	EXPECT_STREQ(d->gates[0].unit, "Gb/s");
	EXPECT_EQ_U64(d->gates[0].size_bytes, 64);
	EXPECT_NEAR(d->gates[0].figure, 1.5, 0);
	EXPECT_NEAR(d->gates[0].expected, 2.0, 0);
	EXPECT_TRUE(!d->gates[0].passed);
	EXPECT_STREQ(d->gates[0].reason, "size 64: 1.50 < 2.00");
	/* a gate that held has no reason (null in the schema) */
	EXPECT_TRUE(d->gates[1].passed);
	EXPECT_STREQ(d->gates[1].reason, "");
}

/* Full of passes: a failure takes the oldest pass's place, a pass waits. */
static void test_full(struct results_doc *d)
{
	struct gate_item p = item(GATE_PASS, "");
	struct gate_item f = item(GATE_FAIL, "late");
	unsigned int i;

	results_init(d);
	for (i = 0; i < RESULTS_MAX_GATES; i++)
		EXPECT_TRUE(!results_gates_keep(d, &p, i + 1));
	EXPECT_TRUE(results_gates_keep(d, &p, 1000));
	EXPECT_EQ_U64(d->n_gates, RESULTS_MAX_GATES);
	EXPECT_EQ_U64(d->gates[RESULTS_MAX_GATES - 1].size_bytes,
		      RESULTS_MAX_GATES);
	EXPECT_TRUE(results_gates_keep(d, &f, 2000));
	EXPECT_EQ_U64(d->n_gates, RESULTS_MAX_GATES);
	EXPECT_EQ_U64(d->gates[0].size_bytes, 2);	/* size 1 made room */
	EXPECT_EQ_U64(d->gates[RESULTS_MAX_GATES - 1].size_bytes, 2000);
	EXPECT_STREQ(d->gates[RESULTS_MAX_GATES - 1].reason, "late");
	/* every pass gives way; then the list is all failures and stays */
	for (i = 1; i < RESULTS_MAX_GATES; i++)
		EXPECT_TRUE(results_gates_keep(d, &f, 3000 + i));
	for (i = 0; i < RESULTS_MAX_GATES; i++)
		EXPECT_TRUE(!d->gates[i].passed);
	EXPECT_EQ_U64(d->gates[0].size_bytes, 2000);
	EXPECT_TRUE(results_gates_keep(d, &f, 9999));
	EXPECT_EQ_U64(d->n_gates, RESULTS_MAX_GATES);
	EXPECT_EQ_U64(d->gates[RESULTS_MAX_GATES - 1].size_bytes,
		      3000 + RESULTS_MAX_GATES - 1);
}

int main(void)
{
	struct results_doc *d = calloc(1, sizeof(*d));

	if (!d) {
		fprintf(stderr, "test_results_gates: out of memory\n");
		return 1;
	}
	test_one(d);
	test_full(d);
	free(d);
	return test_finish("test_results_gates");
}
