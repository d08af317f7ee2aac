// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for fabric/cli.c: ib_fabric's rows through the one option
 * engine: defaults, the patterns, --dry-run's optional form, the tool's
 * arguments after "--", and the refusals the rows and the checks make.
 */
#include <errno.h>
#include <stdlib.h>

#include "fabric/cli.h"
#include "fabric/plan.h"
#include "tests/test.h"

static struct fabric_cfg cfg;
static char err[256];
static int argc;

/* fabric_cli_parse over a NULL-terminated list (after "ib_fabric"). */
static int parse(const char *const *args)
{
	char *argv[16];

	argc = 0;
	argv[argc++] = (char *)"ib_fabric";
	for (; *args && argc < 15; args++)
		argv[argc++] = (char *)*args;
	argv[argc] = NULL;
	err[0] = '\0';
	return fabric_cli_parse(&cfg, argc, argv, err, sizeof(err));
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void test_defaults(void)
{
	EXPECT_EQ_INT(parse(ARGS("-P", "ring", "-H", "a,b")), 0);
	EXPECT_EQ_U64(cfg.pattern, PLAN_RING);
	EXPECT_STREQ(cfg.hosts, "a,b");
	EXPECT_STREQ(cfg.tool, "ib_write_bw");
	EXPECT_STREQ(cfg.out, "fabric-out");
	EXPECT_EQ_U64(cfg.streams, 1);
	EXPECT_EQ_U64(cfg.ranks_per_node, 1);
	EXPECT_EQ_U64(cfg.port, 18515);
	EXPECT_EQ_U64(cfg.barrier_port, 18514);
	EXPECT_EQ_U64(cfg.timeout_s, 600);
	EXPECT_EQ_U64(cfg.connect_timeout_s, 60);
	EXPECT_TRUE(!cfg.dry && !cfg.rank[0] && !cfg.hostfile[0]);
	EXPECT_EQ_INT(cfg.tool_args, argc);
}

static void test_forms(void)
{
	EXPECT_EQ_INT(parse(ARGS("--pattern=all-to-all", "--hostfile", "h",
				 "-n")), 0);
	EXPECT_EQ_U64(cfg.pattern, PLAN_ALL_TO_ALL);
	EXPECT_TRUE(cfg.dry && cfg.dry_as == FABRIC_DRY_TEXT);
	EXPECT_EQ_INT(parse(ARGS("--pat", "fan-out", "-H", "a,b",
				 "--dry_run=json")), 0);
	EXPECT_EQ_U64(cfg.pattern, PLAN_FAN_OUT);
	EXPECT_TRUE(cfg.dry && cfg.dry_as == FABRIC_DRY_JSON);
	EXPECT_EQ_INT(parse(ARGS("-P", "pairs", "-H", "a,b", "-p", "100",
				 "--barrier-port", "7", "-S", "3")), 0);
	EXPECT_EQ_U64(cfg.barrier_port, 7);
	EXPECT_EQ_U64(cfg.streams, 3);
	/* the tool's arguments: after "--", left in argv */
	EXPECT_EQ_INT(parse(ARGS("-P", "ring", "-H", "a,b", "--", "-D", "5",
				 "--report_gbits")), 0);
	EXPECT_EQ_INT(cfg.tool_args, 6);
	EXPECT_EQ_INT(argc - cfg.tool_args, 3);
	/* --help and --version need nothing else */
	EXPECT_EQ_INT(parse(ARGS("--version")), 0);
	EXPECT_TRUE(cfg.version);
	EXPECT_EQ_INT(parse(ARGS("-h")), 0);
	EXPECT_TRUE(cfg.help);
}

static void test_refusals(void)
{
	EXPECT_EQ_INT(parse(ARGS("-H", "a,b")), -EINVAL);
	EXPECT_TRUE(strstr(err, "--pattern is required: one of pairs, ring"));
	EXPECT_EQ_INT(parse(ARGS("-P", "star", "-H", "a,b")), -EINVAL);
	EXPECT_TRUE(strstr(err, "must be one of pairs, ring, all-to-all"));
	EXPECT_EQ_INT(parse(ARGS("-P", "ring", "-H", "a", "-f", "h")),
		      -EINVAL);
	EXPECT_TRUE(strstr(err, "--hosts and --hostfile"));
	EXPECT_EQ_INT(parse(ARGS("-P", "ring", "-H", "a,b", "stray", "--",
				 "-D")), -EINVAL);
	EXPECT_TRUE(strstr(err, "'stray': tool arguments go after --"));
	EXPECT_EQ_INT(parse(ARGS("-P", "ring", "-S", "0")), -ERANGE);
	EXPECT_EQ_INT(parse(ARGS("-P", "ring", "--dry-run=xml")), -EINVAL);
	EXPECT_EQ_INT(parse(ARGS("--hlep")), -EINVAL);
	EXPECT_TRUE(strstr(err, "did you mean --help?"));
	/* a bench's option is not ib_fabric's */
	EXPECT_EQ_INT(parse(ARGS("-P", "ring", "--report_gbits")), -EINVAL);
}

/* --ranks-per-node: with --nccl-test only, 1..64 */
static void test_ranks_per_node(void)
{
	EXPECT_EQ_INT(parse(ARGS("--nccl-test", "all_reduce_perf", "-H", "vm",
				 "--ranks-per-node", "2")), 0);
	EXPECT_EQ_U64(cfg.ranks_per_node, 2);
	EXPECT_EQ_INT(parse(ARGS("-P", "ring", "-H", "a,b",
				 "--ranks-per-node", "2")), -EINVAL);
	EXPECT_TRUE(strstr(err, "--ranks-per-node 2 is for --nccl-test: the "
			   "link patterns run one process a node"));
	/* 1 is the default, so links take it said aloud */
	EXPECT_EQ_INT(parse(ARGS("-P", "ring", "-H", "a,b",
				 "--ranks-per-node", "1")), 0);
	EXPECT_EQ_INT(parse(ARGS("--nccl-test", "x", "-H", "vm",
				 "--ranks-per-node", "0")), -ERANGE);
	EXPECT_EQ_INT(parse(ARGS("--nccl-test", "x", "-H", "vm",
				 "--ranks-per-node", "65")), -ERANGE);
}

int main(void)
{
	test_defaults();
	test_forms();
	test_refusals();
	test_ranks_per_node();
	return test_finish("test_fabric_cli");
}
