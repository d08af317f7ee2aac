// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/host/gpupair.c (--use_cuda auto) and the table of
 * common/report/gpupair_table.c, on the sysfs fixtures of
 * tests/fixtures/topo: dgx (8 GPUs, 8 NICs each beside its GPU, a storage
 * NIC on its own root port, rxe0 without PCI) and twonic (2 NICs, 4 GPUs:
 * one NIC on a switch with two GPUs, one on a switch of its own). Each
 * make-*.sh there describes and rebuilds its tree. Found under
 * $TEST_SRCDIR (default ".").
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test.h"
#include "host/gpupair.h"
#include "report/gpupair_table.h"

static char dgx[PATH_MAX], twonic[PATH_MAX];

/* The dgx GPUs in bus order: CUDA ordinal i is GPUi of make-dgx.sh. */
static const char dgx_gpus[8][GPUPAIR_BDF_MAX] = {
	"0000:15:00.0", "0000:19:00.0", "0000:35:00.0", "0000:39:00.0",
	"0000:95:00.0", "0000:99:00.0", "0000:b5:00.0", "0000:b9:00.0",
};

static const char twonic_gpus[4][GPUPAIR_BDF_MAX] = {
	"0000:03:00.0", "0000:04:00.0", "0000:83:00.0", "0000:84:00.0",
};

/* Eight rails, eight GPUs: each NIC gets the GPU on its leaf switch. */
static void test_dgx_eight(void)
{
	struct gpupair_nic nics[8];
	struct gpupair p[8];
	char names[8][16];
	int i;

	for (i = 0; i < 8; i++) {
		snprintf(names[i], sizeof(names[i]), "mlx5_%d", i);
		nics[i] = (struct gpupair_nic){ names[i], -1 };
	}
	EXPECT_EQ_INT(gpupair_plan(dgx, dgx_gpus, 8, nics, 8, p), 0);
	for (i = 0; i < 8; i++) {
		EXPECT_EQ_INT(p[i].gpu, i);
		EXPECT_EQ_INT(p[i].link, TOPO_PIX);
		EXPECT_EQ_INT(p[i].nic_node, i / 4);
		EXPECT_EQ_INT(p[i].gpu_node, i / 4);
		EXPECT_TRUE(!p[i].far);
	}
}

/* CUDA's ordinals need not be bus order: the pair follows the bus id. */
static void test_dgx_ordinals(void)
{
	static const char rev[8][GPUPAIR_BDF_MAX] = {
		"0000:b9:00.0", "0000:b5:00.0", "0000:99:00.0", "0000:95:00.0",
		"0000:39:00.0", "0000:35:00.0", "0000:19:00.0", "0000:15:00.0",
	};
	struct gpupair_nic nics[2] = { { "mlx5_0", -1 }, { "mlx5_5", -1 } };
	struct gpupair p[2];

	EXPECT_EQ_INT(gpupair_plan(dgx, rev, 8, nics, 2, p), 0);
	EXPECT_EQ_INT(p[0].gpu, 7);
	EXPECT_EQ_INT(p[1].gpu, 2);
	EXPECT_EQ_INT(p[1].link, TOPO_PIX);
}

/* The storage NIC: no GPU on its root port; the nearest are PHB, far. */
static void test_dgx_storage(void)
{
	struct gpupair_nic nics[3] = { { "mlx5_8", -1 }, { "mlx5_8", -1 },
				       { "mlx5_8", -1 } };
	struct gpupair p[3];
	char msg[GPUPAIR_MSG_MAX];

	EXPECT_EQ_INT(gpupair_plan(dgx, dgx_gpus, 8, nics, 3, p), 0);
	/* GPU0 and GPU1 tie (PHB, node 0): the free one, then the lower */
	EXPECT_EQ_INT(p[0].gpu, 0);
	EXPECT_EQ_INT(p[1].gpu, 1);
	EXPECT_EQ_INT(p[2].gpu, 0);
	EXPECT_EQ_INT(p[0].link, TOPO_PHB);
	EXPECT_TRUE(p[0].far);
	gpupair_warn(&p[0], "mlx5_8", dgx_gpus[0], msg, sizeof(msg));
	EXPECT_TRUE(!strncmp(msg, "mlx5_8: its nearest GPU, 0 (0000:15:00.0), "
			     "is PHB away, beyond the NIC's PCIe switch "
			     "(through the CPU's PCIe host bridge)", 100));
	/* only the other socket's GPUs: SYS */
	EXPECT_EQ_INT(gpupair_plan(dgx, dgx_gpus + 4, 4, nics, 1, p), 0);
	EXPECT_EQ_INT(p[0].link, TOPO_SYS);
	EXPECT_EQ_INT(p[0].gpu, 0);
	EXPECT_EQ_INT(p[0].gpu_node, 1);
}

/* Soft-RoCE: no PCI path; NUMA (from NAME@NODE) and then ordinal rule. */
static void test_dgx_rxe(void)
{
	struct gpupair_nic nics[2] = { { "rxe0", 1 }, { "rxe0", -1 } };
	struct gpupair p[2];
	char msg[GPUPAIR_MSG_MAX];

	EXPECT_EQ_INT(gpupair_plan(dgx, dgx_gpus, 8, nics, 2, p), 0);
	EXPECT_EQ_INT(p[0].link, TOPO_UNKNOWN);
	EXPECT_EQ_INT(p[0].gpu, 4);             /* first GPU of node 1 */
	EXPECT_EQ_INT(p[0].nic_node, 1);
	EXPECT_EQ_INT(p[1].gpu, 0);
	EXPECT_EQ_INT(p[1].nic_node, -1);
	EXPECT_TRUE(!p[0].far);
	gpupair_warn(&p[0], "rxe0", dgx_gpus[4], msg, sizeof(msg));
	EXPECT_STREQ(msg, "");
	/* GPUs that are not in sysfs at all (a fake driver, a VM) */
	EXPECT_EQ_INT(gpupair_plan(dgx, (const char (*)[GPUPAIR_BDF_MAX])
				   "0000:3b:00.0\0", 1, nics, 2, p), 0);
	EXPECT_EQ_INT(p[0].gpu, 0);
	EXPECT_EQ_INT(p[0].gpu_node, -1);
	EXPECT_EQ_INT(gpupair_plan(dgx, dgx_gpus, 0, nics, 2, p), -ENODEV);
}

/* Two NICs, four GPUs: PIX for one, PHB (far) for the lone one. */
static void test_twonic(void)
{
	struct gpupair_nic nics[3] = { { "mlx5_0", -1 }, { "mlx5_1", -1 },
				       { "ens5", -1 } };
	struct gpupair p[3];

	EXPECT_EQ_INT(gpupair_plan(twonic, twonic_gpus, 4, nics, 3, p), 0);
	EXPECT_EQ_INT(p[0].gpu, 0);
	EXPECT_EQ_INT(p[0].link, TOPO_PIX);
	EXPECT_EQ_INT(p[1].gpu, 2);
	EXPECT_EQ_INT(p[1].link, TOPO_PHB);
	EXPECT_EQ_INT(p[1].nic_node, 1);
	EXPECT_TRUE(p[1].far);
	/* the netdev of mlx5_0: its switch's other GPU, still PIX */
	EXPECT_EQ_INT(p[2].gpu, 1);
	EXPECT_EQ_INT(p[2].link, TOPO_PIX);
	/* CUDA_VISIBLE_DEVICES=0,1: the lone NIC's GPU is on the other
	 * socket */
	EXPECT_EQ_INT(gpupair_plan(twonic, twonic_gpus, 2, nics + 1, 1, p), 0);
	EXPECT_EQ_INT(p[0].link, TOPO_SYS);
	EXPECT_TRUE(p[0].far);
}

static void test_table(void)
{
	struct gpupair_nic nics[2] = { { "mlx5_0", -1 }, { "mlx5_1", -1 } };
	struct gpupair p[2];
	struct gpupair_table_row rows[2];
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	gpupair_plan(twonic, twonic_gpus, 4, nics, 2, p);
	rows[0] = (struct gpupair_table_row){ "mlx5_0", twonic_gpus[0], &p[0] };
	rows[1] = (struct gpupair_table_row){ "mlx5_1", twonic_gpus[2], &p[1] };
	f = open_memstream(&text, &len);
	EXPECT_TRUE(f != NULL);
	if (!f)
		return;
	gpupair_table_print(f, rows, 2);
	fclose(f);
	EXPECT_STREQ(text,
		     "--- GPU per rail (--use_cuda auto) ---\n"
		     " rail  NIC              GPU  bus id        PCIe     "
		     "NUMA NIC/GPU\n"
		     "    0  mlx5_0             0  0000:03:00.0  PIX      0/0\n"
		     "    1  mlx5_1             2  0000:83:00.0  PHB      1/1  "
		     "beyond the NIC's switch\n");
	free(text);
}

int main(void)
{
	const char *src = getenv("TEST_SRCDIR");

	snprintf(dgx, sizeof(dgx), "%s/tests/fixtures/topo/dgx/sys",
		 src ? src : ".");
	snprintf(twonic, sizeof(twonic), "%s/tests/fixtures/topo/twonic/sys",
		 src ? src : ".");
	test_dgx_eight();
	test_dgx_ordinals();
	test_dgx_storage();
	test_dgx_rxe();
	test_twonic();
	test_table();
	return test_finish("test_gpupair");
}
