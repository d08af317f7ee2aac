/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * record_dev - the parts of the results document that come from the
 * device (record_dev.c), collected once the data connections are up.
 */
#ifndef RDMABENCH_RUN_RECORD_DEV_H
#define RDMABENCH_RUN_RECORD_DEV_H

#include "run/ctx.h"

/*
 * Into b's document: the device and the path (GID, path MTU), the
 * placement, the expected line rate (printed with its formula), and the
 * port counters' start. Never fails: what cannot be read stays out.
 */
void record_dev_collect(struct bench_ctx *b);

#endif
