/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * plan_json - a fabric plan as JSON: what ib_fabric --dry-run=json prints
 * and what a run leaves as OUT/plan.json for scripts/fabric_report.py
 * (the links it must find, the file each one's result is in). Schema:
 * results/schema/fabric-plan-v1.schema.json. Pure.
 */
#ifndef RDMABENCH_FABRIC_PLAN_JSON_H
#define RDMABENCH_FABRIC_PLAN_JSON_H

#include <stdio.h>

#include "fabric/linkcmd.h"
#include "fabric/plan.h"

#define PLAN_JSON_VERSION 1

/* The plan to out; engine: how ranks were found ("--rank", "slurm"...,
 * NULL for none). Returns 0 or a negative errno (json_finish's). */
int plan_json_write(FILE *out, const struct plan *pl,
		    const struct linkcmd_ctx *x, const char *engine);

#endif
