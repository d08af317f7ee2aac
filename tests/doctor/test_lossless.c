// SPDX-License-Identifier: BSD-2-Clause
/*
 * ib_doctor's lossless-Ethernet and link-history checks (doctor/
 * chk_lossless.c, chk_link.c) against the fake roots of
 * tests/fixtures/doctor/ that trees_lossless.py writes: each root breaks
 * one setting and must give its finding and fix; healthy gives none.
 * Stand-ins: the roots are fake sysfs/configfs trees and their "probe"
 * file stands in for DCB netlink and the PortInfo MAD (the real ops run
 * in the lab case tests/lab/cases/lossless.sh, on rxe).
 */
#define _GNU_SOURCE /* open_memstream */
#include <limits.h>
#include <stdlib.h>

#include "doctor/doctor.h"
#include "doctor/chk.h"
#include "tests/test.h"
#include "tests/doctor/expect.h"

struct scenario {
	char root[PATH_MAX];
	struct probe probe;
	struct chk_ctx c;
};

/* Every check on a tree, with class k (NULL: the default) and the
 * probe's dcb and port_rated ops taken away when told. */
static const struct findings *run(struct scenario *s, const char *tree,
				  const struct chk_lossless *k, bool no_ops)
{
	doctor_tree(tree, s->root, sizeof(s->root));
	fake_probe(s->root, &s->probe);
	if (no_ops) {
		s->probe.dcb = NULL;
		s->probe.port_rated = NULL;
	}
	s->c = (struct chk_ctx){ .root = s->root, .probe = &s->probe,
				 .lossless = k };
	EXPECT_EQ_INT(cli_run(&s->c), 0);
	return &s->c.rep;
}

#define EXPECT_COUNT(rep, v, n) EXPECT_EQ_INT(findings_count((rep), (v)), (n))

/* The one WARN of a tree that breaks one setting: its detail and fix. */
static void expect_one(const char *tree, const char *check,
		       const char *detail, const char *fix)
{
	struct scenario s;
	const struct findings *r = run(&s, tree, NULL, false);

	EXPECT_VERDICT(r, check, "mlx5_0/1", VERDICT_WARN);
	EXPECT_TEXT(r, check, "mlx5_0/1", 0, detail);
	EXPECT_TEXT(r, check, "mlx5_0/1", 1, fix);
	EXPECT_COUNT(r, VERDICT_WARN, 1);
	EXPECT_COUNT(r, VERDICT_FAIL, 0);
	cli_ctx_free(&s.c);
}

static void test_healthy(void)
{
	static const char *const checks[] = {
		"link_errors", "link_flaps", "pfc", "trust", "ecn",
		"roce_tos", "roce_mode",
	};
	struct scenario s;
	const struct findings *r = run(&s, "healthy", NULL, false);
	size_t i;

	for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++)
		EXPECT_VERDICT(r, checks[i], "mlx5_0/1", VERDICT_PASS);
	EXPECT_TEXT(r, "trust", "mlx5_0/1", 0, "DSCP 26 -> priority 3");
	EXPECT_TEXT(r, "roce_tos", "mlx5_0/1", 0, "ToS 106 (DSCP 26)");
	/* link_rate is for InfiniBand ports; this one is RoCE */
	EXPECT_TRUE(!findings_find(r, "link_rate", NULL));
	EXPECT_COUNT(r, VERDICT_WARN, 0);
	EXPECT_COUNT(r, VERDICT_FAIL, 0);
	cli_ctx_free(&s.c);
}

static void test_lossless_trees(void)
{
	expect_one("pfcoff", "pfc", "PFC is off on priority 3 of ens1np0 "
		   "(pfc_en 0x00)", "mlnx_qos -i ens1np0 --pfc 0,0,0,1,0,0,0,0");
	expect_one("trustpcp", "trust", "ens1np0 trusts PCP",
		   "mlnx_qos -i ens1np0 --trust dscp");
	expect_one("ecnoff", "ecn", "roce_np 1 (answers ECN marks with "
		   "CNPs), roce_rp 0", "echo 1 > /sys/class/net/ens1np0/ecn/"
		   "roce_rp/enable/3");
	expect_one("tos0", "roce_tos", "default ToS 0 (DSCP 0), not the "
		   "lossless class's 106 (DSCP 26)", "echo 106 > /sys/kernel/"
		   "config/rdma_cm/mlx5_0/ports/1/default_roce_tos");
	expect_one("rocev1", "roce_mode", "RoCE mode is IB/RoCE v1",
		   "echo 'RoCE v2' > /sys/kernel/config/rdma_cm/mlx5_0/ports/"
		   "1/default_roce_mode");
	expect_one("ndrathdr", "link_rate", "4X HDR (200 Gb/s) on a port "
		   "rated 4X NDR (400 Gb/s)", "check both are NDR-rated");
}

static void test_link_history(void)
{
	struct scenario s;
	const struct findings *r = run(&s, "linkhist", NULL, false);

	EXPECT_VERDICT(r, "link_errors", "mlx5_0/1", VERDICT_WARN);
	EXPECT_TEXT(r, "link_errors", "mlx5_0/1", 0,
		    "counters/symbol_error 12, counters/link_downed 255 "
		    "(saturated)");
	EXPECT_TEXT(r, "link_errors", "mlx5_0/1", 1, "perfquery -R");
	EXPECT_VERDICT(r, "link_flaps", "mlx5_0/1", VERDICT_WARN);
	EXPECT_TEXT(r, "link_flaps", "mlx5_0/1", 0,
		    "ens1np0 lost its carrier 3 times since boot");
	EXPECT_TEXT(r, "link_flaps", "mlx5_0/1", 1, "check the cable");
	EXPECT_COUNT(r, VERDICT_WARN, 2);
	cli_ctx_free(&s.c);
}

/* Another class: priority 4 is off everywhere and DSCP 26 maps to 3. */
static void test_other_class(void)
{
	const struct chk_lossless k = { .prio = 4, .tos = 106 };
	struct scenario s;
	const struct findings *r = run(&s, "healthy", &k, false);

	EXPECT_VERDICT(r, "pfc", "mlx5_0/1", VERDICT_WARN);
	EXPECT_TEXT(r, "pfc", "mlx5_0/1", 1, "--pfc 0,0,0,0,1,0,0,0");
	EXPECT_VERDICT(r, "ecn", "mlx5_0/1", VERDICT_WARN);
	EXPECT_VERDICT(r, "trust", "mlx5_0/1", VERDICT_WARN);
	EXPECT_TEXT(r, "trust", "mlx5_0/1", 0, "DSCP 26 maps to priority 3");
	EXPECT_VERDICT(r, "roce_tos", "mlx5_0/1", VERDICT_PASS);
	cli_ctx_free(&s.c);
}

/* Where Linux shows nothing (no dcbnl ops, no PortInfo): SKIP, unknown. */
static void test_unknown(void)
{
	struct scenario s;
	const struct findings *r = run(&s, "healthy", NULL, true);

	EXPECT_VERDICT(r, "pfc", "mlx5_0/1", VERDICT_SKIP);
	EXPECT_TEXT(r, "pfc", "mlx5_0/1", 0, "unknown: ens1np0's driver has "
		    "no DCB (dcbnl) ops");
	EXPECT_VERDICT(r, "trust", "mlx5_0/1", VERDICT_SKIP);
	cli_ctx_free(&s.c);
	r = run(&s, "ndrathdr", NULL, true);
	EXPECT_VERDICT(r, "link_rate", "mlx5_0/1", VERDICT_SKIP);
	EXPECT_TEXT(r, "link_rate", "mlx5_0/1", 0, "PortInfo MAD");
	/* IB ports need no lossless Ethernet */
	EXPECT_VERDICT(r, "pfc", "mlx5_0/1", VERDICT_SKIP);
	EXPECT_TRUE(!findings_find(r, "roce_tos", NULL));
	cli_ctx_free(&s.c);
}

/* The command line: the options, and the findings in the JSON. */
static int cli(const char *tree, const char *a1, const char *a2, FILE *out)
{
	char root[PATH_MAX];
	char *argv[6] = { (char *)"ib_doctor", (char *)"--root",
			  (char *)doctor_tree(tree, root, sizeof(root)),
			  (char *)a1, (char *)a2 };

	return doctor_cli(a2 ? 5 : a1 ? 4 : 3, argv, NULL, NULL, out);
}

static void test_cli(void)
{
	char *doc = NULL;
	size_t len = 0;
	FILE *null = fopen("/dev/null", "w"), *mem;

	EXPECT_TRUE(null != NULL);
	if (!null)
		return;
	EXPECT_EQ_INT(cli("healthy", "--lossless-prio", "8", null), 2);
	EXPECT_EQ_INT(cli("healthy", "--roce-tos", "256", null), 2);
	EXPECT_EQ_INT(cli("healthy", "--lossless-prio", "3", null), 0);
	EXPECT_EQ_INT(cli("healthy", "--lossless-prio", "5", null), 6);
	EXPECT_EQ_INT(cli("tos0", "--roce-tos", "0", null), 6);
	EXPECT_EQ_INT(cli("pfcoff", NULL, NULL, null), 6);
	fclose(null);
	mem = open_memstream(&doc, &len);
	EXPECT_TRUE(mem != NULL);
	if (!mem)
		return;
	EXPECT_EQ_INT(cli("pfcoff", "--json", "-", mem), 6);
	fclose(mem);
	EXPECT_TRUE(doc && strstr(doc, "\"check\": \"pfc\",\n"));
	EXPECT_TRUE(doc && strstr(doc, "pfc_en 0x00"));
	EXPECT_TRUE(doc && strstr(doc, "\"check\": \"link_flaps\""));
	free(doc);
}

int main(void)
{
	test_healthy();
	test_lossless_trees();
	test_link_history();
	test_other_class();
	test_unknown();
	test_cli();
	return test_finish("test_lossless");
}
