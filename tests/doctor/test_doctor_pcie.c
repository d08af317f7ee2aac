// SPDX-License-Identifier: BSD-2-Clause
/*
 * ib_doctor's PCIe peer path (acs, iommu, ats, maxreadreq, relaxed_ord)
 * and the exact numa, gpudirect and vf_guid checks, on the fake roots of
 * tests/fixtures/doctor/ (stand-ins: trees_pcie.py writes their config
 * space files, which lspci -F decodes as the tests assume). Each tree
 * gives its finding and its fix; the healthy tree gives none of them.
 */
#define _GNU_SOURCE /* open_memstream */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "doctor/chk.h"
#include "tests/test.h"
#include "tests/doctor/expect.h"

struct scenario {
	char root[PATH_MAX];
	struct probe probe;
	struct chk_ctx c;
};

static const struct findings *run(struct scenario *s, const char *tree)
{
	doctor_tree(tree, s->root, sizeof(s->root));
	fake_probe(s->root, &s->probe);
	s->c = (struct chk_ctx){ .root = s->root, .probe = &s->probe };
	EXPECT_EQ_INT(cli_run(&s->c), 0);
	return &s->c.rep;
}

static void test_healthy(void)
{
	struct scenario s;
	const struct findings *r = run(&s, "healthy");

	EXPECT_VERDICT(r, "acs", "0000:18:00.0", VERDICT_PASS);
	EXPECT_TEXT(r, "acs", "0000:18:00.0", 0, "2 switch port(s)");
	EXPECT_VERDICT(r, "maxreadreq", "mlx5_0", VERDICT_PASS);
	EXPECT_TEXT(r, "maxreadreq", "mlx5_0", 0, "MaxReadReq 4096 bytes");
	EXPECT_VERDICT(r, "relaxed_ord", "mlx5_0", VERDICT_PASS);
	EXPECT_VERDICT(r, "iommu", "mlx5_0", VERDICT_PASS);
	EXPECT_TEXT(r, "iommu", "mlx5_0", 0, "IOMMU off");
	EXPECT_VERDICT(r, "iommu", "0000:18:00.0", VERDICT_PASS);
	EXPECT_VERDICT(r, "ats", "mlx5_0", VERDICT_SKIP);
	EXPECT_VERDICT(r, "numa", "mlx5_0", VERDICT_PASS);
	EXPECT_TEXT(r, "numa", "mlx5_0", 0, "all on it, memory nodes 0");
	EXPECT_VERDICT(r, "gpudirect", "host", VERDICT_PASS);
	EXPECT_TRUE(!findings_find(r, "vf_guid", NULL));
	EXPECT_EQ_INT(findings_count(r, VERDICT_WARN), 0);
	EXPECT_EQ_INT(findings_count(r, VERDICT_FAIL), 0);
	cli_ctx_free(&s.c);
}

static void test_acs(void)
{
	struct scenario s;
	const struct findings *r = run(&s, "acs");

	EXPECT_VERDICT(r, "acs", "0000:18:00.0", VERDICT_WARN);
	/* both downstream ports, in lspci's ACSCtl words */
	EXPECT_TEXT(r, "acs", "0000:18:00.0", 0, "0000:17:00.0 (SrcValid+ "
		    "TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+");
	EXPECT_TEXT(r, "acs", "0000:18:00.0", 0, "0000:17:01.0");
	EXPECT_TEXT(r, "acs", "0000:18:00.0", 1,
		    "setpci -s 0000:17:00.0 ECAP_ACS+6.w=0000");
	EXPECT_EQ_INT(findings_count(r, VERDICT_WARN), 1);
	EXPECT_EQ_INT(findings_exit_code(r), FINDINGS_EXIT_WARN);
	cli_ctx_free(&s.c);
}

static void test_iommu(void)
{
	struct scenario s;
	const struct findings *r = run(&s, "iommu");

	EXPECT_VERDICT(r, "iommu", "mlx5_0", VERDICT_WARN);
	EXPECT_TEXT(r, "iommu", "mlx5_0", 0, "translated (DMA-FQ), without "
		    "ATS");
	EXPECT_TEXT(r, "iommu", "mlx5_0", 1, "iommu=pt");
	EXPECT_VERDICT(r, "ats", "mlx5_0", VERDICT_WARN);
	EXPECT_TEXT(r, "ats", "mlx5_0", 0, "ATSCtl Enable-");
	EXPECT_TEXT(r, "ats", "mlx5_0", 1, "ATS_ENABLED=true");
	EXPECT_VERDICT(r, "iommu", "0000:18:00.0", VERDICT_WARN);
	EXPECT_VERDICT(r, "ats", "0000:18:00.0", VERDICT_WARN);
	EXPECT_TEXT(r, "ats", "0000:18:00.0", 0, "no ATS capability");
	EXPECT_EQ_INT(findings_count(r, VERDICT_WARN), 4);
	cli_ctx_free(&s.c);
}

static void test_mrrs(void)
{
	struct scenario s;
	const struct findings *r = run(&s, "mrrs512");

	EXPECT_VERDICT(r, "maxreadreq", "mlx5_0", VERDICT_WARN);
	EXPECT_TEXT(r, "maxreadreq", "mlx5_0", 0, "MaxReadReq 512 bytes");
	EXPECT_TEXT(r, "maxreadreq", "mlx5_0", 1,
		    "setpci -s 0000:19:00.0 CAP_EXP+8.w=5000:7000");
	EXPECT_VERDICT(r, "relaxed_ord", "mlx5_0", VERDICT_WARN);
	EXPECT_TEXT(r, "relaxed_ord", "mlx5_0", 0, "RlxdOrd-");
	EXPECT_TEXT(r, "relaxed_ord", "mlx5_0", 1, "CAP_EXP+8.w=0010:0010");
	EXPECT_EQ_INT(findings_count(r, VERDICT_WARN), 2);
	cli_ctx_free(&s.c);
}

/* 64 bytes of config: unknown, never a pass. */
static void test_unprivileged(void)
{
	struct scenario s;
	const struct findings *r = run(&s, "unpriv");

	EXPECT_VERDICT(r, "maxreadreq", "mlx5_0", VERDICT_SKIP);
	EXPECT_TEXT(r, "maxreadreq", "mlx5_0", 0, "unknown (run as root)");
	EXPECT_VERDICT(r, "relaxed_ord", "mlx5_0", VERDICT_SKIP);
	EXPECT_TEXT(r, "relaxed_ord", "mlx5_0", 0, "unknown (run as root)");
	EXPECT_VERDICT(r, "acs", "0000:18:00.0", VERDICT_SKIP);
	EXPECT_TEXT(r, "acs", "0000:18:00.0", 0, "unknown (run as root)");
	EXPECT_EQ_INT(findings_count(r, VERDICT_WARN), 0);
	cli_ctx_free(&s.c);
}

static void test_numa(void)
{
	struct scenario s;
	const struct findings *r = run(&s, "numaspan");

	EXPECT_VERDICT(r, "numa", "mlx5_0", VERDICT_WARN);
	EXPECT_TEXT(r, "numa", "mlx5_0", 0, "allowed CPUs 0-63 span other "
		    "nodes");
	EXPECT_TEXT(r, "numa", "mlx5_0", 1, "single-numa-node");
	EXPECT_VERDICT(r, "numa", "0000:18:00.0", VERDICT_WARN);
	cli_ctx_free(&s.c);
	r = run(&s, "numamems");
	EXPECT_VERDICT(r, "numa", "mlx5_0", VERDICT_WARN);
	EXPECT_TEXT(r, "numa", "mlx5_0", 0, "Mems_allowed_list 1 leaves "
		    "node 0 out");
	EXPECT_TEXT(r, "numa", "mlx5_0", 1, "numactl -m 0");
	cli_ctx_free(&s.c);
}

static void test_dmabuf(void)
{
	struct scenario s;
	const struct findings *r = run(&s, "dmabuf");

	EXPECT_VERDICT(r, "gpudirect", "host", VERDICT_FAIL);
	EXPECT_TEXT(r, "gpudirect", "host", 0, "needs NVIDIA's open kernel "
		    "modules: NVRM version: NVIDIA UNIX x86_64 Kernel Module");
	EXPECT_TEXT(r, "gpudirect", "host", 1, "modprobe nvidia_peermem");
	EXPECT_TEXT(r, "gpudirect", "host", 1, "open kernel modules");
	EXPECT_TRUE(!chk_gpu_registrable(&s.c));
	cli_ctx_free(&s.c);
}

static void test_vf_guid(void)
{
	struct scenario s;
	const struct findings *r = run(&s, "vfguid");

	EXPECT_VERDICT(r, "vf_guid", "mlx5_4", VERDICT_FAIL);
	EXPECT_TEXT(r, "vf_guid", "mlx5_4", 0, "zero node GUID");
	EXPECT_TEXT(r, "vf_guid", "mlx5_4", 0, "VF 2 of ens1np0");
	EXPECT_TEXT(r, "vf_guid", "mlx5_4", 1, "ip link set ens1np0 vf 2 "
		    "node_guid");
	EXPECT_TEXT(r, "vf_guid", "mlx5_4", 1, "port_guid");
	/* the RoCE PF is no VF */
	EXPECT_TRUE(!findings_find(r, "vf_guid", "mlx5_0"));
	cli_ctx_free(&s.c);
}

/* The JSON document carries the findings, fix and all. */
static void test_json(void)
{
	struct scenario s;
	const struct findings *r = run(&s, "acs");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	EXPECT_TRUE(f != NULL);
	if (!f)
		return;
	EXPECT_EQ_INT(findings_print_json(r, "gpu-node-1", NULL, f), 0);
	fclose(f);
	EXPECT_TRUE(buf && strstr(buf, "\"check\": \"acs\""));
	EXPECT_TRUE(buf && strstr(buf, "ECAP_ACS+6.w=0000"));
	free(buf);
	cli_ctx_free(&s.c);
}

int main(void)
{
	test_healthy();
	test_acs();
	test_iommu();
	test_mrrs();
	test_unprivileged();
	test_numa();
	test_dmabuf();
	test_vf_guid();
	test_json();
	return test_finish("test_doctor_pcie");
}
