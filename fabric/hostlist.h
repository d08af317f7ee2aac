/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hostlist - the nodes of a fabric, in order: a node's index is its rank.
 * Read from Slurm's compressed form ("node-[01-03,07],gpu7", several
 * bracket groups multiply: "r[1-2]n[1-2]"; zero padding is the lower
 * bound's width, as Slurm has it) or from a hosts file (one node a line,
 * "NAME [ADDRESS]", '#' starts a comment). ADDRESS, when given, is what
 * the node's peers connect to (its RDMA interface's IP); else the name.
 * Pure: no I/O beyond the hosts file. Errors are logged here, once, with
 * what was wrong and what to do; functions return 0 or a negative errno.
 */
#ifndef RDMABENCH_FABRIC_HOSTLIST_H
#define RDMABENCH_FABRIC_HOSTLIST_H

#include <stddef.h>

#define HOSTLIST_MAX 4096 /* nodes in one fabric */
#define HOSTLIST_NAME_LEN 128 /* a name or address, NUL included */

struct hostlist_host {
	char name[HOSTLIST_NAME_LEN];
	char addr[HOSTLIST_NAME_LEN]; /* "" = connect to the name */
};

struct hostlist {
	unsigned int n, cap;
	struct hostlist_host *h;
};

/*
 * Append the nodes of spec (commas at bracket depth 0 separate items).
 * -EINVAL on a bad range, an empty item or a node listed twice, -E2BIG
 * past HOSTLIST_MAX, -ENAMETOOLONG, -ENOMEM.
 */
int hostlist_parse(struct hostlist *hl, const char *spec);

/* Append the nodes of a hosts file (each NAME may itself be a range). */
int hostlist_read_file(struct hostlist *hl, const char *path);

/* The index of name (the whole name, or its part before the first '.',
 * on either side), or -ENOENT. */
int hostlist_find(const struct hostlist *hl, const char *name);

/* The address peers use for node i: its ADDRESS, else its name. */
const char *hostlist_addr(const struct hostlist *hl, unsigned int i);

void hostlist_free(struct hostlist *hl);

#endif
