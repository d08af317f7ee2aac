// SPDX-License-Identifier: BSD-2-Clause
/*
 * results - the run's data model, its JSON rendering and the files it
 * goes into (JUnit: results_junit.c, Prometheus: results_prom.c). See
 * results.h; the JSON layout is specified by
 * results/schema/rdmabench-result-v1.schema.json, keep the two in step
 * (tests/test_results_validate.sh checks the goldens against it).
 */
#include "report/results.h"
#include "lib/afile.h"
#include "lib/json.h"
#include "lib/log.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the model ---- */

/*
 * NaN, not 0, for every figure: a figure nobody filled in must render as
 * null ("not measured"), never as a plausible-looking 0 Gb/s.
 */
static void results_side_init(struct results_side *s)
{
	memset(s, 0, sizeof(*s));
	s->bw_gbps = s->bw_mibps = s->msg_rate_mpps = s->peak_gbps = NAN;
	s->lat.min_us = s->lat.p50_us = s->lat.p90_us = s->lat.p99_us = NAN;
	s->lat.p999_us = s->lat.p9999_us = s->lat.avg_us = NAN;
	s->lat.stdev_us = s->lat.max_us = NAN;
}

void results_init(struct results_doc *d)
{
	memset(d, 0, sizeof(*d));
	d->schema_version = RESULTS_SCHEMA_VERSION;
	d->placement.numa_node = -1;
	d->line_rate.achievable_gbps = NAN;
	/* a run that never reaches its end must not read as a pass */
	d->verdict = RESULTS_ERROR;
	d->exit_code = 1;
}

int results_copy(char *dst, size_t len, const char *src)
{
	size_t n = src ? strlen(src) : 0;

	if (!len)
		return -E2BIG;
	if (n >= len) {
		memcpy(dst, src, len - 1);
		dst[len - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dst, src ? src : "", n);
	dst[n] = '\0';
	return 0;
}

struct results_row *results_add_row(struct results_doc *d, uint64_t size_bytes,
				    uint64_t iterations)
{
	struct results_row *r;

	if (d->n_rows >= RESULTS_MAX_SIZES)
		return NULL;
	r = &d->rows[d->n_rows++];
	r->size_bytes = size_bytes;
	r->iterations = iterations;
	results_side_init(&r->client);
	results_side_init(&r->server);
	return r;
}

void results_side_set_bw(struct results_side *s, const struct stats_bw *bw,
			 const struct stats_bw *peak)
{
	s->present = true;
	s->bytes = bw->bytes;
	s->msgs = bw->msgs;
	s->elapsed_ns = bw->elapsed_ns;
	s->bw_gbps = bw->gbps;
	s->bw_mibps = bw->mibps;
	s->msg_rate_mpps = bw->mpps;
	s->peak_gbps = peak ? peak->gbps : NAN;
}

void results_side_set_lat(struct results_side *s, const struct stats_lat *lat,
			  enum results_lat_kind kind)
{
	s->present = true;
	s->has_lat = true;
	s->lat.samples = lat->samples;
	s->lat.min_us = lat->min_us;
	s->lat.p50_us = lat->p50_us;
	s->lat.p90_us = lat->p90_us;
	s->lat.p99_us = lat->p99_us;
	s->lat.p999_us = lat->p999_us;
	s->lat.p9999_us = lat->p9999_us;
	s->lat.avg_us = lat->avg_us;
	s->lat.stdev_us = lat->stdev_us;
	s->lat.max_us = lat->max_us;
	s->lat.kind = kind;
}

const char *results_verdict_name(enum results_verdict v)
{
	static const char *const names[] = { "pass", "fail", "error",
					     "corrupt" };

	return (unsigned int)v < ARRAY_SIZE(names) ? names[v] : "error";
}

const char *results_role_name(enum results_role r)
{
	return r == RESULTS_ROLE_SERVER ? "server" : "client";
}

const char *results_mem_name(enum results_mem m)
{
	static const char *const names[] = { "host", "cuda", "cuda_dmabuf" };

	return (unsigned int)m < ARRAY_SIZE(names) ? names[m] : "host";
}

const char *results_lat_kind_name(enum results_lat_kind k)
{
	return k == RESULTS_LAT_FULL_RT ? "full_round_trip" : "half_round_trip";
}

int results_format_utc(uint64_t unix_ns, char *buf, size_t len)
{
	time_t secs = (time_t)(unix_ns / 1000000000u);
	unsigned int ms = (unsigned int)(unix_ns % 1000000000u / 1000000u);
	struct tm tm;
	char day[24];

	if (len < 25)
		return -ENOSPC;
	gmtime_r(&secs, &tm);
	strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%03uZ", day, ms);
	return 0;
}

/* Counts beyond the caps mean a corrupted document: render nothing. */
int results_check(const struct results_doc *d)
{
	if (d->n_rows > RESULTS_MAX_SIZES || d->n_gates > RESULTS_MAX_GATES ||
	    d->n_counters > RESULTS_MAX_COUNTERS ||
	    d->test.n_sizes > RESULTS_MAX_SIZES ||
	    d->line_rate.n_warnings > RESULTS_MAX_WARNINGS ||
	    d->argc < 0 || (d->argc && !d->argv))
		return -EINVAL;
	return 0;
}

/* Seconds, as a double, between two Unix times in ns; NaN if unknown. */
double results_run_s(const struct results_doc *d)
{
	if (!d->start_unix_ns || d->end_unix_ns < d->start_unix_ns)
		return NAN;
	return (double)(d->end_unix_ns - d->start_unix_ns) / 1e9;
}

/* ---- JSON ---- */

/*
 * A text field: "" is unknown, i.e. null, so "firmware": "" can never be
 * mistaken for a device that reported an empty version.
 */
static void rj_text(struct json_writer *w, const char *key, const char *s)
{
	json_kv_string(w, key, s[0] ? s : NULL);
}

/* A count where 0 means "not known": null then. */
static void rj_known(struct json_writer *w, const char *key, uint64_t v)
{
	if (v)
		json_kv_u64(w, key, v);
	else
		json_kv_null(w, key);
}

static void rj_time(struct json_writer *w, const char *key_utc,
		    const char *key_ns, uint64_t unix_ns)
{
	char utc[32];

	if (!unix_ns) {
		json_kv_null(w, key_utc);
		json_kv_null(w, key_ns);
		return;
	}
	results_format_utc(unix_ns, utc, sizeof(utc));
	json_kv_string(w, key_utc, utc);
	json_kv_u64(w, key_ns, unix_ns);
}

static void rj_header(struct json_writer *w, const struct results_doc *d)
{
	int i;

	json_kv_i64(w, "schema_version", d->schema_version);
	rj_text(w, "tool", d->tool);
	rj_text(w, "tool_version", d->tool_version);
	json_kv_array_begin(w, "command_line");
	for (i = 0; i < d->argc; i++)
		json_string(w, d->argv[i] ? d->argv[i] : "");
	json_array_end(w);
	rj_time(w, "start_time_utc", "start_unix_ns", d->start_unix_ns);
	rj_time(w, "end_time_utc", "end_unix_ns", d->end_unix_ns);
	rj_text(w, "host", d->host);
	json_kv_string(w, "role", results_role_name(d->role));
}

/* The device's text fields, in output order. */
static const struct {
	const char *key;
	size_t off;
} rj_device_text[] = {
#define F(key, field) { key, offsetof(struct results_device, field) }
	F("name", name), F("firmware", firmware), F("pci_addr", pci_addr),
	F("link_layer", link_layer), F("transport", transport),
	F("port_state", port_state), F("speed_width", speed_width),
	F("rate", rate), F("gid", gid), F("gid_type", gid_type),
	F("local_addr", local_addr), F("peer_addr", peer_addr),
#undef F
};

static void rj_device(struct json_writer *w, const struct results_device *dev)
{
	size_t i;

	json_kv_object_begin(w, "device");
	for (i = 0; i < ARRAY_SIZE(rj_device_text); i++)
		rj_text(w, rj_device_text[i].key,
			(const char *)dev + rj_device_text[i].off);
	/* 0 is no valid port or MTU: it can only mean "not known" */
	rj_known(w, "port", dev->port);
	rj_known(w, "active_mtu_bytes", dev->active_mtu_bytes);
	json_object_end(w);
}

static void rj_placement(struct json_writer *w, const struct results_doc *d)
{
	json_kv_object_begin(w, "placement");
	json_kv_i64(w, "numa_node", d->placement.numa_node);
	rj_text(w, "cpus", d->placement.cpus);
	rj_text(w, "mem_policy", d->placement.mem_policy);
	json_object_end(w);
	json_kv_object_begin(w, "memory");
	json_kv_string(w, "type", results_mem_name(d->memory.type));
	rj_text(w, "gpu", d->memory.gpu);
	json_object_end(w);
}

static void rj_test(struct json_writer *w, const struct results_test *t)
{
	unsigned int i;

	json_kv_object_begin(w, "test");
	rj_text(w, "verb", t->verb);
	rj_text(w, "measure", t->measure);
	rj_text(w, "connection", t->connection);
	json_kv_array_begin(w, "sizes_bytes");
	for (i = 0; i < t->n_sizes; i++)
		json_u64(w, t->sizes_bytes[i]);
	json_array_end(w);
	json_kv_u64(w, "iterations", t->iterations);
	json_kv_u64(w, "tx_depth", t->tx_depth);
	json_kv_u64(w, "qps", t->qps);
	json_kv_double(w, "duration_s", t->duration_s);
	json_kv_bool(w, "bidirectional", t->bidirectional);
	rj_text(w, "rendezvous", t->rendezvous);
	json_object_end(w);
}

static void rj_lat(struct json_writer *w, const struct results_lat *l)
{
	json_kv_object_begin(w, "latency");
	json_kv_string(w, "lat_kind", results_lat_kind_name(l->kind));
	json_kv_u64(w, "samples", l->samples);
	json_kv_double(w, "min_us", l->min_us);
	json_kv_double(w, "p50_us", l->p50_us);
	json_kv_double(w, "p90_us", l->p90_us);
	json_kv_double(w, "p99_us", l->p99_us);
	json_kv_double(w, "p999_us", l->p999_us);
	json_kv_double(w, "p9999_us", l->p9999_us);
	json_kv_double(w, "avg_us", l->avg_us);
	json_kv_double(w, "stdev_us", l->stdev_us);
	json_kv_double(w, "max_us", l->max_us);
	json_object_end(w);
}

/*
 * Every key is always present (null when not measured): readers index
 * .results[].client.latency without first testing for the key.
 */
static void rj_side(struct json_writer *w, const char *key,
		    const struct results_side *s)
{
	json_key(w, key);
	if (!s->present) {
		json_null(w);
		return;
	}
	json_object_begin(w);
	json_kv_u64(w, "bytes", s->bytes);
	json_kv_u64(w, "msgs", s->msgs);
	json_kv_u64(w, "elapsed_ns", s->elapsed_ns);
	json_kv_double(w, "bw_gbps", s->bw_gbps);
	json_kv_double(w, "bw_mibps", s->bw_mibps);
	json_kv_double(w, "msg_rate_mpps", s->msg_rate_mpps);
	json_kv_double(w, "peak_gbps", s->peak_gbps);
	if (s->has_lat)
		rj_lat(w, &s->lat);
	else
		json_kv_null(w, "latency");
	json_object_end(w);
}

static void rj_rows(struct json_writer *w, const struct results_doc *d)
{
	unsigned int i;

	json_kv_array_begin(w, "results");
	for (i = 0; i < d->n_rows; i++) {
		const struct results_row *r = &d->rows[i];

		json_object_begin(w);
		json_kv_u64(w, "size_bytes", r->size_bytes);
		json_kv_u64(w, "iterations", r->iterations);
		rj_side(w, "client", &r->client);
		rj_side(w, "server", &r->server);
		json_object_end(w);
	}
	json_array_end(w);
}

static void rj_line_rate(struct json_writer *w,
			 const struct results_line_rate *lr)
{
	unsigned int i;

	json_kv_object_begin(w, "line_rate");
	json_kv_double(w, "achievable_gbps", lr->achievable_gbps);
	rj_text(w, "formula", lr->formula);
	json_kv_array_begin(w, "warnings");
	for (i = 0; i < lr->n_warnings; i++)
		json_string(w, lr->warnings[i]);
	json_array_end(w);
	json_object_end(w);
}

static void rj_gates(struct json_writer *w, const struct results_doc *d)
{
	unsigned int i;

	json_kv_array_begin(w, "gates");
	for (i = 0; i < d->n_gates; i++) {
		const struct results_gate *g = &d->gates[i];

		json_object_begin(w);
		json_kv_string(w, "name", g->name);
		json_kv_u64(w, "size_bytes", g->size_bytes);
		json_kv_double(w, "figure", g->figure);
		json_kv_double(w, "expected", g->expected);
		json_kv_string(w, "unit", g->unit);
		json_kv_string(w, "verdict", g->passed ? "pass" : "fail");
		rj_text(w, "reason", g->reason);
		json_object_end(w);
	}
	json_array_end(w);
}

static void rj_counters(struct json_writer *w, const struct results_doc *d)
{
	unsigned int i;

	/* null: not read; {}: read, and no counter there to report */
	json_key(w, "port_counters");
	if (!d->has_counters) {
		json_null(w);
		return;
	}
	json_object_begin(w);
	for (i = 0; i < d->n_counters; i++)
		json_kv_i64(w, d->counters[i].name, d->counters[i].delta);
	json_object_end(w);
}

int results_write_json(const struct results_doc *d, FILE *out)
{
	struct json_writer w;
	int ret = results_check(d);

	if (ret)
		return ret;
	/*
	 * The rj_* helpers ignore return values on purpose: the writer's
	 * error is sticky and json_finish() reports the first one.
	 */
	json_init(&w, out, 2);
	json_object_begin(&w);
	rj_header(&w, d);
	rj_device(&w, &d->device);
	rj_placement(&w, d);
	rj_test(&w, &d->test);
	rj_line_rate(&w, &d->line_rate);
	rj_rows(&w, d);
	rj_gates(&w, d);
	rj_counters(&w, d);
	json_kv_string(&w, "verdict", results_verdict_name(d->verdict));
	json_kv_i64(&w, "exit_code", d->exit_code);
	rj_text(&w, "error", d->error);
	json_object_end(&w);
	/* -EINVAL here would be our bug (the writer's state), never input */
	return json_finish(&w);
}

/* ---- files ---- */

/* afile's render callback over a results renderer and its document. */
struct results_job {
	int (*render)(const struct results_doc *d, FILE *out);
	const struct results_doc *d;
};

static int results_render(const void *arg, FILE *out)
{
	const struct results_job *j = arg;

	return j->render(j->d, out);
}

int results_save_atomic(const char *path,
			int (*render)(const struct results_doc *, FILE *),
			const struct results_doc *d)
{
	struct results_job job = { render, d };

	if (!render || !d)
		return -EINVAL;
	return afile_write(path, results_render, &job);
}

int results_format_path(char *buf, size_t len, const char *dir,
			const char *tool, time_t when, const char *host,
			long pid, const char *ext)
{
	char stamp[32], safe[RESULTS_NAME_LEN];
	const char *sep = "/";
	struct tm tm;
	size_t i, n;

	if (!dir || !dir[0] || dir[strlen(dir) - 1] == '/')
		sep = "";
	gmtime_r(&when, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	/* a host name goes into a path: keep it to a portable alphabet */
	results_copy(safe, sizeof(safe), host && host[0] ? host : "unknown");
	for (i = 0; safe[i]; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVW"
			    "XYZ0123456789._-", safe[i]))
			safe[i] = '_';
	n = (size_t)snprintf(buf, len, "%s%s%s-%s-%s-%ld%s", dir ? dir : "",
			     sep, tool, stamp, safe, pid, ext ? ext : "");
	return n >= len ? -ENAMETOOLONG : 0;
}

int results_unique_path(const char *dir, const char *tool, char *buf,
			size_t len)
{
	char host[256] = "", ext[16] = ".json";
	time_t now = time(NULL);
	int i, ret;

	if (gethostname(host, sizeof(host) - 1))
		return -errno;
	/* same tool, second and pid twice: one process saving twice */
	for (i = 1; i < 1000; i++) {
		ret = results_format_path(buf, len, dir, tool, now, host,
					  (long)getpid(), ext);
		if (ret || access(buf, F_OK))
			return ret;
		snprintf(ext, sizeof(ext), "-%d.json", i);
	}
	return -EEXIST;
}
