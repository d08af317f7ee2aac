// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/spec/budget.c: the congestion budgets' syntax (N/s,
 * N/GB), their refusals with the sentence, and the options of a
 * bench_cfg read by kind.
 */
#include <errno.h>

#include "spec/budget.h"
#include "spec/opts.h"
#include "tests/test.h"

static void expect_ok(const char *text, double max, enum budget_per per)
{
	struct budget b;
	char why[200] = "";

	EXPECT_EQ_INT(budget_parse("--expect-max-pause", text, &b, why,
				   sizeof(why)), 0);
	EXPECT_NEAR(b.max, max, 0);
	EXPECT_EQ_INT(b.per, per);
}

static void expect_bad(const char *text)
{
	struct budget b;
	char why[200] = "", want[200];

	EXPECT_EQ_INT(budget_parse("--expect-max-cnp", text, &b, why,
				   sizeof(why)), -EINVAL);
	snprintf(want, sizeof(want), "--expect-max-cnp %s: a budget is N/s "
		 "(events per second) or N/GB (per GB moved), N a number "
		 ">= 0: e.g. 100/s or 5/GB", text);
	EXPECT_STREQ(why, want);
	EXPECT_EQ_INT(b.per, BUDGET_UNSET);
}

static void test_syntax(void)
{
	expect_ok("", 0, BUDGET_UNSET);
	expect_ok("100/s", 100, BUDGET_PER_S);
	expect_ok("0/s", 0, BUDGET_PER_S);
	expect_ok("2.5/GB", 2.5, BUDGET_PER_GB);
	expect_ok("5/gb", 5, BUDGET_PER_GB);
	expect_ok("1e3/S", 1000, BUDGET_PER_S);
	expect_bad("100");
	expect_bad("100/");
	expect_bad("100/min");
	expect_bad("-1/s");
	expect_bad("nan/s");
	expect_bad("inf/GB");
	expect_bad("/s");
	expect_bad("5 /s");
	EXPECT_STREQ(budget_unit(BUDGET_PER_S), "/s");
	EXPECT_STREQ(budget_unit(BUDGET_PER_GB), "/GB");
	EXPECT_STREQ(budget_unit(BUDGET_UNSET), "");
}

static void test_of_cfg(void)
{
	struct bench_cfg c = { .expect_gbps = 0 };
	struct budget b[BUDGET_KINDS];
	char why[200] = "";

	snprintf(c.expect_max_pause, sizeof(c.expect_max_pause), "10/s");
	snprintf(c.expect_max_oob, sizeof(c.expect_max_oob), "0/GB");
	EXPECT_EQ_INT(budget_of_cfg(&c, b, why, sizeof(why)), 0);
	EXPECT_EQ_INT(b[BUDGET_PAUSE].per, BUDGET_PER_S);
	EXPECT_NEAR(b[BUDGET_PAUSE].max, 10, 0);
	EXPECT_EQ_INT(b[BUDGET_CNP].per, BUDGET_UNSET);
	EXPECT_EQ_INT(b[BUDGET_ECN].per, BUDGET_UNSET);
	EXPECT_EQ_INT(b[BUDGET_OOB].per, BUDGET_PER_GB);
	snprintf(c.expect_max_ecn, sizeof(c.expect_max_ecn), "lots");
	EXPECT_EQ_INT(budget_of_cfg(&c, b, why, sizeof(why)), -EINVAL);
	EXPECT_TRUE(!strncmp(why, "--expect-max-ecn lots: a budget is", 34));
	EXPECT_STREQ(budget_option(BUDGET_OOB), "--expect-max-out-of-buffer");
	EXPECT_STREQ(budget_option(BUDGET_KINDS), "?");
}

int main(void)
{
	test_syntax();
	test_of_cfg();
	return test_finish("test_budget");
}
