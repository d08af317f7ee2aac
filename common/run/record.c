// SPDX-License-Identifier: BSD-2-Clause
/*
 * record - the run's results document: each size's figures from both
 * sides, checked against the gates as they come, the verdict and exit
 * code at the end, and the files asked for (--json, --junit, --prom,
 * --summary; --prom-textfile's file and --push's PUT after them;
 * perftest's --out_json is perftest_out.c's). The device, the line rate and the port counters are filled in
 * by record_dev.c, the test section and the gates by record_doc.c; which
 * verdict wins is report/verdict.c's rule. Every file is written at the
 * end, once, atomically; a run that failed midway writes them too, with
 * verdict "error".
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/log.h"
#include "report/results_junit.h"
#include "report/results_prom.h"
#include "report/results_push.h"
#include "report/summary.h"
#include "report/verdict.h"
#include "run/portctr.h"
#include "run/record.h"
#include "run/record_int.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t record_now_unix_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The expectations of the command line (-w/-y already folded in). */
static void record_expect(struct record *r, const struct bench_cfg *c)
{
	r->expect = (struct gate_expect){
		.gbps = c->expect_gbps, .line_rate_frac = c->expect_line_rate,
		.mpps = c->expect_mpps, .p50_us = c->expect_p50_us,
		.p99_us = c->expect_p99_us,
	};
}

/*
 * Gates that cannot apply stop the run before it starts (exit 2). The
 * achievable rate is only known once the device is: a stand-in of 1 Gb/s
 * lets everything else about --expect-line-rate be checked now.
 */
static int record_validate(struct record *r, const struct bench_ctx *b)
{
	struct gate_expect e = r->expect;
	bool is_lat = b->desc->measure == BENCH_MEASURE_LAT;
	char why[160];
	int ret;

	if (e.line_rate_frac > 0.0)
		e.achievable_gbps = 1.0;
	ret = budget_of_cfg(&b->cfg, r->budgets, why, sizeof(why));
	if (!ret)
		ret = gate_validate(&e, !is_lat, is_lat, why, sizeof(why));
	if (!ret)
		return 0;
	bench_err("%s", why);
	results_copy(r->doc.error, sizeof(r->doc.error), why);
	return ret == -ERANGE ? -EINVAL : ret;
}

/* The results files a run can write, in the order they are written. */
struct record_file {
	const char *opt;
	size_t path_off;
	int (*render)(const struct results_doc *d, FILE *out);
};

static const struct record_file record_files[] = {
	{ "--json", offsetof(struct bench_cfg, json_path), results_write_json },
	{ "--junit", offsetof(struct bench_cfg, junit_path),
	  results_junit_write },
	{ "--prom", offsetof(struct bench_cfg, prom_path), results_prom_write },
	{ "--summary", offsetof(struct bench_cfg, summary_path),
	  results_summary_write },
};

static const char *record_path(const struct bench_cfg *c,
			       const struct record_file *f)
{
	return (const char *)c + f->path_off;
}

/*
 * "--json -" (or /dev/stdout): the document takes stdout, a copy of fd 1
 * made now; fd 1 then points at stderr, so the header, rows and verdict
 * printed on stdout go to stderr and the pipe gets one clean document.
 * Only one document fits in a pipe: opts_check_outputs() refused a
 * second one (exit 2).
 */
static int record_claim_stdout(struct record *r, const struct bench_cfg *c)
{
	int fd;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(record_files) && !r->std_opt; i++) {
		if (!results_is_stdout(record_path(c, &record_files[i])))
			continue;
		fflush(stdout);
		fd = dup(STDOUT_FILENO);
		r->std_out = fd < 0 ? NULL : fdopen(fd, "w");
		if (!r->std_out || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
			fd = errno;
			bench_err("%s -: standard output: %s",
				  record_files[i].opt, strerror(fd));
			return -fd;
		}
		r->std_opt = record_files[i].opt;
	}
	return 0;
}

/* A document with what is known before anything runs. */
static struct record *record_new(const struct bench_ctx *b)
{
	struct record *r = calloc(1, sizeof(*r));
	struct results_doc *d;

	if (!r) {
		bench_err("results document: %s", strerror(ENOMEM));
		return NULL;
	}
	d = &r->doc;
	results_init(d);
	d->start_unix_ns = record_now_unix_ns();
	results_copy(d->tool, sizeof(d->tool), b->desc->name);
	results_copy(d->tool_version, sizeof(d->tool_version),
		     RDMABENCH_VERSION);
	d->argc = b->argc;
	d->argv = (const char *const *)b->argv;
	if (gethostname(d->host, sizeof(d->host) - 1))
		d->host[0] = '\0';
	d->role = b->is_server ? RESULTS_ROLE_SERVER : RESULTS_ROLE_CLIENT;
	d->memory.type = RESULTS_MEM_HOST;
	/* the server asked for, until the connection says ip:port: a run
	 * that never connects still names its peer (Prometheus' label) */
	results_copy(d->device.peer_addr, sizeof(d->device.peer_addr),
		     b->cfg.server_addr);
	results_copy(d->server, sizeof(d->server), b->cfg.server_addr);
	return r;
}

int record_begin(struct bench_ctx *b)
{
	struct record *r = record_new(b);
	int ret;

	if (!r)
		return -ENOMEM;
	b->rec = r;
	record_doc_fill_test(r, b);
	record_dev_software(r);
	gate_run_init(&r->run);
	record_expect(r, &b->cfg);
	ret = record_claim_stdout(r, &b->cfg);
	return ret ? ret : record_validate(r, b);
}

/* --expect-line-rate on a port whose achievable rate is unknown: a failure. */
static void record_line_rate_unknown(struct record *r,
				     const struct gate_figures *f,
				     struct gate_outcome *o)
{
	struct gate_item *it;

	if (o->n_items >= GATE_MAX_ITEMS)
		return;
	it = &o->items[o->n_items++];
	*it = (struct gate_item){ .name = "line_rate", .figure = f->gbps,
				  .expected = NAN, .unit = "Gb/s",
				  .verdict = GATE_FAIL };
	snprintf(it->reason, sizeof(it->reason),
		 "size %llu: --expect-line-rate: the achievable rate is "
		 "unknown (%.80s)", (unsigned long long)f->size_bytes,
		 r->line_rate_unknown);
	o->verdict = GATE_FAIL;
}

/* Check one size's figures (this side's) against every expectation. */
static int record_gate_size(struct record *r, const struct gate_figures *f)
{
	struct gate_expect e = r->expect;
	bool is_unknown = e.line_rate_frac > 0.0 && !(e.achievable_gbps > 0.0);
	struct gate_outcome o;
	int ret;

	if (is_unknown)
		e.line_rate_frac = 0.0;
	ret = gate_check(&e, f, &o);
	if (ret) {
		/* record_begin() validated the expectations: our bug */
		bench_err("checking the gates of size %llu: %s",
			  (unsigned long long)f->size_bytes, strerror(-ret));
		return ret;
	}
	if (is_unknown)
		record_line_rate_unknown(r, f, &o);
	if (o.n_items)
		record_doc_outcome(r, &o);
	return 0;
}

/*
 * A row for the size; --run_infinitely adds one every -D seconds for
 * ever: past RESULTS_MAX_SIZES the oldest row makes room (the last 32
 * stay).
 */
static struct results_row *record_row(struct record *r, uint64_t size,
				      uint64_t iters)
{
	struct results_doc *d = &r->doc;

	if (d->n_rows == RESULTS_MAX_SIZES) {
		memmove(&d->rows[0], &d->rows[1],
			(d->n_rows - 1) * sizeof(d->rows[0]));
		d->n_rows--;
	}
	return results_add_row(d, size, iters);
}

/* -W: its counters' changes since set-up, as the last row left them. */
static void record_named(struct bench_ctx *b)
{
	struct results_doc *d = &b->rec->doc;

	d->n_named = portctr_totals(b, d->named, RESULTS_MAX_NAMED);
}

int record_bw(struct bench_ctx *b, uint64_t size, const struct stats_bw *bw,
	      const struct stats_bw *peak, const struct stats_bw *peer)
{
	struct record *r = b->rec;
	struct gate_figures f = { .size_bytes = size, .gbps = bw->gbps,
				  .mpps = bw->mpps, .has_bw = true };
	struct results_row *row;
	uint64_t qps = b->test.qps ? b->test.qps : 1;

	if (b->hooks) /* a rail's row (rails_run.c) */
		b->hooks->bw(b, bw->gbps);
	if (!r)
		return 0;
	record_named(b);
	/* iterations per QP, as the report shows them (-D: as run) */
	row = record_row(r, size, bw->msgs / qps);
	results_side_set_bw(b->is_server ? &row->server : &row->client, bw,
			    peak);
	if (peer)
		results_side_set_bw(b->is_server ? &row->client : &row->server,
				    peer, NULL);
	return record_gate_size(r, &f);
}

/* A latency side: samples stand for messages; there is no bandwidth. */
static void record_lat_side(struct results_side *s, uint64_t size,
			    const struct stats_lat *lat,
			    enum results_lat_kind kind)
{
	results_side_set_lat(s, lat, kind);
	s->msgs = lat->samples;
	s->bytes = lat->samples * size;
}

int record_lat(struct bench_ctx *b, uint64_t size, uint64_t iters,
		     const struct stats_lat *lat, const struct stats_lat *peer)
{
	struct record *r = b->rec;
	/* a passive side (read, atomic server) measures nothing */
	struct gate_figures f = { .size_bytes = size, .p50_us = lat->p50_us,
				  .p99_us = lat->p99_us,
				  .has_lat = lat->samples > 0 };
	enum results_lat_kind kind = bench_verb_lat_divisor(b->test.verb) == 2 ?
		RESULTS_LAT_HALF_RT : RESULTS_LAT_FULL_RT;
	struct results_row *row;

	if (!r)
		return 0;
	record_named(b);
	row = record_row(r, size, iters);
	if (lat->samples)
		record_lat_side(b->is_server ? &row->server : &row->client,
				size, lat, kind);
	/* -H: this side's samples (the peer's stay on the peer) */
	if (lat->samples && b->cfg.histogram && b->hist)
		results_side_set_hist(
			b->is_server ? &row->server : &row->client, b->hist,
			bench_verb_lat_divisor(b->test.verb));
	if (peer && peer->samples)
		record_lat_side(b->is_server ? &row->client : &row->server,
				size, peer, kind);
	return record_gate_size(r, &f);
}

/*
 * The verdict (report/verdict.c decides) and the document's error text:
 * record_begin() may have said more about an error (a gate that cannot
 * apply); else the sentence the error was logged with (why: lib/log.h),
 * else the errno's text. The errno itself is kept apart.
 */
static void record_verdict(struct record *r, int err, int exit_code,
			   const struct log_why *why)
{
	struct results_doc *d = &r->doc;
	bool gate_failed = gate_run_verdict(&r->run) == GATE_FAIL;
	struct verdict v = verdict_decide(err, exit_code, gate_failed);

	d->verdict = v.verdict;
	d->exit_code = v.exit_code;
	d->error_errno = v.verdict == RESULTS_ERROR && err < 0 ? -err : 0;
	switch (v.verdict) {
	case RESULTS_CORRUPT:
		results_copy(d->error, sizeof(d->error), VERDICT_CORRUPT_TEXT);
		break;
	case RESULTS_ERROR:
		/* a signal is the reason, whatever it interrupted said */
		if (!d->error[0] && why->text[0] && err != -EINTR)
			results_copy(d->error, sizeof(d->error), why->text);
		else if (!d->error[0])
			verdict_error_text(err ? err : -EIO, v.exit_code,
					   d->error, sizeof(d->error));
		break;
	case RESULTS_FAIL:
		verdict_fail_text(&r->run, d->error, sizeof(d->error));
		break;
	default:
		d->error[0] = '\0';
	}
}

/*
 * Every file asked for, even after a failure; the first error is kept.
 * Standard output gets the one document that claimed it (std_opt, the
 * option; NULL: none, and a "-" path is left out), then std_out is closed.
 */
static int record_save_files(const struct bench_cfg *c,
			     const struct results_doc *d, const char *std_opt,
			     FILE *std_out)
{
	const struct record_file *f;
	const char *path;
	int ret = 0, err;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(record_files); i++) {
		f = &record_files[i];
		path = record_path(c, f);
		if (!path[0] ||
		    (results_is_stdout(path) && (!std_opt || std_opt != f->opt)))
			continue;
		err = results_save(path, f->render, d, std_out);
		ret = ret ? ret : err;
	}
	if (std_out && fclose(std_out) && !ret)
		ret = -EIO;
	return ret;
}

/*
 * The metrics out of the pod, after the files: --prom-textfile's file
 * (atomic: node_exporter never reads half of one) and --push's PUT (5 s
 * at most). A failure is said once, with what to check; the files are
 * written already.
 */
static int record_export(const struct bench_cfg *c,
			 const struct results_doc *d)
{
	char path[OPTS_PATH_MAX + 256], why[512];
	int ret = 0, err;

	if (c->prom_textfile[0]) {
		ret = results_textfile_path(d, c->prom_textfile, path,
					    sizeof(path));
		if (ret)
			bench_err("--prom-textfile %s: the path is too long",
				  c->prom_textfile);
		else
			ret = results_save_atomic(path, results_prom_write, d);
	}
	if (!c->push_url[0])
		return ret;
	err = results_push(d, c->push_url, why, sizeof(why));
	if (err)
		bench_err("--push %s: %s (the results files are written; is "
			  "the Pushgateway up and its URL right?)", c->push_url,
			  why);
	return ret ? ret : err;
}

int record_save(const struct bench_cfg *c, const struct results_doc *d)
{
	return record_save_files(c, d, NULL, NULL);
}

/* "verdict: fail (size 65536: 0.31 Gb/s < expected 380.00 Gb/s)" */
static void record_print_verdict(const struct record *r)
{
	const struct results_doc *d = &r->doc;
	const char *v = results_verdict_name(d->verdict);

	if (d->verdict != RESULTS_PASS)
		bench_info("verdict: %s (%s)", v, d->error);
	else if (r->run.sizes_checked)
		bench_info("verdict: pass (%u gate%s held)", d->n_gates,
			   d->n_gates == 1 ? "" : "s");
	else
		bench_info("verdict: pass (no expectations set)");
	if (r->gates_left_out)
		bench_info("the results list %u of the gates (failures "
			   "first); the verdict counts all", d->n_gates);
}

int record_end(struct bench_ctx *b, int err, int exit_code)
{
	struct record *r = b->rec;
	int ret, out;

	if (!r)
		return exit_code;
	r->doc.end_unix_ns = record_now_unix_ns();
	record_dev_counters_end(b);
	record_verdict(r, err, exit_code, &b->why);
	exit_code = r->doc.exit_code;
	ret = record_save_files(&b->cfg, &r->doc, r->std_opt, r->std_out);
	out = record_export(&b->cfg, &r->doc);
	ret = ret ? ret : out;
	record_print_verdict(r);
	if (b->hooks) /* a rail's, for the node's document */
		b->hooks->end(b, &r->doc);
	/* a file CI asked for and cannot read is no pass */
	if (ret && !exit_code) {
		bench_err("a results file could not be written%s: exit %d",
			  b->cfg.push_url[0] ? " or pushed" : "",
			  BENCH_EXIT_RUNTIME);
		exit_code = BENCH_EXIT_RUNTIME;
	}
	free(r);
	b->rec = NULL;
	return exit_code;
}

void record_refused(struct bench_ctx *b, const char *why)
{
	const struct bench_cfg *c = &b->cfg;
	struct record *r;
	char bad[256];

	/* outputs that cannot be written (the refusal itself?): none */
	if ((!c->json_path[0] && !c->junit_path[0] && !c->prom_path[0] &&
	     !c->summary_path[0] && !c->prom_textfile[0] && !c->push_url[0]) ||
	    opts_check_outputs(c, bad, sizeof(bad)))
		return;
	r = record_new(b);
	if (!r)
		return;
	r->doc.end_unix_ns = r->doc.start_unix_ns;
	r->doc.exit_code = BENCH_EXIT_USAGE;
	results_copy(r->doc.error, sizeof(r->doc.error), why);
	if (!record_claim_stdout(r, c)) {
		record_save_files(c, &r->doc, r->std_opt, r->std_out);
		record_export(c, &r->doc);
	}
	else if (r->std_out)
		fclose(r->std_out);
	free(r);
}
