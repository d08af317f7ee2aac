// SPDX-License-Identifier: BSD-2-Clause
/*
 * results_push - a results document to a Pushgateway and to a textfile
 * collector's directory (see results_push.h). The payload is the one
 * Prometheus rendering, results_prom_write(), into memory.
 */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/http.h"
#include "report/results_prom.h"
#include "report/results_push.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PUSH_CTYPE "text/plain; version=0.0.4; charset=utf-8"

/* The keys a fleet groups by, in the order of the path. */
struct push_key {
	const char *name;
	char value[RESULTS_NAME_LEN];
};

static void push_keys(const struct results_doc *d, struct push_key k[5])
{
	static const char *const names[] = { "instance", "test", "role",
					     "device", "peer" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		k[i].name = names[i];
	results_copy(k[0].value, sizeof(k[0].value), d->host);
	results_copy(k[1].value, sizeof(k[1].value), d->tool);
	results_copy(k[2].value, sizeof(k[2].value),
		     results_role_name(d->role));
	results_copy(k[3].value, sizeof(k[3].value), d->device.name);
	results_peer_host(k[4].value, sizeof(k[4].value),
			       d->device.peer_addr);
}

static bool push_plain(const char *s)
{
	return s[0] && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
			      "qrstuvwxyz0123456789._-") == strlen(s);
}

/* RFC 4648's URL-safe alphabet, padded, as the Pushgateway decodes it */
static void push_base64(char *dst, const char *src)
{
	static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrs"
				"tuvwxyz0123456789-_";
	const unsigned char *s = (const unsigned char *)src;
	size_t n = strlen(src), i, o = 0;
	unsigned long v;

	for (i = 0; i < n; i += 3) {
		v = (unsigned long)s[i] << 16 |
		    (i + 1 < n ? (unsigned long)s[i + 1] << 8 : 0) |
		    (i + 2 < n ? s[i + 2] : 0);
		dst[o++] = a[v >> 18 & 63];
		dst[o++] = a[v >> 12 & 63];
		dst[o++] = i + 1 < n ? a[v >> 6 & 63] : '=';
		dst[o++] = i + 2 < n ? a[v & 63] : '=';
	}
	dst[o] = '\0';
}

/* "/name/value" or "/name@base64/..." appended; empty values left out */
static int push_append(char *out, size_t len, const struct push_key *k)
{
	char enc[RESULTS_NAME_LEN * 4 / 3 + 8];
	size_t used = strlen(out);
	bool plain = push_plain(k->value);

	if (!k->value[0])
		return 0;
	if (!plain)
		push_base64(enc, k->value);
	if ((size_t)snprintf(out + used, len - used, "/%s%s/%s", k->name,
			     plain ? "" : "@base64",
			     plain ? k->value : enc) >= len - used)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * Does the operator's path (".../metrics/job/J/K/V/...") name key already?
 * Then its value wins: /instance/$(NODE_NAME) in a pod's URL names the
 * node where the pod's hostname would.
 */
static bool push_has_key(const char *base, const char *name)
{
	const char *p = strstr(base, "/metrics/job/");
	size_t n = strlen(name), seg;

	if (!p)
		return false;
	p += strlen("/metrics/job/");
	p += strcspn(p, "/");			/* the job's value */
	while (*p == '/') {
		seg = strcspn(++p, "/");
		if (!strncmp(p, name, n) && (seg == n ||
		    (seg == n + 7 && !strncmp(p + n, "@base64", 7))))
			return true;
		p += seg;
		p += *p == '/' ? strcspn(p + 1, "/") + 1 : 0; /* its value */
	}
	return false;
}

int results_push_path(const struct results_doc *d, const char *base,
		      char *out, size_t len)
{
	struct push_key k[5];
	size_t n = strlen(base), i;
	int ret = 0;

	while (n && base[n - 1] == '/')
		n--;
	if ((size_t)snprintf(out, len, "%.*s%s", (int)n, base,
			     strstr(base, "/metrics/job/") ? "" :
			     "/metrics/job/" RESULTS_PUSH_JOB) >= len)
		return -ENAMETOOLONG;
	push_keys(d, k);
	for (i = 0; i < ARRAY_SIZE(k) && !ret; i++)
		if (!push_has_key(base, k[i].name))
			ret = push_append(out, len, &k[i]);
	return ret;
}

/* d's Prometheus text in a malloc'd buffer (free it), or NULL */
static char *push_render(const struct results_doc *d, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	int ret;

	if (!f)
		return NULL;
	ret = results_prom_write(d, f);
	if (fclose(f) || ret) {
		free(buf);
		return NULL;
	}
	return buf;
}

int results_push(const struct results_doc *d, const char *url, char *why,
		 size_t why_len)
{
	char path[HTTP_PATH_LEN];
	struct http_url u;
	size_t len = 0;
	char *body;
	int ret = http_url_parse(url, &u, why, why_len);

	if (ret)
		return ret;
	if (results_push_path(d, u.path, path, sizeof(path))) {
		snprintf(why, why_len, "the grouping path is longer than %d "
			 "bytes: shorten the URL's path", HTTP_PATH_LEN - 1);
		return -ENAMETOOLONG;
	}
	u.path[0] = '\0';
	body = push_render(d, &len);
	if (!body) {
		snprintf(why, why_len, "the document could not be rendered");
		return -EINVAL;
	}
	ret = http_put(&u, path, PUSH_CTYPE, body, len, HTTP_TIMEOUT_MS, why,
		       why_len);
	free(body);
	return ret;
}

static void push_file_part(char *dst, size_t len, const char *s)
{
	size_t i;

	snprintf(dst, len, "%s", s[0] ? s : "none");
	for (i = 0; dst[i]; i++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvw"
			    "xyz0123456789.-", dst[i]))
			dst[i] = '_';
}

int results_textfile_path(const struct results_doc *d, const char *dir,
			  char *out, size_t len)
{
	char part[5][RESULTS_NAME_LEN];
	struct push_key k[5];
	size_t i, n = strlen(dir);

	push_keys(d, k);
	for (i = 1; i < ARRAY_SIZE(k); i++)
		push_file_part(part[i], sizeof(part[i]), k[i].value);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if ((size_t)snprintf(out, len, "%.*s/rdmabench_%s_%s_%s_%s.prom",
			     (int)n, dir, part[1], part[2], part[3],
			     part[4]) >= len)
		return -ENAMETOOLONG;
	return 0;
}
