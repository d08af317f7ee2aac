/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ntest_json - one rank's nccl-tests result as a JSON document
 * (results/schema/fabric-nccl-v1.schema.json, version 2: with
 * ranks_per_node): the rows, the summary,
 * NCCL's transport, the gate and the verdict. scripts/fabric_report.py
 * puts every rank's in the fabric report. Pure.
 */
#ifndef RDMABENCH_FABRIC_NTEST_JSON_H
#define RDMABENCH_FABRIC_NTEST_JSON_H

#include <stdio.h>

#include "fabric/hostlist.h"
#include "fabric/ntest.h"

struct ntest_doc {
	unsigned int rank, ranks_per_node; /* node = nodes[rank / per node] */
	const char *node, *engine, *program, *log;
	const struct hostlist *hl; /* every node, in rank order */
	const struct ntest_out *o;
	const struct ntest_expect *e;
	const struct ntest_judgement *j;
};

/* Write d to out. 0, or the writer's -errno. */
int ntest_json_write(FILE *out, const struct ntest_doc *d);

#endif
