// SPDX-License-Identifier: BSD-2-Clause
/*
 * results - the run's data model, its JSON rendering and the files it
 * goes into (JUnit: results_junit.c, Prometheus: results_prom.c). See
 * results.h; the JSON layout is specified by
 * results/schema/rdmabench-result-v1.schema.json, keep the two in step
 * (tests/report/test_results_validate.sh checks the goldens against it).
 */
#define _GNU_SOURCE /* strerrorname_np */
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

void results_set_placement(struct results_placement *out,
			   const struct place_plan *p,
			   const struct place_allowed *a)
{
	char cpus[PLACE_LIST_MAX];

	out->numa_node = p->node;
	/* unpinned: the CPUs the process may run on */
	if (p->cpu_list[0])
		snprintf(cpus, sizeof(cpus), "%s", p->cpu_list);
	else
		place_cpulist_format(&a->cpus, cpus, sizeof(cpus));
	results_copy(out->cpus, sizeof(out->cpus), cpus);
	results_copy(out->mem_policy, sizeof(out->mem_policy), p->mem_policy);
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

#define DECADE(k)                                                         \
	100 * (k), 125 * (k), 160 * (k), 200 * (k), 250 * (k), 320 * (k), \
		400 * (k), 500 * (k), 640 * (k), 800 * (k)
const uint64_t results_hist_le_ns[RESULTS_HIST_BOUNDS] = {
	DECADE(1ull),	  DECADE(10ull),     DECADE(100ull), DECADE(1000ull),
	DECADE(10000ull), DECADE(100000ull), 100000000ull,
};
#undef DECADE

int results_side_set_hist(struct results_side *s, const struct hist *h,
			  unsigned int divisor)
{
	int ret = hist_cumulative(h, divisor, results_hist_le_ns,
				  RESULTS_HIST_BOUNDS, s->hist.le);

	s->hist.present = !ret;
	return ret;
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

int results_format_local(uint64_t unix_ns, char *buf, size_t len)
{
	time_t secs = (time_t)(unix_ns / 1000000000u);
	struct tm tm;

	if (len < 20)
		return -ENOSPC;
	localtime_r(&secs, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	return 0;
}

/* Counts beyond the caps mean a corrupted document: render nothing. */
int results_check(const struct results_doc *d)
{
	if (d->n_rows > RESULTS_MAX_SIZES || d->n_gates > RESULTS_MAX_GATES ||
	    d->n_counters > RESULTS_MAX_COUNTERS ||
	    d->n_named > RESULTS_MAX_NAMED ||
	    d->test.n_sizes > RESULTS_MAX_SIZES ||
	    d->line_rate.n_warnings > RESULTS_MAX_WARNINGS ||
	    d->n_rails > RESULTS_MAX_RAILS || d->argc < 0 ||
	    (d->argc && !d->argv))
		return -EINVAL;
	return 0;
}

double results_lat_sum_us(const struct results_lat *l)
{
	return l->avg_us * (double)l->samples;
}

/* Seconds, as a double, between two Unix times in ns; NaN if unknown. */
double results_run_s(const struct results_doc *d)
{
	if (!d->start_unix_ns || d->end_unix_ns < d->start_unix_ns)
		return NAN;
	return (double)(d->end_unix_ns - d->start_unix_ns) / 1e9;
}

void results_peer_host(char *dst, size_t len, const char *addr)
{
	char a[RESULTS_NAME_LEN];
	const char *colon;
	size_t n;

	snprintf(a, sizeof(a), "%.*s", (int)strcspn(addr, " "), addr);
	n = strlen(a);
	colon = strrchr(a, ':');
	if (colon && colon[1] &&
	    strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
		if (a[0] == '[' && colon > a && colon[-1] == ']')
			n = (size_t)(colon - a);	/* "[v6]:port" */
		else if (strchr(a, ':') == colon)
			n = (size_t)(colon - a);	/* "v4:port" */
	}
	if (a[0] == '[' && n > 1 && a[n - 1] == ']')
		snprintf(dst, len, "%.*s", (int)n - 2, a + 1);
	else
		snprintf(dst, len, "%.*s", (int)n, a);
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

/*
 * A member rendered straight from a struct field: its key, its C type
 * (found by _Generic, so a table cannot misread a field) and its offset.
 */
enum rj_type { RJ_U64, RJ_DOUBLE, RJ_TEXT, RJ_BOOL, RJ_KNOWN, RJ_STRING };

struct rj_field {
	const char *key;
	enum rj_type type;
	size_t off;
};

#define RJ_TYPE(x) _Generic((x), uint64_t: RJ_U64, double: RJ_DOUBLE,	\
			    char *: RJ_TEXT, bool: RJ_BOOL,		\
			    unsigned int: RJ_KNOWN)
#define RJ(st, key, field)						\
	{ key, RJ_TYPE(((st *)0)->field), offsetof(st, field) }
/* A text field that is never unknown: "" stays "" (not null). */
#define RJ_STR(st, key, field)						\
	{ key, _Generic(((st *)0)->field, char *: RJ_STRING),		\
	  offsetof(st, field) }

#define RJ_FIELDS(w, base, table) rj_fields(w, base, table, ARRAY_SIZE(table))

/* The members of fields[0..n) of the struct at base, in table order. */
static void rj_fields(struct json_writer *w, const void *base,
		      const struct rj_field *f, size_t n)
{
	const void *p;
	size_t i;

	for (i = 0; i < n; i++) {
		p = (const char *)base + f[i].off;
		if (f[i].type == RJ_U64)
			json_kv_u64(w, f[i].key, *(const uint64_t *)p);
		else if (f[i].type == RJ_DOUBLE)
			json_kv_double(w, f[i].key, *(const double *)p);
		else if (f[i].type == RJ_BOOL)
			json_kv_bool(w, f[i].key, *(const bool *)p);
		else if (f[i].type == RJ_KNOWN)
			rj_known(w, f[i].key, *(const unsigned int *)p);
		else if (f[i].type == RJ_STRING)
			json_kv_string(w, f[i].key, p);
		else
			rj_text(w, f[i].key, p);
	}
}

#define D(key, field) RJ(struct results_device, key, field)
static const struct rj_field rj_device_fields[] = {
	D("name", name), D("firmware", firmware), D("pci_addr", pci_addr),
	D("link_layer", link_layer), D("transport", transport),
	D("port_state", port_state), D("speed_width", speed_width),
	D("rate", rate), D("gid", gid), D("gid_type", gid_type),
	D("local_addr", local_addr), D("peer_addr", peer_addr),
	/* 0 is no valid port or MTU: it can only mean "not known" */
	D("port", port), D("active_mtu_bytes", active_mtu_bytes),
	D("driver", driver), D("driver_version", driver_version),
};
#undef D

#define S(key, field) RJ(struct results_software, key, field)
static const struct rj_field rj_software_fields[] = {
	S("kernel", kernel), S("rdma_core", rdma_core),
	S("nvidia_driver", nvidia_driver),
};
#undef S

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

#define T(key, field) RJ(struct results_test, key, field)
static const struct rj_field rj_test_kind[] = {
	T("verb", verb), T("measure", measure), T("connection", connection),
};
static const struct rj_field rj_test_run[] = {
	T("iterations", iterations), T("tx_depth", tx_depth), T("qps", qps),
	T("duration_s", duration_s), T("bidirectional", bidirectional),
	T("rendezvous", rendezvous),
};
#undef T

#define Q(key, field) RJ(struct results_qp_attr, key, field)
static const struct rj_field rj_qp_attr_fields[] = {
	Q("traffic_class", traffic_class), Q("sl", sl), Q("timeout", timeout),
	Q("retry_count", retry_count), Q("rnr_retry", rnr_retry),
};
#undef Q

/* null: the QPs were never up (or not read) */
static void rj_qp_attr(struct json_writer *w, const struct results_qp_attr *q)
{
	if (!q->known) {
		json_kv_null(w, "qp_attr");
		return;
	}
	json_kv_object_begin(w, "qp_attr");
	RJ_FIELDS(w, q, rj_qp_attr_fields);
	json_object_end(w);
}

static void rj_test(struct json_writer *w, const struct results_test *t)
{
	unsigned int i;

	json_kv_object_begin(w, "test");
	RJ_FIELDS(w, t, rj_test_kind);
	json_kv_array_begin(w, "sizes_bytes");
	for (i = 0; i < t->n_sizes; i++)
		json_u64(w, t->sizes_bytes[i]);
	json_array_end(w);
	RJ_FIELDS(w, t, rj_test_run);
	json_object_end(w);
}

#define L(key, field) RJ(struct results_lat, key, field)
static const struct rj_field rj_lat_fields[] = {
	L("samples", samples), L("min_us", min_us), L("p50_us", p50_us),
	L("p90_us", p90_us), L("p99_us", p99_us), L("p999_us", p999_us),
	L("p9999_us", p9999_us), L("avg_us", avg_us),
	L("stdev_us", stdev_us), L("max_us", max_us),
};
#undef L

static void rj_lat(struct json_writer *w, const struct results_lat *l)
{
	json_kv_object_begin(w, "latency");
	json_kv_string(w, "lat_kind", results_lat_kind_name(l->kind));
	RJ_FIELDS(w, l, rj_lat_fields);
	json_object_end(w);
}

/*
 * Every key is always present (null when not measured): readers index
 * .results[].client.latency without first testing for the key.
 */
#define S(key, field) RJ(struct results_side, key, field)
static const struct rj_field rj_side_fields[] = {
	S("bytes", bytes), S("msgs", msgs), S("elapsed_ns", elapsed_ns),
	S("bw_gbps", bw_gbps), S("bw_mibps", bw_mibps),
	S("msg_rate_mpps", msg_rate_mpps), S("peak_gbps", peak_gbps),
};
#undef S

/*
 * null without -H; else the cumulative counts at the fixed bounds (+Inf
 * is "count"), the samples' sum: a Prometheus histogram, in JSON.
 */
static void rj_hist(struct json_writer *w, const struct results_side *s)
{
	unsigned int i;

	if (!s->has_lat || !s->hist.present) {
		json_kv_null(w, "histogram");
		return;
	}
	json_kv_object_begin(w, "histogram");
	json_kv_array_begin(w, "le_us");
	for (i = 0; i < RESULTS_HIST_BOUNDS; i++)
		json_double(w, (double)results_hist_le_ns[i] / 1e3);
	json_array_end(w);
	json_kv_array_begin(w, "cumulative_counts");
	for (i = 0; i < RESULTS_HIST_BOUNDS; i++)
		json_u64(w, s->hist.le[i]);
	json_array_end(w);
	json_kv_u64(w, "count", s->lat.samples);
	json_kv_double(w, "sum_us", results_lat_sum_us(&s->lat));
	json_object_end(w);
}

static void rj_side(struct json_writer *w, const char *key,
		    const struct results_side *s)
{
	json_key(w, key);
	if (!s->present) {
		json_null(w);
		return;
	}
	json_object_begin(w);
	RJ_FIELDS(w, s, rj_side_fields);
	if (s->has_lat)
		rj_lat(w, &s->lat);
	else
		json_kv_null(w, "latency");
	rj_hist(w, s);
	json_object_end(w);
}

static const struct rj_field rj_row_fields[] = {
	RJ(struct results_row, "size_bytes", size_bytes),
	RJ(struct results_row, "iterations", iterations),
};

static void rj_rows(struct json_writer *w, const struct results_doc *d)
{
	unsigned int i;

	json_kv_array_begin(w, "results");
	for (i = 0; i < d->n_rows; i++) {
		const struct results_row *r = &d->rows[i];

		json_object_begin(w);
		RJ_FIELDS(w, r, rj_row_fields);
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

#define G(key, field) RJ(struct results_gate, key, field)
static const struct rj_field rj_gate_fields[] = {
	RJ_STR(struct results_gate, "name", name), G("size_bytes", size_bytes),
	G("figure", figure), G("expected", expected),
	RJ_STR(struct results_gate, "unit", unit),
};
#undef G

static void rj_gates(struct json_writer *w, const struct results_doc *d)
{
	unsigned int i;

	json_kv_array_begin(w, "gates");
	for (i = 0; i < d->n_gates; i++) {
		const struct results_gate *g = &d->gates[i];

		json_object_begin(w);
		RJ_FIELDS(w, g, rj_gate_fields);
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

/* -W's counters, only when it named some. */
static void rj_named(struct json_writer *w, const struct results_doc *d)
{
	unsigned int i;

	if (!d->n_named)
		return;
	json_kv_object_begin(w, "report_counters");
	for (i = 0; i < d->n_named; i++)
		json_kv_i64(w, d->named[i].name, d->named[i].delta);
	json_object_end(w);
}

/* A rail's GPU: null for host memory. */
static void rj_rail_gpu(struct json_writer *w, const struct results_rail *r)
{
	if (!r->has_gpu) {
		json_kv_null(w, "gpu");
		return;
	}
	json_kv_object_begin(w, "gpu");
	if (r->gpu >= 0)
		json_kv_i64(w, "ordinal", r->gpu);
	else
		json_kv_null(w, "ordinal");
	rj_text(w, "bus_id", r->gpu_bus_id);
	rj_text(w, "pcie", r->gpu_pcie);
	json_object_end(w);
}

/* --rails: a row per rail; left out of a one-link document. */
static void rj_rails(struct json_writer *w, const struct results_doc *d)
{
	unsigned int i;

	if (!d->n_rails)
		return;
	json_kv_array_begin(w, "rails");
	for (i = 0; i < d->n_rails; i++) {
		const struct results_rail *r = &d->rails[i];

		json_object_begin(w);
		json_kv_string(w, "device", r->device);
		json_kv_u64(w, "port", r->tcp_port);
		if (r->numa_node >= 0)
			json_kv_i64(w, "numa_node", r->numa_node);
		else
			json_kv_null(w, "numa_node");
		rj_text(w, "cpus", r->cpus);
		json_kv_double(w, "bw_gbps", r->bw_gbps);
		json_kv_string(w, "verdict", results_verdict_name(r->verdict));
		json_kv_i64(w, "exit_code", r->exit_code);
		rj_text(w, "error", r->error);
		rj_rail_gpu(w, r);
		json_object_end(w);
	}
	json_array_end(w);
}

/* The error's errno and its name ("EHOSTUNREACH"); null when none, or
 * a code of our own that no errno names. */
static void rj_errno(struct json_writer *w, int err)
{
	const char *name = err > 0 ? strerrorname_np(err) : NULL;

	if (name)
		json_kv_i64(w, "errno", err);
	else
		json_kv_null(w, "errno");
	json_kv_string(w, "errno_name", name);
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
	json_kv_object_begin(&w, "device");
	RJ_FIELDS(&w, &d->device, rj_device_fields);
	json_object_end(&w);
	json_kv_object_begin(&w, "software");
	RJ_FIELDS(&w, &d->software, rj_software_fields);
	json_object_end(&w);
	rj_placement(&w, d);
	rj_test(&w, &d->test);
	rj_qp_attr(&w, &d->qp_attr);
	rj_line_rate(&w, &d->line_rate);
	rj_rows(&w, d);
	rj_gates(&w, d);
	rj_counters(&w, d);
	rj_named(&w, d);
	rj_rails(&w, d);
	json_kv_string(&w, "verdict", results_verdict_name(d->verdict));
	json_kv_i64(&w, "exit_code", d->exit_code);
	rj_text(&w, "error", d->error);
	rj_errno(&w, d->error_errno);
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

bool results_is_stdout(const char *path)
{
	return afile_is_stdout(path);
}

int results_save(const char *path,
		 int (*render)(const struct results_doc *, FILE *),
		 const struct results_doc *d, FILE *std)
{
	struct results_job job = { render, d };

	if (!render || !d)
		return -EINVAL;
	return afile_save(path, results_render, &job, std);
}
