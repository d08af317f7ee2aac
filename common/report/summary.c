// SPDX-License-Identifier: BSD-2-Clause
/*
 * summary - the verdict summary (summary.h): the results document's JSON
 * read back with lib/json_read.c, the few figures a termination message
 * carries picked out, and written with lib/json.c, whole items dropped
 * until it fits. It replaces the awk of deploy/entrypoint.sh, and says
 * what it said.
 */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/json_read.h"
#include "report/summary.h"

#define SUM_TEXT 300 /* a text longer than this is cut, "..." added */
#define SUM_ERROR 512 /* the error: the whole printed sentence (log.h) */

struct sum_row {
	uint64_t size;
	double a, b; /* bandwidth: gbps, server_gbps; latency: p50, p99 */
};

/* What the summary says, picked out of the document. "": null. */
struct sum {
	char verdict[16];
	int64_t exit_code;
	char tool[RESULTS_NAME_LEN], host[RESULTS_NAME_LEN];
	char device[RESULTS_NAME_LEN], peer[RESULTS_NAME_LEN];
	char memory[RESULTS_NAME_LEN], measure[RESULTS_NAME_LEN];
	struct sum_row rows[RESULTS_MAX_SIZES];
	unsigned int n_rows;
	char gates[RESULTS_MAX_GATES][SUM_TEXT + 4];
	unsigned int n_gates;
	char error[SUM_ERROR + 4];
	char errno_name[32];
};

/* The parsed document: its text and tokens. */
struct sum_doc {
	const char *js;
	struct json_read_tok *tok;
	int n;
};

static int sd_get(const struct sum_doc *d, int obj, const char *key)
{
	if (obj < 0 || d->tok[obj].type != JSON_READ_OBJECT)
		return -1;
	return json_read_get(d->js, d->tok, d->n, obj, key);
}

/* A string value into out (cut at len - 4 with "..." on a character's
 * boundary); "" for null, absent or not a string. */
static void sd_text(const struct sum_doc *d, int i, char *out, size_t len)
{
	char all[1024];
	size_t n;

	out[0] = '\0';
	if (i < 0 || d->tok[i].type != JSON_READ_STRING)
		return;
	json_read_str(d->js, &d->tok[i], all, sizeof(all)); /* cut: fine */
	n = strlen(all);
	if (n < len) {
		memcpy(out, all, n + 1);
		return;
	}
	n = len - 4;
	while (n && ((unsigned char)all[n] & 0xc0) == 0x80)
		n--; /* not inside a UTF-8 character */
	snprintf(out, len, "%.*s...", (int)n, all);
}

/* A number value; NaN for null, absent or not a number. */
static double sd_num(const struct sum_doc *d, int i)
{
	char buf[40], *end;
	const struct json_read_tok *t;
	size_t len;
	double v;

	if (i < 0 || d->tok[i].type != JSON_READ_PRIMITIVE)
		return NAN;
	t = &d->tok[i];
	len = t->end - t->start;
	if (len >= sizeof(buf))
		return NAN;
	memcpy(buf, d->js + t->start, len);
	buf[len] = '\0';
	v = strtod(buf, &end);
	return end == buf || *end ? NAN : v;
}

/* d.path (keys separated by '.') from the top object. */
static int sd_path(const struct sum_doc *d, int obj, const char *path)
{
	char key[32];
	const char *dot;

	while (obj >= 0 && (dot = strchr(path, '.'))) {
		snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
		obj = sd_get(d, obj, key);
		path = dot + 1;
	}
	return sd_get(d, obj, path);
}

static void sum_rows(const struct sum_doc *d, struct sum *s)
{
	int arr = sd_get(d, 0, "results"), r;
	bool lat = !strcmp(s->measure, "lat");
	unsigned int k;

	for (k = 0; arr >= 0 && k < RESULTS_MAX_SIZES; k++) {
		r = json_read_elem(d->tok, d->n, arr, k);
		if (r < 0)
			break;
		s->rows[k].size =
			(uint64_t)sd_num(d, sd_get(d, r, "size_bytes"));
		s->rows[k].a = sd_num(d, sd_path(d, r, lat ?
				"client.latency.p50_us" : "client.bw_gbps"));
		s->rows[k].b = sd_num(d, sd_path(d, r, lat ?
				"client.latency.p99_us" : "server.bw_gbps"));
		s->n_rows = k + 1;
	}
}

/* Each failed gate's reason; without one, what it measured. */
static void sum_gates(const struct sum_doc *d, struct sum *s)
{
	int arr = sd_get(d, 0, "gates"), g;
	char v[16], name[RESULTS_NAME_LEN];
	char *out;
	unsigned int k;

	for (k = 0; arr >= 0 && s->n_gates < RESULTS_MAX_GATES; k++) {
		g = json_read_elem(d->tok, d->n, arr, k);
		if (g < 0)
			break;
		sd_text(d, sd_get(d, g, "verdict"), v, sizeof(v));
		if (strcmp(v, "fail"))
			continue;
		out = s->gates[s->n_gates++];
		sd_text(d, sd_get(d, g, "reason"), out, SUM_TEXT + 4);
		if (out[0])
			continue;
		sd_text(d, sd_get(d, g, "name"), name, sizeof(name));
		snprintf(out, SUM_TEXT + 4,
			 "%s at size %.0f: %g vs expected %g", name,
			 sd_num(d, sd_get(d, g, "size_bytes")),
			 sd_num(d, sd_get(d, g, "figure")),
			 sd_num(d, sd_get(d, g, "expected")));
	}
}

/* Pick the summary's fields out of the parsed document. */
static int sum_read(const struct sum_doc *d, struct sum *s)
{
	double code = sd_num(d, sd_get(d, 0, "exit_code"));

	if (d->n < 1 || d->tok[0].type != JSON_READ_OBJECT)
		return -EINVAL;
	sd_text(d, sd_get(d, 0, "verdict"), s->verdict, sizeof(s->verdict));
	if (!s->verdict[0])
		return -EINVAL;
	s->exit_code = isnan(code) ? 1 : (int64_t)code;
	sd_text(d, sd_get(d, 0, "tool"), s->tool, sizeof(s->tool));
	sd_text(d, sd_get(d, 0, "host"), s->host, sizeof(s->host));
	sd_text(d, sd_path(d, 0, "device.name"), s->device, sizeof(s->device));
	sd_text(d, sd_path(d, 0, "device.peer_addr"), s->peer,
		sizeof(s->peer));
	sd_text(d, sd_path(d, 0, "memory.type"), s->memory, sizeof(s->memory));
	sd_text(d, sd_path(d, 0, "test.measure"), s->measure,
		sizeof(s->measure));
	sd_text(d, sd_get(d, 0, "error"), s->error, sizeof(s->error));
	sd_text(d, sd_get(d, 0, "errno_name"), s->errno_name,
		sizeof(s->errno_name));
	sum_rows(d, s);
	sum_gates(d, s);
	return 0;
}

/* text, or null for "" */
static void sw_text(struct json_writer *w, const char *key, const char *s)
{
	json_kv_string(w, key, s && s[0] ? s : NULL);
}

/*
 * 2 decimals, as "%.2f" rounds the exact value (and Python's round(v, 2);
 * v * 100 would round twice), trailing zeros dropped; null when NaN.
 */
static void sw_num(struct json_writer *w, const char *key, double v)
{
	char buf[48];

	if (isnan(v) || isinf(v)) {
		json_kv_null(w, key);
		return;
	}
	snprintf(buf, sizeof(buf), "%.2f", v);
	json_kv_double(w, key, strtod(buf, NULL));
}

/* How much of the summary goes in: the rest was dropped to fit. */
struct sum_cut {
	unsigned int first_row, n_gates;
	bool error, truncated;
};

static void sum_render(const struct sum *s, const char *server,
		       const struct sum_cut *c, FILE *out)
{
	bool lat = !strcmp(s->measure, "lat");
	struct json_writer w;
	unsigned int i;

	json_init(&w, out, 0);
	json_object_begin(&w);
	json_kv_i64(&w, "rdmabench_summary", 1);
	json_kv_string(&w, "verdict", s->verdict);
	json_kv_i64(&w, "exit_code", s->exit_code);
	sw_text(&w, "tool", s->tool);
	if (server)
		sw_text(&w, "server", server);
	sw_text(&w, "host", s->host);
	sw_text(&w, "device", s->device);
	sw_text(&w, "peer_addr", s->peer);
	sw_text(&w, "memory", s->memory);
	sw_text(&w, "measure", s->measure);
	json_kv_array_begin(&w, "rows");
	for (i = c->first_row; i < s->n_rows; i++) {
		json_object_begin(&w);
		json_kv_u64(&w, "size", s->rows[i].size);
		sw_num(&w, lat ? "p50_us" : "gbps", s->rows[i].a);
		sw_num(&w, lat ? "p99_us" : "server_gbps", s->rows[i].b);
		json_object_end(&w);
	}
	json_array_end(&w);
	json_kv_array_begin(&w, "failed_gates");
	for (i = 0; i < c->n_gates; i++)
		json_string(&w, s->gates[i]);
	json_array_end(&w);
	json_kv_bool(&w, "truncated", c->truncated);
	sw_text(&w, "error", c->error ? s->error : NULL);
	sw_text(&w, "errno_name", s->errno_name);
	json_object_end(&w);
}

/* The next thing to drop, in the order summary.h says; false: none. */
static bool sum_drop(const struct sum *s, struct sum_cut *c)
{
	c->truncated = true;
	if (c->n_gates > 1)
		c->n_gates--;
	else if (c->first_row < s->n_rows)
		c->first_row++;
	else if (c->error && s->error[0])
		c->error = false;
	else
		return false;
	return true;
}

/* Render s, dropping items until it fits, then write it to out. */
static int sum_fit(const struct sum *s, const char *server, FILE *out)
{
	struct sum_cut c = { .n_gates = s->n_gates, .error = true };
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	for (;;) {
		free(buf);
		buf = NULL;
		mem = open_memstream(&buf, &len);
		if (!mem)
			return -ENOMEM;
		sum_render(s, server, &c, mem);
		if (fclose(mem))
			return -ENOMEM;
		if (len <= SUMMARY_MAX_BYTES || !sum_drop(s, &c))
			break;
	}
	if (fwrite(buf, 1, len, out) != len || fputc('\n', out) == EOF) {
		free(buf);
		return -EIO;
	}
	free(buf);
	return 0;
}

int summary_write(const char *json, size_t len, const char *server,
		  FILE *out)
{
	unsigned int max = (unsigned int)(len / 2 + 16);
	struct sum_doc d = { .js = json };
	struct sum *s;
	int ret;

	if (!json || !out)
		return -EINVAL;
	d.tok = calloc(max, sizeof(*d.tok));
	s = calloc(1, sizeof(*s));
	ret = d.tok && s ? 0 : -ENOMEM;
	if (!ret) {
		d.n = json_read_parse(json, len, d.tok, max);
		ret = d.n < 0 ? d.n : sum_read(&d, s);
	}
	if (!ret)
		ret = sum_fit(s, server, out);
	free(d.tok);
	free(s);
	return ret;
}

int results_summary_write(const struct results_doc *d, FILE *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int ret;

	if (!mem)
		return -ENOMEM;
	ret = results_write_json(d, mem);
	if (fclose(mem) && !ret)
		ret = -ENOMEM;
	if (!ret)
		ret = summary_write(buf, len, d->server[0] ? d->server : NULL,
				    out);
	free(buf);
	return ret;
}
