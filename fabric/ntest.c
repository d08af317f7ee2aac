// SPDX-License-Identifier: BSD-2-Clause
/* ntest - nccl-tests' output, read and judged (see ntest.h). */
#include "fabric/ntest.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NTEST_TOKS 64

/* The header's names and what they are. */
static const struct {
	const char *name;
	enum ntest_col col;
} col_names[] = {
	{ "size", NTEST_C_SIZE },    { "count", NTEST_C_COUNT },
	{ "type", NTEST_C_TYPE },    { "redop", NTEST_C_REDOP },
	{ "root", NTEST_C_ROOT },    { "time", NTEST_C_TIME },
	{ "cputime", NTEST_C_TIME }, { "algbw", NTEST_C_ALGBW },
	{ "busbw", NTEST_C_BUSBW },  { "#wrong", NTEST_C_WRONG },
	{ "error", NTEST_C_WRONG },
};

void ntest_init(struct ntest_out *o)
{
	memset(o, 0, sizeof(*o));
	nccl_log_init(&o->nccl);
}

/* Split s (modified) at white space into at most max tokens. */
static unsigned int split(char *s, char **tok, unsigned int max)
{
	unsigned int n = 0;
	char *save = NULL, *t;

	for (t = strtok_r(s, " \t\r\n", &save); t && n < max;
	     t = strtok_r(NULL, " \t\r\n", &save))
		tok[n++] = t;
	return n;
}

static enum ntest_col col_of(const char *name)
{
	for (size_t i = 0; i < sizeof(col_names) / sizeof(col_names[0]); i++)
		if (!strcmp(col_names[i].name, name))
			return col_names[i].col;
	return NTEST_C_OTHER;
}

/* "#  size  count  type ... busbw  #wrong ...": the columns and their ends. */
static void take_header(struct ntest_out *o, const char *line)
{
	const char *p = line + 1;
	unsigned int n = 0, times = 0;

	while (*p && n < NTEST_COLS) {
		size_t len;
		char name[32];

		p += strspn(p, " \t");
		len = strcspn(p, " \t\r\n");
		if (!len)
			break;
		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		o->col[n] = (unsigned char)col_of(name);
		times += o->col[n] == NTEST_C_TIME;
		o->place[n] = times > 1 ? NTEST_IP : NTEST_OOP;
		o->col_end[n] = (unsigned int)(p + len - line);
		p += len;
		n++;
	}
	o->ncol = n;
}

static bool is_header(const char *line)
{
	return line[0] == '#' && strstr(line, " size ") &&
	       strstr(line, " busbw ");
}

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

static double num(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	return end == s ? -1 : v;
}

/* One cell of a row, by its column's kind and place. */
static void take_cell(struct ntest_row *r, enum ntest_col c,
		      enum ntest_place pl, const char *t)
{
	struct ntest_half *h = &r->h[pl];

	switch (c) {
	case NTEST_C_SIZE:
		r->size = strtoull(t, NULL, 10);
		break;
	case NTEST_C_COUNT:
		r->count = strtoull(t, NULL, 10);
		break;
	case NTEST_C_TYPE:
		snprintf(r->type, sizeof(r->type), "%s", t);
		break;
	case NTEST_C_REDOP:
		snprintf(r->redop, sizeof(r->redop), "%s", t);
		break;
	case NTEST_C_ROOT:
		r->root = strtol(t, NULL, 10);
		break;
	case NTEST_C_TIME:
		h->time_us = num(t), h->have = true;
		break;
	case NTEST_C_ALGBW:
		h->algbw = num(t);
		break;
	case NTEST_C_BUSBW:
		h->busbw = num(t);
		break;
	case NTEST_C_WRONG:
		h->wrong = strcmp(t, "N/A") ? num(t) : -1;
		break;
	default:
		break;
	}
}

/* The first column of the in-place half, or ncol. */
static unsigned int ip_first(const struct ntest_out *o)
{
	unsigned int i;

	for (i = 0; i < o->ncol && o->place[i] != NTEST_IP; i++)
		;
	return i;
}

/*
 * A data row: every column, or (the in-place-only rows of trace replay)
 * the five first and the in-place half. False when it is none.
 */
static bool take_row(struct ntest_out *o, char *text)
{
	char *tok[NTEST_TOKS];
	unsigned int n = split(text, tok, NTEST_TOKS), ip = ip_first(o);
	unsigned int last_ip = ip, skip = 0, i;
	struct ntest_row r = { 0 };

	for (i = ip; i < o->ncol; i++)
		if (o->col[i] != NTEST_C_OTHER)
			last_ip = i;
	if (!o->ncol || n < 5 || !all_digits(tok[0]) || !all_digits(tok[1]))
		return false;
	if (n <= last_ip)
		skip = ip - 5; /* the out-of-place half left blank */
	if (n + skip <= last_ip)
		return false;
	for (i = 0; i < o->ncol && i - (i >= ip ? skip : 0) < n; i++) {
		if (i >= 5 && i < ip && skip)
			continue;
		take_cell(&r, (enum ntest_col)o->col[i],
			  (enum ntest_place)o->place[i],
			  tok[i - (i >= ip ? skip : 0)]);
	}
	if (o->nrows < NTEST_ROWS_MAX)
		o->rows[o->nrows++] = r;
	else
		o->dropped++;
	return true;
}

/* Where a line's "host:pid:tid [dev] NCCL ..." starts, or -1. */
static long nccl_start(const char *line)
{
	const char *m = strstr(line, "] NCCL ");
	const char *b;

	if (!m)
		return -1;
	for (b = m; b > line && *b != '['; b--)
		;
	if (b == line || b[-1] != ' ')
		return -1;
	b--;
	while (b > line && !isspace((unsigned char)b[-1]))
		b--;
	return b - line;
}

static bool blank(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s))
		s++, len--;
	return !len;
}

/*
 * A table piece glued to the host name ("      -1vm:829:829 [0] NCCL"):
 * the piece ends at a column's end from the header, before the name's
 * first ':'; else the piece is what comes before the token.
 */
static size_t piece_end(const struct ntest_out *o, const char *line, size_t tok)
{
	const char *colon = strchr(line + tok, ':');
	size_t c = colon ? (size_t)(colon - line) : tok;

	if (blank(line, tok)) /* a line of NCCL's own, not a row's end */
		return tok;
	for (unsigned int i = 0; i < o->ncol; i++)
		if (o->col_end[i] > tok && o->col_end[i] < c)
			return o->col_end[i];
	return tok;
}

static void pend(struct ntest_out *o, const char *piece, size_t len)
{
	size_t have = strlen(o->pending);

	if (have + len + 2 < sizeof(o->pending))
		snprintf(o->pending + have, sizeof(o->pending) - have, " %.*s",
			 (int)len, piece);
}

/* A row split by NCCL's lines: its pieces, then the rest of it. */
static void take_nccl(struct ntest_out *o, const char *line, long at)
{
	size_t end = piece_end(o, line, (size_t)at);

	if (!blank(line, end) && o->ncol)
		pend(o, line, end);
	nccl_log_line(&o->nccl, line + end);
}

static void take_summary(struct ntest_out *o, const char *line)
{
	const char *v = strchr(line, ':');
	const char *t;

	if (strstr(line, "# Out of bounds values") == line && v)
		o->have_oob = true, o->oob = strtol(v + 1, NULL, 10);
	else if (strstr(line, "# Avg bus bandwidth") == line && v)
		o->have_avg = true, o->avg_busbw = strtod(v + 1, NULL);
	else if ((t = strstr(line, "# nccl-tests version ")) == line)
		sscanf(t + 21, "%63s", o->version);
	else if ((t = strstr(line, "# Collective test starting: ")) == line)
		sscanf(t + 28, "%63s", o->test);
	else if ((t = strstr(line, "# Collective test concluded: ")) == line)
		o->concluded = true, sscanf(t + 29, "%63s", o->test);
	else if (strstr(line, "#  Rank ") == line)
		o->ranks++;
	else if ((t = strstr(line, " nGpus ")))
		o->ngpus = (unsigned int)strtoul(t + 7, NULL, 10);
}

/* A line of the table or after it: joined with a pending piece. */
static void take_text(struct ntest_out *o, const char *line)
{
	char buf[NTEST_LINE * 2];

	if (o->pending[0]) {
		snprintf(buf, sizeof(buf), "%s %s", o->pending, line);
		o->pending[0] = '\0';
		if (take_row(o, buf))
			return;
	}
	snprintf(buf, sizeof(buf), "%s", line);
	if (!take_row(o, buf) && o->ncol &&
	    isdigit((unsigned char)line[strspn(line, " ")]))
		o->dropped++;
}

void ntest_line(struct ntest_out *o, const char *line)
{
	long at = nccl_start(line);

	if (at >= 0) {
		take_nccl(o, line, at);
		return;
	}
	nccl_log_line(&o->nccl, line);
	if (is_header(line))
		take_header(o, line);
	else if (line[0] == '#')
		take_summary(o, line);
	else
		take_text(o, line);
}

void ntest_end(struct ntest_out *o)
{
	char buf[NTEST_LINE];

	if (!o->pending[0])
		return;
	snprintf(buf, sizeof(buf), "%s", o->pending);
	o->pending[0] = '\0';
	if (!take_row(o, buf))
		o->dropped++;
}

int ntest_read(struct ntest_out *o, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	int err;

	while (getline(&line, &cap, f) >= 0)
		ntest_line(o, line);
	err = ferror(f) ? -EIO : 0;
	free(line);
	ntest_end(o);
	return err;
}
