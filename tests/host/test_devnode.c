// SPDX-License-Identifier: BSD-2-Clause
/*
 * One fact, one reader: a NIC's NUMA node as host/devnode.c reads it, and
 * what each of its users makes of it, on a two-node tree planted in a
 * temporary folder (mlx5_0 a PCI function behind links, as sysfs has it).
 * For numa_node "1", "-1" and garbage, the placement decision
 * (place_decide), the text header's "NUMA node" and "Memory" fields
 * (report_header over the plan), the results JSON's placement.numa_node
 * (results_set_placement) and ib_doctor's "numa" finding must all agree,
 * and with them the link facts (link_read) and devnode itself. The same
 * for a device's PCI function (devnode_*_addr): its address and place as
 * the link facts and ib_doctor's inventory take them, and none for a
 * device that is no PCI function (rxe, a platform device, a USB NIC).
 */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "doctor/chk.h"
#include "host/devnode.h"
#include "host/link.h"
#include "host/place.h"
#include "lib/json_read.h"
#include "report/report.h"
#include "report/results.h"
#include "tests/test.h"
#include "tests/tree.h"

#define NIC_PCI "sys/devices/pci0000:00/0000:00:01.0/0000:3b:00.0"

struct node_case {
	const char *text;       /* what numa_node holds */
	int node;               /* what every user must take it for */
};

static const struct node_case cases[] = {
	{ "1\n", 1 },
	{ "0\n", 0 },
	{ "-1\n", -1 },         /* no ACPI _PXM on a two-socket host */
	{ "garbage\n", -1 },
	{ "0x1\n", -1 },        /* once 1 to place.c, 0 to rdma/dev.c */
	{ "1x\n", -1 },         /* once 1 to rdma/dev.c */
	{ "\n", -1 },
	{ "5000\n", -1 },       /* past the kernel's MAX_NUMNODES */
	{ "100000000000000000000000000000\n", -1 }, /* too long to read */
};

static void plant(const char *root)
{
	static const char *const dirs[] = {
		"sys/class", "sys/class/infiniband", "sys/bus", "sys/bus/pci",
		"sys/bus/pci/devices",
	};
	char path[PATH_MAX];
	size_t i;

	tree_put(root, "sys/devices/system/node/node0/cpulist", "0-3\n");
	tree_put(root, "sys/devices/system/node/node1/cpulist", "4-7\n");
	tree_put(root, "sys/devices/system/node/online", "0-1\n");
	tree_put(root, NIC_PCI "/infiniband/mlx5_0/node_type", "1: CA\n");
	tree_put(root, NIC_PCI "/infiniband/mlx5_0/ports/1/rate",
		 "100 Gb/sec (4X EDR)\n");
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		EXPECT_EQ_INT(mkdir(path, 0755), 0);
	}
	tree_put(root, "proc/self/status", "Cpus_allowed_list:\t0-7\n");
	snprintf(path, sizeof(path), "%s/sys/class/infiniband/mlx5_0", root);
	EXPECT_EQ_INT(symlink("../../devices/pci0000:00/0000:00:01.0/"
			      "0000:3b:00.0/infiniband/mlx5_0", path), 0);
	snprintf(path, sizeof(path), "%s/" NIC_PCI "/infiniband/mlx5_0/device",
		 root);
	EXPECT_EQ_INT(symlink("../../../0000:3b:00.0", path), 0);
	snprintf(path, sizeof(path), "%s/sys/bus/pci/devices/0000:3b:00.0",
		 root);
	EXPECT_EQ_INT(symlink("../../../devices/pci0000:00/0000:00:01.0/"
			      "0000:3b:00.0", path), 0);
}

/* The placement, as the benches decide it: --numa auto, CPUs 0-7. */
static void decide(const char *sysfs, struct place_allowed *a,
		   struct place_plan *p)
{
	struct place_req req = { .mode = PLACE_AUTO, .node = -1 };
	char err[64];

	memset(a, 0, sizeof(*a));
	EXPECT_EQ_INT(place_cpulist_parse("0-7", &a->cpus, err, sizeof(err)),
		      0);
	EXPECT_EQ_INT(place_decide(sysfs, "mlx5_0", -1, &req, a, p), 0);
}

/* The header the plan gives: setup_print_header's two fields of it. */
static void expect_header(const struct place_plan *p, int node)
{
	struct report_info ri = {
		.title = "RDMA_Write BW Test", .role = "client",
		.dev_name = "mlx5_0", .fw_ver = "28.39", .transport = "IB",
		.port_state = "ACTIVE", .port = 1, .mtu_bytes = 4096,
		.numa_node = p->mem_node, .placement = p->summary,
		.local = "10.0.0.1:1", .peer = "10.0.0.2:18515", .qps = 1,
	};
	char *text = NULL, want[96];
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	if (!out)
		return;
	report_header(out, &ri);
	fclose(out);
	if (node >= 0)
		snprintf(want, sizeof(want), " NUMA node       : %d, CPUs %s\n"
			 , node, node ? "4-7" : "0-3");
	else
		snprintf(want, sizeof(want), " NUMA node       : unknown "
			 "(mlx5_0 has none), not pinned\n");
	TEST_CHECK_(strstr(text, want) != NULL, "header NUMA node",
		    "\"%s\" lacks \"%s\"", text, want);
	if (node >= 0)
		snprintf(want, sizeof(want), " Memory          : host, node "
			 "%d\n", node);
	else
		snprintf(want, sizeof(want), " Memory          : host, not "
			 "pinned\n");
	TEST_CHECK_(strstr(text, want) != NULL, "header Memory",
		    "\"%s\" lacks \"%s\"", text, want);
	free(text);
}

/* The results JSON's placement.numa_node. */
static void expect_json(const struct place_plan *p,
			const struct place_allowed *a, int node)
{
	static const char *const argv[] = { "ib_write_bw", "10.0.0.2" };
	struct results_doc *d = calloc(1, sizeof(*d));
	struct json_read_tok t[512];
	char *js = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&js, &len);
	int n, pl, v;

	if (!d || !out) {
		EXPECT_TRUE(false);
		free(d);
		return;
	}
	results_init(d);
	d->argc = 2;
	d->argv = argv;
	results_set_placement(&d->placement, p, a);
	EXPECT_EQ_INT(results_write_json(d, out), 0);
	fclose(out);
	n = json_read_parse(js, len, t, 512);
	pl = n > 0 ? json_read_get(js, t, n, 0, "placement") : -1;
	v = pl > 0 ? json_read_get(js, t, n, pl, "numa_node") : -1;
	EXPECT_TRUE(v > 0);
	if (v > 0)
		EXPECT_EQ_INT(strtol(js + t[v].start, NULL, 10), node);
	free(js);
	free(d);
}

/* ib_doctor's step 7 on the same tree: the node it names. The process
 * may run on CPUs 0-7, both nodes', so a node it reads is a WARN too
 * (the exact rule: all allowed CPUs on the device's node). */
static void expect_doctor(const char *root, int node)
{
	struct probe none = { 0 };
	struct chk_ctx c = { .root = root, .probe = &none };
	const struct finding *f;
	char want[128];

	EXPECT_EQ_INT(inv_read(root, &none, &c.inv), 0);
	chk_host_numa(&c);
	f = findings_find(&c.rep, "numa", "mlx5_0");
	if (node >= 0)
		snprintf(want, sizeof(want), "mlx5_0 is on node %d (CPUs %s), "
			 "but this process's allowed CPUs 0-7 span other nodes",
			 node, node ? "4-7" : "0-3");
	else
		snprintf(want, sizeof(want), "mlx5_0 reports no NUMA node "
			 "although this host has 2 nodes");
	TEST_CHECK_(f && strstr(f->detail, want), "doctor numa finding",
		    "\"%s\" lacks \"%s\"", f ? f->detail : "(none)", want);
	if (f)
		EXPECT_EQ_INT(f->verdict, VERDICT_WARN);
	findings_free(&c.rep);
	inv_free(&c.inv);
}

static void test_case(const char *root, const struct node_case *k)
{
	char sysfs[PATH_MAX];
	struct place_allowed a;
	struct place_plan p;
	struct link_facts f;
	int node;

	fprintf(stderr, "numa_node \"%.*s\"\n", (int)strcspn(k->text, "\n"),
		k->text);
	tree_put(root, NIC_PCI "/numa_node", k->text);
	snprintf(sysfs, sizeof(sysfs), "%s/sys", root);
	EXPECT_EQ_INT(devnode_rdma(sysfs, "mlx5_0", &node), 0);
	EXPECT_EQ_INT(node, k->node);
	EXPECT_EQ_INT(devnode_pci(sysfs, "0000:3b:00.0", &node), 0);
	EXPECT_EQ_INT(node, k->node);
	decide(sysfs, &a, &p);
	EXPECT_EQ_INT(p.nic_node, k->node);
	EXPECT_EQ_INT(p.node, k->node);
	EXPECT_EQ_INT(p.mem_node, k->node);
	EXPECT_EQ_INT(p.nwarn, k->node >= 0 ? 0 : 1);
	if (k->node < 0 && p.nwarn)
		EXPECT_TRUE(strstr(p.warn[0], "mlx5_0 reports no NUMA node") !=
			    NULL);
	expect_header(&p, k->node);
	expect_json(&p, &a, k->node);
	expect_doctor(root, k->node);
	EXPECT_EQ_INT(link_read(sysfs, "mlx5_0", 1, &f), 0);
	EXPECT_EQ_INT(f.numa_node, k->node);
}

/*
 * sys/CLS/NAME -> sys/DIR/C/NAME (C: CLS's last part) and, with
 * device_link, that folder's "device" link up to DIR, as sysfs has them.
 */
static void plant_dev(const char *root, const char *cls, const char *name,
		      const char *dir, bool device_link)
{
	char path[PATH_MAX], target[PATH_MAX];

	snprintf(path, sizeof(path), "sys/%s/%s/%s/dev", dir,
		 strrchr(cls, '/') + 1, name);
	tree_put(root, path, "\n");
	snprintf(path, sizeof(path), "%s/sys/%s", root, cls);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/%s/%s", root, cls, name);
	snprintf(target, sizeof(target), "../../%s/%s/%s", dir,
		 strrchr(cls, '/') + 1, name);
	EXPECT_EQ_INT(symlink(target, path), 0);
	if (!device_link)
		return;
	snprintf(path, sizeof(path), "%s/sys/%s/%s/%s/device", root, dir,
		 strrchr(cls, '/') + 1, name);
	snprintf(target, sizeof(target), "../../../%s", strrchr(dir, '/') + 1);
	EXPECT_EQ_INT(symlink(target, path), 0);
}

/* One device's PCI function by devnode, link_read and ib_doctor. */
static void expect_addr(const char *root, const struct inv *inv,
			const char *dev, const char *bdf, const char *place)
{
	struct devnode_addr a;
	struct link_facts f;
	char sysfs[PATH_MAX];
	size_t i;

	fprintf(stderr, "PCI function of %s\n", dev);
	snprintf(sysfs, sizeof(sysfs), "%s/sys", root);
	EXPECT_EQ_INT(devnode_rdma_addr(sysfs, dev, &a), bdf ? 0 : -ENOENT);
	EXPECT_STREQ(a.bdf, bdf ? bdf : "");
	EXPECT_STREQ(a.place, place ? place : "");
	if (bdf) {
		EXPECT_EQ_INT(devnode_pci_addr(sysfs, bdf, &a), 0);
		EXPECT_STREQ(a.bdf, bdf);
		EXPECT_STREQ(a.place, place);
	}
	EXPECT_EQ_INT(link_read(sysfs, dev, 1, &f), 0);
	EXPECT_STREQ(f.pci_addr, bdf ? bdf : "");
	for (i = 0; i < inv->ndev && strcmp(inv->devs[i].name, dev); i++)
		;
	EXPECT_TRUE(i < inv->ndev);
	if (i == inv->ndev)
		return;
	EXPECT_STREQ(inv->devs[i].bdf, bdf ? bdf : "");
	EXPECT_STREQ(inv->devs[i].pci_place, place ? place : "");
}

/*
 * The PCI function: mlx5_0 and its netdev; rxe0 (no device link), a
 * platform device's and a USB NIC's (links, but to no PCI function); and
 * names that would leave the class folder.
 */
static void test_addr(const char *root)
{
	static const char place[] = "pci0000:00/0000:00:01.0/0000:3b:00.0";
	static const char usb[] = "devices/pci0000:00/0000:00:14.0/usb2/2-1/"
				  "2-1:1.0";
	struct probe none = { 0 };
	struct devnode_addr a;
	char sysfs[PATH_MAX];
	struct inv inv;

	plant_dev(root, "class/net", "ens1np0", NIC_PCI + 4, true);
	plant_dev(root, "class/infiniband", "rxe0", "devices/virtual", false);
	plant_dev(root, "class/infiniband", "hns_0",
		  "devices/platform/HISI00D1:00", true);
	plant_dev(root, "class/net", "usb0", usb, true);
	tree_put(root, "sys/devices/virtual/infiniband/rxe0/ports/1/rate",
		 "10 Gb/sec (4X SDR)\n");
	tree_put(root,
		 "sys/devices/platform/HISI00D1:00/infiniband/hns_0/"
		 "ports/1/rate",
		 "100 Gb/sec (4X EDR)\n");
	EXPECT_EQ_INT(inv_read(root, &none, &inv), 0);
	expect_addr(root, &inv, "mlx5_0", "0000:3b:00.0", place);
	expect_addr(root, &inv, "rxe0", NULL, NULL);
	expect_addr(root, &inv, "hns_0", NULL, NULL);
	inv_free(&inv);

	snprintf(sysfs, sizeof(sysfs), "%s/sys", root);
	EXPECT_EQ_INT(devnode_net_addr(sysfs, "ens1np0", &a), 0);
	EXPECT_STREQ(a.bdf, "0000:3b:00.0");
	EXPECT_STREQ(a.place, place);
	EXPECT_EQ_INT(devnode_net_addr(sysfs, "usb0", &a), -ENOENT);
	EXPECT_STREQ(a.place, "");
	EXPECT_EQ_INT(devnode_net_addr(sysfs, "eth9", &a), -ENOENT);
	EXPECT_EQ_INT(devnode_pci_addr(sysfs, "0000:ff:00.0", &a), -ENOENT);
	EXPECT_EQ_INT(devnode_pci_addr(sysfs, "../../..", &a), -ENOENT);
	EXPECT_EQ_INT(devnode_rdma_addr(sysfs, "../mlx5_0", &a), -ENOENT);
	EXPECT_EQ_INT(devnode_rdma_addr(sysfs, "..", &a), -ENOENT);
	EXPECT_EQ_INT(devnode_rdma_addr(sysfs, "", &a), -ENOENT);
	EXPECT_EQ_INT(devnode_rdma_addr(sysfs, NULL, &a), -ENOENT);
}

/* No file at all (rxe, siw): -ENOENT, and the placement does not warn. */
static void test_no_file(const char *root)
{
	char sysfs[PATH_MAX], path[PATH_MAX];
	struct place_allowed a;
	struct place_plan p;
	int node = 5;

	snprintf(path, sizeof(path), "%s/" NIC_PCI "/numa_node", root);
	EXPECT_EQ_INT(unlink(path), 0);
	snprintf(sysfs, sizeof(sysfs), "%s/sys", root);
	EXPECT_EQ_INT(devnode_rdma(sysfs, "mlx5_0", &node), -ENOENT);
	EXPECT_EQ_INT(node, -1);
	EXPECT_EQ_INT(devnode_rdma(sysfs, "../mlx5_0", &node), -ENOENT);
	decide(sysfs, &a, &p);
	EXPECT_EQ_INT(p.node, -1);
	EXPECT_TRUE(!p.nic_is_pci);
	EXPECT_EQ_INT(p.nwarn, 0);
}

int main(void)
{
	char root[] = "/tmp/test_devnode.XXXXXX", cmd[PATH_MAX];
	size_t i;

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	plant(root);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		test_case(root, &cases[i]);
	test_no_file(root);
	test_addr(root);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", root);
	return test_finish("test_devnode");
}
