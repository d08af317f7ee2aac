/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * linkcmd - the exact command each side of a link runs, and the file its
 * result goes to. The server: TOOL -p PORT ARGS...; the client:
 * TOOL -p PORT --connect-timeout SEC --json OUT/FILE ARGS... ADDRESS,
 * where ADDRESS is the server node's address (hostlist_addr) and FILE
 * "link_r<round>_<client>_<server>_s<stream>.json". ARGS (after "--" on
 * ib_fabric's command line) go to both sides, as with perftest. The
 * client retries until its server listens (--connect-timeout), so the
 * two need no other start order. Pure: builds strings, runs nothing.
 */
#ifndef RDMABENCH_FABRIC_LINKCMD_H
#define RDMABENCH_FABRIC_LINKCMD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "fabric/hostlist.h"
#include "fabric/plan.h"

#define LINKCMD_ARGS_MAX 64 /* tool arguments after "--" */

/* What every link of one run shares. */
struct linkcmd_ctx {
	const char *tool; /* the tool's path (or name, for PATH) */
	const char *out_dir; /* where clients write their --json */
	unsigned int connect_timeout_s;
	unsigned int nargs;
	char *const *args; /* the tool arguments */
	const struct hostlist *hosts;
};

struct linkcmd {
	char port[8], timeout[16];
	char json[PATH_MAX];
	const char *argv[LINKCMD_ARGS_MAX + 10]; /* NULL-terminated */
	unsigned int argc;
};

/* -E2BIG (logged) past LINKCMD_ARGS_MAX tool arguments. */
int linkcmd_check(const struct linkcmd_ctx *x);

/*
 * The argv of link's server (server true) or client side. -E2BIG (logged)
 * past LINKCMD_ARGS_MAX tool arguments, -ENAMETOOLONG for the path.
 * argv points into c, x->args and x->hosts: keep them while c is used.
 */
int linkcmd_build(struct linkcmd *c, const struct linkcmd_ctx *x,
		  const struct plan_link *l, bool server);

/* The result file's name (no folder) of link into buf. */
int linkcmd_file(char *buf, size_t len, const struct hostlist *hl,
		 const struct plan_link *l);

/* argv as one shell-quoted line (no newline), to f. */
void linkcmd_print(FILE *f, const char *const *argv);

#endif
