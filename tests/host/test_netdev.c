// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for host/netdev.c (the netdev <-> RDMA port rule of ib_doctor,
 * link facts and --netdev) against the fake sysfs tree in
 * tests/fixtures/netdev/ (make-trees.sh there), found through TEST_SRCDIR.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/inv.h"
#include "host/link.h"
#include "host/netdev.h"
#include "tests/test.h"

static char host[PATH_MAX - 8], root[PATH_MAX]; /* ib_doctor's, sysfs */

/* netdev_find_port(ifname) names want_dev port want_port. */
static void expect_port(const char *ifname, const char *want_dev,
			unsigned int want_port)
{
	char dev[64] = "";
	unsigned int port = 0;

	EXPECT_EQ_INT(netdev_find_port(root, ifname, dev, sizeof(dev), &port),
		      0);
	EXPECT_STREQ(dev, want_dev);
	EXPECT_EQ_INT(port, want_port);
}

static void test_find_port(void)
{
	char dev[64];
	unsigned int port;

	expect_port("rxe_if", "rxe0", 1);       /* plain, in the GIDs */
	expect_port("rxe_if.10", "rxe0", 1);    /* a VLAN with a GID */
	expect_port("mv0", "rxe0", 1);          /* a macvlan with a GID */
	expect_port("veth1", "rxe1", 1);        /* a second device */
	expect_port("mv1", "rxe1", 1);          /* no GID: its lower_ link */
	expect_port("eth5", "rxe2", 1);         /* no GID yet: "parent" */
	expect_port("net0", "mlx5_0", 1);       /* PCI, dev_port 0 */
	expect_port("net1", "mlx5_0", 2);       /* PCI, dev_port 1 */
	expect_port("net1.5", "mlx5_0", 2);     /* a VLAN over port 2's */
	EXPECT_EQ_INT(netdev_find_port(root, "br0", dev, sizeof(dev), &port),
		      -ENODEV);
	EXPECT_EQ_INT(netdev_find_port(root, "nope", dev, sizeof(dev), &port),
		      -ENODEV);
	EXPECT_EQ_INT(netdev_find_port(root, "../x", dev, sizeof(dev), &port),
		      -EINVAL);
	EXPECT_EQ_INT(netdev_find_port(root, "", dev, sizeof(dev), &port),
		      -EINVAL);
	EXPECT_EQ_INT(netdev_find_port(root, "rxe_if", dev, 3, &port),
		      -ENAMETOOLONG);
}

static void test_list(void)
{
	/* ports with one netdev: from the GIDs, "parent", dev_port */
	static const struct {
		const char *dev;
		unsigned int port;
		const char *netdev;
	} one[] = {
		{ "rxe1", 1, "veth1" }, { "rxe2", 1, "eth5" },
		{ "mlx5_0", 1, "net0" }, { "mlx5_0", 2, "net1" },
	};
	struct netdev_list l;
	unsigned int i;

	EXPECT_EQ_INT(netdev_list(root, "rxe0", 1, &l), 0);
	EXPECT_EQ_INT(l.n, 3);
	EXPECT_STREQ(l.names[0], "rxe_if");
	EXPECT_STREQ(l.names[1], "rxe_if.10");
	EXPECT_STREQ(l.names[2], "mv0");
	for (i = 0; i < sizeof(one) / sizeof(one[0]); i++) {
		EXPECT_EQ_INT(netdev_list(root, one[i].dev, one[i].port, &l), 0);
		EXPECT_EQ_INT(l.n, 1);
		EXPECT_STREQ(l.names[0], one[i].netdev);
	}
	EXPECT_EQ_INT(netdev_list(root, "mlx5_9", 1, &l), 0);
	EXPECT_EQ_INT(l.n, 0);
	EXPECT_EQ_INT(netdev_list(root, "..", 1, &l), -EINVAL);
	EXPECT_EQ_INT(netdev_list(root, "rxe0", 0, &l), -EINVAL);
}

/* link_read's netdev is the same rule's: port 2 gets net1, not net0. */
static void test_link_agrees(void)
{
	struct link_facts f;

	EXPECT_EQ_INT(link_read(root, "mlx5_0", 2, &f), 0);
	EXPECT_STREQ(f.netdev, "net1");
	EXPECT_EQ_INT(f.netdev_mtu, 2044);
	EXPECT_EQ_INT(link_read(root, "rxe1", 1, &f), 0);
	EXPECT_STREQ(f.netdev, "veth1");
	EXPECT_EQ_INT(f.netdev_mtu, 1500);
}

/* ib_doctor's inventory answers as --netdev does, for every netdev. */
static void test_doctor_agrees(void)
{
	static const char *const nets[] = {
		"rxe_if", "rxe_if.10", "mv0", "veth1", "mv1", "eth5", "net0",
		"net1", "net1.5", "br0",
	};
	const struct probe probe = { 0 };
	const struct inv_port *p;
	const struct inv_dev *d;
	struct inv inv;
	unsigned int port, i;
	char dev[64];
	int ret;

	EXPECT_EQ_INT(inv_read(host, &probe, &inv), 0);
	for (i = 0; i < sizeof(nets) / sizeof(nets[0]); i++) {
		d = NULL;
		p = inv_port_of(&inv, nets[i], &d);
		ret = netdev_find_port(root, nets[i], dev, sizeof(dev), &port);
		TEST_CHECK_(!ret == !!p, "same answer", "%s: %d vs %s",
			    nets[i], ret, p ? "a port" : "none");
		if (!ret && p && d) {
			EXPECT_STREQ(d->name, dev);
			EXPECT_EQ_INT(p->num, port);
		}
	}
	/* the doctor's own netdev of each port is the rule's too */
	p = inv_port_of(&inv, "net1", &d);
	EXPECT_TRUE(p && !strcmp(p->netdev, "net1"));
	inv_free(&inv);
}

int main(void)
{
	const char *src = getenv("TEST_SRCDIR");

	snprintf(host, sizeof(host), "%s/tests/fixtures/netdev/host",
		 src && src[0] ? src : ".");
	snprintf(root, sizeof(root), "%s/sys", host);
	test_find_port();
	test_list();
	test_link_agrees();
	test_doctor_agrees();
	return test_finish("test_netdev");
}
