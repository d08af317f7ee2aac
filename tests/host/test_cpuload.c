// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/host/cpuload.c: /proc/stat's "cpu" line as perftest's
 * --cpu_util reads it (user and idle), and the share between two reads;
 * the host's own /proc/stat is read once (it must parse).
 */
#include <errno.h>

#include "host/cpuload.h"
#include "tests/test.h"

static void test_parse(void)
{
	struct cpuload c;

	EXPECT_EQ_INT(cpuload_parse("cpu  4705 356 584 3699 23 23 0 0 0 0",
				    &c), 0);
	EXPECT_EQ_U64(c.user, 4705);
	EXPECT_EQ_U64(c.idle, 3699);
	EXPECT_EQ_INT(cpuload_parse("cpu0 1 2 3 4", &c), -EINVAL);
	EXPECT_EQ_INT(cpuload_parse("intr 1 2", &c), -EINVAL);
	EXPECT_EQ_INT(cpuload_parse("cpu 1 2", &c), -EINVAL);
}

/* perftest: user / (user + idle) * 100; system time is left out. */
static void test_pct(void)
{
	struct cpuload a = { .user = 100, .idle = 1000 };
	struct cpuload b = { .user = 175, .idle = 1025 };

	EXPECT_TRUE(cpuload_pct(&a, &b) > 74.99 && cpuload_pct(&a, &b) < 75.01);
	EXPECT_TRUE(cpuload_pct(&a, &a) == 0);
	EXPECT_TRUE(cpuload_pct(&b, &a) == 0); /* went back: not a figure */
}

static void test_host(void)
{
	struct cpuload c;

	EXPECT_EQ_INT(cpuload_read("/", &c), 0);
	EXPECT_EQ_INT(cpuload_read("/nonexistent-root", &c), -ENOENT);
}

int main(void)
{
	test_parse();
	test_pct();
	test_host();
	return test_finish("test_cpuload");
}
