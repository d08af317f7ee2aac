// SPDX-License-Identifier: BSD-2-Clause
/* linkcmd - each side's command line (see linkcmd.h). */
#include "fabric/linkcmd.h"

#include <errno.h>
#include <string.h>

#include "lib/log.h"

int linkcmd_file(char *buf, size_t len, const struct hostlist *hl,
		 const struct plan_link *l)
{
	int n = snprintf(buf, len, "link_r%03u_%s_%s_s%u.json", l->round,
			 hl->h[l->client].name, hl->h[l->server].name,
			 l->stream);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int client_json(struct linkcmd *c, const struct linkcmd_ctx *x,
		       const struct plan_link *l)
{
	char name[HOSTLIST_NAME_LEN * 2 + 32];
	int n;

	if (linkcmd_file(name, sizeof(name), x->hosts, l))
		return -ENAMETOOLONG;
	n = snprintf(c->json, sizeof(c->json), "%s/%s", x->out_dir, name);
	if (n < 0 || (size_t)n >= sizeof(c->json)) {
		bench_err("--out %s: the path is too long", x->out_dir);
		return -ENAMETOOLONG;
	}
	return 0;
}

int linkcmd_check(const struct linkcmd_ctx *x)
{
	if (x->nargs <= LINKCMD_ARGS_MAX)
		return 0;
	bench_err("%u tool arguments after --: at most %d", x->nargs,
		  LINKCMD_ARGS_MAX);
	return -E2BIG;
}

int linkcmd_build(struct linkcmd *c, const struct linkcmd_ctx *x,
		  const struct plan_link *l, bool server)
{
	unsigned int k = 0;
	int err = linkcmd_check(x);

	if (err)
		return err;
	snprintf(c->port, sizeof(c->port), "%u", l->port);
	snprintf(c->timeout, sizeof(c->timeout), "%u", x->connect_timeout_s);
	c->argv[k++] = x->tool;
	c->argv[k++] = "-p";
	c->argv[k++] = c->port;
	if (!server) {
		err = client_json(c, x, l);
		if (err)
			return err;
		c->argv[k++] = "--connect-timeout";
		c->argv[k++] = c->timeout;
		c->argv[k++] = "--json";
		c->argv[k++] = c->json;
	}
	for (unsigned int i = 0; i < x->nargs; i++)
		c->argv[k++] = x->args[i];
	if (!server)
		c->argv[k++] = hostlist_addr(x->hosts, l->server);
	c->argv[k] = NULL;
	c->argc = k;
	return 0;
}

/* Characters a shell takes literally. */
static bool plain(const char *s)
{
	return *s &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789_./:=,@%+-") == strlen(s);
}

void linkcmd_print(FILE *f, const char *const *argv)
{
	for (unsigned int i = 0; argv[i]; i++) {
		const char *s = argv[i];

		fputs(i ? " " : "", f);
		if (plain(s)) {
			fputs(s, f);
			continue;
		}
		fputc('\'', f);
		for (; *s; s++)
			fputs(*s == '\'' ? "'\\''" : (char[2]){ *s, 0 }, f);
		fputc('\'', f);
	}
}
