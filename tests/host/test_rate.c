// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/host/rate.c: line rates for every IB speed x width, the
 * sysfs rate text, PCIe ceilings, wire efficiency and the whole formula.
 * Expected figures are written out here, not derived from rate.c's tables.
 */
#include <errno.h>

#include "host/rate.h"
#include "tests/test.h"

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Data rate per lane, as the IB spec gives it (64/66 written out). */
static const struct {
	unsigned code;
	const char *name;
	double lane_gbps;
	int sysfs_tenths;	/* the kernel's rate_show() per lane */
} lane_cases[] = {
	{ RATE_SPEED_SDR, "SDR", 2.0, 25 },
	{ RATE_SPEED_DDR, "DDR", 4.0, 50 },
	{ RATE_SPEED_QDR, "QDR", 8.0, 100 },
	{ RATE_SPEED_FDR10, "FDR10", 10.0, 100 },
	{ RATE_SPEED_FDR, "FDR", 13.636363636363637, 140 },
	{ RATE_SPEED_EDR, "EDR", 25.0, 250 },
	{ RATE_SPEED_HDR, "HDR", 50.0, 500 },
	{ RATE_SPEED_NDR, "NDR", 100.0, 1000 },
	{ RATE_SPEED_XDR, "XDR", 200.0, 2000 },
};

static const struct {
	unsigned code;
	const char *name;
	unsigned lanes;
} width_cases[] = {
	{ 1, "1X", 1 }, { 16, "2X", 2 }, { 2, "4X", 4 }, { 4, "8X", 8 },
	{ 8, "12X", 12 },
};

/* Every speed x width: link = lane x lanes, names, and the sysfs text. */
static void test_all_combinations(void)
{
	struct rate_link l, p;
	size_t i, j;
	char text[64];
	int tenths;

	for (i = 0; i < LEN(lane_cases); i++) {
		for (j = 0; j < LEN(width_cases); j++) {
			unsigned code = lane_cases[i].code;
			/* XDR exists only in active_speed_ex. */
			bool ex = code == RATE_SPEED_XDR;

			EXPECT_EQ_INT(rate_from_port(ex ? 0 : code,
						     ex ? code : 0,
						     width_cases[j].code, &l),
				      0);
			EXPECT_NEAR(l.lane_gbps, lane_cases[i].lane_gbps, 1e-9);
			EXPECT_EQ_U64(l.lanes, width_cases[j].lanes);
			EXPECT_NEAR(l.link_gbps, lane_cases[i].lane_gbps *
				    width_cases[j].lanes, 1e-9);
			EXPECT_STREQ(l.speed_name, lane_cases[i].name);
			EXPECT_STREQ(l.width_name, width_cases[j].name);
			/* The kernel's own format: "%d%s Gb/sec (%dX%s)". */
			tenths = lane_cases[i].sysfs_tenths *
				 (int)width_cases[j].lanes;
			snprintf(text, sizeof(text), "%d%s Gb/sec (%uX %s)\n",
				 tenths / 10, tenths % 10 ? ".5" : "",
				 width_cases[j].lanes, lane_cases[i].name);
			EXPECT_NEAR(l.sysfs_gbps, tenths / 10.0, 1e-9);
			EXPECT_EQ_INT(rate_parse_sysfs(text, &p), 0);
			EXPECT_NEAR(p.link_gbps, l.link_gbps, 1e-9);
			EXPECT_STREQ(p.speed_name, l.speed_name);
			EXPECT_STREQ(p.width_name, l.width_name);
		}
	}
}

struct link_case {
	unsigned speed, speed_ex, width;
	double link_gbps;
	const char *what;
};

static const struct link_case link_cases[] = {
	{ RATE_SPEED_SDR, 0, RATE_WIDTH_1X, 2.0, "1X SDR (rxe's default)" },
	{ RATE_SPEED_SDR, 0, RATE_WIDTH_4X, 8.0, "4X SDR" },
	{ RATE_SPEED_DDR, 0, RATE_WIDTH_4X, 16.0, "4X DDR" },
	{ RATE_SPEED_QDR, 0, RATE_WIDTH_4X, 32.0, "4X QDR: 40 signalled" },
	{ RATE_SPEED_QDR, 0, RATE_WIDTH_12X, 96.0, "12X QDR" },
	{ RATE_SPEED_FDR10, 0, RATE_WIDTH_4X, 40.0, "4X FDR10" },
	{ RATE_SPEED_FDR, 0, RATE_WIDTH_4X, 54.54545454545455, "4X FDR" },
	{ RATE_SPEED_EDR, 0, RATE_WIDTH_1X, 25.0, "25GbE" },
	{ RATE_SPEED_EDR, 0, RATE_WIDTH_4X, 100.0, "100GbE, EDR IB" },
	{ RATE_SPEED_HDR, 0, RATE_WIDTH_1X, 50.0, "50GbE" },
	{ RATE_SPEED_HDR, 0, RATE_WIDTH_2X, 100.0, "2X HDR" },
	{ RATE_SPEED_HDR, 0, RATE_WIDTH_4X, 200.0, "200GbE, HDR IB" },
	{ RATE_SPEED_HDR, 0, RATE_WIDTH_8X, 400.0, "400GbE as 8X HDR" },
	{ RATE_SPEED_NDR, 0, RATE_WIDTH_2X, 200.0, "2X NDR" },
	{ RATE_SPEED_NDR, 0, RATE_WIDTH_4X, 400.0, "NDR IB, 400GbE CR4" },
	{ RATE_SPEED_NDR, 0, RATE_WIDTH_8X, 800.0, "800GbE" },
	{ RATE_SPEED_NDR, 0, RATE_WIDTH_12X, 1200.0, "12X NDR" },
	{ 0, RATE_SPEED_XDR, RATE_WIDTH_4X, 800.0, "XDR in _ex only" },
	{ RATE_SPEED_HDR, RATE_SPEED_XDR, RATE_WIDTH_4X, 800.0, "_ex wins" },
	{ RATE_SPEED_NDR, RATE_SPEED_NDR, RATE_WIDTH_4X, 400.0, "same both" },
	{ 0, RATE_SPEED_XDR, RATE_WIDTH_12X, 2400.0, "12X XDR" },
};

static void test_known_links(void)
{
	struct rate_link l;
	size_t i;

	for (i = 0; i < LEN(link_cases); i++) {
		const struct link_case *c = &link_cases[i];

		l.link_gbps = -1;
		if (rate_from_port(c->speed, c->speed_ex, c->width, &l))
			fprintf(stderr, "  case %s\n", c->what);
		EXPECT_NEAR(l.link_gbps, c->link_gbps, 1e-9);
	}
}

static void test_bad_port_values(void)
{
	static const unsigned bad[][3] = {
		{ 0, 0, RATE_WIDTH_4X }, { 3, 0, RATE_WIDTH_4X },
		{ 512, 0, RATE_WIDTH_4X }, { 0, 3, RATE_WIDTH_4X },
		{ RATE_SPEED_HDR, 0, 0 }, { RATE_SPEED_HDR, 0, 3 },
		{ RATE_SPEED_HDR, 0, 32 },
	};
	struct rate_link l = { .lanes = 77 };
	size_t i;

	for (i = 0; i < LEN(bad); i++)
		EXPECT_EQ_INT(rate_from_port(bad[i][0], bad[i][1], bad[i][2],
					     &l), -EINVAL);
	EXPECT_EQ_U64(l.lanes, 77);	/* untouched */
	EXPECT_EQ_INT(rate_from_port(RATE_SPEED_HDR, 0, 2, NULL), -EINVAL);
}

static void test_sysfs_text(void)
{
	static const char *const bad[] = {
		"", "Gb/sec", " 400 Gb/sec (4X NDR)", "400 Gbps (4X NDR)",
		"-400 Gb/sec (4X NDR)", "nan Gb/sec (4X NDR)",
	};
	static const char *const bad_link[] = {
		"400 Gb/sec (4X GDR)", "400 Gb/sec (3X NDR)",
		"400 Gb/sec (4X NDR) x", "400 Gb/sec", "400 Gb/sec (X NDR)",
		"400 Gb/sec (4XNDR)", "400 Gb/sec (4X NDR",
	};
	struct rate_link l;
	double g = -1;
	size_t i;

	EXPECT_EQ_INT(rate_parse_sysfs_gbps("400 Gb/sec (4X NDR)\n", &g), 0);
	EXPECT_NEAR(g, 400.0, 0);
	EXPECT_EQ_INT(rate_parse_sysfs_gbps("2.5 Gb/sec (1X SDR)", &g), 0);
	EXPECT_NEAR(g, 2.5, 0);
	EXPECT_EQ_INT(rate_parse_sysfs("56 Gb/sec (4X FDR)", &l), 0);
	EXPECT_NEAR(l.link_gbps, 54.54545454545455, 1e-9);
	EXPECT_NEAR(l.sysfs_gbps, 56.0, 1e-9);
	EXPECT_EQ_INT(rate_parse_sysfs("40 Gb/sec (4X QDR)", &l), 0);
	EXPECT_NEAR(l.link_gbps, 32.0, 1e-9);
	g = -1;
	for (i = 0; i < LEN(bad); i++)
		EXPECT_EQ_INT(rate_parse_sysfs_gbps(bad[i], &g), -EINVAL);
	EXPECT_NEAR(g, -1, 0);
	EXPECT_EQ_INT(rate_parse_sysfs_gbps(NULL, &g), -EINVAL);
	l.lanes = 77;
	for (i = 0; i < LEN(bad_link); i++) {
		if (rate_parse_sysfs(bad_link[i], &l) != -EINVAL)
			fprintf(stderr, "  case \"%s\"\n", bad_link[i]);
		EXPECT_EQ_U64(l.lanes, 77);
	}
}

static void test_pcie(void)
{
	/* GT/s x lanes x 8/10 (Gen1/2), 128/130 (Gen3-5), 242/256 (Gen6). */
	EXPECT_NEAR(rate_pcie_gbps(2.5, 1), 2.0, 1e-9);
	EXPECT_NEAR(rate_pcie_gbps(5.0, 8), 32.0, 1e-9);
	EXPECT_NEAR(rate_pcie_gbps(8.0, 8), 63.01538461538461, 1e-9);
	EXPECT_NEAR(rate_pcie_gbps(8.0, 16), 126.0307692307692, 1e-9);
	EXPECT_NEAR(rate_pcie_gbps(16.0, 8), 126.0307692307692, 1e-9);
	EXPECT_NEAR(rate_pcie_gbps(16.0, 16), 252.0615384615385, 1e-9);
	EXPECT_NEAR(rate_pcie_gbps(32.0, 8), 252.0615384615385, 1e-9);
	EXPECT_NEAR(rate_pcie_gbps(32.0, 16), 504.1230769230769, 1e-9);
	EXPECT_NEAR(rate_pcie_gbps(64.0, 16), 968.0, 1e-9);
	EXPECT_NEAR(rate_pcie_gbps(16.0, 0), 0.0, 0);
	EXPECT_NEAR(rate_pcie_gbps(0.0, 16), 0.0, 0);
	EXPECT_NEAR(rate_pcie_gbps(-8.0, 16), 0.0, 0);
	EXPECT_NEAR(rate_pcie_gbps(NAN, 16), 0.0, 0);
	/* MaxPayload / (MaxPayload + 24 B of TLP framing). */
	EXPECT_NEAR(rate_pcie_tlp_efficiency(256), 256.0 / 280, 1e-12);
	EXPECT_NEAR(rate_pcie_tlp_efficiency(128), 128.0 / 152, 1e-12);
	EXPECT_NEAR(rate_pcie_tlp_efficiency(512), 512.0 / 536, 1e-12);
	EXPECT_NEAR(rate_pcie_tlp_efficiency(0), 0.0, 0);
}

static void test_wire_efficiency(void)
{
	/* IB: 26 B a packet; RoCEv2: 82 B including preamble and gap. */
	EXPECT_NEAR(rate_wire_efficiency(4096, RATE_IB), 4096.0 / 4122, 1e-12);
	EXPECT_NEAR(rate_wire_efficiency(1024, RATE_IB), 1024.0 / 1050, 1e-12);
	EXPECT_NEAR(rate_wire_efficiency(4096, RATE_ROCE_V2), 4096.0 / 4178,
		    1e-12);
	EXPECT_NEAR(rate_wire_efficiency(1024, RATE_ROCE_V2), 1024.0 / 1106,
		    1e-12);
	EXPECT_NEAR(rate_wire_efficiency(0, RATE_IB), 0.0, 0);
	EXPECT_NEAR(rate_wire_efficiency(4096, (enum rate_transport)7), 0.0, 0);
	/* Ceilings of a 200 Gb/s link: the MTU matters more on RoCE. */
	EXPECT_NEAR(200 * rate_wire_efficiency(4096, RATE_IB), 198.7385, 1e-4);
	EXPECT_NEAR(200 * rate_wire_efficiency(1024, RATE_IB), 195.0476, 1e-4);
	EXPECT_NEAR(200 * rate_wire_efficiency(4096, RATE_ROCE_V2), 196.0747,
		    1e-4);
	EXPECT_NEAR(200 * rate_wire_efficiency(1024, RATE_ROCE_V2), 185.1718,
		    1e-4);
	EXPECT_STREQ(rate_transport_name(RATE_ROCE_V2), "RoCEv2");
	EXPECT_STREQ(rate_transport_name(RATE_IB), "IB");
}

static void test_achievable_ib(void)
{
	struct rate_inputs in = {
		.active_speed = RATE_SPEED_HDR, .active_width = RATE_WIDTH_4X,
		.sysfs_rate = "200 Gb/sec (4X HDR)\n", .netdev_speed_mbps = -1,
		.pcie_gts = 16.0, .pcie_width = 16, .mtu_bytes = 4096,
		.transport = RATE_IB,
	};
	struct rate_result r;

	EXPECT_EQ_INT(rate_achievable(&in, &r), 0);
	EXPECT_NEAR(r.line_gbps, 200.0, 1e-9);
	EXPECT_NEAR(r.achievable_gbps, 200.0 * 4096 / 4122, 1e-9);
	EXPECT_NEAR(r.pcie_gbps, 252.0615384615385, 1e-9);
	EXPECT_TRUE(!r.is_pcie_bound);
	EXPECT_STREQ(r.formula,
		     "4X HDR: 4 × 50 Gb/s = 200 Gb/s × 0.9937 (IB, MTU 4096) = 198.7 Gb/s; "
		     "PCIe Gen4 x16: 16 GT/s × 16 × 128/130 = 252.1 Gb/s; "
		     "achievable = min(198.7, 252.1) = 198.7 Gb/s payload");
	EXPECT_STREQ(r.warning, "");

	/* The same port on a Gen3 x16 slot: PCIe is the ceiling. */
	in.pcie_gts = 8.0;
	EXPECT_EQ_INT(rate_achievable(&in, &r), 0);
	EXPECT_TRUE(r.is_pcie_bound);
	EXPECT_NEAR(r.achievable_gbps, 126.0307692307692, 1e-9);
}

static void test_achievable_roce(void)
{
	struct rate_inputs in = {
		.active_speed = RATE_SPEED_NDR, .active_width = RATE_WIDTH_4X,
		.sysfs_rate = "400 Gb/sec (4X NDR)", .netdev_speed_mbps = 400000,
		.pcie_gts = 32.0, .pcie_width = 16,
		.pcie_max_payload_bytes = 256, .mtu_bytes = 4096,
		.transport = RATE_ROCE_V2,
	};
	struct rate_result r;

	EXPECT_EQ_INT(rate_achievable(&in, &r), 0);
	EXPECT_NEAR(r.achievable_gbps, 400.0 * 4096 / 4178, 1e-9);
	EXPECT_NEAR(r.pcie_gbps, 504.1230769230769 * 256 / 280, 1e-9);
	EXPECT_STREQ(r.formula,
		     "4X NDR: 4 × 100 Gb/s = 400 Gb/s (netdev 400000 Mb/s agrees) "
		     "× 0.9804 (RoCEv2, MTU 4096) = 392.1 Gb/s; "
		     "PCIe Gen5 x16: 32 GT/s × 16 × 128/130 = 504.1 Gb/s "
		     "× 0.9143 (TLP, MaxPayload 256 B) = 460.9 Gb/s; "
		     "achievable = min(392.1, 460.9) = 392.1 Gb/s payload");
	EXPECT_STREQ(r.warning, "");

	/* 400GbE as 8X HDR on a Gen4 x16 slot: PCIe-bound at 252.1. */
	in.active_speed = RATE_SPEED_HDR;
	in.active_width = RATE_WIDTH_8X;
	in.sysfs_rate = "400 Gb/sec (8X HDR)";
	in.pcie_gts = 16.0;
	in.pcie_max_payload_bytes = 0;
	EXPECT_EQ_INT(rate_achievable(&in, &r), 0);
	EXPECT_TRUE(r.is_pcie_bound);
	EXPECT_NEAR(r.achievable_gbps, 252.0615384615385, 1e-9);
	EXPECT_STREQ(r.warning, "");

	/* MTU 1024 on 200GbE (4X HDR), no PCIe figure. */
	in.active_width = RATE_WIDTH_4X;
	in.sysfs_rate = NULL;
	in.netdev_speed_mbps = 200000;
	in.pcie_gts = 0;
	in.mtu_bytes = 1024;
	EXPECT_EQ_INT(rate_achievable(&in, &r), 0);
	EXPECT_NEAR(r.achievable_gbps, 200.0 * 1024 / 1106, 1e-9);
}

/* rxe as the lab shows it: 1X SDR, dummy netdev with no speed, no PCI. */
static void test_achievable_rxe(void)
{
	struct rate_inputs in = {
		.active_speed = RATE_SPEED_SDR, .active_width = RATE_WIDTH_1X,
		.sysfs_rate = "2.5 Gb/sec (1X SDR)", .netdev_speed_mbps = -1,
		.mtu_bytes = 1024, .transport = RATE_ROCE_V2,
	};
	struct rate_result r;

	EXPECT_EQ_INT(rate_achievable(&in, &r), 0);
	EXPECT_NEAR(r.achievable_gbps, 2.0 * 1024 / 1106, 1e-9);
	EXPECT_NEAR(r.pcie_gbps, 0.0, 0);
	EXPECT_STREQ(r.formula,
		     "1X SDR: 1 × 2 Gb/s = 2 Gb/s × 0.9259 (RoCEv2, MTU 1024) = 1.9 Gb/s; "
		     "no PCIe link: achievable = 1.9 Gb/s payload");
	EXPECT_STREQ(r.warning, "");
}

static void test_achievable_mismatch(void)
{
	struct rate_inputs in = {
		.active_speed = RATE_SPEED_NDR, .active_width = RATE_WIDTH_4X,
		.sysfs_rate = "200 Gb/sec (2X NDR)", .netdev_speed_mbps = -1,
		.mtu_bytes = 4096, .transport = RATE_ROCE_V2,
	};
	struct rate_result r;

	EXPECT_EQ_INT(rate_achievable(&in, &r), 0);
	EXPECT_NEAR(r.line_gbps, 400.0, 1e-9);
	EXPECT_STREQ(r.warning,
		     "sysfs rate \"200 Gb/sec (2X NDR)\" disagrees with verbs 4X NDR (400 Gb/s); using verbs (if the link just retrained, run again)");

	in.sysfs_rate = "fast";
	EXPECT_EQ_INT(rate_achievable(&in, &r), 0);
	EXPECT_STREQ(r.warning,
		     "sysfs rate \"fast\" is not \"N Gb/sec (WX SPEED)\" with a known WX and SPEED; ignored");

	/* ib_get_eth_speed() (rxe, 6.1) calls anything above 40GbE 4X EDR. */
	in.active_speed = RATE_SPEED_EDR;
	in.sysfs_rate = "100 Gb/sec (4X EDR)";
	in.netdev_speed_mbps = 400000;
	EXPECT_EQ_INT(rate_achievable(&in, &r), 0);
	EXPECT_NEAR(r.line_gbps, 400.0, 1e-9);
	EXPECT_STREQ(r.warning,
		     "netdev speed 400000 Mb/s disagrees with verbs 4X EDR (100 Gb/s); using the netdev's (Ethernet's own rate)");
	EXPECT_STREQ(r.formula,
		     "netdev 400000 Mb/s = 400 Gb/s (verbs 4X EDR: 4 × 25 Gb/s = 100 Gb/s) "
		     "× 0.9804 (RoCEv2, MTU 4096) = 392.1 Gb/s; "
		     "no PCIe link: achievable = 392.1 Gb/s payload");

	/* mlx5 calls 40GbE 4X QDR: 32 Gb/s of IB data, 40 nominal. */
	in.active_speed = RATE_SPEED_QDR;
	in.sysfs_rate = "40 Gb/sec (4X QDR)";
	in.netdev_speed_mbps = 40000;
	EXPECT_EQ_INT(rate_achievable(&in, &r), 0);
	EXPECT_NEAR(r.line_gbps, 40.0, 1e-9);
	EXPECT_STREQ(r.warning, "");
}

static void test_achievable_sources(void)
{
	struct rate_inputs in = {
		.sysfs_rate = "400 Gb/sec (4X NDR)", .netdev_speed_mbps = -1,
		.mtu_bytes = 4096, .transport = RATE_IB,
	};
	struct rate_result r = { .achievable_gbps = -7 };

	/* No verbs values: the sysfs text alone. */
	EXPECT_EQ_INT(rate_achievable(&in, &r), 0);
	EXPECT_NEAR(r.line_gbps, 400.0, 1e-9);
	EXPECT_STREQ(r.link.speed_name, "NDR");

	/* RoCE with only the netdev's speed. */
	in.sysfs_rate = "";
	in.netdev_speed_mbps = 100000;
	in.transport = RATE_ROCE_V2;
	EXPECT_EQ_INT(rate_achievable(&in, &r), 0);
	EXPECT_NEAR(r.line_gbps, 100.0, 1e-9);
	EXPECT_EQ_U64(r.link.lanes, 0);

	/* Nothing known; bad values. *out stays as it was. */
	r.achievable_gbps = -7;
	in.transport = RATE_IB;
	EXPECT_EQ_INT(rate_achievable(&in, &r), -ENODATA);
	in.active_speed = 3;
	in.active_width = RATE_WIDTH_4X;
	EXPECT_EQ_INT(rate_achievable(&in, &r), -EINVAL);
	in.active_speed = RATE_SPEED_HDR;
	in.mtu_bytes = 0;
	EXPECT_EQ_INT(rate_achievable(&in, &r), -EINVAL);
	in.mtu_bytes = 4096;
	in.transport = (enum rate_transport)9;
	EXPECT_EQ_INT(rate_achievable(&in, &r), -EINVAL);
	EXPECT_NEAR(r.achievable_gbps, -7, 0);
	EXPECT_EQ_INT(rate_achievable(NULL, &r), -EINVAL);
}

int main(void)
{
	test_all_combinations();
	test_known_links();
	test_bad_port_values();
	test_sysfs_text();
	test_pcie();
	test_wire_efficiency();
	test_achievable_ib();
	test_achievable_roce();
	test_achievable_rxe();
	test_achievable_mismatch();
	test_achievable_sources();
	return test_finish("test_rate");
}
