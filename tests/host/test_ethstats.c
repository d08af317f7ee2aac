// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/host/ethstats.c: which driver statistics count pause
 * frames (mlx5's and bnxt's names), and the real ioctl on lo, which has
 * no driver statistics (-EOPNOTSUPP: the budgets' "unknown"). No NIC
 * here: the ioctl's happy path is not run by this test.
 */
#include <errno.h>

#include "host/ethstats.h"
#include "tests/test.h"

static void test_names(void)
{
	EXPECT_TRUE(ethstats_is_pause("rx_pause_ctrl_phy"));
	EXPECT_TRUE(ethstats_is_pause("tx_pause_ctrl_phy"));
	EXPECT_TRUE(ethstats_is_pause("rx_prio3_pause"));
	EXPECT_TRUE(ethstats_is_pause("tx_pause_frames"));
	EXPECT_TRUE(!ethstats_is_pause("rx_prio3_pause_duration"));
	EXPECT_TRUE(!ethstats_is_pause("rx_prio3_pause_transition"));
	EXPECT_TRUE(!ethstats_is_pause("tx_pause_storm_warning_events"));
	EXPECT_TRUE(!ethstats_is_pause("rx_bytes"));
	EXPECT_TRUE(!ethstats_is_pause("_pause"));
}

static void test_lo(void)
{
	static struct counters_snap s;
	int ret = ethstats_pause_read("lo", &s);

	/* lo has no statistics set; a kernel without lo: -ENODEV */
	EXPECT_TRUE(ret == -EOPNOTSUPP || ret == -ENODEV || ret == 0);
	EXPECT_EQ_U64(s.n, 0);
	EXPECT_EQ_INT(ethstats_pause_read("", &s), -EINVAL);
	EXPECT_EQ_INT(ethstats_pause_read("a-name-longer-than-ifnamsiz", &s),
		      -EINVAL);
}

static void test_add(void)
{
	static struct counters_snap s;
	uint64_t v = 0;

	EXPECT_EQ_INT(counters_add(&s, "hw_counters/b", 2), 0);
	EXPECT_EQ_INT(counters_add(&s, "ethtool/a", 1), 0);
	EXPECT_EQ_INT(counters_add(&s, "ethtool/a", 3), 0);
	EXPECT_EQ_U64(s.n, 2);
	EXPECT_STREQ(s.c[0].name, "ethtool/a");
	EXPECT_EQ_INT(counters_get(&s, "ethtool/a", &v), 0);
	EXPECT_EQ_U64(v, 3);
	EXPECT_EQ_INT(counters_get(&s, "hw_counters/b", &v), 0);
	EXPECT_EQ_U64(v, 2);
}

int main(void)
{
	test_names();
	test_lo();
	test_add();
	return test_finish("test_ethstats");
}
