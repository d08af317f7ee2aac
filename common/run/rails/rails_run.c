// SPDX-License-Identifier: BSD-2-Clause
/*
 * rails_run - one thread per rail, each the one-link flow (rails_run.h).
 */
#define _GNU_SOURCE /* pthread_setname_np */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/container.h"
#include "lib/fs.h"
#include "lib/log.h"
#include "report/rails_report.h"
#include "report/verdict.h"
#include "run/cuda_auto.h"
#include "run/rails/rails_doc.h"
#include "run/rails/rails_run.h"
#include "spec/rails.h"

/*
 * The start line: a client rail waits at it before its first size until
 * every rail has either reached it or ended (a rail that fails to connect
 * does not hold the others).
 */
struct rails_sync {
	pthread_mutex_t lock;
	pthread_cond_t all_in;
	size_t pending;             /* rails neither at the line nor ended */
};

/* A rail: its run (whose hooks recover the rail) and what it reports. */
struct rails_rail {
	struct bench_ctx b;
	struct rails_sync *sync;
	bool at_line;               /* counted out of sync->pending */
	rails_run_fn fn;
	const struct cuda_auto_pick *gpu; /* --use_cuda auto's; else NULL */
	pthread_t tid;
	bool started;
	struct results_doc doc;     /* the rail's, from record_end() */
	double last_gbps;           /* its last size's figure; NaN: none */
	char *text;                 /* the rail's report, buffered */
	size_t text_len;
	int exit_code;
};

/* One rail is at the line (or ended): count it, once. */
static void rails_sync_count(struct rails_rail *r)
{
	struct rails_sync *s = r->sync;

	if (r->at_line)
		return;
	r->at_line = true;
	if (s->pending && !--s->pending)
		pthread_cond_broadcast(&s->all_in);
}

static struct rails_rail *rails_of(struct bench_ctx *b)
{
	return container_of(b, struct rails_rail, b);
}

/* The hooks: the start line, and what the rail's row and entry need. */
static void rails_hook_start(struct bench_ctx *b)
{
	struct rails_rail *r = rails_of(b);
	struct rails_sync *s = r->sync;

	pthread_mutex_lock(&s->lock);
	rails_sync_count(r);
	while (s->pending)
		pthread_cond_wait(&s->all_in, &s->lock);
	pthread_mutex_unlock(&s->lock);
}

static void rails_hook_bw(struct bench_ctx *b, double gbps)
{
	rails_of(b)->last_gbps = gbps;
}

static void rails_hook_end(struct bench_ctx *b, const struct results_doc *doc)
{
	rails_of(b)->doc = *doc;
}

static const struct bench_hooks rails_hooks = {
	.start = rails_hook_start,
	.bw = rails_hook_bw,
	.end = rails_hook_end,
};

static void *rails_thread(void *arg)
{
	struct rails_rail *r = arg;

	r->exit_code = r->fn(&r->b);
	pthread_mutex_lock(&r->sync->lock);
	rails_sync_count(r);
	pthread_mutex_unlock(&r->sync->lock);
	return NULL;
}

/* Rail i's configuration: its device, port, node; no files of its own. */
static int rails_cfg(struct bench_cfg *c, const struct rails_item *it,
		     size_t i)
{
	if (c->tcp_port + i > 65535) {
		bench_err("--rails: rail %zu would listen on port %llu: "
			  "lower -p", i, (unsigned long long)(c->tcp_port + i));
		return -EINVAL;
	}
	c->tcp_port += i;
	/* each rail's QPs are connected by hand over its own TCP control
	 * channel (the default auto's RoCE/IB path, without the rdma_cm
	 * listener that would take port + 1 on an iWARP host) */
	c->oob = OPTS_OOB_TCP;
	if (fs_exists("/", "/sys/class/infiniband/%s", it->name))
		snprintf(c->dev_name, sizeof(c->dev_name), "%s", it->name);
	else
		snprintf(c->netdev, sizeof(c->netdev), "%s", it->name);
	if (it->port) {
		c->ib_port = it->port;
		c->has_ib_port = true;
	}
	if (it->node >= 0)
		snprintf(c->numa, sizeof(c->numa), "%d", it->node);
	c->rails[0] = '\0';
	c->json_path[0] = c->junit_path[0] = c->prom_path[0] = '\0';
	c->out_json = false;
	c->out_json_path[0] = '\0';
	return 0;
}

static int rails_init(struct rails_rail *r, const struct bench_ctx *tmpl,
		      const struct rails_item *it, size_t i, rails_run_fn fn,
		      const struct cuda_auto_pick *gpu)
{
	r->b = *tmpl;
	r->fn = fn;
	r->last_gbps = NAN;
	r->b.hooks = &rails_hooks;
	if (rails_cfg(&r->b.cfg, it, i))
		return -EINVAL;
	r->gpu = gpu;
	if (gpu)
		cuda_auto_set(&r->b.cfg, gpu);
	r->b.out = open_memstream(&r->text, &r->text_len);
	if (!r->b.out) {
		bench_err("--rails: rail %zu's report buffer: %s", i,
			  strerror(errno));
		return -ENOMEM;
	}
	return 0;
}

/* The rails asked for: the list, or every ACTIVE port. */
static int rails_resolve(const struct bench_cfg *c, struct rails *rl)
{
	char err[256];
	int ret;

	ret = rails_parse(c->rails, rl, err, sizeof(err));
	if (!ret && rl->is_auto)
		ret = rails_auto("/", rl, err, sizeof(err));
	if (ret)
		bench_err("%s", err);
	return ret;
}

/* --use_cuda auto: each rail's GPU, and the table; the exit code. */
static int rails_gpus(const struct bench_ctx *tmpl, const struct rails *rl,
		      struct cuda_auto_pick *gpus)
{
	int ret;

	if (tmpl->cfg.use_cuda != OPTS_CUDA_AUTO)
		return BENCH_EXIT_OK;
	ret = cuda_auto_rails(rl, gpus, tmpl->out);
	return !ret ? BENCH_EXIT_OK : ret == -ENODEV ? BENCH_EXIT_USAGE :
	       BENCH_EXIT_RUNTIME;
}

/* "railN": which rail a thread is, in /proc/PID/task/TID/comm and top. */
static void rails_name(pthread_t tid, size_t i)
{
	char name[16];

	snprintf(name, sizeof(name), "rail%u", (unsigned int)(i % RAILS_MAX));
	pthread_setname_np(tid, name); /* a name is a courtesy: no check */
}

/* Start every rail; a rail that cannot start ends as a runtime error. */
static void rails_start(struct rails_rail *rr, const struct rails *rl,
			const struct bench_ctx *tmpl, rails_run_fn fn,
			struct rails_sync *sync,
			const struct cuda_auto_pick *gpus)
{
	size_t i;
	int ret;

	for (i = 0; i < rl->n; i++) {
		rr[i].exit_code = BENCH_EXIT_RUNTIME;
		rr[i].sync = sync;
		ret = rails_init(&rr[i], tmpl, &rl->items[i], i, fn,
				 gpus ? &gpus[i] : NULL);
		if (!ret) {
			bench_info("rail %zu: %s, port %llu", i,
				   rl->items[i].name,
				   (unsigned long long)rr[i].b.cfg.tcp_port);
			ret = pthread_create(&rr[i].tid, NULL, rails_thread,
					     &rr[i]);
			if (ret)
				bench_err("--rails: rail %zu's thread: %s", i,
					  strerror(ret));
			else
				rails_name(rr[i].tid, i);
		}
		rr[i].started = !ret;
		pthread_mutex_lock(&sync->lock);
		if (ret) /* never at the line: the others go without it */
			rails_sync_count(&rr[i]);
		pthread_mutex_unlock(&sync->lock);
	}
}

/* The table's NUMA column: "1, CPUs 1", or "not pinned". */
static void rails_place(const struct place_plan *p, char *buf, size_t len)
{
	if (p->node < 0 || !p->pin_cpus)
		snprintf(buf, len, "not pinned");
	else
		snprintf(buf, len, "%d, CPUs %.40s", p->node, p->cpu_list);
}

/* A rail's GPU in its entry: none (-1) for host memory. */
static void rails_entry_gpu(const struct rails_rail *r, struct results_rail *e)
{
	const struct bench_cfg *c = &r->b.cfg;

	e->has_gpu = opts_wants_gpu(c);
	e->gpu = c->use_cuda >= 0 ? (int)c->use_cuda : -1;
	results_copy(e->gpu_bus_id, sizeof(e->gpu_bus_id), c->cuda_bus_id);
	results_copy(e->gpu_pcie, sizeof(e->gpu_pcie), r->gpu &&
		     r->gpu->link != TOPO_UNKNOWN ?
		     topo_link_name(r->gpu->link) : "");
}

/* A rail's entry in the node's document. */
static void rails_entry(const struct rails_rail *r, const char *name,
			struct results_rail *e)
{
	const struct place_plan *p = &r->b.place;
	bool pinned = p->node >= 0 && p->pin_cpus;

	memset(e, 0, sizeof(*e));
	results_copy(e->device, sizeof(e->device), name);
	e->tcp_port = r->b.cfg.tcp_port;
	e->numa_node = pinned ? p->node : -1;
	results_copy(e->cpus, sizeof(e->cpus), pinned ? p->cpu_list : "");
	e->bw_gbps = r->last_gbps;
	e->verdict = verdict_decide(0, r->exit_code, false).verdict;
	e->exit_code = r->exit_code;
	results_copy(e->error, sizeof(e->error), r->exit_code ?
		     r->doc.error : "");
	rails_entry_gpu(r, e);
}

/* Join, print each rail's report in order, and fill its row. */
static void rails_collect(struct rails_rail *rr, const struct rails *rl,
			  struct rails_report_row *rows,
			  struct results_rail *entries, FILE *out)
{
	size_t i;

	for (i = 0; i < rl->n; i++) {
		if (rr[i].started)
			pthread_join(rr[i].tid, NULL);
		if (rr[i].b.out)
			fclose(rr[i].b.out);
		fprintf(out, "--- rail %zu: %s ---\n", i, rl->items[i].name);
		if (rr[i].text)
			fputs(rr[i].text, out);
		free(rr[i].text);
		snprintf(rows[i].name, sizeof(rows[i].name), "%s",
			 rl->items[i].name);
		rails_place(&rr[i].b.place, rows[i].place,
			    sizeof(rows[i].place));
		rows[i].gbps = rr[i].last_gbps;
		rows[i].exit_code = rr[i].exit_code;
		rails_entry(&rr[i], rl->items[i].name, &entries[i]);
	}
}

/* "node verdict: fail (rail 1 below a gate)", on stderr as the rails'. */
static void rails_verdict(const struct rails_report_row *rows, size_t n,
			  int code, const char *why)
{
	size_t i, failed = 0;

	for (i = 0; i < n; i++)
		failed += rows[i].exit_code != BENCH_EXIT_OK;
	if (code == BENCH_EXIT_OK)
		bench_info("node verdict: pass (%zu rails)", n);
	else if (why[0] && !failed)
		bench_info("node verdict: fail (%s)", why);
	else
		bench_info("node verdict: %s (%zu of %zu rails did not "
			   "pass%s%s)", results_verdict_name(
			   verdict_decide(0, code, false).verdict), failed, n,
			   why[0] ? "; " : "", why);
}

int rails_run(const struct bench_ctx *tmpl, rails_run_fn fn)
{
	struct rails_sync sync = { .lock = PTHREAD_MUTEX_INITIALIZER,
				   .all_in = PTHREAD_COND_INITIALIZER };
	struct rails_report_row rows[RAILS_MAX];
	struct results_rail entries[RAILS_MAX];
	struct cuda_auto_pick gpus[RAILS_MAX];
	const struct bench_cfg *c = &tmpl->cfg;
	struct rails_rail *rr;
	struct rails rl;
	char why[256];
	double sum;
	int code;

	if (rails_resolve(&tmpl->cfg, &rl))
		return BENCH_EXIT_USAGE;
	code = rails_gpus(tmpl, &rl, gpus);
	if (code)
		return code;
	rr = calloc(rl.n, sizeof(*rr));
	if (!rr) {
		bench_err("--rails: %s", strerror(ENOMEM));
		return BENCH_EXIT_RUNTIME;
	}
	sync.pending = rl.n;
	rails_start(rr, &rl, tmpl, fn, &sync,
		    c->use_cuda == OPTS_CUDA_AUTO ? gpus : NULL);
	rails_collect(rr, &rl, rows, entries, tmpl->out);
	sum = rails_report_sum(rows, rl.n);
	code = rails_report_exit(rows, rl.n, sum, c->expect_node_gbps, why,
				 sizeof(why));
	fprintf(tmpl->out, "--- node: %zu rails ---\n", rl.n);
	rails_report_print(tmpl->out, rows, rl.n, sum, code);
	rails_verdict(rows, rl.n, code, why);
	if ((c->json_path[0] || c->junit_path[0] || c->prom_path[0]) &&
	    rails_doc_save(c, &rr[0].doc, entries, rl.n, sum, code, why) &&
	    !code) {
		bench_err("a results file could not be written: exit %d",
			  BENCH_EXIT_RUNTIME);
		code = BENCH_EXIT_RUNTIME;
	}
	free(rr);
	return code;
}
