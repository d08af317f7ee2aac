// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/host/sysver.c over a fake tree (a stand-in for a
 * node's /proc and /sys, planted here): the kernel release, a device's
 * driver through its link (none for a software device), a module's
 * version (none in-tree), NVIDIA's, and rdma-core's release from
 * libibverbs' file name.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "host/sysver.h"
#include "tests/test.h"
#include "tests/tree.h"

static void test_tree(const char *root)
{
	char buf[64], link[PATH_MAX + 64], dir[PATH_MAX];

	tree_put(root, "proc/sys/kernel/osrelease", "6.8.0-45-generic\n");
	tree_put(root, "sys/bus/pci/drivers/mlx5_core/.keep", "");
	tree_put(root, "sys/devices/pci0000:00/0000:17:00.0/.keep", "");
	tree_put(root, "sys/class/infiniband/rxe0/.keep", "");
	tree_put(root, "sys/module/mlx5_core/version", "24.10-1.1.4\n");
	snprintf(dir, sizeof(dir), "%s/sys/class/infiniband/mlx5_0", root);
	EXPECT_EQ_INT(mkdir(dir, 0755), 0);
	snprintf(link, sizeof(link), "%s/device", dir);
	EXPECT_EQ_INT(symlink("../../../devices/pci0000:00/0000:17:00.0",
			      link), 0);
	snprintf(link, sizeof(link),
		 "%s/sys/devices/pci0000:00/0000:17:00.0/driver", root);
	EXPECT_EQ_INT(symlink("../../../bus/pci/drivers/mlx5_core", link), 0);

	EXPECT_EQ_INT(sysver_kernel(root, buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "6.8.0-45-generic");
	EXPECT_EQ_INT(sysver_driver(root, "mlx5_0", buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "mlx5_core");
	EXPECT_EQ_INT(sysver_module(root, "mlx5_core", buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "24.10-1.1.4");
	EXPECT_TRUE(sysver_driver(root, "rxe0", buf, sizeof(buf)) < 0);
	EXPECT_STREQ(buf, "");
	EXPECT_EQ_INT(sysver_driver(root, "../x", buf, sizeof(buf)), -EINVAL);
	EXPECT_EQ_INT(sysver_module(root, "ib_core", buf, sizeof(buf)),
		      -ENOENT);
	EXPECT_EQ_INT(sysver_nvidia(root, buf, sizeof(buf)), -ENOENT);
	tree_put(root, "sys/module/nvidia/version", "550.54.15\n");
	EXPECT_EQ_INT(sysver_nvidia(root, buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "550.54.15");
}

static void test_rdma_core(void)
{
	char buf[16];

	EXPECT_EQ_INT(sysver_rdma_core("/usr/lib/x86_64-linux-gnu/"
				       "libibverbs.so.1.14.50.0", buf,
				       sizeof(buf)), 0);
	EXPECT_STREQ(buf, "50.0");
	EXPECT_EQ_INT(sysver_rdma_core("libibverbs.so.1.14.44.0", buf,
				       sizeof(buf)), 0);
	EXPECT_STREQ(buf, "44.0");
	EXPECT_EQ_INT(sysver_rdma_core("/lib/libibverbs.so.1", buf,
				       sizeof(buf)), -EINVAL);
	EXPECT_STREQ(buf, "");
	EXPECT_EQ_INT(sysver_rdma_core("/lib/libibverbs.so.1.x.50.0", buf,
				       sizeof(buf)), -EINVAL);
	EXPECT_EQ_INT(sysver_rdma_core("/lib/libmlx5.so.1.24.50.0", buf,
				       sizeof(buf)), -EINVAL);
	EXPECT_EQ_INT(sysver_rdma_core(NULL, buf, sizeof(buf)), -EINVAL);
}

int main(void)
{
	char root[] = "/tmp/test_sysver.XXXXXX";
	char cmd[64];

	if (!mkdtemp(root))
		return 1;
	test_tree(root);
	test_rdma_core();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "test_sysver: could not remove %s\n", root);
	return test_finish("test_sysver");
}
