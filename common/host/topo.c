// SPDX-License-Identifier: BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/devnode.h"
#include "host/topo.h"
#include "lib/fs.h"

#define TOPO_MAX_DEPTH 32

static const char *const topo_names[] = {
	[TOPO_UNKNOWN] = "unknown", [TOPO_PIX] = "PIX", [TOPO_PXB] = "PXB",
	[TOPO_PHB] = "PHB",         [TOPO_NODE] = "NODE", [TOPO_SYS] = "SYS",
};

static const char *const topo_descs[] = {
	[TOPO_UNKNOWN] = "no PCI path known",
	[TOPO_PIX] = "one PCIe switch",
	[TOPO_PXB] = "several PCIe switches",
	[TOPO_PHB] = "the CPU's PCIe host bridge",
	[TOPO_NODE] = "the links between host bridges of one CPU socket",
	[TOPO_SYS] = "the link between CPU sockets",
};

const char *topo_link_name(enum topo_link link)
{
	return link <= TOPO_SYS ? topo_names[link] : "unknown";
}

const char *topo_link_desc(enum topo_link link)
{
	return link <= TOPO_SYS ? topo_descs[link] : topo_descs[0];
}

/* Split a place at '/' into at most TOPO_MAX_DEPTH parts; 0 if too deep. */
static size_t topo_split(const char *path, char *buf, size_t len,
			 char **parts)
{
	char *save = NULL, *tok;
	size_t n = 0;

	snprintf(buf, len, "%s", path);
	for (tok = strtok_r(buf, "/", &save); tok;
	     tok = strtok_r(NULL, "/", &save)) {
		if (n == TOPO_MAX_DEPTH)
			return 0;
		parts[n++] = tok;
	}
	return n;
}

enum topo_link topo_classify(const char *path_a, int node_a,
			     const char *path_b, int node_b)
{
	char buf_a[TOPO_PATH_MAX], buf_b[TOPO_PATH_MAX];
	char *a[TOPO_MAX_DEPTH], *b[TOPO_MAX_DEPTH];
	size_t na, nb, common = 0, below_a, below_b;

	na = topo_split(path_a, buf_a, sizeof(buf_a), a);
	nb = topo_split(path_b, buf_b, sizeof(buf_b), b);
	/* each needs a host bridge and the device itself */
	if (na < 2 || nb < 2 || strncmp(a[0], "pci", 3) ||
	    strncmp(b[0], "pci", 3))
		return TOPO_UNKNOWN;
	if (strcmp(a[0], b[0]))
		return node_a == node_b ? TOPO_NODE : TOPO_SYS;
	/* below the host bridge: bridges, then the device */
	while (common + 2 < na && common + 2 < nb &&
	       !strcmp(a[common + 1], b[common + 1]))
		common++;
	if (!common)
		return TOPO_PHB; /* different root ports */
	below_a = na - 2 - common;
	below_b = nb - 2 - common;
	return below_a <= 1 && below_b <= 1 ? TOPO_PIX : TOPO_PXB;
}

bool topo_is_gpu(const char *sysfs_root, const char *bdf)
{
	long vendor, cls;

	if (!bdf || !bdf[0] || strchr(bdf, '/') ||
	    fs_read_long(sysfs_root, &vendor, "/bus/pci/devices/%s/vendor",
			 bdf) ||
	    vendor != 0x10de ||
	    fs_read_long(sysfs_root, &cls, "/bus/pci/devices/%s/class", bdf))
		return false;
	return cls >> 8 == 0x0300 || cls >> 8 == 0x0302;
}

/* Is (link, name) nearer than (best, best_name)? Ties: lower name. */
static bool topo_better(enum topo_link link, const char *name,
			enum topo_link best, const char *best_name)
{
	if (link == TOPO_UNKNOWN)
		return false;
	if (best == TOPO_UNKNOWN || link < best)
		return true;
	return link == best && strcmp(name, best_name) < 0;
}

/* NVIDIA GPUs only: the PCI function of one. */
static int topo_gpu_addr(const char *sysfs_root, const char *bdf,
			 struct devnode_addr *out)
{
	if (!topo_is_gpu(sysfs_root, bdf))
		return -ENOENT;
	return devnode_pci_addr(sysfs_root, bdf, out);
}

/* What topo_nearest looks through: GPUs or RDMA devices. */
struct topo_kind {
	const char *folder;     /* below the sysfs root */
	int (*addr)(const char *sysfs_root, const char *name,
		    struct devnode_addr *out);
	int (*node)(const char *sysfs_root, const char *name, int *node);
};

static const struct topo_kind topo_gpus = {
	"/bus/pci/devices",
	topo_gpu_addr,
	devnode_pci,
};
static const struct topo_kind topo_nics = {
	"/class/infiniband",
	devnode_rdma_addr,
	devnode_rdma,
};

/* The device of kind k nearest to the one at path (node): into best. */
static void topo_nearest(const char *sysfs_root, const struct topo_kind *k,
			 const char *path, int node, char *best, size_t len,
			 enum topo_link *best_link)
{
	struct devnode_addr a;
	enum topo_link l;
	char **names;
	size_t n, i;
	int other;

	fs_list(sysfs_root, &names, &n, "%s", k->folder);
	for (i = 0; i < n; i++) {
		if (strlen(names[i]) >= len ||
		    k->addr(sysfs_root, names[i], &a))
			continue;
		k->node(sysfs_root, names[i], &other);
		l = topo_classify(a.place, other, path, node);
		if (topo_better(l, names[i], *best_link, best)) {
			*best_link = l;
			strcpy(best, names[i]);
		}
	}
	free(names);
}

static void topo_warn(struct topo_rel *r, const char *rdma_dev)
{
	char gpu_tip[160] = "", nic_tip[224] = "";

	if (r->best_gpu[0] && r->best_gpu_link < r->link)
		snprintf(gpu_tip, sizeof(gpu_tip), "; use GPU %s instead "
			 "(--use_cuda_bus_id=%s, %s to %s)", r->best_gpu,
			 r->best_gpu, topo_link_name(r->best_gpu_link),
			 rdma_dev);
	if (r->best_nic[0] && r->best_nic_link < r->link)
		snprintf(nic_tip, sizeof(nic_tip), "%s the NIC %s (-d %s, %s "
			 "to the GPU)", gpu_tip[0] ? ", or" : "; use",
			 r->best_nic, r->best_nic,
			 topo_link_name(r->best_nic_link));
	snprintf(r->warn, sizeof(r->warn), "GPU %s and %s (%s) are %s apart, "
		 "through %s: GPUDirect RDMA on such a path usually runs well "
		 "below line rate%s%s; 'nvidia-smi topo -m' shows every pair",
		 r->gpu_bdf, rdma_dev, r->nic_bdf[0] ? r->nic_bdf : "no PCI",
		 topo_link_name(r->link), topo_link_desc(r->link), gpu_tip,
		 nic_tip);
}

int topo_gpu_nic(const char *sysfs_root, const char *gpu_bdf,
		 const char *rdma_dev, struct topo_rel *out)
{
	struct devnode_addr gpu, nic;
	struct topo_rel r = { .link = TOPO_UNKNOWN };

	if (devnode_pci_addr(sysfs_root, gpu_bdf, &gpu))
		return -ENOENT;
	fs_copy(r.gpu_bdf, sizeof(r.gpu_bdf), gpu.bdf);
	devnode_pci(sysfs_root, gpu_bdf, &r.gpu_node);
	r.nic_node = -1;
	topo_nearest(sysfs_root, &topo_nics, gpu.place, r.gpu_node, r.best_nic,
		     sizeof(r.best_nic), &r.best_nic_link);
	if (!devnode_rdma_addr(sysfs_root, rdma_dev, &nic)) {
		fs_copy(r.nic_bdf, sizeof(r.nic_bdf), nic.bdf);
		devnode_rdma(sysfs_root, rdma_dev, &r.nic_node);
		r.link = topo_classify(gpu.place, r.gpu_node, nic.place,
				       r.nic_node);
		topo_nearest(sysfs_root, &topo_gpus, nic.place, r.nic_node,
			     r.best_gpu, sizeof(r.best_gpu), &r.best_gpu_link);
	}
	if (r.link > TOPO_PXB)
		topo_warn(&r, rdma_dev);
	*out = r;
	return 0;
}
