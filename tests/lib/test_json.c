// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/lib/json.c: layout, escaping, numbers, misuse. The escaping
 * cases are also rendered to tests/golden/results_json_escape.json, which
 * tests/report/test_results_validate.sh decodes with Python's json module
 * to prove that a real parser reads back what we meant
 * (TEST_UPDATE_GOLDEN=1 rewrites it; TEST_SRCDIR, default ".", is the
 * source tree).
 */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <float.h>
#include <stdlib.h>

#include "lib/json.h"
#include "tests/test.h"

struct capture {
	char *text;
	size_t len;
	FILE *out;
};

static void capture_open(struct capture *c)
{
	c->text = NULL;
	c->len = 0;
	c->out = open_memstream(&c->text, &c->len);
	EXPECT_TRUE(c->out != NULL);
}

static void capture_close(struct capture *c)
{
	fclose(c->out);
	c->out = NULL;
}

/* The JSON text of one string value, compact. */
static void expect_string_json(const char *in, const char *want)
{
	struct json_writer w;
	struct capture c;

	capture_open(&c);
	json_init(&w, c.out, 0);
	EXPECT_EQ_INT(json_string(&w, in), 0);
	EXPECT_EQ_INT(json_finish(&w), 0);
	capture_close(&c);
	EXPECT_STREQ(c.text, want);
	free(c.text);
}

/* The JSON text of one double value, compact, without the newline. */
static void expect_double_json(double v, const char *want)
{
	struct json_writer w;
	struct capture c;

	capture_open(&c);
	json_init(&w, c.out, 0);
	EXPECT_EQ_INT(json_double(&w, v), 0);
	EXPECT_EQ_INT(json_finish(&w), 0);
	capture_close(&c);
	if (c.len)
		c.text[c.len - 1] = '\0';
	EXPECT_STREQ(c.text, want);
	free(c.text);
}

static void build_sample(struct json_writer *w)
{
	json_object_begin(w);
	json_kv_string(w, "name", "ib_write_bw");
	json_kv_u64(w, "size_bytes", 65536);
	json_kv_array_begin(w, "sizes");
	json_u64(w, 2);
	json_u64(w, 4);
	json_array_end(w);
	json_key(w, "empty_array");
	json_array_begin(w);
	json_array_end(w);
	json_kv_object_begin(w, "empty_object");
	json_object_end(w);
	json_kv_bool(w, "ok", true);
	json_kv_null(w, "none");
	json_kv_i64(w, "neg", -3);
	json_object_end(w);
}

static void test_layout(void)
{
	struct json_writer w;
	struct capture c;

	capture_open(&c);
	json_init(&w, c.out, 0);
	build_sample(&w);
	EXPECT_EQ_INT(json_finish(&w), 0);
	capture_close(&c);
	EXPECT_STREQ(c.text, "{\"name\":\"ib_write_bw\",\"size_bytes\":65536,"
		     "\"sizes\":[2,4],\"empty_array\":[],\"empty_object\":{},"
		     "\"ok\":true,\"none\":null,\"neg\":-3}\n");
	free(c.text);

	capture_open(&c);
	json_init(&w, c.out, 2);
	build_sample(&w);
	EXPECT_EQ_INT(json_finish(&w), 0);
	capture_close(&c);
	EXPECT_STREQ(c.text, "{\n  \"name\": \"ib_write_bw\",\n"
		     "  \"size_bytes\": 65536,\n  \"sizes\": [\n    2,\n    4\n"
		     "  ],\n  \"empty_array\": [],\n  \"empty_object\": {},\n"
		     "  \"ok\": true,\n  \"none\": null,\n  \"neg\": -3\n}\n");
	free(c.text);
}

/* Input and expected JSON text of every escaping case. */
static const struct {
	const char *name;
	const char *in;
	const char *want;
} escapes[] = {
	{ "plain", "mlx5_0", "\"mlx5_0\"" },
	{ "empty", "", "\"\"" },
	{ "quote_backslash", "a\"b\\c/d", "\"a\\\"b\\\\c/d\"" },
	{ "short_escapes", "\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"" },
	{ "control", "\x01\x1f\x7f", "\"\\u0001\\u001f\x7f\"" },
	{ "utf8", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	  "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"" },
	{ "bad_byte", "a\xff" "b", "\"a\\ufffdb\"" },
	{ "overlong", "\xc0\x80", "\"\\ufffd\\ufffd\"" },
	{ "surrogate", "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },
	{ "truncated", "x\xe2\x82", "\"x\\ufffd\\ufffd\"" },
	{ "beyond_unicode", "\xf4\x90\x80\x80",
	  "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
	{ "stray_continuation", "\x80z", "\"\\ufffdz\"" },
};

static void test_escaping(void)
{
	size_t i;

	for (i = 0; i < sizeof(escapes) / sizeof(escapes[0]); i++) {
		char want[64];

		snprintf(want, sizeof(want), "%s\n", escapes[i].want);
		expect_string_json(escapes[i].in, want);
	}
}

static void test_numbers(void)
{
	struct json_writer w;
	struct capture c;
	char buf[32];
	double v = 1.0;
	int i;

	capture_open(&c);
	json_init(&w, c.out, 0);
	json_array_begin(&w);
	json_u64(&w, UINT64_MAX);
	json_i64(&w, INT64_MIN);
	json_array_end(&w);
	EXPECT_EQ_INT(json_finish(&w), 0);
	capture_close(&c);
	EXPECT_STREQ(c.text, "[18446744073709551615,-9223372036854775808]\n");
	free(c.text);

	expect_double_json(0.1, "0.1");
	expect_double_json(195.25, "195.25");
	expect_double_json(1.0 / 3.0, "0.3333333333333333");
	expect_double_json(1e300, "1e+300");
	expect_double_json(180, "180");
	expect_double_json(4e16, "40000000000000000");
	expect_double_json(1e17, "1e+17");
	expect_double_json(1.5e-7, "1.5e-07");
	expect_double_json(0.000123, "0.000123");
	expect_double_json(-2.5e9, "-2500000000");
	expect_double_json(5e-324, "5e-324");
	expect_double_json(DBL_MAX, "1.7976931348623157e+308");
	expect_double_json(-0.0, "-0");
	expect_double_json(NAN, "null");
	expect_double_json(INFINITY, "null");
	expect_double_json(-INFINITY, "null");

	/* shortest round trip over a spread of magnitudes */
	for (i = 0; i < 2000; i++) {
		v = v * 1.000123456789 + 1e-7 * i;
		EXPECT_EQ_INT(json_format_double(v, buf, sizeof(buf)), 0);
		EXPECT_TRUE(strtod(buf, NULL) == v);
		EXPECT_TRUE(strlen(buf) <= 24);
	}
	EXPECT_EQ_INT(json_format_double(NAN, buf, sizeof(buf)), -EDOM);
	EXPECT_EQ_INT(json_format_double(0.1, buf, 3), -ENOSPC);
}

/* Every misuse is refused with -EINVAL and the error sticks. */
static void test_misuse(void)
{
	struct json_writer w;
	FILE *out = fopen("/dev/null", "w");
	int i;

	EXPECT_TRUE(out != NULL);
	if (!out)
		return;
	json_init(&w, out, 0);
	json_object_begin(&w);
	EXPECT_EQ_INT(json_u64(&w, 1), -EINVAL);	/* value without key */
	EXPECT_EQ_INT(json_kv_u64(&w, "a", 1), -EINVAL); /* sticky */
	EXPECT_EQ_INT(json_finish(&w), -EINVAL);

	json_init(&w, out, 0);
	json_array_begin(&w);
	EXPECT_EQ_INT(json_key(&w, "a"), -EINVAL);	/* key in an array */

	json_init(&w, out, 0);
	json_array_begin(&w);
	EXPECT_EQ_INT(json_object_end(&w), -EINVAL);	/* wrong closer */

	json_init(&w, out, 0);
	json_object_begin(&w);
	json_key(&w, "a");
	EXPECT_EQ_INT(json_object_end(&w), -EINVAL);	/* value missing */

	json_init(&w, out, 0);
	json_object_begin(&w);
	json_key(&w, "a");
	EXPECT_EQ_INT(json_key(&w, "b"), -EINVAL);	/* two keys */

	json_init(&w, out, 0);
	EXPECT_EQ_INT(json_object_end(&w), -EINVAL);	/* nothing open */

	json_init(&w, out, 0);
	EXPECT_EQ_INT(json_u64(&w, 1), 0);
	EXPECT_EQ_INT(json_u64(&w, 2), -EINVAL);	/* second top level */

	json_init(&w, out, 0);
	EXPECT_EQ_INT(json_finish(&w), -EINVAL);	/* nothing written */

	json_init(&w, out, 0);
	for (i = 0; i < JSON_MAX_DEPTH; i++)
		EXPECT_EQ_INT(json_array_begin(&w), 0);
	EXPECT_EQ_INT(json_array_begin(&w), -E2BIG);

	json_init(&w, NULL, 0);
	EXPECT_EQ_INT(json_null(&w), -EINVAL);
	fclose(out);
}

/* A write error surfaces as -EIO (/dev/full: every write gets ENOSPC). */
static void test_write_error(void)
{
	struct json_writer w;
	FILE *out = fopen("/dev/full", "w");

	if (!out) {
		fprintf(stderr, "  no /dev/full, write error not tested\n");
		return;
	}
	setvbuf(out, NULL, _IONBF, 0);
	json_init(&w, out, 2);
	json_object_begin(&w);
	json_kv_string(&w, "a", "b");
	json_object_end(&w);
	EXPECT_EQ_INT(json_finish(&w), -EIO);
	fclose(out);
}

/* Whole file, or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *text;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) || !(text = malloc(n + 1))) {
		fclose(f);
		return NULL;
	}
	text[fread(text, 1, n, f)] = '\0';
	fclose(f);
	return text;
}

/* The escaping cases as one object, for a real parser to read back. */
static void test_escape_golden(void)
{
	const char *srcdir = getenv("TEST_SRCDIR");
	const char *update = getenv("TEST_UPDATE_GOLDEN");
	struct json_writer w;
	struct capture c;
	char path[4096];
	char *want;
	size_t i;

	capture_open(&c);
	json_init(&w, c.out, 2);
	json_object_begin(&w);
	for (i = 0; i < sizeof(escapes) / sizeof(escapes[0]); i++)
		json_kv_string(&w, escapes[i].name, escapes[i].in);
	json_object_end(&w);
	EXPECT_EQ_INT(json_finish(&w), 0);
	capture_close(&c);
	snprintf(path, sizeof(path), "%s/tests/golden/results_json_escape.json",
		 srcdir && srcdir[0] ? srcdir : ".");
	if (update && !strcmp(update, "1")) {
		FILE *f = fopen(path, "wb");

		EXPECT_TRUE(f && fwrite(c.text, 1, c.len, f) == c.len);
		EXPECT_TRUE(f && !fclose(f));
		fprintf(stderr, "  rewrote %s\n", path);
	} else {
		want = slurp(path);
		if (!want)
			fprintf(stderr, "  cannot read %s (set TEST_SRCDIR)\n",
				path);
		EXPECT_STREQ(c.text, want);
		free(want);
	}
	free(c.text);
}

int main(void)
{
	test_layout();
	test_escaping();
	test_numbers();
	test_misuse();
	test_write_error();
	test_escape_golden();
	return test_finish("test_json");
}
