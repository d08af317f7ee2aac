// SPDX-License-Identifier: BSD-2-Clause
/*
 * trust - a client's data GID against its control connection's address,
 * and the QP numbers a client may name. See trust.h.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "spec/trust.h"

/* The largest QP number: QPNs are 24 bits. */
#define TRUST_QPN_MAX 0xffffffu

int trust_gid_of_addr(const struct sockaddr *sa, uint8_t gid[TRUST_GID_BYTES])
{
	static const uint8_t v4_prefix[12] = { [10] = 0xff, [11] = 0xff };

	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;

		memcpy(gid, v4_prefix, sizeof(v4_prefix));
		memcpy(gid + sizeof(v4_prefix), &in->sin_addr, 4);
		return 0;
	}
	if (sa->sa_family == AF_INET6) {
		memcpy(gid, &((const struct sockaddr_in6 *)sa)->sin6_addr,
		       TRUST_GID_BYTES);
		return 0;
	}
	return -EAFNOSUPPORT;
}

const char *trust_gid_str(const uint8_t gid[TRUST_GID_BYTES], char *buf,
			  size_t len)
{
	if (!inet_ntop(AF_INET6, gid, buf, (socklen_t)len))
		snprintf(buf, len, "(GID)");
	return buf;
}

/* Is gid the address sa? 0; else -EPERM, both as text in named, own. */
static int trust_gid_is(const struct sockaddr *sa,
			const uint8_t gid[TRUST_GID_BYTES],
			char named[TRUST_GID_STR], char own[TRUST_GID_STR])
{
	uint8_t mine[TRUST_GID_BYTES];

	if (!trust_gid_of_addr(sa, mine) && !memcmp(mine, gid, TRUST_GID_BYTES))
		return 0;
	if (trust_gid_of_addr(sa, mine))
		snprintf(own, TRUST_GID_STR, "(not an IP address)");
	else
		trust_gid_str(mine, own, TRUST_GID_STR);
	trust_gid_str(gid, named, TRUST_GID_STR);
	return -EPERM;
}

int trust_check_gid(const struct sockaddr *ctrl_peer,
		    const uint8_t gid[TRUST_GID_BYTES], char *why, size_t len)
{
	char named[TRUST_GID_STR], own[TRUST_GID_STR];

	if (!trust_gid_is(ctrl_peer, gid, named, own))
		return 0;
	snprintf(why, len, "data GID %s is not the control connection's "
		 "address %s: the server would send to a host that did not "
		 "ask (a server with --allow-foreign-gid accepts it)",
		 named, own);
	return -EPERM;
}

int trust_check_server_gid(const struct sockaddr *reached,
			   const uint8_t gid[TRUST_GID_BYTES], char *why,
			   size_t len)
{
	char named[TRUST_GID_STR], own[TRUST_GID_STR];

	if (!trust_gid_is(reached, gid, named, own))
		return 0;
	snprintf(why, len, "the server's data GID %s is not the address "
		 "this client reached, %s: this client would send to another "
		 "host; refused (a client with --allow-foreign-gid accepts it)",
		 named, own);
	return -EPERM;
}

int trust_check_qpn(uint32_t qpn, char *why, size_t len)
{
	if (qpn > 1 && qpn <= TRUST_QPN_MAX)
		return 0;
	snprintf(why, len, "QP number 0x%x is not a client's QP (QP0/QP1 or "
		 "more than 24 bits); refused", qpn);
	return -EPERM;
}

int trust_bind_addr(const char *text, uint16_t port,
		    struct sockaddr_storage *sa, socklen_t *len, char *why,
		    size_t why_len)
{
	struct sockaddr_in *in = (struct sockaddr_in *)sa;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)sa;
	char host[TRUST_GID_STR + 2];
	size_t n = strlen(text);

	memset(sa, 0, sizeof(*sa));
	*len = 0;
	if (!n)
		return 0;
	if (text[0] == '[' && n > 2 && text[n - 1] == ']' &&
	    n - 2 < sizeof(host)) {
		memcpy(host, text + 1, n - 2);
		host[n - 2] = '\0';
	} else {
		snprintf(host, sizeof(host), "%s", n < sizeof(host) ? text : "");
	}
	if (inet_pton(AF_INET, host, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		in->sin_port = htons(port);
		*len = sizeof(*in);
		return 0;
	}
	if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		*len = sizeof(*in6);
		return 0;
	}
	snprintf(why, why_len, "--bind %.60s: not an IP address: give one of "
		 "this host's (ip -br addr), or leave --bind out for every "
		 "address", text);
	return -EINVAL;
}
