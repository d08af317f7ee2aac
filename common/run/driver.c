// SPDX-License-Identifier: BSD-2-Clause
/*
 * driver - bench_main(), the one orchestration every executable shares:
 * parse, run the client or server session (session.c), tear down, and map
 * the outcome to an exit code. The top of the program: nothing calls back
 * into this file.
 */
#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/memlimit.h"
#include "lib/log.h"
#include "lib/stop.h"
#include "lib/timer.h"
#include "lib/units.h"
#include "rdma/dev.h"
#include "report/report.h"
#include "report/verdict.h"
#include "run/ctx.h"
#include "run/main.h"
#include "run/place_glue.h"
#include "run/rails/rails_run.h"
#include "run/record.h"
#include "run/session/session.h"
#include "run/setup.h"
#include "spec/opts_doc.h"
#include "spec/test.h"
#include "spec/wire.h"

/* The test this side runs (the client sends it; a server adopts one). */
static void bench_build_test(struct bench_ctx *b)
{
	const struct bench_cfg *c = &b->cfg;
	struct test *t = &b->test;
	uint64_t first, last;

	memset(t, 0, sizeof(*t));
	t->verb = b->desc->verb;
	/* -A picks the atomic's row of the verb table */
	if (t->verb == BENCH_VERB_ATOMIC_FAA && c->atomic_op == OPTS_ATOMIC_CAS)
		t->verb = BENCH_VERB_ATOMIC_CAS;
	t->measure = b->desc->measure;
	t->all_sizes = c->all_sizes;
	t->gbits = c->report_gbits;
	t->bidir = c->bidir;
	/* perftest's --reversed swaps the roles: only a one-way test has
	 * a direction to turn round */
	t->reversed = c->reversed && t->measure == BENCH_MEASURE_BW &&
		      !c->bidir;
	t->validate = c->validate;
	t->warm_up = c->warm_up;
	t->events = c->events;
	t->srq = c->use_srq;
	t->mr_per_qp = c->mr_per_qp;
	t->uc = c->conn_type == OPTS_CONN_UC;
	t->ud = c->conn_type == OPTS_CONN_UD;
	t->tx_depth = (uint32_t)c->tx_depth;
	t->cq_mod = (uint32_t)c->cq_mod;
	t->io_timeout_ms = (uint32_t)(c->io_timeout_s * 1000);
	t->size_bytes = c->size_bytes;
	t->iters = c->iters;
	t->qps = (uint32_t)c->qps;
	t->post_list = (uint32_t)c->post_list;
	t->outstanding = (uint32_t)c->outstanding;
	t->rx_depth = (uint32_t)c->rx_depth;
	t->inline_bytes = c->has_inline ? (uint32_t)c->inline_bytes : UINT32_MAX;
	t->duration_s = (uint32_t)c->duration_s;
	t->margin_s = (uint32_t)c->margin_s;
	t->recv_post_list = (uint32_t)c->recv_post_list;
	snprintf(t->tool, sizeof(t->tool), "%s", b->desc->name);
	test_sizes(t, &first, &last);
	t->max_size_bytes = last;
}

static int bench_usage_error(const struct bench_desc *desc, const char *why)
{
	fprintf(stderr, "%s: %s\nTry '%s --help'.\n", desc->name, why,
		desc->name);
	return BENCH_EXIT_USAGE;
}

/* -d naming no device fails at once on either side, not after connecting. */
static int bench_check_dev_name(struct bench_ctx *b)
{
	const struct bench_cfg *c = &b->cfg;
	struct ibv_context *ctx;
	int ret;

	if (!c->dev_name[0])
		return 0;
	ret = dev_open(c->dev_name, NULL, &ctx, NULL, &b->why);
	if (!ret)
		ibv_close_device(ctx);
	return ret;
}

/* -c DC, SRD, XRC, -O, -g: taken as perftest takes them, refused here, before
 * the device or a peer is looked for (exit 2). */
static int bench_check_built(struct bench_ctx *b)
{
	char why[320];
	int ret = opts_check_built(&b->cfg, b->desc, why, sizeof(why));

	if (ret)
		bench_err_why(&b->why, "%s", why);
	return ret;
}

/* -p 0 (perftest's parser takes it): a server listens on a port the
 * kernel picks and says it; a client cannot guess it (exit 2). */
static int bench_check_port(struct bench_ctx *b)
{
	if (b->is_server || b->cfg.tcp_port || b->cfg.rails[0])
		return 0;
	bench_err_why(&b->why, "-p 0: give the server's port (-p N; a server "
		      "started with -p 0 says on stderr \"listening on port "
		      "N\")");
	return -EINVAL;
}

/* The test-only hook --validate's tests use to prove a flip is caught. */
static int64_t bench_flip_iter(void)
{
	const char *v = getenv("RDMABENCH_TEST_FLIP_ITER");

	return v && *v ? strtoll(v, NULL, 10) : -1;
}

/*
 * A server's --max-mem, when not given: what fits its cgroup and memlock
 * limits (host/memlimit.h), said once when a limit set it.
 */
static void bench_max_mem(struct bench_cfg *c)
{
	struct memlimit m;
	char cap[32];

	if (c->has_max_mem)
		return;
	memlimit_read("/", &m);
	c->max_mem_bytes = memlimit_cap(&m, c->max_mem_from,
					sizeof(c->max_mem_from));
	if (c->max_mem_bytes == MEMLIMIT_DEFAULT_BYTES)
		return;
	units_fmt_bytes(c->max_mem_bytes, cap, sizeof(cap));
	bench_info("--max-mem %s: %s%s%s", cap, c->max_mem_from,
		   m.cgroup_file[0] ? ", " : "", m.cgroup_file);
}

/* One link's run, after the command line: the whole flow, an exit code. */
static int bench_run_link(struct bench_ctx *b)
{
	int ret;

	b->is_server = opts_is_server(&b->cfg);
	if (b->is_server)
		bench_max_mem(&b->cfg);
	ctrl_init(&b->ctrl);
	b->ctrl.peer_role = b->is_server ? "client" : "server";
	b->ctrl.timeout_ms = b->cfg.io_timeout_s * 1000;
	b->xfer.flip_iter = bench_flip_iter();
	bench_build_test(b);
	ret = record_begin(b);
	if (!ret)
		ret = bench_check_built(b);
	if (!ret)
		ret = bench_check_port(b);
	if (!ret)
		ret = bench_check_dev_name(b);
	if (!ret)
		ret = place_glue_preflight(b);
	if (!ret)
		ret = b->is_server ? session_server(b) : session_client(b);
	/* whatever a stop cut short, the run was stopped: 130 */
	ret = verdict_stop_err(ret, stop_flag);
	if (ret)
		ctrl_send_error(&b->ctrl, ret, ret == -EINTR ? "interrupted" :
				"failed; see its log for why");
	setup_release(b);
	if (ret == -EINTR)
		bench_err("interrupted by %s",
			  stop_flag == SIGINT  ? "SIGINT" :
			  stop_flag == SIGTERM ? "SIGTERM" :
						 "a signal");
	return record_end(b, ret, verdict_exit_code(ret));
}

int bench_main(const struct bench_desc *desc, int argc, char **argv)
{
	struct bench_ctx b = { .desc = desc, .out = stdout, .argc = argc,
			       .argv = argv };
	char err[256];

	if (opts_parse(&b.cfg, desc, argc, argv, err, sizeof(err)))
		return bench_usage_error(desc, err);
	if (!b.cfg.show_help && !b.cfg.show_version &&
	    opts_check(&b.cfg, desc, err, sizeof(err))) {
		b.argc = argc;
		b.argv = argv;
		record_refused(&b, err);
		return bench_usage_error(desc, err);
	}
	if (b.cfg.show_help) {
		opts_doc_usage(desc, stdout);
		return BENCH_EXIT_OK;
	}
	if (b.cfg.show_version) {
		printf("%s (rdmabench) %s\n", desc->name, RDMABENCH_VERSION);
		return BENCH_EXIT_OK;
	}
	setvbuf(stdout, NULL, _IOLBF, 0); /* rows appear as they are measured */
	/* getaddrinfo_a's helper and the server's busy answer are threads
	 * that malloc: each got an arena of its own, 64 MiB of address
	 * space (VmSize 146 MB for a 5 MB RSS); none allocates in a loop */
	mallopt(M_ARENA_MAX, 1);
	stop_signals_init();
	if (b.cfg.rails[0])
		return rails_run(&b, bench_run_link);
	return bench_run_link(&b);
}
