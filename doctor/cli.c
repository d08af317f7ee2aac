// SPDX-License-Identifier: BSD-2-Clause
/*
 * doctor_cli - ib_doctor's command line: its rows in the one option
 * engine (spec/opts_prog.h), the run, the table, the JSON document, the
 * exit code. Pure: the probes come in.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "doctor/doctor.h"
#include "doctor/chk.h"
#include "doctor/chk_nccl.h"
#include "doctor/net.h"
#include "doctor/watch.h"
#include "lib/afile.h"
#include "lib/log.h"
#include "spec/bench.h"
#include "spec/opts.h"
#include "spec/opts_doc.h"

/* --nccl-log's files after the first: one per rank of a node's job;
 * more ranks go in one merged log (cat ... | ib_doctor --nccl-log -). */
#define CLI_LOGS_MAX 64
#define CLI_LOG_PATH_MAX 1024

struct cli_opts {
	char json_path[OPTS_PATH_MAX];
	char summary_path[OPTS_PATH_MAX];
	char peer[OPTS_ADDR_MAX];
	char dev[OPTS_NAME_MAX];
	char root[OPTS_PATH_MAX];
	char netstatus[OPTS_PATH_MAX];
	char nccl_log[OPTS_PATH_MAX];
	/* the operands: further --nccl-log files (copies: the parser's argv
	 * is gone once it returns) */
	char more_logs[CLI_LOGS_MAX][CLI_LOG_PATH_MAX];
	char *more[CLI_LOGS_MAX];
	int n_more;
	uint64_t lossless_prio; /* --lossless-prio: PFC/ECN priority */
	uint64_t roce_tos;      /* --roce-tos: rdma_cm's ToS */
	bool watch;             /* --watch -- CMD ARGS */
	uint64_t expect;        /* --expect: enum watch_expect */
	bool has_expect;
	bool help;
	bool version;
};

/* Long-only options get codes above any char. */
enum { CLI_JSON = 256, CLI_PEER, CLI_NETSTATUS, CLI_ROOT, CLI_SUMMARY,
       CLI_NCCL_LOG, CLI_WATCH, CLI_EXPECT, CLI_LOSSLESS_PRIO,
       CLI_ROCE_TOS };

static const char *const cli_expect_names[] = { "rdma", "tcp", NULL };

/* Where --help and the man page list an option, in this order. */
enum { CLI_G_NONE, CLI_G_CHECKS, CLI_G_OUTPUTS, CLI_G_HELP, CLI_G_COUNT };

#define CLI(field) offsetof(struct cli_opts, field)

/* Operands are more --nccl-log files; without --nccl-log, none. */
static int cli_operands(void *cfg, int argc, char **argv, int first,
			char *err, size_t len)
{
	struct cli_opts *o = cfg;

	if (o->watch) {
		/* the command itself is taken from the caller's argv */
		o->n_more = argc - first;
		if (first < argc)
			return 0;
		opts_err(err, len, "--watch needs a command after --: "
			 "ib_doctor --watch -- ib_write_bw -d mlx5_0 IP");
		return -EINVAL;
	}
	if (first < argc && !o->nccl_log[0]) {
		opts_err(err, len, "unexpected argument '%s' (the peer is "
			 "--peer IP; logs follow --nccl-log)", argv[first]);
		return -EINVAL;
	}
	if (argc - first > CLI_LOGS_MAX) {
		opts_err(err, len, "%d logs after --nccl-log: at most %d; give "
			 "one merged log instead (cat *.log | ib_doctor "
			 "--nccl-log -)", argc - first, CLI_LOGS_MAX);
		return -EINVAL;
	}
	for (o->n_more = 0; first < argc; first++, o->n_more++) {
		if (strlen(argv[first]) >= CLI_LOG_PATH_MAX) {
			opts_err(err, len, "log path longer than %d bytes: "
				 "'%.40s...'", CLI_LOG_PATH_MAX - 1,
				 argv[first]);
			return -EINVAL;
		}
		snprintf(o->more_logs[o->n_more], CLI_LOG_PATH_MAX, "%s",
			 argv[first]);
		o->more[o->n_more] = o->more_logs[o->n_more];
	}
	return 0;
}

static const struct opt_def cli_rows[] = {
	{ .name = "peer", .code = CLI_PEER, .kind = OPT_STR, .off = CLI(peer),
	  .max = OPTS_ADDR_MAX, .arg = "IP",
	  .help = "also check the route to IP and that rdma_cm resolves it",
	  .group = CLI_G_CHECKS },
	{ .name = "ib-dev", .code = 'd', .kind = OPT_STR, .off = CLI(dev),
	  .max = OPTS_NAME_MAX, .arg = "DEV",
	  .help = "check only this RDMA device",
	  .group = CLI_G_CHECKS },
	{ .name = "network-status", .code = CLI_NETSTATUS, .kind = OPT_STR,
	  .off = CLI(netstatus), .max = OPTS_PATH_MAX, .arg = "FILE",
	  .help = "Multus network-status file [/etc/podinfo/network-status]",
	  .group = CLI_G_CHECKS },
	{ .name = "lossless-prio", .code = CLI_LOSSLESS_PRIO, .kind = OPT_U64,
	  .off = CLI(lossless_prio), .min = 0, .max = 7, .def = "3",
	  .arg = "N",
	  .help = "the priority RoCE's lossless class rides: PFC and ECN "
		  "must be on it, DSCP must map to it [3]",
	  .group = CLI_G_CHECKS },
	{ .name = "roce-tos", .code = CLI_ROCE_TOS, .kind = OPT_U64,
	  .off = CLI(roce_tos), .min = 0, .max = 255, .def = "106",
	  .arg = "N",
	  .help = "the lossless class's ToS: rdma_cm's default_roce_tos must "
		  "be N, the netdev must map DSCP N >> 2 to --lossless-prio "
		  "[106: DSCP 26]",
	  .group = CLI_G_CHECKS },
	{ .name = "nccl-log", .code = CLI_NCCL_LOG, .kind = OPT_STR,
	  .off = CLI(nccl_log), .max = OPTS_PATH_MAX, .arg = "FILE...",
	  .help = "judge the transport NCCL chose from its NCCL_DEBUG=INFO "
		  "log instead (one file per rank or one merged log; - is "
		  "stdin; the files after it are more logs)",
	  .group = CLI_G_CHECKS },
	{ .name = "watch", .code = CLI_WATCH, .kind = OPT_FLAG,
	  .off = CLI(watch),
	  .help = "run the command after -- and say how many bytes crossed "
		  "each RDMA port and each TCP interface meanwhile, from their "
		  "counters; fail when they took TCP",
	  .group = CLI_G_CHECKS },
	{ .name = "expect", .code = CLI_EXPECT, .kind = OPT_ENUM,
	  .off = CLI(expect), .has_off = CLI(has_expect), .arg = "rdma|tcp",
	  .help = "with --watch: what the command should use [rdma]; tcp "
		  "fails when its bytes took RDMA",
	  .choices = cli_expect_names, .group = CLI_G_CHECKS },
	{ .name = "root", .code = CLI_ROOT, .kind = OPT_STR, .off = CLI(root),
	  .max = OPTS_PATH_MAX, .arg = "DIR",
	  .help = "read /sys, /proc, /dev below DIR and the verbs answers "
		  "from DIR/probe (tests)",
	  .group = CLI_G_CHECKS },
	{ .name = "json", .code = CLI_JSON, .kind = OPT_STR,
	  .off = CLI(json_path), .max = OPTS_PATH_MAX, .arg = "FILE",
	  .help = "also write the findings as JSON (a file atomically, a "
		  "device or FIFO in place); - or /dev/stdout: on stdout, "
		  "the table then on stderr",
	  .group = CLI_G_OUTPUTS },
	{ .name = "summary", .code = CLI_SUMMARY, .kind = OPT_STR,
	  .off = CLI(summary_path), .max = OPTS_PATH_MAX, .arg = "FILE",
	  .help = "also write the verdict and the WARN and FAIL findings as "
		  "one line of JSON under 4 KiB (a pod's termination message)",
	  .group = CLI_G_OUTPUTS },
	OPT_ROWS_HELP(CLI(help), CLI(version), CLI_G_HELP),
};

static const char *const cli_groups[CLI_G_COUNT] = {
	[CLI_G_CHECKS] = "Checks",
	[CLI_G_OUTPUTS] = "Outputs",
	[CLI_G_HELP] = "Help",
};

static const struct opt_usage cli_usage[] = {
	{ .args = "[--peer IP] [-d DEV] [--json FILE] [options]" },
	{ .args = "--nccl-log FILE... [--json FILE] [options]" },
	{ .args = "--watch [--expect rdma|tcp] [--json FILE] -- CMD [ARG...]" },
	{ 0 },
};

static const char *const cli_about[] = {
	"Each finding comes with its one-line fix. Checks, in order: 1 "
	"devices, uverbs, rdma_cm, provider; 2 port state, link speed, "
	"PCIe, link errors and flaps since boot, IB rated width/speed; 3 "
	"MTU, RoCE's lossless class (PFC, DSCP trust, ECN, rdma_cm's "
	"default ToS and RoCE mode); 4 netdev map, RoCEv2 GIDs; 5 route and rdma_cm to "
	"--peer; 6 memlock; 7 NUMA; 8 GPUDirect; 9 pod networks (Multus, "
	"SR-IOV).",
	"With --nccl-log, step 10 alone: the network NCCL chose (IB, "
	"Socket, a net plugin), its HCA ports, NCCL_IB_HCA, and each "
	"channel's path (NET/IB/GDRDMA, NET/IB, P2P, SHM, NET/Socket), "
	"judged against this host when the log is this host's. A fall back "
	"to Socket, NET/IB without GDRDMA where the host allows it, or an "
	"NCCL_IB_HCA naming a missing device fails.",
	"With --watch, step 11 alone, the byte proof: the RDMA ports' data "
	"and packet counters and every netdev's byte counters before and "
	"after CMD; how many bytes crossed each RDMA port and each TCP "
	"interface while it ran. The TCP interfaces carrying more than the "
	"RDMA ports (and over 1 MiB) fails, naming the interface.",
	NULL,
};

static const struct opt_example cli_examples[] = {
	{ .args = "", .what = "check this host; the table on stdout" },
	{ .args = "--peer 192.0.2.2 -d mlx5_0",
	  .what = "one device, and the route and rdma_cm to a peer" },
	{ .args = "--nccl-log rank0.log rank1.log",
	  .what = "NCCL's transport from its NCCL_DEBUG=INFO logs" },
	{ .args = "--watch -- ib_write_bw -d mlx5_0 192.0.2.2",
	  .what = "the bytes a run moved, per RDMA port and TCP interface" },
	{ .args = "--json - | jq .exit_code",
	  .what = "the findings as JSON on stdout, the table on stderr" },
	{ 0 },
};

const struct opt_prog doctor_cli_prog = {
	.name = "ib_doctor",
	.summary = "RDMA preflight: the settings that make traffic silently "
		   "fall back or slow down",
	.rows = cli_rows,
	.count = sizeof(cli_rows) / sizeof(cli_rows[0]),
	.cfg_size = sizeof(struct cli_opts),
	.groups = cli_groups,
	.group_count = CLI_G_COUNT,
	.usage = cli_usage,
	.about = cli_about,
	.examples = cli_examples,
	.exit_codes = "Exit codes: 0 every check passed (SKIPs allowed), 6 "
		      "warnings only, 7 a failure, 2 usage, 1 runtime error "
		      "(--json not written, a --nccl-log file unreadable). "
		      "--watch: 7 also when the bytes took TCP or the "
		      "command failed, 130 stopped by SIGINT/SIGTERM.",
	.operand_hint = "the peer is --peer IP",
	.operands = cli_operands,
};

/* What the rows cannot say: --peer is an address, --root a folder,
 * --json no folder. */
static int cli_check(const struct cli_opts *o, char *err, size_t len)
{
	const struct afile_opt outs[] = { { "--json", o->json_path },
					  { "--summary", o->summary_path } };
	struct probe_addr a;
	struct stat st;

	if (o->peer[0] && net_addr_parse(o->peer, &a)) {
		opts_err(err, len, "--peer '%s': not an IPv4/IPv6 address; "
			 "give the peer's IP on the RDMA network", o->peer);
		return -EINVAL;
	}
	if (o->watch && o->nccl_log[0]) {
		opts_err(err, len, "--watch and --nccl-log: give one of them");
		return -EINVAL;
	}
	if (o->has_expect && !o->watch) {
		opts_err(err, len, "--expect goes with --watch -- CMD");
		return -EINVAL;
	}
	if (o->root[0] && (stat(o->root, &st) || !S_ISDIR(st.st_mode))) {
		opts_err(err, len, "--root '%s': not a folder", o->root);
		return -EINVAL;
	}
	return afile_check_set(outs, sizeof(outs) / sizeof(outs[0]), err, len);
}

/* --watch's command: argv's last n_more words, right after a "--" (the
 * parser permutes: an operand before the "--" would end up among them). */
static int cli_watch_cmd(const struct cli_opts *o, int argc, char **argv,
			 char ***cmd, char *err, size_t len)
{
	int first = argc - o->n_more;

	*cmd = NULL;
	if (!o->watch)
		return 0;
	if (first < 2 || strcmp(argv[first - 1], "--")) {
		opts_err(err, len, "--watch: the command goes after -- "
			 "(ib_doctor --watch [options] -- CMD ARGS)");
		return -EINVAL;
	}
	*cmd = &argv[first];
	return 0;
}

/* Step 11 alone: the byte proof around the command. */
static int cli_watch(struct chk_ctx *c, const struct cli_opts *o,
		     char **cmd, int *stopped)
{
	struct watch_cmd w = {
		.argv = cmd,
		.out_to_stderr = afile_is_stdout(o->json_path) ||
				 afile_is_stdout(o->summary_path),
	};
	int ret = watch_go(c, &w, (enum watch_expect)o->expect);

	*stopped = w.stopped;
	return ret;
}

/* An option's value, NULL when not given. */
static const char *cli_given(const char *value)
{
	return value[0] ? value : NULL;
}

/* Run the checks and write both outputs; the exit code. With --json -
 * the document takes out and the table goes to stderr. */
static int cli_go(const struct cli_opts *o, char **cmd, char *const *envp,
		  const struct probe *probe, FILE *out)
{
	const struct chk_lossless k = {
		.prio = (unsigned int)o->lossless_prio,
		.tos = (unsigned int)o->roce_tos,
	};
	struct chk_ctx c = {
		.root = o->root[0] ? o->root : "/",
		.lossless = &k,
		.only_dev = cli_given(o->dev), .peer = cli_given(o->peer),
		.netstatus = cli_given(o->netstatus), .envp = envp,
		.probe = probe,
	};
	FILE *text = afile_is_stdout(o->json_path) ||
		     afile_is_stdout(o->summary_path) ? stderr : out;
	char host[128] = "";
	int code, ret, stopped = 0;

	fs_read(c.root, host, sizeof(host), "/proc/sys/kernel/hostname");
	host[strcspn(host, "\n")] = '\0';
	ret = o->nccl_log[0] ? chk_nccl_files(&c, o->nccl_log, o->more,
					     o->n_more, host) :
	      cmd ? cli_watch(&c, o, cmd, &stopped) : cli_run(&c);
	fprintf(text, "# ib_doctor: %s of %s%s%s\n", o->nccl_log[0] ?
		"NCCL's transport from its log, judged on the host facts" :
		cmd ? "the bytes a command moved, from the port and interface "
		"counters" : "RDMA preflight", host[0] ? host : "this host",
		o->root[0] ? ", root " : "", o->root);
	findings_print_text(&c.rep, text);
	fflush(text);
	code = ret ? FINDINGS_EXIT_RUNTIME :
	       findings_exit_code(&c.rep);
	/* findings_write_json said why, naming the file */
	if (o->json_path[0] && findings_write_json(&c.rep, host, c.peer,
						   o->json_path, out))
		code = FINDINGS_EXIT_RUNTIME;
	/* last: its verdict is the run's, the --json file's fate included */
	if (o->summary_path[0] &&
	    findings_write_summary(&c.rep, code, o->summary_path, out))
		code = FINDINGS_EXIT_RUNTIME;
	cli_ctx_free(&c);
	return stopped ? BENCH_EXIT_STOPPED : code;
}

int doctor_cli(int argc, char **argv, char *const *envp,
	       const struct probe *real, FILE *out)
{
	struct probe fake, none = { 0 };
	struct cli_opts o;
	char err[256], **cmd;

	if (opts_prog_parse(&doctor_cli_prog, NULL, &o, argc, argv, err,
			    sizeof(err)) ||
	    cli_check(&o, err, sizeof(err)) ||
	    cli_watch_cmd(&o, argc, argv, &cmd, err, sizeof(err))) {
		bench_err("%s", err);
		return FINDINGS_EXIT_USAGE;
	}
	if (opts_doc_asked(&doctor_cli_prog, NULL, o.help, o.version, out))
		return FINDINGS_EXIT_OK;
	if (o.root[0])
		fake_probe(o.root, &fake);
	/* no probes at all: every probed check SKIPs */
	return cli_go(&o, cmd, envp, o.root[0] ? &fake : real ? real : &none,
		      out);
}

int cli_run(struct chk_ctx *c)
{
	int ret = inv_read(c->root, c->probe, &c->inv);

	if (ret) {
		c->rep.lost = true;
		return ret;
	}
	chk_dev_check(c);
	chk_port_check(c);
	chk_link_check(c);
	chk_port_mtu(c);
	chk_lossless_check(c);
	chk_net_netdevs(c);
	chk_net_peer(c);
	chk_host_memlock(c);
	chk_host_numa(c);
	chk_gpu_check(c);
	chk_pcie_check(c);
	chk_pod_check(c);
	return c->rep.lost ? -ENOMEM : 0;
}

void cli_ctx_free(struct chk_ctx *c)
{
	inv_free(&c->inv);
	findings_free(&c->rep);
}
