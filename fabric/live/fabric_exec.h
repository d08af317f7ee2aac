/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fabric_exec - this rank's part of a fabric plan: for each round, start
 * the tool for every link side it has there (servers first, then clients,
 * which retry until their server listens), wait until its clients have
 * exited, meet the other ranks at the barrier (every client of the round
 * is done), give its servers FABRIC_SERVER_GRACE_MS to exit, end those
 * left (a server whose client died early), and meet at the barrier again.
 * At the round's deadline (or on SIGINT/SIGTERM) what is left is ended. Each side's output goes to
 * OUT/<result file>.server.log or .client.log; clients write their result
 * JSON where linkcmd.h says.
 */
#ifndef RDMABENCH_FABRIC_LIVE_FABRIC_EXEC_H
#define RDMABENCH_FABRIC_LIVE_FABRIC_EXEC_H

#include "fabric/linkcmd.h"
#include "fabric/live/fabric_barrier.h"
#include "fabric/plan.h"

#define FABRIC_SERVER_GRACE_MS 10000

struct fabric_exec {
	const struct plan *pl;
	const struct linkcmd_ctx *x;
	unsigned int rank;
	unsigned int round_timeout_s;
};

/*
 * Run every round. Returns the rank's exit code: BENCH_EXIT_CORRUPT over
 * an error over BENCH_EXIT_GATE over OK, among its clients' exit codes
 * (a server's failure counts as an error); the barrier's failure is
 * BENCH_EXIT_PEER, a stop BENCH_EXIT_STOPPED.
 */
int fabric_exec_run(const struct fabric_exec *e, struct fabric_barrier *b);

#endif
