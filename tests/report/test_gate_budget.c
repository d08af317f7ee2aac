// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/report/gate_budget.c: a budget's arithmetic per second
 * and per GB over planted counter snapshots (mlx5's names, planted: no
 * NIC here), the group taken (the pause totals before the per-priority
 * counters), the exact sentences, and the unknown counters (rxe's) that
 * fail rather than pass. The snapshots are stand-ins for a NIC's counters:
 * no NIC here has pause, CNP or ECN counters (tests/nulldev/
 * test_nulldev_budget.sh runs the gates in a real bench pair, where they
 * are unknown).
 */
#include <errno.h>

#include "report/gate_budget.h"
#include "tests/test.h"

static struct counters_snap before, after;

/* Plant a counter's value at the start and at the end. */
static void plant(const char *name, uint64_t was, uint64_t is)
{
	EXPECT_EQ_INT(counters_add(&before, name, was), 0);
	EXPECT_EQ_INT(counters_add(&after, name, is), 0);
}

static void reset(void)
{
	before.n = after.n = 0;
	plant("counters/port_xmit_data", 0, 1000);
	plant("hw_counters/rp_cnp_ignored", 0, 999);
}

static void check(enum budget_kind k, const char *text,
		  const struct gate_budget_run *run, enum gate_verdict v,
		  double figure, const char *reason)
{
	struct budget b;
	struct gate_item it;
	char why[200];

	EXPECT_EQ_INT(budget_parse("x", text, &b, why, sizeof(why)), 0);
	EXPECT_EQ_INT(gate_budget_check(k, &b, run, &it), 0);
	EXPECT_EQ_INT(it.verdict, v);
	if (isnan(figure))
		EXPECT_TRUE(isnan(it.figure));
	else
		EXPECT_NEAR(it.figure, figure, 1e-9);
	EXPECT_STREQ(it.reason, reason);
}

static void test_pause(void)
{
	struct gate_budget_run run = { &before, &after, 2.0, 4000000000ull };
	struct gate_item it;

	reset();
	plant("ethtool/rx_pause_ctrl_phy", 100, 2100);
	plant("ethtool/tx_pause_ctrl_phy", 5, 505);
	plant("ethtool/rx_prio3_pause", 0, 2000);	/* counted in the totals */
	check(BUDGET_PAUSE, "1000/s", &run, GATE_FAIL, 1250,
	      "pause frames 1250.00/s > budget 1000/s (rx_pause_ctrl_phy+"
	      "tx_pause_ctrl_phy: 2500 in 2.00 s, 4.000 GB)");
	check(BUDGET_PAUSE, "1250/s", &run, GATE_PASS, 1250,
	      "pause frames 1250.00/s <= budget 1250/s (rx_pause_ctrl_phy+"
	      "tx_pause_ctrl_phy: 2500 in 2.00 s, 4.000 GB)");
	check(BUDGET_PAUSE, "600/GB", &run, GATE_FAIL, 625,
	      "pause frames 625.00/GB > budget 600/GB (rx_pause_ctrl_phy+"
	      "tx_pause_ctrl_phy: 2500 in 2.00 s, 4.000 GB)");
	EXPECT_EQ_INT(gate_budget_check(BUDGET_PAUSE,
					&(struct budget){ 1, BUDGET_PER_S },
					&run, &it), 0);
	EXPECT_STREQ(it.name, "pause_budget");
	EXPECT_STREQ(it.unit, "pause frames/s");
	EXPECT_NEAR(it.expected, 1, 0);
	/* without the totals, the per-priority counters */
	reset();
	plant("ethtool/rx_prio3_pause", 0, 30);
	plant("ethtool/tx_prio3_pause", 0, 10);
	check(BUDGET_PAUSE, "10/s", &run, GATE_FAIL, 20,
	      "pause frames 20.00/s > budget 10/s (rx_prio3_pause+"
	      "tx_prio3_pause: 40 in 2.00 s, 4.000 GB)");
}

static void test_cnp_ecn_oob(void)
{
	struct gate_budget_run run = { &before, &after, 0.5, 500000000ull };

	reset();
	plant("hw_counters/np_cnp_sent", 10, 60);
	plant("hw_counters/rp_cnp_handled", 0, 50);
	plant("hw_counters/np_ecn_marked_roce_packets", 7, 7);
	plant("hw_counters/out_of_buffer", 1, 2);
	check(BUDGET_CNP, "100/GB", &run, GATE_FAIL, 200,
	      "CNPs 200.00/GB > budget 100/GB (np_cnp_sent+rp_cnp_handled: "
	      "100 in 0.50 s, 0.500 GB)");
	check(BUDGET_ECN, "0/s", &run, GATE_PASS, 0,
	      "ECN-marked packets 0.00/s <= budget 0/s "
	      "(np_ecn_marked_roce_packets: 0 in 0.50 s, 0.500 GB)");
	check(BUDGET_OOB, "0/s", &run, GATE_FAIL, 2,
	      "out_of_buffer drops 2.00/s > budget 0/s (out_of_buffer: 1 in "
	      "0.50 s, 0.500 GB)");
	/* moves with no payload: no rate, a failure that says so */
	run.bytes = 0;
	check(BUDGET_CNP, "100/GB", &run, GATE_FAIL, NAN,
	      "--expect-max-cnp 100/GB: 100 CNPs while the run moved no "
	      "payload");
}

static void test_unknown(void)
{
	struct gate_budget_run run = { &before, &after, 1.0, 1000 };
	struct gate_item it;

	/* rxe: hw_counters without any of mlx5's, no ethtool statistics */
	reset();
	check(BUDGET_PAUSE, "100/s", &run, GATE_FAIL, NAN,
	      "--expect-max-pause 100/s: unknown, cannot be judged: no "
	      "ethtool rx/tx_pause_ctrl_phy, rx/tx_pause_frames, "
	      "rx/tx_prioN_pause on this port");
	check(BUDGET_ECN, "1/GB", &run, GATE_FAIL, NAN,
	      "--expect-max-ecn 1/GB: unknown, cannot be judged: no "
	      "hw_counters np_ecn_marked_roce_packets on this port");
	/* no counters read at all */
	run.before = run.after = NULL;
	check(BUDGET_OOB, "0/s", &run, GATE_FAIL, NAN,
	      "--expect-max-out-of-buffer 0/s: unknown, cannot be judged: "
	      "no hw_counters out_of_buffer on this port");
	/* an unset budget is no gate */
	EXPECT_EQ_INT(gate_budget_check(BUDGET_OOB, &(struct budget){ 0 },
					&run, &it), -EINVAL);
	EXPECT_EQ_INT(gate_budget_check(BUDGET_KINDS,
					&(struct budget){ 1, BUDGET_PER_S },
					&run, &it), -EINVAL);
}

int main(void)
{
	test_pause();
	test_cnp_ecn_oob();
	test_unknown();
	return test_finish("test_gate_budget");
}
