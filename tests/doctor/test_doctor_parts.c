// SPDX-License-Identifier: BSD-2-Clause
/*
 * ib_doctor's pure helpers one by one: the JSON reader, addresses, GIDs
 * and procfs routes, the RoCE MTU rule, sorted folder listing, findings
 * and their exit code, text and JSON output.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/fs.h"
#include "doctor/inv.h"
#include "lib/json_read.h"
#include "doctor/net.h"
#include "doctor/findings.h"
#include "tests/test.h"

static void test_json(void)
{
	const char *js = "[{\"name\": \"a\\\"b\", \"ips\": [\"1.2.3.4\", "
			 "\"::1\"], \"default\": true, \"x\": {\"y\": "
			 "[1, 2, {\"z\": null}]}}, {\"name\": \"\\u0041\"}]";
	struct json_read_tok t[64];
	char s[32];
	int n = json_read_parse(js, strlen(js), t, 64), e0, e1, v, ips;

	EXPECT_TRUE(n > 0);
	EXPECT_EQ_INT(t[0].type, JSON_READ_ARRAY);
	EXPECT_EQ_INT(t[0].size, 2);
	e0 = json_read_elem(t, n, 0, 0);
	e1 = json_read_elem(t, n, 0, 1);
	EXPECT_TRUE(e0 > 0 && e1 > e0);
	v = json_read_get(js, t, n, e0, "name");
	EXPECT_TRUE(v > 0 && json_read_str(js, &t[v], s, sizeof(s)));
	EXPECT_STREQ(s, "a\"b");
	ips = json_read_get(js, t, n, e0, "ips");
	v = json_read_elem(t, n, ips, 1);
	EXPECT_TRUE(v > 0 && json_read_str(js, &t[v], s, sizeof(s)));
	EXPECT_STREQ(s, "::1");
	EXPECT_EQ_INT(json_read_elem(t, n, ips, 2), -1);
	v = json_read_get(js, t, n, e0, "default");
	EXPECT_TRUE(v > 0 && json_read_true(js, &t[v]));
	/* the key after a nested value is still found */
	v = json_read_get(js, t, n, e1, "name");
	EXPECT_TRUE(v > 0 && json_read_str(js, &t[v], s, sizeof(s)));
	EXPECT_STREQ(s, "A");
	EXPECT_EQ_INT(json_read_get(js, t, n, e0, "missing"), -1);
	EXPECT_EQ_INT(json_read_parse("[1, 2", 5, t, 64), -EINVAL);
	EXPECT_EQ_INT(json_read_parse("{\"a\" 1}", 7, t, 64), -EINVAL);
	EXPECT_EQ_INT(json_read_parse("[1] x", 5, t, 64), -EINVAL);
	EXPECT_EQ_INT(json_read_parse(js, strlen(js), t, 4), -ENOMEM);
}

static void test_addr_gid(void)
{
	struct probe_addr a;
	unsigned char gid[16], sys[16];

	EXPECT_EQ_INT(net_addr_parse("198.18.0.1", &a), 0);
	EXPECT_EQ_INT(a.family, AF_INET);
	net_addr_gid(&a, gid);
	/* how the lab's rxe0 shows its RoCE v2 GID 1 */
	EXPECT_EQ_INT(net_gid_parse("0000:0000:0000:0000:0000:ffff:c612:0001",
				     sys), 0);
	EXPECT_TRUE(!memcmp(gid, sys, 16));
	EXPECT_EQ_INT(net_addr_parse("fe80::c65:7bff:fec3:aa7a", &a), 0);
	EXPECT_TRUE(net_addr_link_local(&a));
	EXPECT_EQ_INT(net_addr_parse("fd00::5", &a), 0);
	EXPECT_TRUE(!net_addr_link_local(&a));
	EXPECT_EQ_INT(net_addr_parse("mlx5_0", &a), -EINVAL);
	EXPECT_EQ_INT(net_gid_parse("garbage", sys), -EINVAL);
}

static void test_roce_mtu(void)
{
	/* the kernel's iboe_get_mtu(): netdev MTU minus 96 header bytes */
	EXPECT_EQ_INT(net_roce_mtu(1500), 1024);
	EXPECT_EQ_INT(net_roce_mtu(4200), 4096);
	EXPECT_EQ_INT(net_roce_mtu(4191), 2048);
	EXPECT_EQ_INT(net_roce_mtu(9000), 4096);
	EXPECT_EQ_INT(net_roce_mtu(2144), 2048);
	EXPECT_EQ_INT(net_roce_mtu(1000), 512);
	EXPECT_EQ_INT(net_roce_mtu(300), 0);
}

static void test_route_proc(void)
{
	const char *src = getenv("TEST_SRCDIR");
	char root[PATH_MAX], ifname[PROBE_IFNAME_LEN];
	struct probe_addr a;

	snprintf(root, sizeof(root), "%s/tests/fixtures/doctor/healthy",
		 src && src[0] ? src : ".");
	net_addr_parse("10.0.0.77", &a);
	EXPECT_EQ_INT(net_route_proc(root, &a, ifname, sizeof(ifname)), 0);
	EXPECT_STREQ(ifname, "ens1np0");
	net_addr_parse("8.8.8.8", &a);
	EXPECT_EQ_INT(net_route_proc(root, &a, ifname, sizeof(ifname)), 0);
	EXPECT_STREQ(ifname, "eth0");
	/* no ipv6_route file in the tree */
	net_addr_parse("fd00::1", &a);
	EXPECT_EQ_INT(net_route_proc(root, &a, ifname, sizeof(ifname)),
		      -ENOENT);
}

static void test_fs(void)
{
	char dir[] = "/tmp/test_doctor_fs.XXXXXX", path[PATH_MAX], **names;
	const char *const make[] = { "mlx5_10", "mlx5_2", "mlx5_1" };
	size_t n, i;
	long v;

	EXPECT_TRUE(mkdtemp(dir) != NULL);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, make[i]);
		EXPECT_EQ_INT(mkdir(path, 0755), 0);
	}
	EXPECT_EQ_INT(fs_list(dir, &names, &n, "/"), 0);
	EXPECT_EQ_U64(n, 3);
	if (n == 3) {
		EXPECT_STREQ(names[0], "mlx5_1");
		EXPECT_STREQ(names[1], "mlx5_2");
		EXPECT_STREQ(names[2], "mlx5_10");
	}
	free(names);
	EXPECT_EQ_INT(fs_list(dir, &names, &n, "/absent"), -ENOENT);
	EXPECT_EQ_U64(n, 0);
	snprintf(path, sizeof(path), "%s/mlx5_1/numa_node", dir);
	FILE *f = fopen(path, "w");

	if (f) {
		fputs("1\n", f);
		fclose(f);
	}
	EXPECT_EQ_INT(fs_read_long(dir, &v, "/mlx5_1/numa_node"), 0);
	EXPECT_EQ_INT(v, 1);
	EXPECT_TRUE(fs_exists(dir, "/mlx5_%d", 2));
	EXPECT_TRUE(!fs_exists(dir, "/mlx5_3"));
	unlink(path);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, make[i]);
		rmdir(path);
	}
	rmdir(dir);
}

static void test_report(void)
{
	struct findings r = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *out;
	long state;
	char name[24];

	EXPECT_EQ_INT(findings_exit_code(&r), FINDINGS_EXIT_OK);
	findings_add(&r, 1, "devices", "host", VERDICT_PASS, "%d device", 1);
	findings_add(&r, 9, "pod_network", "-", VERDICT_SKIP, "not a pod");
	EXPECT_EQ_INT(findings_exit_code(&r), FINDINGS_EXIT_OK);
	findings_add(&r, 3, "mtu", "rxe0/1", VERDICT_WARN, "MTU \"1024\"");
	findings_fix(&r, "ip link set %s mtu 9000", "rxe_if");
	EXPECT_EQ_INT(findings_exit_code(&r), FINDINGS_EXIT_WARN);
	EXPECT_STREQ(findings_find(&r, "mtu", NULL)->fix,
		     "ip link set rxe_if mtu 9000");
	out = open_memstream(&text, &len);
	findings_print_text(&r, out);
	findings_print_json(&r, "lab", NULL, out);
	fclose(out);
	EXPECT_TRUE(strstr(text, "  WARN   3    mtu           rxe0/1") != NULL);
	EXPECT_TRUE(strstr(text, "fix: ip link set rxe_if mtu 9000") != NULL);
	EXPECT_TRUE(strstr(text, "# 1 PASS, 1 WARN, 0 FAIL, 1 SKIP: exit 6 "
			   "(warnings)") != NULL);
	EXPECT_TRUE(strstr(text, "\"detail\": \"MTU \\\"1024\\\"\"") != NULL);
	EXPECT_TRUE(strstr(text, "\"peer\": null") != NULL);
	free(text);
	findings_add(&r, 6, "memlock", "host", VERDICT_FAIL, "64 KiB");
	EXPECT_EQ_INT(findings_exit_code(&r), FINDINGS_EXIT_FAIL);
	r.lost = true;
	EXPECT_EQ_INT(findings_exit_code(&r), FINDINGS_EXIT_RUNTIME);
	findings_free(&r);

	EXPECT_EQ_INT(inv_parse_state("4: ACTIVE", &state, name,
					 sizeof(name)), 0);
	EXPECT_EQ_INT(state, 4);
	EXPECT_STREQ(name, "ACTIVE");
	EXPECT_EQ_INT(inv_parse_state("ACTIVE", &state, name,
					 sizeof(name)), -EINVAL);
}

int main(void)
{
	test_json();
	test_addr_gid();
	test_roce_mtu();
	test_route_proc();
	test_fs();
	test_report();
	return test_finish("test_doctor_parts");
}
