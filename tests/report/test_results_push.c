// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/report/results_push.c: the Pushgateway grouping path
 * (the job when the URL names none, the operator's keys kept, base64 for
 * values a path cannot carry) and the textfile collector's file name.
 * Pure: no gateway here; tests/scripts/test_metrics_e2e.sh pushes to
 * Debian's real prometheus-pushgateway.
 */
#include <errno.h>

#include "report/results_push.h"
#include "tests/test.h"

static void doc(struct results_doc *d, const char *peer)
{
	results_init(d);
	results_copy(d->tool, sizeof(d->tool), "ib_write_bw");
	results_copy(d->host, sizeof(d->host), "node-07");
	results_copy(d->device.name, sizeof(d->device.name), "mlx5_3");
	results_copy(d->device.peer_addr, sizeof(d->device.peer_addr), peer);
	d->role = RESULTS_ROLE_CLIENT;
}

static void test_path(void)
{
	static struct results_doc d;
	char p[1024];

	doc(&d, "10.0.3.8:18515 (TCP)");
	EXPECT_EQ_INT(results_push_path(&d, "", p, sizeof(p)), 0);
	EXPECT_STREQ(p, "/metrics/job/rdmabench/instance/node-07/test/"
		     "ib_write_bw/role/client/device/mlx5_3/peer/10.0.3.8");
	EXPECT_EQ_INT(results_push_path(&d, "/metrics/job/acc/run/42/", p,
					sizeof(p)), 0);
	EXPECT_STREQ(p, "/metrics/job/acc/run/42/instance/node-07/test/"
		     "ib_write_bw/role/client/device/mlx5_3/peer/10.0.3.8");
	/* the operator's own value of a key wins (a pod names its node) */
	EXPECT_EQ_INT(results_push_path(&d, "/metrics/job/acc/instance/n9/"
					"run/4", p, sizeof(p)), 0);
	EXPECT_STREQ(p, "/metrics/job/acc/instance/n9/run/4/test/ib_write_bw/"
		     "role/client/device/mlx5_3/peer/10.0.3.8");
	EXPECT_EQ_INT(results_push_path(&d, "/metrics/job/instance/"
					"instance@base64/bjk=", p, sizeof(p)),
		      0);
	EXPECT_TRUE(!strstr(p, "node-07"));
	/* a job named "instance" is no key */
	EXPECT_EQ_INT(results_push_path(&d, "/metrics/job/instance", p,
					sizeof(p)), 0);
	EXPECT_TRUE(strstr(p, "/instance/node-07/") != NULL);
	EXPECT_EQ_INT(results_push_path(&d, "/pgw", p, sizeof(p)), 0);
	EXPECT_TRUE(!strncmp(p, "/pgw/metrics/job/rdmabench/instance/", 36));
	doc(&d, "[fd00::8]:18515");
	EXPECT_EQ_INT(results_push_path(&d, "", p, sizeof(p)), 0);
	EXPECT_TRUE(strstr(p, "/peer@base64/ZmQwMDo6OA==") != NULL);
	d.device.name[0] = '\0';	/* an error before the device: left out */
	EXPECT_EQ_INT(results_push_path(&d, "", p, sizeof(p)), 0);
	EXPECT_TRUE(!strstr(p, "/device/"));
	EXPECT_EQ_INT(results_push_path(&d, "", p, 40), -ENAMETOOLONG);
}

static void test_textfile(void)
{
	static struct results_doc d;
	char p[1024];

	doc(&d, "10.0.3.8:18515 (TCP)");
	EXPECT_EQ_INT(results_textfile_path(&d, "/var/lib/node-exporter/", p,
					    sizeof(p)), 0);
	EXPECT_STREQ(p, "/var/lib/node-exporter/rdmabench_ib_write_bw_client_"
		     "mlx5_3_10.0.3.8.prom");
	doc(&d, "[fd00::8]:18515");
	d.role = RESULTS_ROLE_SERVER;
	EXPECT_EQ_INT(results_textfile_path(&d, "tf", p, sizeof(p)), 0);
	EXPECT_STREQ(p, "tf/rdmabench_ib_write_bw_server_mlx5_3_fd00__8.prom");
	EXPECT_EQ_INT(results_textfile_path(&d, "tf", p, 20), -ENAMETOOLONG);
}

int main(void)
{
	test_path();
	test_textfile();
	return test_finish("test_results_push");
}
