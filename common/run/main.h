/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * main - what an executable in bench/ calls: its descriptor (spec/bench.h)
 * handed to the one shared driver.
 */
#ifndef RDMABENCH_RUN_MAIN_H
#define RDMABENCH_RUN_MAIN_H

#include "spec/bench.h"

/* The one orchestration: parse, rendezvous, run, report. Returns an exit code. */
int bench_main(const struct bench_desc *desc, int argc, char **argv);

#endif
