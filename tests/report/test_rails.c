// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for --rails: the list's parser and "auto" over a sysfs tree made
 * here (common/spec/rails.c, common/host/ports.c), and the node's sum,
 * gate and exit code (common/report/rails_report.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/rails_report.h"
#include "report/results.h"
#include "spec/bench.h"
#include "spec/rails.h"
#include "tests/test.h"

static void test_parse_ok(void)
{
	struct rails r;
	char err[256];

	EXPECT_EQ_INT(rails_parse("auto", &r, err, sizeof(err)), 0);
	EXPECT_TRUE(r.is_auto);
	EXPECT_EQ_U64(r.n, 0);
	EXPECT_EQ_INT(rails_parse("mlx5_0,eth1:2@1,rxe1@0", &r, err,
				  sizeof(err)), 0);
	EXPECT_TRUE(!r.is_auto);
	EXPECT_EQ_U64(r.n, 3);
	EXPECT_STREQ(r.items[0].name, "mlx5_0");
	EXPECT_EQ_INT(r.items[0].node, -1);
	EXPECT_EQ_U64(r.items[0].port, 0);
	EXPECT_STREQ(r.items[1].name, "eth1");
	EXPECT_EQ_U64(r.items[1].port, 2);
	EXPECT_EQ_INT(r.items[1].node, 1);
	EXPECT_STREQ(r.items[2].name, "rxe1");
	EXPECT_EQ_INT(r.items[2].node, 0);
	/* one port of one device twice is a duplicate; two ports are not */
	EXPECT_EQ_INT(rails_parse("mlx5_0:1,mlx5_0:2", &r, err, sizeof(err)),
		      0);
}

static void test_parse_bad(void)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "", "an empty rail" },
		{ "a,,b", "an empty rail" },
		{ "a,", "an empty rail" },
		{ ",a", "an empty rail" },
		{ "a@", "'' after 'a@' is no NUMA node" },
		{ "a@x", "'x' after 'a@' is no NUMA node" },
		{ "a@-1", "is no NUMA node" },
		{ "a:0", "'0' after 'a:' is no device port" },
		{ "a:1x", "is no device port" },
		{ "@1", "a rail needs a device or netdev name" },
		{ "mlx5_0,mlx5_0", "'mlx5_0' is named twice" },
		{ "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q", "more than 16 rails" },
	};
	struct rails r;
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		EXPECT_EQ_INT(rails_parse(bad[i].text, &r, err, sizeof(err)),
			      -EINVAL);
		if (!strstr(err, bad[i].msg))
			fprintf(stderr, "'%s': '%s' lacks '%s'\n", bad[i].text,
				err, bad[i].msg);
		EXPECT_TRUE(strstr(err, bad[i].msg) != NULL);
	}
}

/* root/sys/class/infiniband/DEV/ports/PORT/state = STATE */
static void put_state(const char *root, const char *dev, int port,
		      const char *state)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/class", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/class/infiniband", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/class/infiniband/%s", root, dev);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/class/infiniband/%s/ports", root,
		 dev);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/class/infiniband/%s/ports/%d",
		 root, dev, port);
	mkdir(path, 0755);
	snprintf(path, sizeof(path),
		 "%s/sys/class/infiniband/%s/ports/%d/state", root, dev, port);
	f = fopen(path, "w");
	EXPECT_TRUE(f != NULL);
	if (f) {
		fprintf(f, "%s\n", state);
		fclose(f);
	}
}

static void test_auto(void)
{
	char root[] = "/tmp/test_rails.XXXXXX", err[256], cmd[300];
	struct rails r = { .is_auto = true };

	if (!mkdtemp(root)) {
		EXPECT_TRUE(false);
		return;
	}
	EXPECT_EQ_INT(rails_auto(root, &r, err, sizeof(err)), -ENODEV);
	EXPECT_TRUE(strstr(err, "no RDMA port is ACTIVE") != NULL);
	put_state(root, "mlx5_10", 1, "4: ACTIVE");
	put_state(root, "mlx5_2", 1, "1: DOWN");
	put_state(root, "mlx5_2", 2, "4: ACTIVE");
	put_state(root, "mlx5_3", 1, "4: ACTIVE");
	EXPECT_EQ_INT(rails_auto(root, &r, err, sizeof(err)), 0);
	EXPECT_EQ_U64(r.n, 3);
	/* version order: mlx5_2 before mlx5_10; DOWN ports left out */
	EXPECT_STREQ(r.items[0].name, "mlx5_2");
	EXPECT_EQ_U64(r.items[0].port, 2);
	EXPECT_STREQ(r.items[1].name, "mlx5_3");
	EXPECT_STREQ(r.items[2].name, "mlx5_10");
	EXPECT_EQ_INT(r.items[2].node, -1);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	EXPECT_EQ_INT(system(cmd), 0);
}

static void test_report(void)
{
	struct rails_report_row rows[3] = {
		{ .name = "a", .gbps = 100.0, .exit_code = BENCH_EXIT_OK },
		{ .name = "b", .gbps = 95.0, .exit_code = BENCH_EXIT_OK },
		{ .name = "c", .gbps = NAN, .exit_code = BENCH_EXIT_OK },
	};
	char why[256];
	double sum = rails_report_sum(rows, 3);

	EXPECT_NEAR(sum, 195.0, 1e-9);
	EXPECT_EQ_INT(rails_report_exit(rows, 3, sum, 0, why, sizeof(why)),
		      BENCH_EXIT_OK);
	EXPECT_STREQ(why, "");
	EXPECT_EQ_INT(rails_report_exit(rows, 3, sum, 195.0, why,
					sizeof(why)), BENCH_EXIT_OK);
	/* the node gate alone */
	EXPECT_EQ_INT(rails_report_exit(rows, 3, sum, 200.0, why,
					sizeof(why)), BENCH_EXIT_GATE);
	EXPECT_STREQ(why, "node: 195.00 Gb/s over 3 rails < expected 200.00 "
		     "Gb/s (--expect-node-gbps)");
	/* a rail's gate alone */
	rows[1].exit_code = BENCH_EXIT_GATE;
	EXPECT_EQ_INT(rails_report_exit(rows, 3, sum, 0, why, sizeof(why)),
		      BENCH_EXIT_GATE);
	EXPECT_STREQ(why, "");
	/* an error beats a gate, a wrong byte beats an error */
	rows[0].exit_code = BENCH_EXIT_PEER;
	EXPECT_EQ_INT(rails_report_exit(rows, 3, sum, 200.0, why,
					sizeof(why)), BENCH_EXIT_PEER);
	rows[2].exit_code = BENCH_EXIT_CORRUPT;
	EXPECT_EQ_INT(rails_report_exit(rows, 3, sum, 0, why, sizeof(why)),
		      BENCH_EXIT_CORRUPT);
}

static void test_print(void)
{
	struct rails_report_row rows[2] = {
		{ .name = "rxe0", .place = "0, CPUs 0", .gbps = 1.5 },
		{ .name = "rxe1", .place = "not pinned", .gbps = NAN,
		  .exit_code = BENCH_EXIT_PEER },
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		EXPECT_TRUE(false);
		return;
	}
	rails_report_print(f, rows, 2, 1.5, BENCH_EXIT_PEER);
	fclose(f);
	EXPECT_TRUE(strstr(buf, " 0     rxe0             0, CPUs 0        "
			   "1.50                0\n") != NULL);
	EXPECT_TRUE(strstr(buf, " 1     rxe1             not pinned       "
			   "0.00                5\n") != NULL);
	EXPECT_TRUE(strstr(buf, " node  sum                               "
			   "1.50                5\n") != NULL);
	free(buf);
}

/* The document's "rails" array: absent for one link, a row per rail. */
static void test_json(void)
{
	static struct results_doc d;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	results_init(&d);
	f = open_memstream(&buf, &len);
	EXPECT_EQ_INT(results_write_json(&d, f), 0);
	fclose(f);
	EXPECT_TRUE(buf && !strstr(buf, "\"rails\""));
	free(buf);
	d.n_rails = 2;
	d.rails[0] = (struct results_rail){ .device = "rxe0", .tcp_port = 18515,
		.numa_node = 0, .cpus = "0", .bw_gbps = 1.5,
		.verdict = RESULTS_PASS };
	d.rails[1] = (struct results_rail){ .device = "rxe1", .tcp_port = 18516,
		.numa_node = -1, .bw_gbps = NAN, .verdict = RESULTS_ERROR,
		.exit_code = 5, .error = "peer lost" };
	f = open_memstream(&buf, &len);
	EXPECT_EQ_INT(results_write_json(&d, f), 0);
	fclose(f);
	EXPECT_TRUE(strstr(buf, "\"rails\": [") != NULL);
	EXPECT_TRUE(strstr(buf, "\"device\": \"rxe1\",\n      \"port\": "
			   "18516,\n      \"numa_node\": null,\n      "
			   "\"cpus\": null,\n      \"bw_gbps\": null") != NULL);
	EXPECT_TRUE(strstr(buf, "\"error\": \"peer lost\"") != NULL);
	free(buf);
	d.n_rails = RESULTS_MAX_RAILS + 1;
	EXPECT_EQ_INT(results_write_json(&d, stdout), -EINVAL);
}

int main(void)
{
	test_json();
	test_parse_ok();
	test_parse_bad();
	test_auto();
	test_report();
	test_print();
	return test_finish("test_rails");
}
