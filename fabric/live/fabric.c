// SPDX-License-Identifier: BSD-2-Clause
/*
 * fabric - ib_fabric's orchestration (see fabric.h): options (the rows
 * of fabric/cli.c), the host list, the plan, this rank, then the dry-run
 * or the run.
 */
#include "fabric/live/fabric.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fabric/cli.h"
#include "fabric/hostlist.h"
#include "fabric/linkcmd.h"
#include "fabric/live/fabric_addr.h"
#include "fabric/live/fabric_barrier.h"
#include "fabric/live/fabric_exec.h"
#include "fabric/live/fabric_nccl.h"
#include "fabric/plan.h"
#include "fabric/plan_json.h"
#include "fabric/role.h"
#include "lib/afile.h"
#include "lib/keyfile.h"
#include "lib/log.h"
#include "lib/stop.h"
#include "lib/timer.h"
#include "spec/bench.h"
#include "spec/opts_doc.h"

/* What one run holds. */
struct fabric {
	struct fabric_cfg cfg;
	struct hostlist hl;
	struct plan pl;
	struct role role;
	bool have_rank;
	struct linkcmd_ctx x;
};

/* The tool next to ib_fabric itself when it is there, else as given. */
static void resolve_tool(struct fabric_cfg *c)
{
	char self[PATH_MAX], path[sizeof(c->tool)];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (strchr(c->tool, '/') || n <= 0)
		return;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return;
	*slash = '\0';
	if (snprintf(path, sizeof(path), "%s/%s", self, c->tool) <
		    (int)sizeof(path) &&
	    !access(path, X_OK))
		strcpy(c->tool, path);
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
	unsigned int per = (unsigned int)f->cfg.ranks_per_node;
	unsigned int node = role_node(&f->role, per);
	const char *want = f->hl.h[node].name;
	char host[256];
	int i;

	if (f->cfg.dry || gethostname(host, sizeof(host)))
		return 0;
	host[sizeof(host) - 1] = '\0';
	i = hostlist_find(&f->hl, host);
	if (i == (int)node)
		return 0;
	if (f->cfg.rank[0]) {
		bench_warn(
			"--rank %u is %s in the host list, but this host is %s",
			f->role.rank, want, host);
		return 0;
	}
	bench_err(
		"%s rank %u runs on %s, but the host list puts rank %u on %s (node %u = rank / --ranks-per-node %u): list the hosts in the launcher's rank order, each node's ranks together (mpirun --map-by ppr:%u:node --host in the order of --hosts; srun: leave --hosts out)",
		f->role.engine, f->role.rank, host, f->role.rank, want, node,
		per, per);
	return -EINVAL;
}

/*
 * No launcher, no --rank: this host's name in the list. It says the
 * node, not which of a node's ranks this is: with --ranks-per-node > 1
 * refused (a plan, --dry-run, needs no rank).
 */
static int rank_by_name(struct fabric *f)
{
	char host[256];
	int i;

	if (gethostname(host, sizeof(host)) ||
	    (i = hostlist_find(&f->hl, host)) < 0) {
		if (f->cfg.dry)
			return 0;
		bench_err(
			"no rank: not under mpirun/srun/an Indexed Job, no --rank, and this host's name is not in the host list");
		return -EINVAL;
	}
	if (f->cfg.ranks_per_node > 1) {
		if (f->cfg.dry)
			return 0;
		bench_err(
			"--ranks-per-node %llu: this host's name says its node, not which of its ranks this process is: run under a launcher (mpirun, srun, an Indexed Job) or give --rank",
			(unsigned long long)f->cfg.ranks_per_node);
		return -EINVAL;
	}
	f->role = (struct role){ .engine = "hostname",
				 .rank = (unsigned int)i,
				 .size = -1,
				 .nodes = -1 };
	f->have_rank = true;
	return 0;
}

/* The rank: --rank, the launcher's, else this host's name in the list. */
static int resolve_rank(struct fabric *f)
{
	int err;

	err = f->cfg.rank[0] ? role_explicit(&f->role, f->cfg.rank) :
			       role_from_env(&f->role, env_get, NULL);
	if (!err) {
		f->have_rank = true;
		err = role_check(&f->role, f->hl.n,
				 (unsigned int)f->cfg.ranks_per_node);
		return err ? err : check_host(f);
	}
	return err == -ENOENT ? rank_by_name(f) : err;
}

static int resolve(struct fabric *f)
{
	int err;

	if (f->cfg.hosts[0])
		err = hostlist_parse(&f->hl, f->cfg.hosts);
	else if (f->cfg.hostfile[0])
		err = hostlist_read_file(&f->hl, f->cfg.hostfile);
	else if (!role_from_env(&f->role, env_get, NULL) && f->role.nodelist)
		err = hostlist_parse(&f->hl, f->role.nodelist);
	else {
		bench_err("no nodes: give --hosts LIST or --hostfile FILE");
		err = -EINVAL;
	}
	if (!err && !f->cfg.nccl_test[0])
		err = plan_build(&f->pl, (enum plan_pattern)f->cfg.pattern,
				 f->hl.n, (unsigned int)f->cfg.streams,
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

/*
 * The job's key for the barrier: --auth-key-file's, else the launcher's
 * RDMABENCH_FABRIC_TOKEN (as long as a key file's), else none (a warning:
 * the ranks are then checked by their source address only).
 */
static int load_key(const struct fabric *f, struct keyfile *kf,
		    struct join_key *k)
{
	const char *tok = getenv(JOIN_TOKEN_ENV);
	int err;

	*k = (struct join_key){ 0 };
	if (f->cfg.key_file[0]) {
		err = keyfile_load(f->cfg.key_file, kf);
		if (err)
			return err;
		*k = (struct join_key){ kf->key, kf->len };
	} else if (tok && *tok) {
		if (strlen(tok) < KEYFILE_MIN || strlen(tok) > KEYFILE_MAX) {
			bench_err("%s has %zu bytes: give %d to %d (say, head -c 32 /dev/urandom | base64)",
				  JOIN_TOKEN_ENV, strlen(tok), KEYFILE_MIN,
				  KEYFILE_MAX);
			return -EINVAL;
		}
		*k = (struct join_key){ (const uint8_t *)tok, strlen(tok) };
	} else if (!f->role.rank) {
		bench_warn("barrier: no job key (--auth-key-file, or %s from the launcher): a rank is trusted by its source address alone",
			   JOIN_TOKEN_ENV);
	}
	return 0;
}

/* Join the barrier with the job's key; false: exit with *code. */
static bool join(struct fabric *f, struct fabric_barrier *b, const char *mine,
		 int *code)
{
	struct keyfile kf;
	struct fabric_join_cfg c = {
		.rank = f->role.rank,
		.hl = &f->hl,
		.port = (uint16_t)f->cfg.barrier_port,
		.mine = mine,
		.deadline_ns = timer_deadline_ns(f->cfg.timeout_s * 1000ULL),
	};
	int err = load_key(f, &kf, &c.key);

	if (err) {
		*code = BENCH_EXIT_USAGE;
		return false;
	}
	err = fabric_barrier_open(b, &c);
	keyfile_clear(&kf);
	if (err)
		*code = stop_flag ? BENCH_EXIT_STOPPED : BENCH_EXIT_PEER;
	return !err;
}

static int run(struct fabric *f)
{
	struct plan_doc doc = { f };
	struct fabric_barrier b = { 0 };
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
	if (!join(f, &b, mine, &code)) {
		fabric_barrier_close(&b);
		return code;
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

/* --dry-run of --nccl-test: what each rank runs, on which node. */
static void nccl_dry(const struct fabric *f, const struct fabric_nccl *n)
{
	unsigned int per = n->ranks_per_node, ranks = f->hl.n * per;

	printf("# nccl-tests: %u node(s) x %u rank(s) a node = %u rank(s)%s\n",
	       f->hl.n, per, ranks,
	       per > 1 ? "; rank r on node r / --ranks-per-node" : "");
	for (unsigned int r = 0; r < ranks; r++) {
		const char *node = f->hl.h[r / per].name;

		printf("rank %u on %-16s %s NCCL_DEBUG=INFO %s", r, node,
		       f->have_rank && f->role.rank == r ? "*" : " ", n->prog);
		for (unsigned int a = 0; a < n->nargs; a++)
			printf(" %s", n->args[a]);
		printf(" > %s/nccl_r%u_%s.log\n", n->out, r, node);
	}
}

/* --nccl-test: this rank's run, or (--dry-run) what each rank runs. */
static int nccl(struct fabric *f, int argc, char **argv)
{
	struct fabric_nccl n = {
		.prog = f->cfg.nccl_test,
		.args = argv + f->cfg.tool_args,
		.nargs = (unsigned int)(argc - f->cfg.tool_args),
		.out = f->cfg.out,
		.nodes = f->hl.n,
		.ranks_per_node = (unsigned int)f->cfg.ranks_per_node,
		.hl = &f->hl,
		.timeout_s = (unsigned int)f->cfg.timeout_s,
		.expect_gbps = f->cfg.expect_gbps,
		.expect_auto = f->cfg.expect_auto,
	};

	if (f->cfg.dry) {
		nccl_dry(f, &n);
		return BENCH_EXIT_OK;
	}
	if (mkdir(f->cfg.out, 0755) && errno != EEXIST) {
		bench_err("--out %s: %s", f->cfg.out, strerror(errno));
		return BENCH_EXIT_USAGE;
	}
	n.rank = f->role.rank;
	n.node = f->hl.h[role_node(&f->role, n.ranks_per_node)].name;
	n.engine = f->role.engine;
	return fabric_nccl_run(&n);
}

int fabric_main(int argc, char **argv)
{
	struct fabric f = { 0 };
	char msg[256];
	int code, err;

	if (fabric_cli_parse(&f.cfg, argc, argv, msg, sizeof(msg))) {
		bench_err("%s", msg);
		return BENCH_EXIT_USAGE;
	}
	if (opts_doc_asked(&fabric_cli_prog, NULL, f.cfg.help, f.cfg.version,
			   stdout))
		return BENCH_EXIT_OK;
	resolve_tool(&f.cfg);
	stop_signals_init();
	err = resolve(&f);
	f.x = (struct linkcmd_ctx){ f.cfg.tool,
				    f.cfg.out,
				    (unsigned int)f.cfg.connect_timeout_s,
				    (unsigned int)(argc - f.cfg.tool_args),
				    argv + f.cfg.tool_args,
				    &f.hl };
	err = err || f.cfg.nccl_test[0] ? err : linkcmd_check(&f.x);
	if (err)
		code = BENCH_EXIT_USAGE;
	else if (f.cfg.nccl_test[0])
		code = nccl(&f, argc, argv);
	else if (f.cfg.dry && f.cfg.dry_as == FABRIC_DRY_TEXT)
		print_plan(&f), code = BENCH_EXIT_OK;
	else if (f.cfg.dry)
		code = render_plan(&(struct plan_doc){ &f }, stdout) ?
			       BENCH_EXIT_RUNTIME :
			       BENCH_EXIT_OK;
	else
		code = run(&f);
	plan_free(&f.pl);
	hostlist_free(&f.hl);
	return code;
}
