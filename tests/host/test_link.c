// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/host/link.c against the fake sysfs trees in
 * tests/fixtures/link/ (see the README there), found through TEST_SRCDIR.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "host/link.h"
#include "host/rate.h"
#include "tests/test.h"

static char root_buf[PATH_MAX];

static const char *fixture(const char *tree)
{
	const char *src = getenv("TEST_SRCDIR");

	snprintf(root_buf, sizeof(root_buf), "%s/tests/fixtures/link/%s",
		 src && src[0] ? src : ".", tree);
	return root_buf;
}

static void test_healthy(void)
{
	char findings[4][LINK_FINDING_LEN];
	struct link_facts f;

	EXPECT_EQ_INT(link_read(fixture("healthy"), "mlx5_0", 1, &f), 0);
	EXPECT_STREQ(f.rate_text, "400 Gb/sec (4X NDR)");
	EXPECT_NEAR(f.rate_gbps, 400.0, 0);
	EXPECT_STREQ(f.netdev, "ens1np0");
	EXPECT_EQ_INT(f.netdev_speed_mbps, 400000);
	EXPECT_EQ_INT(f.netdev_mtu, 9000);
	EXPECT_STREQ(f.pci_addr, "0000:3b:00.0");
	EXPECT_NEAR(f.pcie.cur_gts, 32.0, 0);
	EXPECT_NEAR(f.pcie.max_gts, 32.0, 0);
	EXPECT_EQ_U64(f.pcie.cur_width, 16);
	EXPECT_EQ_U64(f.pcie.max_width, 16);
	EXPECT_EQ_INT(f.numa_node, 0);
	EXPECT_EQ_INT(link_downtrain(&f, RATE_SPEED_NDR, RATE_WIDTH_4X,
				     RATE_SPEED_NDR, RATE_WIDTH_4X, findings,
				     4), 0);
	EXPECT_EQ_INT(link_downtrain(&f, 0, 0, 0, 0, findings, 4), 0);
	EXPECT_EQ_INT(link_downtrain(&f, 0, 0, RATE_SPEED_NDR, RATE_WIDTH_4X,
				     findings, 4), 0);
}

static const char *const port_2x =
	"port runs 2X of 4X (NDR): at most 200 Gb/s of 400 Gb/s; check the cable and the peer's port";
static const char *const pcie_x8 =
	"PCIe link runs x8 of x16 (32.0 GT/s): at most 252 Gb/s; reseat the card or move it to a slot wired x16";

static void test_downtrained(void)
{
	char findings[4][LINK_FINDING_LEN];
	struct link_facts f;

	EXPECT_EQ_INT(link_read(fixture("downtrained"), "mlx5_1", 1, &f), 0);
	EXPECT_STREQ(f.rate_text, "200 Gb/sec (2X NDR)");
	EXPECT_NEAR(f.rate_gbps, 200.0, 0);
	/* No GID ndevs: found from class/net, skipping port 2's ens2d1. */
	EXPECT_STREQ(f.netdev, "ens2np0");
	EXPECT_EQ_INT(f.netdev_speed_mbps, 200000);
	EXPECT_EQ_INT(f.netdev_mtu, 4200);
	EXPECT_STREQ(f.pci_addr, "0000:5e:00.0");
	EXPECT_EQ_U64(f.pcie.cur_width, 8);
	EXPECT_EQ_U64(f.pcie.max_width, 16);
	EXPECT_EQ_INT(f.numa_node, 1);

	/* Verbs values and the NIC's maximum as hints. */
	EXPECT_EQ_INT(link_downtrain(&f, RATE_SPEED_NDR, RATE_WIDTH_2X,
				     RATE_SPEED_NDR, RATE_WIDTH_4X, findings,
				     4), 2);
	EXPECT_STREQ(findings[0], port_2x);
	EXPECT_STREQ(findings[1], pcie_x8);
	/* No verbs values: the active link comes from the sysfs rate. */
	memset(findings, 0, sizeof(findings));
	EXPECT_EQ_INT(link_downtrain(&f, 0, 0, 0, RATE_WIDTH_4X, findings, 4),
		      2);
	EXPECT_STREQ(findings[0], port_2x);
	EXPECT_STREQ(findings[1], pcie_x8);
	/* No hints: only PCIe, which knows its own maximum. */
	EXPECT_EQ_INT(link_downtrain(&f, 0, 0, 0, 0, findings, 4), 1);
	EXPECT_STREQ(findings[0], pcie_x8);
	/* Room for one: the first only. None: count 0, nothing written. */
	memset(findings, 0, sizeof(findings));
	EXPECT_EQ_INT(link_downtrain(&f, 0, 0, 0, RATE_WIDTH_4X, findings, 1),
		      1);
	EXPECT_STREQ(findings[1], "");
	EXPECT_EQ_INT(link_downtrain(&f, 0, 0, 0, RATE_WIDTH_4X, NULL, 0), 0);
	EXPECT_EQ_INT(link_read(fixture("downtrained"), "mlx5_1", 2, &f),
		      -ENOENT);
}

static void test_virtual(void)
{
	char findings[4][LINK_FINDING_LEN];
	struct link_facts f;

	EXPECT_EQ_INT(link_read(fixture("virtual"), "rxe0", 1, &f), 0);
	EXPECT_STREQ(f.rate_text, "2.5 Gb/sec (1X SDR)");
	EXPECT_NEAR(f.rate_gbps, 2.5, 0);
	EXPECT_STREQ(f.netdev, "rxe_if");
	EXPECT_EQ_INT(f.netdev_speed_mbps, -1);
	EXPECT_EQ_INT(f.netdev_mtu, 1500);
	EXPECT_STREQ(f.pci_addr, "");
	EXPECT_NEAR(f.pcie.cur_gts, 0.0, 0);
	EXPECT_EQ_U64(f.pcie.cur_width, 0);
	EXPECT_EQ_INT(f.numa_node, -1);
	EXPECT_EQ_INT(link_downtrain(&f, RATE_SPEED_SDR, RATE_WIDTH_1X, 0, 0,
				     findings, 4), 0);

	/* siw: its GID ndev does not read, and siw_if has no device link. */
	EXPECT_EQ_INT(link_read(fixture("virtual"), "siw0", 1, &f), 0);
	EXPECT_STREQ(f.netdev, "");
	EXPECT_EQ_INT(f.netdev_mtu, -1);
	EXPECT_EQ_INT(f.netdev_speed_mbps, -1);
	EXPECT_STREQ(f.pci_addr, "");
}

static void test_errors(void)
{
	struct link_facts f = { .numa_node = 42 };

	EXPECT_EQ_INT(link_read(fixture("healthy"), "mlx5_9", 1, &f), -ENODEV);
	EXPECT_EQ_INT(link_read(fixture("healthy"), "mlx5_0", 0, &f), -EINVAL);
	EXPECT_EQ_INT(link_read(fixture("healthy"), "../net", 1, &f), -EINVAL);
	EXPECT_EQ_INT(link_read(fixture("healthy"), "..", 1, &f), -EINVAL);
	EXPECT_EQ_INT(link_read(fixture("healthy"), "", 1, &f), -EINVAL);
	EXPECT_EQ_INT(link_read(fixture("healthy"), NULL, 1, &f), -EINVAL);
	EXPECT_EQ_INT(link_read(fixture("healthy"), "mlx5_0", 1, NULL),
		      -EINVAL);
	/* NULL and "" mean /sys: no such device on any host. */
	EXPECT_EQ_INT(link_read(NULL, "rdmabench_none", 1, &f), -ENODEV);
	EXPECT_EQ_INT(link_read("", "rdmabench_none", 1, &f), -ENODEV);
	EXPECT_EQ_INT(f.numa_node, 42);	/* untouched */
	EXPECT_EQ_INT(link_downtrain(NULL, 0, 0, 0, 0, NULL, 0), -EINVAL);
	EXPECT_EQ_INT(link_downtrain(&f, 0, 0, 0, 0, NULL, 1), -EINVAL);
	EXPECT_EQ_INT(link_downtrain(&f, 0, 0, 0, 0, NULL, -1), -EINVAL);
}

/* Cases no fixture has: PCIe speed, both, a ceiling, a slow port. */
static void test_downtrain_cases(void)
{
	struct link_facts f = {
		.pcie.cur_gts = 16.0, .pcie.max_gts = 32.0,
		.pcie.cur_width = 16, .pcie.max_width = 16,
	};
	char out[4][LINK_FINDING_LEN];

	EXPECT_EQ_INT(link_downtrain(&f, RATE_SPEED_HDR, RATE_WIDTH_4X, 0, 0,
				     out, 4), 1);
	EXPECT_STREQ(out[0],
		     "PCIe link runs 16.0 of 32.0 GT/s (x16): at most 252 Gb/s; check the slot's generation and the BIOS PCIe speed");
	f.pcie.cur_gts = 8.0;
	f.pcie.max_gts = 16.0;
	f.pcie.cur_width = 8;
	EXPECT_EQ_INT(link_downtrain(&f, 0, 0, 0, 0, out, 4), 1);
	EXPECT_STREQ(out[0],
		     "PCIe link runs x8 of x16 at 8.0 of 16.0 GT/s: at most 63 Gb/s; reseat the card, check the slot's width and generation");
	/* Full Gen4 x16 still cannot feed 400 Gb/s. */
	f.pcie.cur_gts = 16.0;
	f.pcie.cur_width = 16;
	EXPECT_EQ_INT(link_downtrain(&f, RATE_SPEED_NDR, RATE_WIDTH_4X, 0, 0,
				     out, 4), 1);
	EXPECT_STREQ(out[0],
		     "PCIe x16 at 16.0 GT/s carries at most 252 Gb/s, below the port's 400 Gb/s; move the NIC to a faster slot");
	/* A port at HDR that could do NDR. */
	f.pcie.cur_gts = f.pcie.max_gts = 32.0;
	EXPECT_EQ_INT(link_downtrain(&f, RATE_SPEED_HDR, RATE_WIDTH_4X,
				     RATE_SPEED_NDR, 0, out, 4), 1);
	EXPECT_STREQ(out[0],
		     "port runs HDR of NDR (4X): at most 200 Gb/s of 400 Gb/s; check the cable's rating and the peer's port");
	/* Both speed and width below: two findings against 4X NDR. */
	EXPECT_EQ_INT(link_downtrain(&f, RATE_SPEED_HDR, RATE_WIDTH_2X,
				     RATE_SPEED_NDR, RATE_WIDTH_4X, out, 4), 2);
	EXPECT_STREQ(out[0],
		     "port runs 2X of 4X (HDR): at most 100 Gb/s of 400 Gb/s; check the cable and the peer's port");
}

int main(void)
{
	test_healthy();
	test_downtrained();
	test_virtual();
	test_errors();
	test_downtrain_cases();
	return test_finish("test_link");
}
