// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/host/topo.c (and ib_doctor's GPUs, by its rule) on
 * tests/fixtures/topo/dgx (an 8-GPU, 8-NIC, two-socket server;
 * make-dgx.sh there describes and rebuilds it), found under $TEST_SRCDIR
 * (default ".").
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test.h"
#include "doctor/inv.h"
#include "host/devnode.h"
#include "host/topo.h"

static char dgx[PATH_MAX];

struct pair_case {
	const char *gpu;
	const char *nic;
	enum topo_link link;
};

/* As `nvidia-smi topo -m` prints them on a server of this shape. */
static const struct pair_case pairs[] = {
	{ "0000:15:00.0", "mlx5_0", TOPO_PIX },  /* same leaf switch */
	{ "0000:19:00.0", "mlx5_1", TOPO_PIX },
	{ "0000:b9:00.0", "mlx5_7", TOPO_PIX },
	{ "0000:15:00.0", "mlx5_1", TOPO_PXB },  /* sibling leaf switches */
	{ "0000:99:00.0", "mlx5_4", TOPO_PXB },
	{ "0000:15:00.0", "mlx5_8", TOPO_PHB },  /* another root port */
	{ "0000:15:00.0", "mlx5_2", TOPO_NODE }, /* another host bridge */
	{ "0000:39:00.0", "mlx5_0", TOPO_NODE },
	{ "0000:15:00.0", "mlx5_4", TOPO_SYS },  /* the other socket */
	{ "0000:b5:00.0", "mlx5_3", TOPO_SYS },
	{ "0000:15:00.0", "rxe0", TOPO_UNKNOWN }, /* no PCI parent */
	{ "0000:15:00.0", "mlx5_99", TOPO_UNKNOWN },
};

/* The places topo compares, as host/devnode.c reads them on this tree. */
static void test_paths(void)
{
	struct devnode_addr a;

	EXPECT_EQ_INT(devnode_pci_addr(dgx, "0000:15:00.0", &a), 0);
	EXPECT_STREQ(a.place,
		     "pci0000:10/0000:10:01.0/0000:11:00.0/"
		     "0000:12:00.0/0000:13:00.0/0000:14:00.0/0000:15:00.0");
	EXPECT_EQ_INT(devnode_rdma_addr(dgx, "mlx5_8", &a), 0);
	EXPECT_STREQ(a.place, "pci0000:10/0000:10:03.0/0000:1f:00.0");
	EXPECT_STREQ(a.bdf, "0000:1f:00.0");
	EXPECT_EQ_INT(devnode_rdma_addr(dgx, "rxe0", &a), -ENOENT);
	EXPECT_EQ_INT(devnode_pci_addr(dgx, "0000:ff:00.0", &a), -ENOENT);
	EXPECT_EQ_INT(devnode_pci_addr(dgx, "../../..", &a), -ENOENT);
}

/* host/devnode.c on the same tree: through the PCI bus and the class. */
static void test_nodes(void)
{
	int node;

	EXPECT_EQ_INT(devnode_pci(dgx, "0000:15:00.0", &node), 0);
	EXPECT_EQ_INT(node, 0);
	EXPECT_EQ_INT(devnode_pci(dgx, "0000:96:00.0", &node), 0);
	EXPECT_EQ_INT(node, 1);
	EXPECT_EQ_INT(devnode_pci(dgx, "0000:ff:00.0", &node), -ENOENT);
	EXPECT_EQ_INT(node, -1);
	EXPECT_EQ_INT(devnode_pci(dgx, "../..", &node), -ENOENT);
	EXPECT_EQ_INT(devnode_rdma(dgx, "mlx5_4", &node), 0);
	EXPECT_EQ_INT(node, 1);
	EXPECT_EQ_INT(devnode_rdma(dgx, "rxe0", &node), -ENOENT);
	EXPECT_EQ_INT(node, -1);
	EXPECT_EQ_INT(devnode_rdma(dgx, "", &node), -ENOENT);
}

/* One rule for what is a GPU: topo's, and ib_doctor's inventory by it. */
static void test_gpus(void)
{
	struct probe none = { 0 };
	char root[PATH_MAX];
	struct inv inv;
	size_t i;

	EXPECT_TRUE(topo_is_gpu(dgx, "0000:15:00.0"));
	EXPECT_TRUE(!topo_is_gpu(dgx, "0000:16:00.0")); /* a NIC */
	EXPECT_TRUE(!topo_is_gpu(dgx, "0000:14:00.0")); /* a bridge */
	EXPECT_TRUE(!topo_is_gpu(dgx, "0000:ff:00.0"));
	EXPECT_TRUE(!topo_is_gpu(dgx, "../devices/0000:15:00.0"));
	EXPECT_TRUE(!topo_is_gpu(dgx, ""));
	snprintf(root, sizeof(root), "%.*s", (int)(strlen(dgx) - 4), dgx);
	EXPECT_EQ_INT(inv_read(root, &none, &inv), 0);
	EXPECT_EQ_INT(inv.ngpu, 8);
	for (i = 0; i < inv.ngpu; i++)
		EXPECT_TRUE(topo_is_gpu(dgx, inv.gpus[i].bdf));
	inv_free(&inv);
}

static void test_pairs(void)
{
	struct topo_rel r;
	size_t i;

	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		memset(&r, 0xa5, sizeof(r));
		EXPECT_EQ_INT(topo_gpu_nic(dgx, pairs[i].gpu, pairs[i].nic, &r),
			      0);
		if (r.link != pairs[i].link)
			fprintf(stderr, "  pair %s %s: %s, want %s\n",
				pairs[i].gpu, pairs[i].nic,
				topo_link_name(r.link),
				topo_link_name(pairs[i].link));
		EXPECT_EQ_INT(r.link, pairs[i].link);
		/* a warning exactly when worse than PXB */
		EXPECT_EQ_INT(r.warn[0] != '\0', pairs[i].link > TOPO_PXB);
	}
	EXPECT_EQ_INT(topo_gpu_nic(dgx, "0000:ff:00.0", "mlx5_0", &r),
		      -ENOENT);
}

/* The SYS pair of perftest issue #241 names the GPU and NIC to use. */
static void test_sys_advice(void)
{
	struct topo_rel r;

	EXPECT_EQ_INT(topo_gpu_nic(dgx, "0000:15:00.0", "mlx5_4", &r), 0);
	EXPECT_STREQ(r.nic_bdf, "0000:96:00.0");
	EXPECT_EQ_INT(r.gpu_node, 0);
	EXPECT_EQ_INT(r.nic_node, 1);
	EXPECT_STREQ(r.best_gpu, "0000:95:00.0");
	EXPECT_EQ_INT(r.best_gpu_link, TOPO_PIX);
	EXPECT_STREQ(r.best_nic, "mlx5_0");
	EXPECT_EQ_INT(r.best_nic_link, TOPO_PIX);
	EXPECT_STREQ(r.warn,
		     "GPU 0000:15:00.0 and mlx5_4 (0000:96:00.0) are SYS "
		     "apart, through the link between CPU sockets: GPUDirect "
		     "RDMA on such a path usually runs well below line rate; "
		     "use GPU 0000:95:00.0 instead "
		     "(--use_cuda_bus_id=0000:95:00.0, PIX to mlx5_4), or the "
		     "NIC mlx5_0 (-d mlx5_0, PIX to the GPU); 'nvidia-smi topo "
		     "-m' shows every pair");
	/* the storage NIC: the GPU's own NIC is nearer */
	EXPECT_EQ_INT(topo_gpu_nic(dgx, "0000:19:00.0", "mlx5_8", &r), 0);
	EXPECT_EQ_INT(r.link, TOPO_PHB);
	EXPECT_STREQ(r.best_nic, "mlx5_1");
	EXPECT_TRUE(strstr(r.warn, "through the CPU's PCIe host bridge") !=
		    NULL);
}

static void test_classify(void)
{
	/* pure string cases beyond the fixture */
	EXPECT_EQ_INT(topo_classify("pci0000:00/0000:00:02.0", -1,
				    "pci0000:00/0000:00:03.0", -1), TOPO_PHB);
	EXPECT_EQ_INT(topo_classify("pci0000:00/0000:00:01.0/0000:01:00.0", 0,
				    "pci0000:00/0000:00:01.0/0000:01:00.1", 0),
		      TOPO_PIX); /* two functions of one device */
	EXPECT_EQ_INT(topo_classify("pci0000:00/0000:00:02.0", -1,
				    "pci0000:80/0000:80:02.0", -1),
		      TOPO_NODE); /* no NUMA information: one node */
	EXPECT_EQ_INT(topo_classify("pci0000:00/0000:00:02.0", 0,
				    "pci0000:80/0000:80:02.0", -1), TOPO_SYS);
	EXPECT_EQ_INT(topo_classify("virtual/infiniband/rxe0", -1,
				    "pci0000:00/0000:00:02.0", 0),
		      TOPO_UNKNOWN);
	EXPECT_EQ_INT(topo_classify("pci0000:00", 0, "pci0000:00", 0),
		      TOPO_UNKNOWN);
	EXPECT_STREQ(topo_link_name(TOPO_NODE), "NODE");
	EXPECT_STREQ(topo_link_name((enum topo_link)42), "unknown");
}

int main(void)
{
	const char *src = getenv("TEST_SRCDIR");

	snprintf(dgx, sizeof(dgx), "%s/tests/fixtures/topo/dgx/sys",
		 src ? src : ".");
	test_paths();
	test_nodes();
	test_gpus();
	test_pairs();
	test_sys_advice();
	test_classify();
	return test_finish("test_topo");
}
