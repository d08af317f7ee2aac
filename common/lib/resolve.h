/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * resolve - a name look-up with a deadline. getaddrinfo(3) may wait 5 s
 * per DNS try and retry; every look-up of a peer's name goes through here
 * instead, so a dead resolver costs at most RESOLVE_MS. Pure: libc only.
 */
#ifndef RDMABENCH_LIB_RESOLVE_H
#define RDMABENCH_LIB_RESOLVE_H

#include <netdb.h>

/* How long one look-up may take, in ms. */
#define RESOLVE_MS 1500
#define RESOLVE_TEXT "1.5 s" /* the same, for messages */

/*
 * getaddrinfo(host, service, hints) that answers within RESOLVE_MS.
 * Returns 0 with *res (free it with freeaddrinfo), or an EAI_* code:
 * EAI_AGAIN when no answer came in time. A look-up that cannot be
 * cancelled keeps its small request block, never freed: the resolver's
 * thread may still write into it.
 */
int resolve_addr(const char *host, const char *service,
		 const struct addrinfo *hints, struct addrinfo **res);

#endif
