// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/fabric/selfaddr.c: ib_fabric's check, on each node, that
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
#include "test.h"

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
	EXPECT_EQ_INT(selfaddr_check(&hl, 2, &f, msg, sizeof(msg)), 0);
	EXPECT_STREQ(msg, "node-03 (192.168.1.3) is on mlx5_0");
	hostlist_free(&hl);
}

/* The management network: eth0's address, no RDMA device owns it. */
static void test_management_name(void)
{
	struct hostlist hl = { 0 };
	struct selfaddr_facts f = { "10.0.0.3", true, false, "",
				    "mlx5_0 192.168.1.3, mlx5_1 192.168.2.3" };

	EXPECT_EQ_INT(hostlist_parse(&hl, "node-[01-03]"), 0);
	EXPECT_EQ_INT(selfaddr_check(&hl, 2, &f, msg, sizeof(msg)),
		      -EINVAL);
	EXPECT_MSG_HAS("'node-03', this node's entry in the host list, is "
		       "10.0.0.3, on an interface that no RDMA device owns");
	EXPECT_MSG_HAS("a line 'node-03 ADDRESS'; this node's: mlx5_0 "
		       "192.168.1.3, mlx5_1 192.168.2.3)");
	/* and with no RDMA address at all: how to give one */
	f.rdma_ips = "";
	EXPECT_EQ_INT(selfaddr_check(&hl, 2, &f, msg, sizeof(msg)),
		      -EINVAL);
	EXPECT_MSG_HAS("no RDMA interface with an IPv4 address: give one");
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
	EXPECT_EQ_INT(selfaddr_check(&hl, 0, &lo, msg, sizeof(msg)), -EINVAL);
	EXPECT_MSG_HAS("a loopback address (/etc/hosts often maps");
	EXPECT_EQ_INT(selfaddr_check(&hl, 1, &far, msg, sizeof(msg)),
		      -EINVAL);
	EXPECT_MSG_HAS("'b', this node's entry in the host list, is "
		       "192.168.1.4, which is not an address of this node");
	EXPECT_EQ_INT(selfaddr_check(&hl, 1, &none, msg, sizeof(msg)),
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
	EXPECT_EQ_INT(selfaddr_check(&hl, 1, &lo, msg, sizeof(msg)), 0);
	EXPECT_STREQ(msg, "node-b 127.0.0.1 (127.0.0.1): every node on this "
		     "one machine");
	hostlist_free(&hl);
	/* two names on loopback are two machines' names: refused */
	EXPECT_EQ_INT(hostlist_parse(&hl, "localhost,node-b"), 0);
	EXPECT_EQ_INT(selfaddr_check(&hl, 0, &lo, msg, sizeof(msg)), -EINVAL);
	hostlist_free(&hl);
	unlink(path);
}

int main(void)
{
	test_rdma_address();
	test_management_name();
	test_other_refusals();
	test_one_machine();
	return test_finish("test_selfaddr");
}
