/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cycles - perftest's -C/--report-cycles: a latency tool's figures in CPU
 * cycles. perftest counts cycles with the cycle counter and prints the
 * counts; rdmabench times with its --clock source (lib/tick.h), so a
 * cycle figure is the us figure times the cycle rate, measured:
 *  - --clock is the invariant TSC: each size's own calibration against
 *    CLOCK_MONOTONIC_RAW, over the very window its row covers;
 *  - the CPU has an invariant TSC, but --clock monotonic: the TSC counted
 *    against CLOCK_MONOTONIC_RAW over 50 ms at set-up;
 *  - no invariant TSC (a VM without it, a CPU that is not x86-64): the
 *    first "cpu MHz" of /proc/cpuinfo (what perftest's get_cpu_mhz()
 *    reads), a rate that may not be the counter's.
 * The header's " Cycles" line says which, and the rate. With -D the row
 * stays in usec (perftest's duration row has no cycles).
 */
#ifndef RDMABENCH_RUN_CYCLES_H
#define RDMABENCH_RUN_CYCLES_H

#include "run/ctx.h"

/* With -C (iteration mode): the rate's source, into b->cycle_mhz and
 * b->cycle_note. 0, or -ENOENT logged when no rate can be had. */
int cycles_setup(struct bench_ctx *b);

/* Cycles a microsecond for this size's figures; 0: they are in usec. */
double cycles_per_us(const struct bench_ctx *b);

#endif
