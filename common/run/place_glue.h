/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * place_glue - the run's use of host/place.c (NUMA, CPUs) and gpu/cuda_drv.c.
 * Each returns 0 or -errno (logged).
 */
#ifndef RDMABENCH_RUN_PLACE_GLUE_H
#define RDMABENCH_RUN_PLACE_GLUE_H

#include "run/ctx.h"

/* Placement and GPU checks before anything connects. */
int place_glue_preflight(struct bench_ctx *b);

/* Once the device is known: decide, log and apply the NUMA placement. */
int place_glue_apply(struct bench_ctx *b);

#endif
