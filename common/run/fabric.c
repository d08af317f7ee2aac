// SPDX-License-Identifier: BSD-2-Clause
/*
 * fabric - ib_fabric's orchestration (see fabric.h): options, the host
 * list, the plan, this rank, then the dry-run or the run.
 */
#include "run/fabric.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fabric/hostlist.h"
#include "fabric/linkcmd.h"
#include "fabric/plan.h"
#include "fabric/plan_json.h"
#include "fabric/role.h"
#include "lib/afile.h"
#include "lib/log.h"
#include "lib/stop.h"
#include "lib/timer.h"
#include "lib/units.h"
#include "run/fabric_addr.h"
#include "run/fabric_barrier.h"
#include "run/fabric_exec.h"
#include "spec/bench.h"

enum dry {
	DRY_NONE,
	DRY_TEXT,
	DRY_JSON
};

struct fabric_cfg {
	enum plan_pattern pattern;
	bool have_pattern;
	const char *hosts, *hostfile, *rank, *out, *tool;
	uint64_t streams, port, barrier_port, timeout_s, connect_timeout_s;
	enum dry dry;
	char tool_path[PATH_MAX];
};

/* What one run holds. */
struct fabric {
	struct fabric_cfg cfg;
	struct hostlist hl;
	struct plan pl;
	struct role role;
	bool have_rank;
	struct linkcmd_ctx x;
};

static const char usage_text[] =
	"Usage: ib_fabric --pattern P (--hosts LIST | --hostfile FILE) [OPTIONS] [-- TOOL_ARGS...]\n"
	"Test many nodes at once: one process a node (mpirun, srun, an Indexed Job\n"
	"or --rank), each running its links' tool servers and clients round by round.\n"
	"  -P, --pattern P        pairs, ring, all-to-all, bisection, incast, fan-out\n"
	"  -H, --hosts LIST       node-[01-16], a,b,c, n[1-3,7] (order = rank)\n"
	"  -f, --hostfile FILE    one \"NAME [ADDRESS]\" a line, # comments\n"
	"                         (Slurm: the job's node list when neither is given)\n"
	"  -S, --streams N        links per connection (default 1)\n"
	"  -t, --tool TOOL        ib_write_bw (default), ... or a path\n"
	"  -p, --port PORT        first tool port (default 18515)\n"
	"      --barrier-port P   rank 0's barrier port (default: --port - 1)\n"
	"  -r, --rank R           this node's rank (else the launcher's, else\n"
	"                         this host's name in the list)\n"
	"  -o, --out DIR          per-link results and logs (default fabric-out)\n"
	"  -n, --dry-run[=json]   print the plan (text table, or JSON) and exit\n"
	"      --timeout SEC      a round's limit (default 600)\n"
	"      --connect-timeout SEC   clients' retry time (default 60)\n"
	"  -h, --help\n"
	"TOOL_ARGS go to both sides of every link (e.g. -- -D 10 --report_gbits).\n"
	"Report: scripts/fabric_report.py DIR (docs/fabric.md).\n";

static const struct option longopts[] = {
	{ "pattern", required_argument, NULL, 'P' },
	{ "hosts", required_argument, NULL, 'H' },
	{ "hostfile", required_argument, NULL, 'f' },
	{ "streams", required_argument, NULL, 'S' },
	{ "tool", required_argument, NULL, 't' },
	{ "port", required_argument, NULL, 'p' },
	{ "barrier-port", required_argument, NULL, 'B' },
	{ "rank", required_argument, NULL, 'r' },
	{ "out", required_argument, NULL, 'o' },
	{ "dry-run", optional_argument, NULL, 'n' },
	{ "timeout", required_argument, NULL, 'T' },
	{ "connect-timeout", required_argument, NULL, 'C' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int dry_mode(const char *arg, enum dry *d)
{
	if (!arg || !strcmp(arg, "text"))
		*d = DRY_TEXT;
	else if (!strcmp(arg, "json"))
		*d = DRY_JSON;
	else {
		bench_err("--dry-run=%s: want text or json", arg);
		return -EINVAL;
	}
	return 0;
}

/* The options that take a string or a number, by their letter. */
#define STR(ch, field)                                       \
	{                                                    \
		ch, offsetof(struct fabric_cfg, field), 0, 0 \
	}
#define NUM(ch, field, lo, hi)                                 \
	{                                                      \
		ch, offsetof(struct fabric_cfg, field), lo, hi \
	}
static const struct {
	int opt;
	size_t off;
	uint64_t min, max; /* 0, 0: a string */
} valued[] = {
	STR('H', hosts),
	STR('f', hostfile),
	STR('t', tool),
	STR('r', rank),
	STR('o', out),
	NUM('S', streams, 1, PLAN_STREAMS_MAX),
	NUM('p', port, 1, 65535),
	NUM('B', barrier_port, 1, 65535),
	NUM('T', timeout_s, 1, 86400),
	NUM('C', connect_timeout_s, 1, 86400),
};

/* The long name of option letter opt, for messages. */
static const char *long_name(int opt)
{
	for (const struct option *o = longopts; o->name; o++)
		if (o->val == opt)
			return o->name;
	return "?";
}

static int parse_valued(struct fabric_cfg *c, unsigned int i, const char *arg)
{
	char *field = (char *)c + valued[i].off;

	if (!valued[i].max) {
		memcpy(field, &arg, sizeof(arg));
		return 0;
	}
	if (!units_parse_u64(arg, valued[i].min, valued[i].max,
			     (uint64_t *)(void *)field))
		return 0;
	bench_err("--%s %s: want a whole number in %llu..%llu",
		  long_name(valued[i].opt), arg,
		  (unsigned long long)valued[i].min,
		  (unsigned long long)valued[i].max);
	return -EINVAL;
}

static int parse_one(struct fabric_cfg *c, int opt, const char *arg)
{
	for (unsigned int i = 0; i < sizeof(valued) / sizeof(valued[0]); i++)
		if (valued[i].opt == opt)
			return parse_valued(c, i, arg);
	if (opt == 'P') {
		c->have_pattern = true;
		return plan_pattern_parse(arg, &c->pattern);
	}
	if (opt == 'n')
		return dry_mode(arg, &c->dry);
	bench_err("unknown option (ib_fabric --help lists them)");
	return -EINVAL;
}

/* Options into c; *argsi: the index of the first tool argument. */
static int parse_opts(struct fabric_cfg *c, int argc, char **argv, int *argsi)
{
	int opt, err = 0;

	*c = (struct fabric_cfg){ .tool = "ib_write_bw",
				  .out = "fabric-out",
				  .streams = 1,
				  .port = 18515,
				  .timeout_s = 600,
				  .connect_timeout_s = 60 };
	optind = 1;
	while (!err && (opt = getopt_long(argc, argv, "+P:H:f:S:t:p:r:o:n::h",
					  longopts, NULL)) != -1) {
		if (opt == 'h') {
			fputs(usage_text, stdout);
			return 1;
		}
		err = parse_one(c, opt, optarg);
	}
	if (!err && optind < argc && strcmp(argv[optind - 1], "--")) {
		bench_err(
			"'%s': tool arguments go after -- (ib_fabric ... -- -D 10)",
			argv[optind]);
		err = -EINVAL;
	}
	if (!err && !c->have_pattern) {
		bench_err("--pattern is required: one of %s",
			  plan_pattern_list());
		err = -EINVAL;
	}
	if (!err && c->hosts && c->hostfile) {
		bench_err("--hosts and --hostfile: give one of them");
		err = -EINVAL;
	}
	if (!c->barrier_port)
		c->barrier_port = c->port > 1 ? c->port - 1 : 65535;
	*argsi = optind;
	return err;
}

/* The tool next to ib_fabric itself when it is there, else as given. */
static void resolve_tool(struct fabric_cfg *c)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (strchr(c->tool, '/') || n <= 0)
		return;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return;
	*slash = '\0';
	if (snprintf(c->tool_path, sizeof(c->tool_path), "%s/%s", self,
		     c->tool) < (int)sizeof(c->tool_path) &&
	    !access(c->tool_path, X_OK))
		c->tool = c->tool_path;
}

static const char *env_get(const char *name, void *ctx)
{
	(void)ctx;
	return getenv(name);
}

/*
 * A launcher's rank must run on the node the host list gives it, else its
 * links would carry wrong names: refused (a warning with --rank, which
 * may stand in for a node on purpose, as the loopback tests do).
 */
static int check_host(const struct fabric *f)
{
	const char *want = f->hl.h[f->role.rank].name;
	char host[256];
	int i;

	if (f->cfg.dry || gethostname(host, sizeof(host)))
		return 0;
	host[sizeof(host) - 1] = '\0';
	i = hostlist_find(&f->hl, host);
	if (i == (int)f->role.rank)
		return 0;
	if (f->cfg.rank) {
		bench_warn(
			"--rank %u is %s in the host list, but this host is %s",
			f->role.rank, want, host);
		return 0;
	}
	bench_err(
		"%s rank %u runs on %s, but the host list puts rank %u on %s: list the hosts in the launcher's rank order (mpirun --map-by node --host in the order of --hosts; srun: leave --hosts out)",
		f->role.engine, f->role.rank, host, f->role.rank, want);
	return -EINVAL;
}

/* The rank: --rank, the launcher's, else this host's name in the list. */
static int resolve_rank(struct fabric *f)
{
	char host[256];
	int err, i;

	err = f->cfg.rank ? role_explicit(&f->role, f->cfg.rank) :
			    role_from_env(&f->role, env_get, NULL);
	if (!err) {
		f->have_rank = true;
		err = role_check(&f->role, f->hl.n);
		return err ? err : check_host(f);
	}
	if (err != -ENOENT)
		return err;
	if (gethostname(host, sizeof(host)) ||
	    (i = hostlist_find(&f->hl, host)) < 0) {
		if (f->cfg.dry)
			return 0; /* a plan needs no rank */
		bench_err(
			"no rank: not under mpirun/srun/an Indexed Job, no --rank, and this host's name is not in the host list");
		return -EINVAL;
	}
	f->role = (struct role){ .engine = "hostname",
				 .rank = (unsigned int)i,
				 .size = -1 };
	f->have_rank = true;
	return 0;
}

static int resolve(struct fabric *f)
{
	int err;

	if (f->cfg.hosts)
		err = hostlist_parse(&f->hl, f->cfg.hosts);
	else if (f->cfg.hostfile)
		err = hostlist_read_file(&f->hl, f->cfg.hostfile);
	else if (!role_from_env(&f->role, env_get, NULL) && f->role.nodelist)
		err = hostlist_parse(&f->hl, f->role.nodelist);
	else {
		bench_err("no nodes: give --hosts LIST or --hostfile FILE");
		err = -EINVAL;
	}
	err = err ? err :
		    plan_build(&f->pl, f->cfg.pattern, f->hl.n,
			       (unsigned int)f->cfg.streams,
			       (unsigned int)f->cfg.port);
	return err ? err : resolve_rank(f);
}

static void print_side(const struct fabric *f, const struct plan_link *l,
		       bool server)
{
	struct linkcmd c;
	unsigned int node = server ? l->server : l->client;

	if (linkcmd_build(&c, &f->x, l, server))
		return;
	printf("      %-6s on %-16s %s ", server ? "server" : "client",
	       f->hl.h[node].name,
	       f->have_rank && f->role.rank == node ? "*" : " ");
	linkcmd_print(stdout, c.argv);
	putchar('\n');
}

static void print_plan(const struct fabric *f)
{
	const struct plan *pl = &f->pl;

	printf("# fabric plan: %s over %u nodes x %u stream(s): %u round(s), %u link(s)\n",
	       plan_pattern_name(pl->pattern), pl->nodes, pl->streams,
	       pl->rounds, pl->nlinks);
	if (f->have_rank)
		printf("# this process: rank %u (%s, from %s), its commands marked *\n",
		       f->role.rank, f->hl.h[f->role.rank].name,
		       f->role.engine);
	for (unsigned int i = 0; i < f->hl.n; i++)
		if (plan_idle(pl, i))
			printf("# idle: %s (in no link of this pattern)\n",
			       f->hl.h[i].name);
	printf("%5s  %-16s    %-16s %6s %6s\n", "round", "client", "server",
	       "stream", "port");
	for (unsigned int i = 0; i < pl->nlinks; i++) {
		const struct plan_link *l = &pl->links[i];

		printf("%5u  %-16s -> %-16s %6u %6u\n", l->round,
		       f->hl.h[l->client].name, f->hl.h[l->server].name,
		       l->stream, l->port);
		print_side(f, l, true);
		print_side(f, l, false);
	}
}

struct plan_doc {
	const struct fabric *f;
};

static int render_plan(const void *arg, FILE *out)
{
	const struct fabric *f = ((const struct plan_doc *)arg)->f;

	return plan_json_write(out, &f->pl, &f->x,
			       f->have_rank ? f->role.engine : NULL);
}

/* Every link goes to the address its server node found for itself. */
static void fabric_use_addrs(struct fabric *f, const struct fabric_barrier *b)
{
	for (unsigned int i = 0; i < f->hl.n; i++)
		snprintf(f->hl.h[i].addr, sizeof(f->hl.h[i].addr), "%s",
			 b->addrs[i]);
}

static int run(struct fabric *f)
{
	struct plan_doc doc = { f };
	struct fabric_barrier b;
	struct fabric_exec e = { &f->pl, &f->x, f->role.rank,
				 (unsigned int)f->cfg.timeout_s };
	char path[PATH_MAX], mine[FABRIC_ADDR_LEN];
	int code;

	if (fabric_addr_check(&f->hl, f->role.rank, mine, sizeof(mine)))
		return BENCH_EXIT_USAGE;
	if (mkdir(f->cfg.out, 0755) && errno != EEXIST) {
		bench_err("--out %s: %s", f->cfg.out, strerror(errno));
		return BENCH_EXIT_USAGE;
	}
	snprintf(path, sizeof(path), "%s/plan.json", f->cfg.out);
	if (afile_write(path, render_plan, &doc))
		return BENCH_EXIT_RUNTIME;
	if (fabric_barrier_open(
		    &b, f->role.rank, f->hl.n, hostlist_addr(&f->hl, 0),
		    (uint16_t)f->cfg.barrier_port, mine,
		    timer_deadline_ns(f->cfg.timeout_s * 1000ULL))) {
		fabric_barrier_close(&b);
		return stop_flag ? BENCH_EXIT_STOPPED : BENCH_EXIT_PEER;
	}
	fabric_use_addrs(f, &b);
	code = fabric_exec_run(&e, &b);
	fabric_barrier_close(&b);
	bench_info(
		"rank %u (%s): %u round(s) done, exit %d; report: scripts/fabric_report.py %s",
		f->role.rank, f->hl.h[f->role.rank].name, f->pl.rounds, code,
		f->cfg.out);
	return code;
}

int fabric_main(int argc, char **argv)
{
	struct fabric f = { 0 };
	int argsi, code, err = parse_opts(&f.cfg, argc, argv, &argsi);

	if (err)
		return err > 0 ? BENCH_EXIT_OK : BENCH_EXIT_USAGE;
	resolve_tool(&f.cfg);
	stop_signals_init();
	err = resolve(&f);
	f.x = (struct linkcmd_ctx){ f.cfg.tool,
				    f.cfg.out,
				    (unsigned int)f.cfg.connect_timeout_s,
				    (unsigned int)(argc - argsi),
				    argv + argsi,
				    &f.hl };
	err = err ? err : linkcmd_check(&f.x);
	if (err)
		code = BENCH_EXIT_USAGE;
	else if (f.cfg.dry == DRY_TEXT)
		print_plan(&f), code = BENCH_EXIT_OK;
	else if (f.cfg.dry == DRY_JSON)
		code = render_plan(&(struct plan_doc){ &f }, stdout) ?
			       BENCH_EXIT_RUNTIME :
			       BENCH_EXIT_OK;
	else
		code = run(&f);
	plan_free(&f.pl);
	hostlist_free(&f.hl);
	return code;
}
