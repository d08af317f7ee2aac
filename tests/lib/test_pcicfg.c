// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/lib/pcicfg.c against lspci -vvv (pciutils 3.9) as the
 * oracle, on two dumps in tests/fixtures/pcicfg/ (found through
 * TEST_SRCDIR, default "."):
 *   h200.bin      the 4096 bytes of a real NVIDIA H200's `config` (read as
 *                 root in a Firecracker guest, which hides ACS and ATS);
 *                 h200.lspci.txt is `lspci -vvv -F h200.dump` of them:
 *                 Express (v2) Endpoint, DevCtl RlxdOrd+, MaxReadReq 4096,
 *                 no ACS, no ATS;
 *   switch_acs.bin a stand-in switch downstream port as
 *                 tests/fixtures/doctor/trees_pcie.py writes it (no real
 *                 switch was at hand); switch_acs.lspci.txt is lspci's
 *                 decoding: ACSCtl SrcValid+ TransBlk- ReqRedir+
 *                 CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-.
 * Then the edges, built in memory: the 64-byte unprivileged read, a
 * 256-byte read (no extended space), capability loops, a pointer past the
 * end, no function (0xffff).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pcicfg.h"
#include "tests/test.h"

static size_t load(const char *name, uint8_t *buf, size_t len)
{
	const char *src = getenv("TEST_SRCDIR");
	char path[1024];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/fixtures/pcicfg/%s",
		 src && src[0] ? src : ".", name);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "  cannot read %s (set TEST_SRCDIR)\n", path);
		return 0;
	}
	n = fread(buf, 1, len, f);
	fclose(f);
	return n;
}

static void test_h200(void)
{
	uint8_t buf[PCICFG_MAX_LEN];
	size_t n = load("h200.bin", buf, sizeof(buf));
	struct pcicfg c;

	EXPECT_EQ_INT((int)n, PCICFG_MAX_LEN);
	EXPECT_EQ_INT(pcicfg_decode(buf, n, &c), 0);
	EXPECT_EQ_INT(c.vendor, 0x10de);
	EXPECT_EQ_INT(c.header_type, 0);
	EXPECT_TRUE(c.has_exp);
	EXPECT_STREQ(pcicfg_type_name(&c), "Endpoint");
	/* lspci: "MaxPayload 256 bytes, MaxReadReq 4096 bytes", "RlxdOrd+" */
	EXPECT_EQ_INT((int)pcicfg_maxreadreq(&c), 4096);
	EXPECT_TRUE(pcicfg_relaxed_ord(&c));
	EXPECT_TRUE(c.has_ext);
	/* lspci lists Null, LTR, AER, ... but no ACS and no ATS */
	EXPECT_TRUE(!c.has_acs);
	EXPECT_TRUE(!c.has_ats);
	EXPECT_TRUE(!pcicfg_acs_redirects(&c));
	/* the unprivileged view of the same function */
	EXPECT_EQ_INT(pcicfg_decode(buf, PCICFG_HEADER_LEN, &c), 0);
	EXPECT_TRUE(c.header_only);
	EXPECT_TRUE(!c.has_exp);
	EXPECT_EQ_INT((int)pcicfg_maxreadreq(&c), 0);
}

static void test_switch_acs(void)
{
	uint8_t buf[PCICFG_MAX_LEN];
	size_t n = load("switch_acs.bin", buf, sizeof(buf));
	char bits[128];
	struct pcicfg c;

	EXPECT_EQ_INT(pcicfg_decode(buf, n, &c), 0);
	EXPECT_EQ_INT(c.header_type, 1);
	EXPECT_STREQ(pcicfg_type_name(&c), "Downstream Port");
	EXPECT_TRUE(c.has_acs);
	pcicfg_acs_str(c.acs_cap, bits, sizeof(bits));
	EXPECT_STREQ(bits, "SrcValid+ TransBlk+ ReqRedir+ CmpltRedir+ "
		     "UpstreamFwd+ EgressCtrl- DirectTrans+");
	pcicfg_acs_str(c.acs_ctl, bits, sizeof(bits));
	EXPECT_STREQ(bits, "SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ "
		     "UpstreamFwd+ EgressCtrl- DirectTrans-");
	EXPECT_TRUE(pcicfg_acs_redirects(&c));
	/* a 256-byte read has no extended space: no ACS seen */
	EXPECT_EQ_INT(pcicfg_decode(buf, PCICFG_LEGACY_LEN, &c), 0);
	EXPECT_TRUE(c.has_exp && !c.has_ext && !c.has_acs);
}

/* A minimal endpoint: Express capability at 0x40 with devctl. */
static void endpoint(uint8_t *b, uint16_t devctl)
{
	memset(b, 0, PCICFG_MAX_LEN);
	b[0] = 0xb3;
	b[1] = 0x15;
	b[6] = 0x10;            /* Status: capability list */
	b[0x34] = 0x40;
	b[0x40] = PCICFG_CAP_EXP;
	b[0x42] = 0x02;
	b[0x48] = (uint8_t)devctl;
	b[0x49] = (uint8_t)(devctl >> 8);
}

static void test_devctl(void)
{
	static uint8_t b[PCICFG_MAX_LEN];
	static const struct { uint16_t devctl; unsigned int mrrs; bool ro; }
	cases[] = {
		{ 0x0000, 128, false }, { 0x2010, 512, true },
		{ 0x5000, 4096, false }, { 0x5030, 4096, true },
	};
	struct pcicfg c;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		endpoint(b, cases[i].devctl);
		EXPECT_EQ_INT(pcicfg_decode(b, sizeof(b), &c), 0);
		EXPECT_EQ_INT((int)pcicfg_maxreadreq(&c), (int)cases[i].mrrs);
		EXPECT_TRUE(pcicfg_relaxed_ord(&c) == cases[i].ro);
	}
}

static void test_ats(void)
{
	static uint8_t b[PCICFG_MAX_LEN];
	struct pcicfg c;

	endpoint(b, 0x5010);
	/* ACS-less chain: a Null capability, then ATS at 0x140, enabled */
	b[0x100] = 0x00;
	b[0x102] = 0x01;
	b[0x103] = 0x14;        /* next 0x140 */
	b[0x140] = PCICFG_ECAP_ATS;
	b[0x142] = 0x01;
	b[0x147] = 0x80;
	EXPECT_EQ_INT(pcicfg_decode(b, sizeof(b), &c), 0);
	EXPECT_TRUE(c.has_ats && c.ats_enabled && !c.has_acs);
	b[0x147] = 0x00;
	EXPECT_EQ_INT(pcicfg_decode(b, sizeof(b), &c), 0);
	EXPECT_TRUE(c.has_ats && !c.ats_enabled);
}

static void test_hostile(void)
{
	static uint8_t b[PCICFG_MAX_LEN];
	struct pcicfg c;

	EXPECT_EQ_INT(pcicfg_decode(b, 32, &c), -EINVAL);
	memset(b, 0xff, sizeof(b));
	EXPECT_EQ_INT(pcicfg_decode(b, sizeof(b), &c), -EINVAL);
	/* a capability that points at itself, an extended one too */
	endpoint(b, 0x2000);
	b[0x41] = 0x40;
	b[0x100] = PCICFG_ECAP_ACS;
	b[0x102] = 0x01;
	b[0x103] = 0x10;        /* next: 0x100 itself */
	EXPECT_EQ_INT(pcicfg_decode(b, sizeof(b), &c), 0);
	EXPECT_EQ_INT((int)pcicfg_maxreadreq(&c), 512);
	EXPECT_TRUE(c.has_acs);
	/* a pointer past a short buffer */
	endpoint(b, 0x2000);
	b[0x34] = 0xfc;
	EXPECT_EQ_INT(pcicfg_decode(b, 0xfe, &c), 0);
	EXPECT_TRUE(!c.has_exp);
	/* extended capability whose body runs past the end */
	endpoint(b, 0x2000);
	b[0x100] = PCICFG_ECAP_ACS;
	EXPECT_EQ_INT(pcicfg_decode(b, 0x104, &c), 0);
	EXPECT_TRUE(!c.has_acs);
}

int main(void)
{
	test_h200();
	test_switch_acs();
	test_devctl();
	test_ats();
	test_hostile();
	return test_finish("test_pcicfg");
}
