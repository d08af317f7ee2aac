// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/lib/resolve.c: which failed look-ups a client waits
 * out (a name not resolving yet) and which it reports at once (an IP
 * literal that is no IP, a look-up that cannot work), and a numeric
 * look-up through the deadline (no DNS asked).
 */
#define _GNU_SOURCE /* EAI_NODATA */
#include <netdb.h>

#include "lib/resolve.h"
#include "tests/test.h"

static const struct {
	const char *host;
	int eai;
	bool retry;
} cases[] = {
	/* a name with no record yet, or no answer: wait for it */
	{ "rdmabench-server", EAI_NONAME, true },
	{ "rdmabench-server.ns.svc.cluster.local", EAI_NODATA, true },
	{ "ring-3.peers", EAI_AGAIN, true },
	{ "node7", EAI_FAIL, true },
	{ "10-0-0-1.example", EAI_NONAME, true }, /* a name, not an IP */
	{ "1.example", EAI_NONAME, true },
	/* what no later look-up changes: say it at once */
	{ "node7", EAI_SERVICE, false },
	{ "node7", EAI_FAMILY, false },
	{ "node7", EAI_SOCKTYPE, false },
	{ "node7", EAI_BADFLAGS, false },
	{ "node7", EAI_MEMORY, false },
	{ "node7", EAI_SYSTEM, false },
	{ "node7", 0, false },
	{ "10.0.0.300", EAI_NONAME, false }, /* an IPv4 typo */
	{ "192.168.1", EAI_NONAME, false },
	{ "fe80::1%nosuchif", EAI_NONAME, false }, /* an IPv6 one */
	{ "::zz", EAI_AGAIN, false },
	{ "", EAI_NONAME, false },
	{ NULL, EAI_NONAME, false },
};

static void test_retryable(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (resolve_retryable(cases[i].host, cases[i].eai) !=
		    cases[i].retry)
			fprintf(stderr, "case %zu: '%s' eai %d\n", i,
				cases[i].host ? cases[i].host : "(null)",
				cases[i].eai);
		EXPECT_TRUE(resolve_retryable(cases[i].host, cases[i].eai) ==
			    cases[i].retry);
	}
}

/* Numeric hosts only: a unit test asks no DNS server. */
static void test_numeric(void)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST },
			*res;

	EXPECT_EQ_INT(resolve_addr("127.0.0.1", "18515", &hints, &res), 0);
	EXPECT_TRUE(res && res->ai_family == AF_INET);
	if (res)
		freeaddrinfo(res);
	EXPECT_EQ_INT(resolve_addr("::1", NULL, &hints, &res), 0);
	EXPECT_TRUE(res && res->ai_family == AF_INET6);
	if (res)
		freeaddrinfo(res);
	EXPECT_EQ_INT(resolve_addr("10.0.0.300", NULL, &hints, &res),
		      EAI_NONAME);
	EXPECT_TRUE(!res);
}

int main(void)
{
	test_retryable();
	test_numeric();
	return test_finish("test_resolve");
}
