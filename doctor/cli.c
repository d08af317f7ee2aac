// SPDX-License-Identifier: BSD-2-Clause
/*
 * doctor_cli - ib_doctor's command line: options, the run, the table on
 * stdout, the JSON file, the exit code. Pure: the probes come in.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "doctor/doctor.h"
#include "doctor/chk.h"
#include "doctor/net.h"
#include "lib/log.h"
#include "spec/bench.h"
#include "spec/opts_forgive.h"

struct cli_opts {
	const char *json_path;
	const char *peer;
	const char *dev;
	const char *root;
	const char *netstatus;
	bool help;
	bool version;
};

#define CLI_SHORTS ":d:hV"

static const struct option cli_longopts[] = {
	{ "json", required_argument, NULL, 'j' },
	{ "peer", required_argument, NULL, 'P' },
	{ "ib-dev", required_argument, NULL, 'd' },
	{ "network-status", required_argument, NULL, 'N' },
	{ "root", required_argument, NULL, 'r' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

void doctor_cli_usage(FILE *out)
{
	fputs("ib_doctor - RDMA preflight: finds the settings that make "
	      "traffic silently fall\nback or slow down, with a one-line fix "
	      "for each.\n\n"
	      "Usage:\n  ib_doctor [--peer IP] [-d DEV] [--json FILE] "
	      "[--network-status FILE]\n\n"
	      "Checks, in order: 1 devices, uverbs, rdma_cm, provider; 2 port"
	      " state, link\nspeed, PCIe; 3 MTU; 4 netdev map, RoCEv2 GIDs; 5 "
	      "route and rdma_cm to --peer;\n6 memlock; 7 NUMA; 8 GPUDirect; "
	      "9 pod networks (Multus, SR-IOV).\n\nOptions:\n"
	      "  --peer IP              also check the route to IP and that "
	      "rdma_cm resolves it\n"
	      "  -d, --ib-dev DEV       check only this RDMA device\n"
	      "  --json FILE            also write the findings as JSON "
	      "(atomically)\n"
	      "  --network-status FILE  Multus network-status file\n"
	      "                         [default /etc/podinfo/network-status]\n"
	      "  --root DIR             read /sys, /proc, /dev below DIR and "
	      "the verbs answers\n"
	      "                         from DIR/probe (tests)\n"
	      "  -h, --help             this text\n"
	      "  -V, --version          the version\n\n"
	      "Long options take '_' or '-' alike and may be shortened to a "
	      "unique prefix.\n\n"
	      "Exit codes: 0 every check passed (SKIPs allowed), 6 warnings "
	      "only, 7 a failure,\n2 usage, 1 runtime error (--json not "
	      "written).\n", out);
}

const struct option *doctor_cli_options(void)
{
	return cli_longopts;
}

static int cli_opt(struct cli_opts *o, int c, char *err, size_t len)
{
	struct probe_addr a;
	struct stat st;

	switch (c) {
	case 'j':
		o->json_path = optarg;
		return 0;
	case 'P':
		o->peer = optarg;
		if (!net_addr_parse(optarg, &a))
			return 0;
		snprintf(err, len, "--peer '%s': not an IPv4/IPv6 address; "
			 "give the peer's IP on the RDMA network", optarg);
		return -EINVAL;
	case 'd':
		o->dev = optarg;
		return 0;
	case 'N':
		o->netstatus = optarg;
		return 0;
	case 'r':
		o->root = optarg;
		if (!stat(optarg, &st) && S_ISDIR(st.st_mode))
			return 0;
		snprintf(err, len, "--root '%s': not a folder", optarg);
		return -EINVAL;
	case 'h':
		o->help = true;
		return 0;
	case 'V':
		o->version = true;
		return 0;
	default:
		return -EINVAL;
	}
}

/* Name the option getopt stumbled on: a long one as typed. */
static void cli_bad_opt(int c, const char *arg, char *err, size_t len)
{
	char flag[3] = { '-', (char)optopt, '\0' };
	const char *what = arg && !strncmp(arg, "--", 2) ? arg : flag;

	snprintf(err, len, "%s '%s'; ib_doctor -h lists the options",
		 c == '?' ? "unknown option" : "a value is needed after", what);
}

/* getopt_long over argv (already respelled by opts_forgive). */
static int cli_getopt(int argc, char **argv, struct cli_opts *o,
		      char *err, size_t len)
{
	int c, ret;

	optind = 0;     /* 0, not 1: glibc re-initialises getopt fully */
	opterr = 0;     /* we word the messages ourselves */
	while ((c = getopt_long(argc, argv, CLI_SHORTS, cli_longopts,
				NULL)) != -1) {
		if (c == '?' || c == ':') {
			cli_bad_opt(c, argv[optind - 1], err, len);
			return -EINVAL;
		}
		ret = cli_opt(o, c, err, len);
		if (ret)
			return ret;
	}
	if (optind < argc) {
		snprintf(err, len, "unexpected argument '%s' (the peer is "
			 "--peer IP)", argv[optind]);
		return -EINVAL;
	}
	return 0;
}

static int cli_args(int argc, char **argv, struct cli_opts *o,
		    char *err, size_t len)
{
	char **args;
	int ret;

	memset(o, 0, sizeof(*o));
	args = opts_forgive(cli_longopts, CLI_SHORTS, argc, argv, &ret, err,
			    len);
	if (!args)
		return ret;
	ret = cli_getopt(argc, args, o, err, len);
	free(args);
	return ret;
}

/* Run the checks and write both outputs; the exit code. */
static int cli_go(const struct cli_opts *o, char *const *envp,
		     const struct probe *probe, FILE *out)
{
	struct chk_ctx c = {
		.root = o->root ? o->root : "/", .only_dev = o->dev,
		.peer = o->peer, .netstatus = o->netstatus, .envp = envp,
		.probe = probe,
	};
	char host[128] = "";
	int code, ret;

	cli_run(&c);
	fs_read(c.root, host, sizeof(host), "/proc/sys/kernel/hostname");
	fprintf(out, "# ib_doctor: RDMA preflight of %s%s%s\n",
		host[0] ? host : "this host", o->root ? ", root " : "",
		o->root ? o->root : "");
	findings_print_text(&c.rep, out);
	fflush(out);
	code = findings_exit_code(&c.rep);
	if (o->json_path) {
		/* afile_write said why, naming the file */
		ret = findings_write_json(&c.rep, host, o->peer, o->json_path);
		if (ret)
			code = FINDINGS_EXIT_RUNTIME;
	}
	cli_ctx_free(&c);
	return code;
}

int doctor_cli(int argc, char **argv, char *const *envp,
	       const struct probe *real, FILE *out)
{
	struct probe fake, none = { 0 };
	struct cli_opts o;
	char err[256];

	if (cli_args(argc, argv, &o, err, sizeof(err))) {
		bench_err("%s", err);
		return FINDINGS_EXIT_USAGE;
	}
	if (o.help) {
		doctor_cli_usage(out);
		return FINDINGS_EXIT_OK;
	}
	if (o.version) {
		fprintf(out, "ib_doctor (rdmabench) %s\n", RDMABENCH_VERSION);
		return FINDINGS_EXIT_OK;
	}
	if (o.root)
		fake_probe(o.root, &fake);
	/* no probes at all: every probed check SKIPs */
	return cli_go(&o, envp, o.root ? &fake : real ? real : &none,
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
	chk_port_mtu(c);
	chk_net_netdevs(c);
	chk_net_peer(c);
	chk_host_memlock(c);
	chk_host_numa(c);
	chk_gpu_check(c);
	chk_pod_check(c);
	return c->rep.lost ? -ENOMEM : 0;
}

void cli_ctx_free(struct chk_ctx *c)
{
	inv_free(&c->inv);
	findings_free(&c->rep);
}
