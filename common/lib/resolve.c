// SPDX-License-Identifier: BSD-2-Clause
/*
 * resolve.c - getaddrinfo with a deadline, through getaddrinfo_a(3)
 * (in libc itself since glibc 2.34).
 */
#define _GNU_SOURCE /* getaddrinfo_a */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/resolve.h"

/* What one look-up needs, alive as long as the look-up runs. */
struct resolve_req {
	struct gaicb cb;
	struct addrinfo hints;
	char host[256];
	char service[32];
};

int resolve_addr(const char *host, const char *service,
		 const struct addrinfo *hints, struct addrinfo **res)
{
	struct timespec ts = { RESOLVE_MS / 1000,
			       (RESOLVE_MS % 1000) * 1000000L };
	struct resolve_req *q = calloc(1, sizeof(*q));
	struct gaicb *list[1];
	int ret;

	*res = NULL;
	if (!q)
		return EAI_MEMORY;
	snprintf(q->host, sizeof(q->host), "%s", host);
	snprintf(q->service, sizeof(q->service), "%s", service ? service : "");
	q->hints = *hints;
	q->cb = (struct gaicb){ .ar_name = q->host,
				.ar_service = service ? q->service : NULL,
				.ar_request = &q->hints };
	list[0] = &q->cb;
	ret = getaddrinfo_a(GAI_NOWAIT, list, 1, NULL);
	if (!ret) {
		gai_suspend((const struct gaicb *const *)list, 1, &ts);
		ret = gai_error(&q->cb);
	}
	if (ret == EAI_INPROGRESS && gai_cancel(&q->cb) == EAI_NOTCANCELED)
		return EAI_AGAIN; /* q stays: see resolve.h */
	if (ret == EAI_INPROGRESS || ret == EAI_CANCELED)
		ret = EAI_AGAIN;
	*res = ret ? NULL : q->cb.ar_result;
	free(q);
	return ret;
}

/* An IPv4 literal in any inet_aton form, or an IPv6 one (it has a ':'):
 * no top-level domain is all digits (RFC 1123), so no name looks so. */
static bool resolve_is_literal(const char *host)
{
	return strchr(host, ':') || strspn(host, "0123456789.") == strlen(host);
}

bool resolve_retryable(const char *host, int eai)
{
	if (!host || !host[0] || resolve_is_literal(host))
		return false;
	switch (eai) {
	case EAI_NONAME:
	case EAI_NODATA:
	case EAI_AGAIN:
	case EAI_FAIL:
		return true;
	default:
		return false;
	}
}
