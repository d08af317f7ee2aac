// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for the verdict summaries of --summary: common/report/summary.c
 * (the benches') and doctor/findings_summary.c (ib_doctor's). What the
 * entrypoint used to make with awk: one line of valid JSON under 4 KiB,
 * the figures of the document, whole items dropped to fit, hostile text
 * kept inside the JSON.
 */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "doctor/findings.h"
#include "lib/json_read.h"
#include "report/summary.h"
#include "tests/test.h"

#define MAX_TOK 4096

static struct json_read_tok tok[MAX_TOK];

/* The parsed summary: text and tokens; n < 0: not JSON. */
struct parsed {
	char *text;
	size_t len;
	int n;
};

static void parse(struct parsed *p)
{
	p->n = json_read_parse(p->text, p->len, tok, MAX_TOK);
}

static const char *get_str(const struct parsed *p, const char *key,
			   char *buf, size_t len)
{
	int i = json_read_get(p->text, tok, p->n, 0, key);

	buf[0] = '\0';
	if (i < 0 || !json_read_str(p->text, &tok[i], buf, len))
		return i < 0 ? "<none>" : "<not a string>";
	return buf;
}

/* The size of array key, or -1. */
static int arr_len(const struct parsed *p, const char *key)
{
	int i = json_read_get(p->text, tok, p->n, 0, key);

	return i < 0 || tok[i].type != JSON_READ_ARRAY ? -1 :
	       (int)tok[i].size;
}

static bool is_true(const struct parsed *p, const char *key)
{
	int i = json_read_get(p->text, tok, p->n, 0, key);

	return i >= 0 && json_read_true(p->text, &tok[i]);
}

/* A bandwidth document: n sizes, g failed gates of long reasons. */
static void doc_bw(struct results_doc *d, unsigned int n, unsigned int g)
{
	struct stats_bw bw = { .gbps = 192.054, .mpps = 0.4, .msgs = 5000,
			       .bytes = 327680000, .elapsed_ns = 13650000 };
	unsigned int i;

	results_init(d);
	results_copy(d->tool, sizeof(d->tool), "ib_write_bw");
	results_copy(d->host, sizeof(d->host), "node-a");
	results_copy(d->device.name, sizeof(d->device.name), "mlx5_0");
	results_copy(d->test.measure, sizeof(d->test.measure), "bw");
	results_copy(d->server, sizeof(d->server), "srv.example");
	for (i = 0; i < n; i++) {
		struct results_row *r = results_add_row(d, 2ull << i, 5000);

		results_side_set_bw(&r->client, &bw, NULL);
	}
	for (i = 0; i < g && i < RESULTS_MAX_GATES; i++) {
		struct results_gate *t = &d->gates[d->n_gates++];

		results_copy(t->name, sizeof(t->name), "bw_gbps");
		t->size_bytes = 2ull << (i % 23);
		t->figure = 1.0;
		t->expected = 2.0;
		snprintf(t->reason, sizeof(t->reason), "size %u: \"slow\" \\ "
			 "%0200d", i, 0);
	}
	d->verdict = g ? RESULTS_FAIL : RESULTS_PASS;
	d->exit_code = g ? 3 : 0;
	if (g)
		snprintf(d->error, sizeof(d->error), "size 2: slow");
}

static void render(const struct results_doc *d, struct parsed *p)
{
	FILE *m = open_memstream(&p->text, &p->len);

	EXPECT_EQ_INT(results_summary_write(d, m), 0);
	fclose(m);
	parse(p);
	EXPECT_TRUE(p->n > 0);
}

static void test_bench_plain(void)
{
	struct results_doc *d = malloc(sizeof(*d));
	struct parsed p;
	char buf[256];

	doc_bw(d, 1, 0);
	render(d, &p);
	EXPECT_STREQ(p.text, "{\"rdmabench_summary\":1,\"verdict\":\"pass\","
		     "\"exit_code\":0,\"tool\":\"ib_write_bw\",\"server\":"
		     "\"srv.example\",\"host\":\"node-a\",\"device\":\"mlx5_0\","
		     "\"peer_addr\":null,\"memory\":\"host\",\"measure\":\"bw\","
		     "\"rows\":[{\"size\":2,\"gbps\":192.05,\"server_gbps\":"
		     "null}],\"failed_gates\":[],\"truncated\":false,\"error\":"
		     "null,\"errno_name\":null}\n");
	free(p.text);
	/* an error: the sentence and the errno's name */
	d->verdict = RESULTS_ERROR;
	d->exit_code = 5;
	d->error_errno = EHOSTUNREACH;
	results_copy(d->error, sizeof(d->error), "cannot resolve 'x': check "
		     "the name\n\x1b[2J \xff");
	render(d, &p);
	EXPECT_STREQ(get_str(&p, "verdict", buf, sizeof(buf)), "error");
	EXPECT_STREQ(get_str(&p, "errno_name", buf, sizeof(buf)),
		     "EHOSTUNREACH");
	get_str(&p, "error", buf, sizeof(buf));
	EXPECT_TRUE(!strncmp(buf, "cannot resolve 'x': check the name\n\x1b",
			     36));
	EXPECT_TRUE(strchr(p.text, '\x1b') == NULL); /* escaped */
	free(p.text);
	free(d);
}

/* Too big: gates go first (one stays), then the smallest sizes; a text
 * past 300 bytes is cut ("..."), on a character's end. */
static void test_bench_cut(void)
{
	struct results_doc *d = malloc(sizeof(*d));
	struct parsed p;
	char buf[512];

	doc_bw(d, 23, 64);
	render(d, &p);
	EXPECT_TRUE(p.len <= SUMMARY_MAX_BYTES + 1);
	EXPECT_TRUE(is_true(&p, "truncated"));
	/* the failures dropped from the last: the rows all stay */
	EXPECT_TRUE(arr_len(&p, "failed_gates") >= 1 &&
		    arr_len(&p, "failed_gates") < 64);
	EXPECT_EQ_INT(arr_len(&p, "rows"), 23);
	EXPECT_STREQ(get_str(&p, "verdict", buf, sizeof(buf)), "fail");
	EXPECT_TRUE(strstr(p.text, "[\"size 0: \\\"slow\\\" \\\\ 0000") != NULL);
	free(p.text);
	/* a sweep alone fits: nothing dropped */
	doc_bw(d, 23, 1);
	render(d, &p);
	EXPECT_TRUE(!is_true(&p, "truncated"));
	EXPECT_EQ_INT(arr_len(&p, "rows"), 23);
	free(p.text);
	free(d);
}

static void test_bench_clip(void)
{
	char js[2048], *out = NULL;
	size_t len = 0;
	FILE *m;
	int n;

	/* 511 digits (the error's cut: the printed sentence, up to 512
	 * bytes), then a 2-byte character across the cut */
	n = snprintf(js, sizeof(js), "{\"verdict\":\"error\",\"exit_code\":1,"
		     "\"error\":\"%0511d\xc3\xa9tail\",\"results\":[],"
		     "\"gates\":[]}", 0);
	m = open_memstream(&out, &len);
	EXPECT_EQ_INT(summary_write(js, (size_t)n, NULL, m), 0);
	fclose(m);
	EXPECT_TRUE(strstr(out, "\"error\":\"0000") != NULL);
	EXPECT_TRUE(strstr(out, "000...\"") != NULL); /* é not split */
	EXPECT_TRUE(strstr(out, "tail") == NULL);
	free(out);
}

static void test_bench_not_results(void)
{
	FILE *m = fopen("/dev/null", "w");

	EXPECT_EQ_INT(summary_write("{\"a\":1}", 7, NULL, m), -EINVAL);
	EXPECT_EQ_INT(summary_write("[1,", 3, NULL, m), -EINVAL);
	fclose(m);
}

static void doctor_render(const struct findings *rep, int code,
			  struct parsed *p)
{
	FILE *m = open_memstream(&p->text, &p->len);

	EXPECT_EQ_INT(findings_print_summary(rep, code, m), 0);
	fclose(m);
	parse(p);
	EXPECT_TRUE(p->n > 0);
}

static void test_doctor(void)
{
	struct findings rep = { 0 };
	struct parsed p;
	char buf[512];
	int i;

	findings_add(&rep, 1, "devices", "host", VERDICT_PASS, "1 device");
	findings_add(&rep, 3, "mtu", "mlx5_0/1", VERDICT_WARN,
		     "RoCE MTU 1024 \"small\" \x1b[2J\\ \x01 caf\xc3\xa9");
	findings_add(&rep, 8, "gpu", "host", VERDICT_SKIP, "no GPU");
	doctor_render(&rep, FINDINGS_EXIT_WARN, &p);
	EXPECT_STREQ(get_str(&p, "verdict", buf, sizeof(buf)), "warn");
	EXPECT_EQ_INT(arr_len(&p, "findings"), 1); /* WARN and FAIL only */
	EXPECT_TRUE(!is_true(&p, "truncated"));
	EXPECT_TRUE(!strncmp(p.text, "{\"rdmabench_doctor\":1,", 22));
	EXPECT_TRUE(strstr(p.text, "\"WARN 3 mtu mlx5_0/1: RoCE MTU 1024 "
			   "\\\"small\\\" \\u001b[2J\\\\ \\u0001 caf\xc3\xa9\"")
		    != NULL);
	free(p.text);
	/* 30 long failures: 20 at most, 160 bytes each, under the bound */
	for (i = 0; i < 30; i++)
		findings_add(&rep, 4, "roce_gid", "mlx5_0/1", VERDICT_FAIL,
			     "%d %0390d", i, 0);
	doctor_render(&rep, FINDINGS_EXIT_FAIL, &p);
	EXPECT_STREQ(get_str(&p, "verdict", buf, sizeof(buf)), "fail");
	EXPECT_TRUE(p.len <= FINDINGS_SUMMARY_BYTES + 1);
	EXPECT_TRUE(arr_len(&p, "findings") >= 1 &&
		    arr_len(&p, "findings") <= FINDINGS_SUMMARY_MAX);
	EXPECT_TRUE(is_true(&p, "truncated"));
	free(p.text);
	doctor_render(&rep, FINDINGS_EXIT_RUNTIME, &p);
	EXPECT_STREQ(get_str(&p, "verdict", buf, sizeof(buf)), "error");
	free(p.text);
	findings_free(&rep);
}

int main(void)
{
	test_bench_plain();
	test_bench_cut();
	test_bench_clip();
	test_bench_not_results();
	test_doctor();
	return test_finish("test_summary");
}
