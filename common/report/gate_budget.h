/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * gate_budget - the congestion budgets of a run (--expect-max-pause,
 * --expect-max-cnp, --expect-max-ecn, --expect-max-out-of-buffer,
 * spec/budget.h) judged over its counters' moves: each budget a gate of
 * the run (size 0) whose figure is the counted events per second of the
 * counters' window or per GB of payload moved. Pure.
 *
 * Which counters each budget counts (the first group of its table that
 * the port has; the group's moves summed):
 *   pause          ethtool rx/tx_pause_ctrl_phy (mlx5: the port's PFC and
 *                  global pause frames), else rx/tx_pause_frames (bnxt and
 *                  others), else the per-priority rx/tx_prioN_pause
 *   cnp            hw_counters np_cnp_sent + rp_cnp_handled (mlx5)
 *   ecn            hw_counters np_ecn_marked_roce_packets (mlx5)
 *   out_of_buffer  hw_counters out_of_buffer (mlx5)
 * A budget set on a port with none of its counters (rxe, siw, a driver
 * that names them otherwise) cannot be judged: a FAIL that says so, as
 * --expect-no-errors without counters, never a silent pass.
 */
#ifndef RDMABENCH_REPORT_GATE_BUDGET_H
#define RDMABENCH_REPORT_GATE_BUDGET_H

#include <stdint.h>

#include "host/counters.h"
#include "report/gate.h"
#include "spec/budget.h"

/* The run's counters' window. */
struct gate_budget_run {
	const struct counters_snap *before;	/* NULL: no counters read */
	const struct counters_snap *after;
	double seconds;				/* the window's length */
	uint64_t bytes;				/* payload the run moved */
};

/*
 * Judge budget b of kind k over the run into *it (name "pause_budget",
 * "cnp_budget", "ecn_budget", "out_of_buffer_budget"; figure the rate,
 * expected the budget; NaN figure when it cannot be judged). Returns 0,
 * or -EINVAL for a bad argument or an unset budget.
 */
int gate_budget_check(enum budget_kind k, const struct budget *b,
		      const struct gate_budget_run *run, struct gate_item *it);

#endif
