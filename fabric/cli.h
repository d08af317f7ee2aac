/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli - ib_fabric's command line: its rows in the one option engine
 * (spec/opts_prog.h), from which its parser, --help, --version, man page
 * and completion all come, and what the rows cannot say (--pattern is
 * required unless --nccl-test, --hosts or --hostfile, the tool's
 * arguments after --, --expect-busbw's forms). Pure.
 */
#ifndef RDMABENCH_FABRIC_CLI_H
#define RDMABENCH_FABRIC_CLI_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spec/opts_prog.h"

/* --hosts: the longest argument Linux passes (MAX_ARG_STRLEN). */
#define FABRIC_HOSTS_MAX 131072
#define FABRIC_RANK_MAX 32
/* --ranks-per-node: more GPUs than any node carries. */
#define FABRIC_RANKS_PER_NODE_MAX 64
/* --out: a path with room left for the names of the files in it. */
#define FABRIC_OUT_MAX (PATH_MAX - 64)

/* --dry-run's forms. */
enum fabric_dry { FABRIC_DRY_TEXT, FABRIC_DRY_JSON };

struct fabric_cfg {
	uint64_t pattern;                /* enum plan_pattern */
	bool have_pattern;
	char hosts[FABRIC_HOSTS_MAX];    /* "": not given */
	char hostfile[PATH_MAX];
	char rank[FABRIC_RANK_MAX];
	uint64_t ranks_per_node;         /* --ranks-per-node: ranks a node */
	char tool[PATH_MAX];
	char out[FABRIC_OUT_MAX];
	char key_file[PATH_MAX];         /* --auth-key-file; "": none */
	uint64_t streams, port, barrier_port, timeout_s, connect_timeout_s;
	bool dry;                        /* --dry-run: print the plan */
	uint64_t dry_as;                 /* enum fabric_dry */
	char nccl_test[PATH_MAX];        /* --nccl-test PROG; "": links */
	char expect_busbw[32];           /* --expect-busbw GBPS|auto */
	double expect_gbps;              /* its number (GB/s); 0: none */
	bool expect_auto;                /* "auto": from the node's NICs */
	int tool_args;                   /* argv's first tool argument */
	bool help, version;
};

/* --expect-busbw auto: this share of the network's bound (docs/fabric.md). */
#define FABRIC_BUSBW_FRACTION 0.8

/* ib_fabric's program: its rows and the text of its --help and man. */
extern const struct opt_prog fabric_cli_prog;

/*
 * Parse argv into c, defaults first, and check what the rows cannot (not
 * with --help or --version). The tool's arguments are argv[c->tool_args
 * ..argc). Returns 0, or -EINVAL/-ERANGE with a message in err.
 */
int fabric_cli_parse(struct fabric_cfg *c, int argc, char **argv, char *err,
		     size_t err_len);

#endif
