// SPDX-License-Identifier: BSD-2-Clause
/*
 * json_read - tokenizer and lookups (json_read.h). Recursive descent,
 * depth-limited, so a hostile file cannot blow the stack.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json_read.h"

#define JSON_READ_DEPTH_MAX 32

struct djp {
	const char *s;
	size_t len, pos;
	struct json_read_tok *tok;
	unsigned int n, max;
};

static void dj_ws(struct djp *p)
{
	while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]))
		p->pos++;
}

static int dj_new(struct djp *p, enum json_read_type type, size_t start)
{
	if (p->n == p->max)
		return -ENOMEM;
	p->tok[p->n] = (struct json_read_tok){ .type = type, .start = start };
	return (int)p->n++;
}

static int dj_string(struct djp *p)
{
	int t = dj_new(p, JSON_READ_STRING, ++p->pos);

	if (t < 0)
		return t;
	while (p->pos < p->len && p->s[p->pos] != '"')
		p->pos += p->s[p->pos] == '\\' ? 2 : 1;
	if (p->pos >= p->len)
		return -EINVAL;
	p->tok[t].end = p->pos++;
	return 0;
}

static int dj_primitive(struct djp *p)
{
	int t = dj_new(p, JSON_READ_PRIMITIVE, p->pos);

	if (t < 0)
		return t;
	while (p->pos < p->len && !strchr(",]} \t\r\n:", p->s[p->pos]))
		p->pos++;
	if (p->pos == p->tok[t].start)
		return -EINVAL;
	p->tok[t].end = p->pos;
	return 0;
}

static int dj_value(struct djp *p, int depth);

/* An object or an array: members until the closing bracket. */
static int dj_container(struct djp *p, int depth)
{
	bool obj = p->s[p->pos] == '{';
	int t = dj_new(p, obj ? JSON_READ_OBJECT : JSON_READ_ARRAY, p->pos), ret;

	if (t < 0)
		return t;
	p->pos++;
	for (;;) {
		dj_ws(p);
		if (p->pos < p->len && p->s[p->pos] == (obj ? '}' : ']'))
			break;
		if (p->tok[t].size) {
			if (p->pos >= p->len || p->s[p->pos] != ',')
				return -EINVAL;
			p->pos++;
			dj_ws(p);
		}
		if (obj) {
			if (p->pos >= p->len || p->s[p->pos] != '"')
				return -EINVAL;
			ret = dj_string(p);
			if (ret)
				return ret;
			dj_ws(p);
			if (p->pos >= p->len || p->s[p->pos++] != ':')
				return -EINVAL;
		}
		ret = dj_value(p, depth + 1);
		if (ret)
			return ret;
		p->tok[t].size++;
	}
	p->tok[t].end = ++p->pos;
	return 0;
}

static int dj_value(struct djp *p, int depth)
{
	dj_ws(p);
	if (p->pos >= p->len || depth > JSON_READ_DEPTH_MAX)
		return -EINVAL;
	if (p->s[p->pos] == '{' || p->s[p->pos] == '[')
		return dj_container(p, depth);
	if (p->s[p->pos] == '"')
		return dj_string(p);
	return dj_primitive(p);
}

int json_read_parse(const char *js, size_t len, struct json_read_tok *tok,
		unsigned int max)
{
	struct djp p = { .s = js, .len = len, .tok = tok, .max = max };
	int ret = dj_value(&p, 0);

	if (ret)
		return ret;
	dj_ws(&p);
	return p.pos == len ? (int)p.n : -EINVAL;
}

int json_read_next(const struct json_read_tok *tok, int n, int i)
{
	int j = i + 1;

	/* tokens are in document order: what starts before tok[i] ends
	 * is inside it */
	while (j < n && tok[j].start < tok[i].end)
		j++;
	return j;
}

int json_read_get(const char *js, const struct json_read_tok *tok, int n, int obj,
	      const char *key)
{
	size_t klen = strlen(key);
	unsigned int k;
	int j = obj + 1;

	if (obj < 0 || obj >= n || tok[obj].type != JSON_READ_OBJECT)
		return -1;
	for (k = 0; k < tok[obj].size && j + 1 < n; k++) {
		if (tok[j].end - tok[j].start == klen &&
		    !memcmp(js + tok[j].start, key, klen))
			return j + 1;
		j = json_read_next(tok, n, j + 1);
	}
	return -1;
}

int json_read_elem(const struct json_read_tok *tok, int n, int arr, unsigned int k)
{
	int j = arr + 1;
	unsigned int i;

	if (arr < 0 || arr >= n || tok[arr].type != JSON_READ_ARRAY ||
	    k >= tok[arr].size)
		return -1;
	for (i = 0; i < k; i++)
		j = json_read_next(tok, n, j);
	return j < n ? j : -1;
}

static char dj_unescape(char c)
{
	switch (c) {
	case 'n':
		return '\n';
	case 't':
		return '\t';
	case 'r':
		return '\r';
	case 'b':
		return '\b';
	case 'f':
		return '\f';
	default:
		return c;       /* \" \\ \/ */
	}
}

bool json_read_str(const char *js, const struct json_read_tok *t, char *out,
	       size_t len)
{
	size_t i, o = 0;
	char c;

	if (t->type != JSON_READ_STRING || !len)
		return false;
	for (i = t->start; i < t->end && o + 1 < len; i++) {
		c = js[i];
		if (c == '\\' && i + 1 < t->end) {
			c = js[++i];
			if (c == 'u' && i + 4 < t->end) {
				char hex[5] = { js[i + 1], js[i + 2], js[i + 3],
						js[i + 4], 0 };
				unsigned long u = strtoul(hex, NULL, 16);

				c = u < 0x80 ? (char)u : '?';
				i += 4;
			} else {
				c = dj_unescape(c);
			}
		}
		out[o++] = c;
	}
	out[o] = '\0';
	return i >= t->end;
}

bool json_read_true(const char *js, const struct json_read_tok *t)
{
	return t->type == JSON_READ_PRIMITIVE && t->end - t->start == 4 &&
	       !memcmp(js + t->start, "true", 4);
}
