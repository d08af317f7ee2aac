// SPDX-License-Identifier: BSD-2-Clause
/*
 * cli - ib_fabric's rows in the one option engine, the text of its
 * --help and man page, and the checks after them (see cli.h).
 */
#include "fabric/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/plan.h"

/* The rows and their codes, a few fields a line (as spec/opts_table.c). */
/* clang-format off */
/* Long-only options get codes above any char. */
enum { CLI_BARRIER_PORT = 256, CLI_TIMEOUT, CLI_CONNECT_TIMEOUT,
       CLI_AUTH_KEY_FILE, CLI_NCCL_TEST, CLI_EXPECT_BUSBW,
       CLI_RANKS_PER_NODE };

/* Where --help and the man page list an option, in this order. */
enum { CLI_G_NONE, CLI_G_NODES, CLI_G_LINKS, CLI_G_NCCL, CLI_G_OUTPUTS,
       CLI_G_HELP, CLI_G_COUNT };

#define CFG(field) offsetof(struct fabric_cfg, field)

static const char *const dry_choices[] = { "text", "json", NULL };

static const struct opt_def cli_rows[] = {
	{ .name = "pattern", .code = 'P', .kind = OPT_ENUM,
	  .off = CFG(pattern), .has_off = CFG(have_pattern), .arg = "P",
	  .help = "the traffic pattern (docs/fabric.md)",
	  .choices = plan_pattern_names, .group = CLI_G_NODES },
	{ .name = "hosts", .code = 'H', .kind = OPT_STR, .off = CFG(hosts),
	  .max = FABRIC_HOSTS_MAX, .arg = "LIST",
	  .help = "the nodes in rank order: node-[01-16], a,b,c, n[1-3,7]",
	  .group = CLI_G_NODES },
	{ .name = "hostfile", .code = 'f', .kind = OPT_STR,
	  .off = CFG(hostfile), .max = PATH_MAX, .arg = "FILE",
	  .help = "one \"NAME [ADDRESS]\" a line, # comments",
	  .group = CLI_G_NODES },
	{ .name = "rank", .code = 'r', .kind = OPT_STR, .off = CFG(rank),
	  .max = FABRIC_RANK_MAX, .arg = "R",
	  .help = "this node's rank [the launcher's, else this host's name "
		  "in the list]",
	  .group = CLI_G_NODES },
	{ .name = "ranks-per-node", .code = CLI_RANKS_PER_NODE,
	  .kind = OPT_U64, .off = CFG(ranks_per_node), .min = 1,
	  .max = FABRIC_RANKS_PER_NODE_MAX, .def = "1", .arg = "N",
	  .help = "--nccl-test: N ranks a node, one a GPU; rank r on node "
		  "r / N (mpirun --map-by ppr:N:node, srun's block "
		  "distribution)",
	  .group = CLI_G_NODES },
	{ .name = "streams", .code = 'S', .kind = OPT_U64,
	  .off = CFG(streams), .min = 1, .max = PLAN_STREAMS_MAX, .def = "1",
	  .arg = "N",
	  .help = "links per connection, each a process pair",
	  .group = CLI_G_LINKS },
	{ .name = "tool", .code = 't', .kind = OPT_STR, .off = CFG(tool),
	  .max = PATH_MAX, .def = "ib_write_bw", .arg = "TOOL",
	  .help = "each link's tool, by name (the one next to ib_fabric) "
		  "or path",
	  .group = CLI_G_LINKS },
	{ .name = "port", .code = 'p', .kind = OPT_U64, .off = CFG(port),
	  .min = 1, .max = 65535, .def = "18515", .arg = "PORT",
	  .help = "the first tool port",
	  .group = CLI_G_LINKS },
	{ .name = "barrier-port", .code = CLI_BARRIER_PORT, .kind = OPT_U64,
	  .off = CFG(barrier_port), .min = 1, .max = 65535, .arg = "PORT",
	  .help = "rank 0's barrier port [--port - 1]",
	  .group = CLI_G_LINKS },
	{ .name = "auth-key-file", .code = CLI_AUTH_KEY_FILE, .kind = OPT_STR,
	  .off = CFG(key_file), .max = PATH_MAX, .arg = "FILE",
	  .help = "the job's key: ranks prove it to join the barrier "
		  "[$RDMABENCH_FABRIC_TOKEN]",
	  .group = CLI_G_LINKS },
	{ .name = "timeout", .code = CLI_TIMEOUT, .kind = OPT_U64,
	  .off = CFG(timeout_s), .min = 1, .max = 86400, .def = "600",
	  .arg = "SEC",
	  .help = "a round's limit, and the barrier's",
	  .group = CLI_G_LINKS },
	{ .name = "connect-timeout", .code = CLI_CONNECT_TIMEOUT,
	  .kind = OPT_U64, .off = CFG(connect_timeout_s), .min = 1,
	  .max = 86400, .def = "60", .arg = "SEC",
	  .help = "how long the clients retry their servers",
	  .group = CLI_G_LINKS },
	{ .name = "nccl-test", .code = CLI_NCCL_TEST, .kind = OPT_STR,
	  .off = CFG(nccl_test), .max = PATH_MAX, .arg = "PROG",
	  .help = "instead of links: run PROG (nccl-tests' all_reduce_perf "
		  "...) on every rank with NCCL_DEBUG=INFO, TOOL_ARGS its "
		  "arguments; parse and gate its table and NCCL's transport",
	  .group = CLI_G_NCCL },
	{ .name = "expect-busbw", .code = CLI_EXPECT_BUSBW, .kind = OPT_STR,
	  .off = CFG(expect_busbw), .max = 31, .arg = "GBPS|auto",
	  .help = "busbw (GB/s) due at the large sizes; auto: 0.8 x what "
		  "this node's RDMA ports carry for the test (docs/fabric.md)",
	  .group = CLI_G_NCCL },
	{ .name = "out", .code = 'o', .kind = OPT_STR, .off = CFG(out),
	  .max = FABRIC_OUT_MAX, .def = "fabric-out", .arg = "DIR",
	  .help = "the plan, per-link results and logs",
	  .group = CLI_G_OUTPUTS },
	{ .name = "dry-run", .code = 'n', .kind = OPT_ENUM, .off = CFG(dry_as),
	  .has_off = CFG(dry), .bare = "text", .arg = "FORM",
	  .help = "print the plan (a text table, or JSON) and exit",
	  .choices = dry_choices, .group = CLI_G_OUTPUTS },
	OPT_ROWS_HELP(CFG(help), CFG(version), CLI_G_HELP),
};
/* clang-format on */

static const char *const cli_groups[CLI_G_COUNT] = {
	[CLI_G_NODES] = "Nodes",     [CLI_G_LINKS] = "Links",
	[CLI_G_NCCL] = "nccl-tests", [CLI_G_OUTPUTS] = "Outputs",
	[CLI_G_HELP] = "Help",
};

static const struct opt_usage cli_usage[] = {
	{ .args = "--pattern P (--hosts LIST | --hostfile FILE) [options] "
		  "[-- TOOL_ARGS...]" },
	{ .args = "--nccl-test PROG (--hosts LIST | --hostfile FILE) "
		  "[--expect-busbw GBPS|auto] [options] [-- PROG_ARGS...]" },
	{ 0 },
};

static const char *const cli_about[] = {
	"One process a node (mpirun, srun, an Indexed Job or --rank), each "
	"running its links' tool servers and clients round by round; with "
	"--nccl-test, --ranks-per-node N of them a node. Under "
	"Slurm, without --hosts or --hostfile, the nodes are the job's node "
	"list. TOOL_ARGS go to both sides of every link. The report: "
	"scripts/fabric_report.py DIR (docs/fabric.md).",
	NULL,
};

static const struct opt_example cli_examples[] = {
	{ .args = "-P ring -H 'node-[01-04]' --dry-run",
	  .what = "the plan: who tests whom, in which round, with what" },
	{ .args = "-P all-to-all -H 'node-[01-04]' -- -D 10 --report_gbits",
	  .what = "one process a node (mpirun, srun): 10 s a link, in Gb/s" },
	{ .args = "--nccl-test all_reduce_perf -H 'node-[01-04]' "
		  "--expect-busbw auto -- -b 8 -e 8G -f 2 -g 8",
	  .what = "one process a node: nccl-tests, gated on busbw and on "
		  "NCCL's transport" },
	{ 0 },
};

/* The tool's arguments: after "--" only (options end at an operand). */
static int cli_operands(void *cfg, int argc, char **argv, int first,
			char *err, size_t err_len)
{
	((struct fabric_cfg *)cfg)->tool_args = first;
	if (first >= argc || !strcmp(argv[first - 1], "--"))
		return 0;
	opts_err(err, err_len, "'%s': tool arguments go after -- (ib_fabric "
		 "... -- -D 10)", argv[first]);
	return -EINVAL;
}

const struct opt_prog fabric_cli_prog = {
	.name = "ib_fabric",
	.summary = "many nodes at once: traffic patterns over rounds of links",
	.rows = cli_rows,
	.count = sizeof(cli_rows) / sizeof(cli_rows[0]),
	.cfg_size = sizeof(struct fabric_cfg),
	.groups = cli_groups,
	.group_count = CLI_G_COUNT,
	.usage = cli_usage,
	.about = cli_about,
	.examples = cli_examples,
	.exit_codes = "Exit codes (each rank): its clients' worst: 4 corrupt "
		      "data, then a link's error (1, 5; a server that failed "
		      "is one), then 3 below a gate, else 0; 2 usage, 5 the "
		      "barrier lost a rank, 130 stopped. --nccl-test: 4 "
		      "#wrong > 0, 1 no table or the program failed, 3 NCCL "
		      "used sockets or busbw below --expect-busbw, else 0.",
	.in_order = true,
	.operands = cli_operands,
};

/* --expect-busbw: a number of GB/s > 0, or auto. */
static int expect_parse(struct fabric_cfg *c, char *err, size_t err_len)
{
	char *end;

	if (!c->expect_busbw[0])
		return 0;
	if (!strcmp(c->expect_busbw, "auto")) {
		c->expect_auto = true;
		return 0;
	}
	c->expect_gbps = strtod(c->expect_busbw, &end);
	if (end != c->expect_busbw && !*end && c->expect_gbps > 0 &&
	    c->expect_gbps < 1e6)
		return 0;
	opts_err(err, err_len,
		 "--expect-busbw '%s': give GB/s as nccl-tests prints busbw "
		 "(--expect-busbw 180), or auto",
		 c->expect_busbw);
	return -EINVAL;
}

/* --nccl-test runs one program a rank: no links, no JSON plan. */
static int nccl_check(struct fabric_cfg *c, char *err, size_t err_len)
{
	if (!c->nccl_test[0] && c->ranks_per_node > 1) {
		opts_err(err, err_len,
			 "--ranks-per-node %llu is for --nccl-test: the link "
			 "patterns run one process a node (--streams gives a "
			 "connection more links)",
			 (unsigned long long)c->ranks_per_node);
		return -EINVAL;
	}
	if (!c->nccl_test[0]) {
		if (!c->expect_busbw[0])
			return 0;
		opts_err(err, err_len,
			 "--expect-busbw gates --nccl-test: "
			 "give the program too (--nccl-test all_reduce_perf)");
		return -EINVAL;
	}
	if (c->have_pattern) {
		opts_err(err, err_len,
			 "--nccl-test and --pattern: run them one after the "
			 "other into one --out folder; fabric_report.py gives "
			 "one verdict for both");
		return -EINVAL;
	}
	if (c->dry && c->dry_as != FABRIC_DRY_TEXT) {
		opts_err(err, err_len,
			 "--dry-run=json is the links' plan: with --nccl-test "
			 "use --dry-run");
		return -EINVAL;
	}
	return expect_parse(c, err, err_len);
}

int fabric_cli_parse(struct fabric_cfg *c, int argc, char **argv, char *err,
		     size_t err_len)
{
	int ret = opts_prog_parse(&fabric_cli_prog, NULL, c, argc, argv, err,
				  err_len);

	if (ret || c->help || c->version)
		return ret;
	ret = nccl_check(c, err, err_len);
	if (ret)
		return ret;
	if (!c->have_pattern && !c->nccl_test[0]) {
		opts_err(err, err_len,
			 "--pattern is required: one of %s "
			 "(or --nccl-test PROG)",
			 plan_pattern_list());
		return -EINVAL;
	}
	if (c->hosts[0] && c->hostfile[0]) {
		opts_err(err, err_len,
			 "--hosts and --hostfile: give one of them");
		return -EINVAL;
	}
	if (!c->barrier_port)
		c->barrier_port = c->port > 1 ? c->port - 1 : 65535;
	return 0;
}
