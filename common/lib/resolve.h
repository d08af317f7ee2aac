/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * resolve - a name look-up with a deadline. getaddrinfo(3) may wait 5 s
 * per DNS try and retry; every look-up of a peer's name goes through here
 * instead, so a dead resolver costs at most RESOLVE_MS. Pure: libc only.
 */
#ifndef RDMABENCH_LIB_RESOLVE_H
#define RDMABENCH_LIB_RESOLVE_H

#include <netdb.h>
#include <stdbool.h>

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

/*
 * May a look-up of host that failed with eai (an EAI_* code) succeed if
 * tried again later? Yes for a name with no record yet (EAI_NONAME,
 * EAI_NODATA: a Kubernetes Service's name resolves only once its pod is
 * ready) and for a resolver that did not answer (EAI_AGAIN, EAI_FAIL);
 * never for an IP literal (digits and dots, or a ':'), which no DNS
 * record changes, nor for any other code. Pure.
 */
bool resolve_retryable(const char *host, int eai);

#endif
