// SPDX-License-Identifier: BSD-2-Clause
/*
 * json - the streaming JSON emitter. See json.h.
 */
#include "lib/json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void json_init(struct json_writer *w, FILE *out, unsigned int indent)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->indent = indent;
	if (!out)
		w->err = -EINVAL;
}

/* Record the first error only: later ones are consequences of it. */
static int jw_fail(struct json_writer *w, int err)
{
	if (!w->err)
		w->err = err;
	return w->err;
}

/*
 * All output goes through these: a short write sets the sticky -EIO, so a
 * full disk is reported once by json_finish() instead of at every call.
 */
static int jw_write(struct json_writer *w, const char *s, size_t n)
{
	if (n && fwrite(s, 1, n, w->out) != n)
		return jw_fail(w, -EIO);
	return 0;
}

static int jw_puts(struct json_writer *w, const char *s)
{
	return jw_write(w, s, strlen(s));
}

/* Newline and indentation for the current depth (nothing when compact). */
static int jw_newline(struct json_writer *w)
{
	unsigned int i;

	if (!w->indent)
		return 0;
	if (fputc('\n', w->out) == EOF)
		return jw_fail(w, -EIO);
	for (i = 0; i < w->depth * w->indent; i++)
		if (fputc(' ', w->out) == EOF)
			return jw_fail(w, -EIO);
	return 0;
}

/* Comma and line break before an array element or an object member. */
static int jw_next_item(struct json_writer *w)
{
	if (w->has_items[w->depth - 1] && jw_puts(w, ","))
		return w->err;
	w->has_items[w->depth - 1] = true;
	return jw_newline(w);
}

/*
 * Check that a value may come now and write what must precede it. After a
 * key the comma and line break were written with the key, so the value
 * follows directly on the same line.
 */
static int jw_before_value(struct json_writer *w)
{
	if (w->err)
		return w->err;
	if (w->done)
		return jw_fail(w, -EINVAL);
	if (w->key_pending) {
		w->key_pending = false;
		return 0;
	}
	if (!w->depth)
		return 0;
	if (w->open[w->depth - 1] == '{')
		return jw_fail(w, -EINVAL);	/* object member needs a key */
	return jw_next_item(w);
}

/* A complete value at depth 0 is the whole document: nothing may follow. */
static void jw_after_value(struct json_writer *w)
{
	if (!w->depth)
		w->done = true;
}

static int jw_begin(struct json_writer *w, char kind)
{
	char text[2] = { kind, '\0' };

	if (jw_before_value(w))
		return w->err;
	if (w->depth >= JSON_MAX_DEPTH)
		return jw_fail(w, -E2BIG);
	if (jw_puts(w, text))
		return w->err;
	w->open[w->depth] = kind;
	w->has_items[w->depth] = false;
	w->depth++;
	return 0;
}

static int jw_end(struct json_writer *w, char kind)
{
	char text[2] = { kind == '{' ? '}' : ']', '\0' };

	if (w->err)
		return w->err;
	if (!w->depth || w->open[w->depth - 1] != kind || w->key_pending)
		return jw_fail(w, -EINVAL);
	w->depth--;
	/* an empty container stays on one line: {} and [] */
	if (w->has_items[w->depth] && jw_newline(w))
		return w->err;
	if (jw_puts(w, text))
		return w->err;
	jw_after_value(w);
	return 0;
}

int json_object_begin(struct json_writer *w)
{
	return jw_begin(w, '{');
}

int json_object_end(struct json_writer *w)
{
	return jw_end(w, '{');
}

int json_array_begin(struct json_writer *w)
{
	return jw_begin(w, '[');
}

int json_array_end(struct json_writer *w)
{
	return jw_end(w, '[');
}

size_t json_utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (!n)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;	/* continuation byte, 0xc0/0xc1, 0xf5.. */
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, UTF-16 surrogates and beyond Unicode are invalid */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

/*
 * The escape of one ASCII byte, or NULL when it goes out as is. RFC 8259
 * requires escaping only '"', '\\' and U+0000..U+001F; DEL and '/' pass.
 */
static const char *jw_escape(unsigned char c, char *buf, size_t len)
{
	switch (c) {
	case '"':  return "\\\"";
	case '\\': return "\\\\";
	case '\b': return "\\b";
	case '\f': return "\\f";
	case '\n': return "\\n";
	case '\r': return "\\r";
	case '\t': return "\\t";
	}
	if (c >= 0x20)
		return NULL;
	snprintf(buf, len, "\\u%04x", c);
	return buf;
}

static int jw_string_body(struct json_writer *w, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s), n;
	char buf[8];
	const char *esc;

	while (left && !w->err) {
		n = json_utf8_len(p, left);
		if (!n) {
			/* one bad byte at a time: resynchronise on the next */
			jw_puts(w, "\\ufffd");
			n = 1;
		} else if (n == 1 && (esc = jw_escape(*p, buf, sizeof(buf)))) {
			jw_puts(w, esc);
		} else {
			jw_write(w, (const char *)p, n);
		}
		p += n;
		left -= n;
	}
	return w->err;
}

static int jw_quoted(struct json_writer *w, const char *s)
{
	if (jw_puts(w, "\"") || jw_string_body(w, s) || jw_puts(w, "\""))
		return w->err;
	return 0;
}

int json_key(struct json_writer *w, const char *key)
{
	if (w->err)
		return w->err;
	if (!key || !w->depth || w->open[w->depth - 1] != '{' ||
	    w->key_pending)
		return jw_fail(w, -EINVAL);
	if (jw_next_item(w) || jw_quoted(w, key))
		return w->err;
	if (jw_puts(w, w->indent ? ": " : ":"))
		return w->err;
	w->key_pending = true;
	return 0;
}

/* A value that is a ready-made token (number, true, null). */
static int jw_token(struct json_writer *w, const char *text)
{
	if (jw_before_value(w) || jw_puts(w, text))
		return w->err;
	jw_after_value(w);
	return 0;
}

int json_string(struct json_writer *w, const char *s)
{
	if (!s)
		return json_null(w);
	if (jw_before_value(w) || jw_quoted(w, s))
		return w->err;
	jw_after_value(w);
	return 0;
}

/*
 * Integers are printed as integers, never through a double: byte counts
 * and Unix ns exceed 2^53 and must reach the reader exact (Python reads
 * them exactly; jq before 1.7 rounds them: see results/README.md).
 */
int json_u64(struct json_writer *w, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return jw_token(w, buf);
}

int json_i64(struct json_writer *w, int64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	return jw_token(w, buf);
}

int json_format_double(double v, char *buf, size_t len)
{
	char *comma, *exp;
	int prec, n;

	if (!isfinite(v))
		return -EDOM;
	/* 17 significant digits always round-trip; fewer often do */
	for (prec = 1; prec <= 17; prec++) {
		n = snprintf(buf, len, "%.*g", prec, v);
		if (n < 0 || (size_t)n >= len)
			return -ENOSPC;
		if (strtod(buf, NULL) == v)
			break;
	}
	/*
	 * %g switches to an exponent once it exceeds the precision: 180
	 * would read "1.8e+02". Integers below 1e17 print in full instead.
	 */
	exp = strchr(buf, 'e');
	if (exp && exp[1] == '+' && atoi(exp + 2) < 17) {
		n = snprintf(buf, len, "%.*g", atoi(exp + 2) + 1, v);
		if (n < 0 || (size_t)n >= len)
			return -ENOSPC;
	}
	/* a locale with a decimal comma must not leak into JSON */
	comma = strchr(buf, ',');
	if (comma)
		*comma = '.';
	return 0;
}

int json_double(struct json_writer *w, double v)
{
	char buf[32];

	if (json_format_double(v, buf, sizeof(buf)))
		return json_null(w);	/* JSON has no NaN or Infinity */
	return jw_token(w, buf);
}

int json_bool(struct json_writer *w, bool v)
{
	return jw_token(w, v ? "true" : "false");
}

int json_null(struct json_writer *w)
{
	return jw_token(w, "null");
}

int json_kv_string(struct json_writer *w, const char *key, const char *s)
{
	return json_key(w, key) ? w->err : json_string(w, s);
}

int json_kv_u64(struct json_writer *w, const char *key, uint64_t v)
{
	return json_key(w, key) ? w->err : json_u64(w, v);
}

int json_kv_i64(struct json_writer *w, const char *key, int64_t v)
{
	return json_key(w, key) ? w->err : json_i64(w, v);
}

int json_kv_double(struct json_writer *w, const char *key, double v)
{
	return json_key(w, key) ? w->err : json_double(w, v);
}

int json_kv_bool(struct json_writer *w, const char *key, bool v)
{
	return json_key(w, key) ? w->err : json_bool(w, v);
}

int json_kv_null(struct json_writer *w, const char *key)
{
	return json_key(w, key) ? w->err : json_null(w);
}

int json_kv_object_begin(struct json_writer *w, const char *key)
{
	return json_key(w, key) ? w->err : json_object_begin(w);
}

int json_kv_array_begin(struct json_writer *w, const char *key)
{
	return json_key(w, key) ? w->err : json_array_begin(w);
}

int json_finish(struct json_writer *w)
{
	if (w->err)
		return w->err;
	if (!w->done)
		return jw_fail(w, -EINVAL);
	if (fputc('\n', w->out) == EOF || fflush(w->out) || ferror(w->out))
		return jw_fail(w, -EIO);
	return 0;
}
