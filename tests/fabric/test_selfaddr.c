// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for fabric/selfaddr.c: ib_fabric's check, on each node, that
 * the address its peers will use is its RDMA interface's (issue 16: a
 * management hostname that routes over the wrong link is refused with the
 * fix, never silently used).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/hostlist.h"
#include "fabric/selfaddr.h"
#include "tests/test.h"

static char use[64];
static char use[64];
static char msg[SELFADDR_MSG_MAX];

#define EXPECT_MSG_HAS(needle)                                        \
	do {                                                          \
		bool has_ = strstr(msg, needle) != NULL;              \
		EXPECT_TRUE(has_);                                    \
		if (!has_)                                            \
			fprintf(stderr, "  message: \"%s\"\n", msg);  \
	} while (0)

static void test_rdma_address(void)
{
	struct hostlist hl = { 0 };
	struct selfaddr_facts f = { "192.168.1.3", true, false, "mlx5_0",
				    "mlx5_0 192.168.1.3" };

	EXPECT_EQ_INT(hostlist_parse(&hl, "node-[01-03]"), 0);
	EXPECT_EQ_INT(selfaddr_check(&hl, 2, &f, use, sizeof(use), msg, sizeof(msg)), 0);
	EXPECT_STREQ(msg, "node-03 (192.168.1.3) is on mlx5_0");
	hostlist_free(&hl);
}

/*
 * The management network: a name on eth0, no RDMA device owns it: its
 * peers are sent to its first RDMA address, found here. The same address
 * written in a hosts file is the user's choice: refused with the fix.
 */
static void test_management_name(void)
{
	struct hostlist hl = { 0 };
	struct selfaddr_facts f = { "10.0.0.3", true, false, "",
				    "mlx5_0 192.168.1.3, mlx5_1 192.168.2.3",
				    "192.168.1.3", "mlx5_0" };

	EXPECT_EQ_INT(hostlist_parse(&hl, "node-[01-03]"), 0);
	EXPECT_EQ_INT(selfaddr_check(&hl, 2, &f, use, sizeof(use), msg,
				     sizeof(msg)), 0);
	EXPECT_STREQ(use, "192.168.1.3");
	EXPECT_MSG_HAS("node-03 is 10.0.0.3, on an interface that no RDMA "
		       "device owns (a management network?): its peers reach "
		       "it at 192.168.1.3 (mlx5_0), found here");
	snprintf(hl.h[2].addr, sizeof(hl.h[2].addr), "10.0.0.3");
	EXPECT_EQ_INT(selfaddr_check(&hl, 2, &f, use, sizeof(use), msg,
				     sizeof(msg)), -EINVAL);
	EXPECT_MSG_HAS("'node-03 10.0.0.3', this node's entry in the host "
		       "list, is 10.0.0.3, on an interface that no RDMA "
		       "device owns");
	EXPECT_MSG_HAS("a line 'node-03 ADDRESS'; this node's: mlx5_0 "
		       "192.168.1.3, mlx5_1 192.168.2.3)");
	/* and with no RDMA address at all: how to give one */
	hl.h[2].addr[0] = '\0';
	f.rdma_ips = f.rdma_ip = "";
	EXPECT_EQ_INT(selfaddr_check(&hl, 2, &f, use, sizeof(use), msg,
				     sizeof(msg)), -EINVAL);
	EXPECT_MSG_HAS("no RDMA interface with an IPv4 address: give one");
	hostlist_free(&hl);
}

/* /etc/hosts's 127.0.1.1 for the host's own name: its RDMA address. */
static void test_loopback_name(void)
{
	struct hostlist hl = { 0 };
	struct selfaddr_facts lo = { "127.0.1.1", true, true, "",
				     "rxe0 198.18.0.1", "198.18.0.1", "rxe0" };

	EXPECT_EQ_INT(hostlist_parse(&hl, "a,b"), 0);
	EXPECT_EQ_INT(selfaddr_check(&hl, 0, &lo, use, sizeof(use), msg,
				     sizeof(msg)), 0);
	EXPECT_STREQ(use, "198.18.0.1");
	EXPECT_MSG_HAS("a is 127.0.1.1, a loopback address");
	hostlist_free(&hl);
}

/* /etc/hosts's 127.0.1.1, not local, not resolved. */
static void test_other_refusals(void)
{
	struct hostlist hl = { 0 };
	struct selfaddr_facts lo = { "127.0.1.1", true, true, "",
				     "rxe0 198.18.0.1" };
	struct selfaddr_facts far = { "192.168.1.4", false, false, "",
				      "rxe0 198.18.0.1" };
	struct selfaddr_facts none = { NULL, false, false, "", "" };

	EXPECT_EQ_INT(hostlist_parse(&hl, "a,b"), 0);
	EXPECT_EQ_INT(selfaddr_check(&hl, 0, &lo, use, sizeof(use), msg, sizeof(msg)), -EINVAL);
	EXPECT_MSG_HAS("a loopback address (/etc/hosts often maps");
	EXPECT_EQ_INT(selfaddr_check(&hl, 1, &far, use, sizeof(use), msg, sizeof(msg)),
		      -EINVAL);
	EXPECT_MSG_HAS("'b', this node's entry in the host list, is "
		       "192.168.1.4, which is not an address of this node");
	EXPECT_EQ_INT(selfaddr_check(&hl, 1, &none, use, sizeof(use), msg, sizeof(msg)),
		      -EINVAL);
	EXPECT_MSG_HAS("'b', this node's entry in the host list, does not "
		       "resolve here");
	hostlist_free(&hl);
}

/* Every node on one loopback address: a test on one machine, passed. */
static void test_one_machine(void)
{
	struct hostlist hl = { 0 };
	struct selfaddr_facts lo = { "127.0.0.1", true, true, "", "" };
	char path[] = "/tmp/test_selfaddr.XXXXXX";
	FILE *f;
	int fd;

	fd = mkstemp(path);
	EXPECT_TRUE(fd >= 0);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f)
		return;
	fputs("node-a 127.0.0.1\nnode-b 127.0.0.1\n", f);
	fclose(f);
	EXPECT_EQ_INT(hostlist_read_file(&hl, path), 0);
	EXPECT_EQ_INT(selfaddr_check(&hl, 1, &lo, use, sizeof(use), msg, sizeof(msg)), 0);
	EXPECT_STREQ(msg, "node-b 127.0.0.1 (127.0.0.1): every node on this "
		     "one machine");
	hostlist_free(&hl);
	/* two names on loopback are two machines' names: refused */
	EXPECT_EQ_INT(hostlist_parse(&hl, "localhost,node-b"), 0);
	EXPECT_EQ_INT(selfaddr_check(&hl, 0, &lo, use, sizeof(use), msg, sizeof(msg)), -EINVAL);
	hostlist_free(&hl);
	unlink(path);
}

int main(void)
{
	test_rdma_address();
	test_management_name();
	test_loopback_name();
	test_other_refusals();
	test_one_machine();
	return test_finish("test_selfaddr");
}
