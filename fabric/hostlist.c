// SPDX-License-Identifier: BSD-2-Clause
/* hostlist - hostname ranges and hosts files (see hostlist.h). */
#include "fabric/hostlist.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"

#define RANGE_MAX 1000000UL /* a bound of one range */

static int add_host(struct hostlist *hl, const char *name, size_t len,
		    const char *addr)
{
	struct hostlist_host *h;

	if (!len) {
		bench_err(
			"hosts: an empty node name (two commas, or a comma at the end?)");
		return -EINVAL;
	}
	if (len >= HOSTLIST_NAME_LEN || strlen(addr) >= HOSTLIST_NAME_LEN) {
		bench_err("hosts: '%.*s' is longer than %d characters",
			  (int)len, name, HOSTLIST_NAME_LEN - 1);
		return -ENAMETOOLONG;
	}
	for (unsigned int i = 0; i < hl->n; i++) {
		if (strlen(hl->h[i].name) == len &&
		    !memcmp(hl->h[i].name, name, len)) {
			bench_err(
				"hosts: node '%.*s' is listed twice: list each node once",
				(int)len, name);
			return -EINVAL;
		}
	}
	if (hl->n == HOSTLIST_MAX) {
		bench_err("hosts: more than %d nodes", HOSTLIST_MAX);
		return -E2BIG;
	}
	if (hl->n == hl->cap) {
		unsigned int cap = hl->cap ? 2 * hl->cap : 16;

		h = realloc(hl->h, cap * sizeof(*h));
		if (!h)
			return -ENOMEM;
		hl->h = h;
		hl->cap = cap;
	}
	h = &hl->h[hl->n++];
	memcpy(h->name, name, len);
	h->name[len] = '\0';
	strcpy(h->addr, addr);
	return 0;
}

/* One bound of a range: digits, their count in *width. */
static int read_bound(const char **p, unsigned long *v, int *width)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	*v = strtoul(*p, &end, 10);
	*width = (int)(end - *p);
	*p = end;
	return *v > RANGE_MAX ? -ERANGE : 0;
}

static int expand(struct hostlist *hl, const char *item, size_t len,
		  const char *addr);

/* item = head '[' list ']' tail: each value of list replaces the group. */
static int expand_group(struct hostlist *hl, const char *item, size_t len,
			const char *open, const char *addr)
{
	const char *close = memchr(open, ']', len - (size_t)(open - item));
	const char *p = open + 1;
	size_t head = (size_t)(open - item), tail;
	char buf[2 * HOSTLIST_NAME_LEN];
	unsigned long lo, hi;
	int w, wh, err;

	if (!close || close == p)
		goto bad;
	tail = len - (size_t)(close + 1 - item);
	while (p < close) {
		if (read_bound(&p, &lo, &w))
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			if (read_bound(&p, &hi, &wh) || hi < lo)
				goto bad;
		}
		if (*p != ',' && p != close)
			goto bad;
		p += *p == ',';
		for (unsigned long v = lo; v <= hi; v++) {
			int n = snprintf(buf, sizeof(buf), "%.*s%0*lu%.*s",
					 (int)head, item, w, v, (int)tail,
					 close + 1);

			if (n < 0 || (size_t)n >= sizeof(buf))
				return add_host(hl, buf, sizeof(buf), addr);
			err = expand(hl, buf, (size_t)n, addr);
			if (err)
				return err;
		}
	}
	return 0;
bad:
	bench_err(
		"hosts: '%.*s': a range is [N-M,K,...] with N <= M, e.g. node-[01-16]",
		(int)len, item);
	return -EINVAL;
}

static int expand(struct hostlist *hl, const char *item, size_t len,
		  const char *addr)
{
	const char *open = memchr(item, '[', len);

	if (!open) {
		if (memchr(item, ']', len)) {
			bench_err("hosts: '%.*s' has a ']' without its '['",
				  (int)len, item);
			return -EINVAL;
		}
		return add_host(hl, item, len, addr);
	}
	return expand_group(hl, item, len, open, addr);
}

static int parse_with_addr(struct hostlist *hl, const char *spec,
			   const char *addr)
{
	const char *p = spec, *start = spec;
	int depth = 0, err;

	for (;; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']')
			depth--;
		if ((*p == ',' && depth == 0) || !*p) {
			err = expand(hl, start, (size_t)(p - start), addr);
			if (err)
				return err;
			if (!*p)
				return 0;
			start = p + 1;
		}
	}
}

int hostlist_parse(struct hostlist *hl, const char *spec)
{
	return parse_with_addr(hl, spec, "");
}

/* One line of a hosts file: "NAME [ADDRESS]", '#' comments. */
static int parse_line(struct hostlist *hl, char *line, const char *path,
		      unsigned int lineno)
{
	char *name, *addr, *extra, *save;
	int err;

	line[strcspn(line, "#\r\n")] = '\0';
	name = strtok_r(line, " \t", &save);
	if (!name)
		return 0;
	addr = strtok_r(NULL, " \t", &save);
	extra = strtok_r(NULL, " \t", &save);
	if (extra || (addr && strchr(name, '['))) {
		bench_err(
			"%s:%u: want \"NAME [ADDRESS]\" (a range takes no address)",
			path, lineno);
		return -EINVAL;
	}
	err = parse_with_addr(hl, name, addr ? addr : "");
	if (err)
		bench_err("%s:%u: the line above", path, lineno);
	return err;
}

int hostlist_read_file(struct hostlist *hl, const char *path)
{
	char line[1024];
	unsigned int lineno = 0;
	FILE *f = fopen(path, "r");
	int err = 0;

	if (!f) {
		err = -errno;
		bench_err("hosts file %s: %s", path, strerror(-err));
		return err;
	}
	while (!err && fgets(line, sizeof(line), f))
		err = parse_line(hl, line, path, ++lineno);
	fclose(f);
	return err;
}

/* a and b equal, or equal up to the first '.' of the longer one */
static int same_host(const char *a, const char *b)
{
	size_t la = strcspn(a, "."), lb = strcspn(b, ".");

	if (!strcmp(a, b))
		return 1;
	return (la == strlen(a) || lb == strlen(b)) && la == lb &&
	       !memcmp(a, b, la);
}

int hostlist_find(const struct hostlist *hl, const char *name)
{
	for (unsigned int i = 0; i < hl->n; i++)
		if (same_host(hl->h[i].name, name))
			return (int)i;
	return -ENOENT;
}

const char *hostlist_addr(const struct hostlist *hl, unsigned int i)
{
	return hl->h[i].addr[0] ? hl->h[i].addr : hl->h[i].name;
}

void hostlist_free(struct hostlist *hl)
{
	free(hl->h);
	hl->h = NULL;
	hl->n = hl->cap = 0;
}
