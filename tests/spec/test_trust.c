// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/spec/trust.c: a client's data GID must be its control
 * connection's address (IPv4 as ::ffff:a.b.c.d, IPv6 as itself), the
 * refusal names both and the flag, and QP0/QP1 are never a client's;
 * the client holds the server's data GID to the address it reached.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#include "spec/trust.h"
#include "tests/test.h"

static void gid_of(const char *text, uint8_t gid[TRUST_GID_BYTES])
{
	EXPECT_EQ_INT(inet_pton(AF_INET6, text, gid), 1);
}

static void test_v4(void)
{
	struct sockaddr_in in = { .sin_family = AF_INET };
	uint8_t gid[TRUST_GID_BYTES];
	char why[300];

	inet_pton(AF_INET, "10.0.0.5", &in.sin_addr);
	gid_of("::ffff:10.0.0.5", gid);
	EXPECT_EQ_INT(trust_check_gid((struct sockaddr *)&in, gid, why,
				      sizeof(why)), 0);
	gid_of("::ffff:10.0.0.9", gid);
	EXPECT_EQ_INT(trust_check_gid((struct sockaddr *)&in, gid, why,
				      sizeof(why)), -EPERM);
	EXPECT_TRUE(strstr(why, "::ffff:10.0.0.9") != NULL);
	EXPECT_TRUE(strstr(why, "::ffff:10.0.0.5") != NULL);
	EXPECT_TRUE(strstr(why, "--allow-foreign-gid") != NULL);
	/* a link-local (RoCEv1, IB-like) GID names no IP: refused */
	gid_of("fe80::5054:ff:fe12:3456", gid);
	EXPECT_EQ_INT(trust_check_gid((struct sockaddr *)&in, gid, why,
				      sizeof(why)), -EPERM);
}

/* The client's side: the server's data GID against the address reached;
 * the refusal names both and the client's flag. */
static void test_server_gid(void)
{
	struct sockaddr_in in = { .sin_family = AF_INET };
	uint8_t gid[TRUST_GID_BYTES];
	char why[300];

	inet_pton(AF_INET, "10.0.0.1", &in.sin_addr);
	gid_of("::ffff:10.0.0.1", gid);
	EXPECT_EQ_INT(trust_check_server_gid((struct sockaddr *)&in, gid, why,
					     sizeof(why)), 0);
	gid_of("::ffff:10.77.0.2", gid);
	EXPECT_EQ_INT(trust_check_server_gid((struct sockaddr *)&in, gid, why,
					     sizeof(why)), -EPERM);
	EXPECT_TRUE(strstr(why, "the server's data GID ::ffff:10.77.0.2 is "
			   "not the address this client reached, "
			   "::ffff:10.0.0.1") != NULL);
	EXPECT_TRUE(strstr(why, "a client with --allow-foreign-gid") != NULL);
}

static void test_v6(void)
{
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6 };
	uint8_t gid[TRUST_GID_BYTES];
	char why[300];

	inet_pton(AF_INET6, "fd00::7", &in6.sin6_addr);
	gid_of("fd00::7", gid);
	EXPECT_EQ_INT(trust_check_gid((struct sockaddr *)&in6, gid, why,
				      sizeof(why)), 0);
	/* a dual-stack socket's IPv4-mapped peer is the same GID */
	inet_pton(AF_INET6, "::ffff:192.0.2.1", &in6.sin6_addr);
	gid_of("::ffff:192.0.2.1", gid);
	EXPECT_EQ_INT(trust_check_gid((struct sockaddr *)&in6, gid, why,
				      sizeof(why)), 0);
	gid_of("::ffff:192.0.2.2", gid);
	EXPECT_EQ_INT(trust_check_gid((struct sockaddr *)&in6, gid, why,
				      sizeof(why)), -EPERM);
}

static void test_other_family(void)
{
	struct sockaddr sa = { .sa_family = AF_UNIX };
	uint8_t gid[TRUST_GID_BYTES] = { 0 };
	char why[300];

	EXPECT_EQ_INT(trust_gid_of_addr(&sa, gid), -EAFNOSUPPORT);
	EXPECT_EQ_INT(trust_check_gid(&sa, gid, why, sizeof(why)), -EPERM);
	EXPECT_TRUE(strstr(why, "not an IP address") != NULL);
}

static void test_qpn(void)
{
	char why[200];

	EXPECT_EQ_INT(trust_check_qpn(0x11, why, sizeof(why)), 0);
	EXPECT_EQ_INT(trust_check_qpn(0xffffff, why, sizeof(why)), 0);
	EXPECT_EQ_INT(trust_check_qpn(0, why, sizeof(why)), -EPERM);
	EXPECT_EQ_INT(trust_check_qpn(1, why, sizeof(why)), -EPERM);
	EXPECT_EQ_INT(trust_check_qpn(0x1000000, why, sizeof(why)), -EPERM);
	EXPECT_TRUE(strstr(why, "0x1000000") != NULL);
}

static void test_bind(void)
{
	struct sockaddr_storage sa;
	socklen_t len;
	char why[200];

	EXPECT_EQ_INT(trust_bind_addr("", 1, &sa, &len, why, sizeof(why)), 0);
	EXPECT_EQ_INT((int)len, 0);
	EXPECT_EQ_INT(trust_bind_addr("10.0.0.5", 18515, &sa, &len, why,
				      sizeof(why)), 0);
	EXPECT_EQ_INT(sa.ss_family, AF_INET);
	EXPECT_EQ_INT(ntohs(((struct sockaddr_in *)&sa)->sin_port), 18515);
	EXPECT_EQ_INT(trust_bind_addr("[fd00::1]", 1, &sa, &len, why,
				      sizeof(why)), 0);
	EXPECT_EQ_INT(sa.ss_family, AF_INET6);
	EXPECT_EQ_INT(trust_bind_addr("fd00::1", 1, &sa, &len, why,
				      sizeof(why)), 0);
	EXPECT_EQ_INT(trust_bind_addr("server.example", 1, &sa, &len, why,
				      sizeof(why)), -EINVAL);
	EXPECT_TRUE(strstr(why, "--bind server.example") != NULL);
}

int main(void)
{
	test_bind();
	test_v4();
	test_v6();
	test_server_gid();
	test_other_family();
	test_qpn();
	return test_finish("trust");
}
