/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * verdict - the verdict of one run and its exit code, from what went
 * wrong: data corruption wins over an error, an error over a failed gate,
 * a failed gate over a pass. Also the text the results document's
 * "error" field carries for each. Pure: no I/O, no state.
 */
#ifndef RDMABENCH_REPORT_VERDICT_H
#define RDMABENCH_REPORT_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "report/gate.h"
#include "report/results.h"

/* The error text of a corrupt run. */
#define VERDICT_CORRUPT_TEXT "data validation found a wrong byte (the log " \
	"names size, iteration, QP and offset)"

struct verdict {
	enum results_verdict verdict;
	int exit_code;			/* BENCH_EXIT_* */
};

/*
 * err: the run's error (0 or -errno; -EILSEQ is a wrong byte); exit_code:
 * the exit code the driver chose (BENCH_EXIT_*); gate_failed: a gate of
 * the run failed. In this order, the first that holds:
 *   corrupt  err == -EILSEQ or exit_code CORRUPT     exit CORRUPT
 *   error    err, or exit_code other than OK, GATE   exit_code (RUNTIME
 *                                                    when it is OK)
 *   fail     gate_failed or exit_code GATE           exit GATE
 *   pass     otherwise                               exit OK
 */
struct verdict verdict_decide(int err, int exit_code, bool gate_failed);

/*
 * The exit code (BENCH_EXIT_*) of a run that ended with err (0 or
 * -errno): -EINTR is STOPPED (130), a peer refused, lost, unreachable or
 * timed out is PEER, a mistake of the user's USAGE, -EILSEQ CORRUPT,
 * any other error RUNTIME.
 */
int verdict_exit_code(int err);

/*
 * The error of a run that ended with err, stopped (a SIGINT or SIGTERM
 * came) or not: a stopped run that failed was stopped, whatever the stop
 * cut short (a wait, a retry of a refused connection or of a name not yet
 * resolved, a set-up, a measurement), so -EINTR; a wrong byte found
 * (-EILSEQ) stays what it is, and so does err of a run not stopped.
 */
int verdict_stop_err(int err, bool stopped);

/*
 * The worse of two exit codes (BENCH_EXIT_*), for a verdict over many
 * runs (ib_fabric's links, --rails' rails): corrupt, then any error, then
 * a failed gate, then a pass; a tie keeps a.
 */
int verdict_exit_worse(int a, int b);

/* What an exit code means: "data corruption" for BENCH_EXIT_CORRUPT... */
const char *verdict_exit_meaning(int exit_code);

/*
 * An error's text: "Connection refused (exit 5: peer unreachable, lost or
 * timed out)"; -EINTR reads "interrupted by a signal". Truncated at len.
 */
void verdict_error_text(int err, int exit_code, char *buf, size_t len);

/*
 * A failed run's text: the first failure and how many more failed
 * ("size 65536: 0.31 Gb/s < expected 380.00 Gb/s (and 3 more failed
 * gates)"), "below an expectation" when no gate said why.
 */
void verdict_fail_text(const struct gate_run *run, char *buf, size_t len);

#endif
