// SPDX-License-Identifier: BSD-2-Clause
/*
 * gpupair - the GPU nearest each NIC (gpupair.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "host/devnode.h"
#include "host/gpupair.h"
#include "lib/fs.h"

/* The rank of a link: PIX first, unknown (no PCI path) last. */
static int gpupair_link_rank(enum topo_link l)
{
	return l == TOPO_UNKNOWN ? TOPO_SYS + 1 : (int)l;
}

/* A NIC's PCI function: its RDMA device's, else its netdev's, else "". */
static void gpupair_nic_addr(const char *root, const char *name,
			     struct devnode_addr *out)
{
	if (devnode_rdma_addr(root, name, out))
		devnode_net_addr(root, name, out);
}

/* One candidate's sort key, compared field by field. */
struct gpupair_key {
	int link;
	int numa_off;            /* 0: on the NIC's node */
	unsigned int taken;      /* NICs before this one that got the GPU */
	size_t index;
};

static int gpupair_cmp(const struct gpupair_key *a,
		       const struct gpupair_key *b)
{
	if (a->link != b->link)
		return a->link < b->link ? -1 : 1;
	if (a->numa_off != b->numa_off)
		return a->numa_off < b->numa_off ? -1 : 1;
	if (a->taken != b->taken)
		return a->taken < b->taken ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* The best GPU for the NIC at nic_path (nic_node) into *out. */
static void gpupair_one(const char *root, const char (*gpus)[GPUPAIR_BDF_MAX],
			size_t n_gpus, const char *nic_path, int nic_node,
			const unsigned int *taken, struct gpupair *out)
{
	struct gpupair_key best = { 0 }, k;
	struct devnode_addr gpu;
	enum topo_link l;
	int node;
	size_t g;

	for (g = 0; g < n_gpus; g++) {
		devnode_pci(root, gpus[g], &node);
		l = TOPO_UNKNOWN;
		if (nic_path[0] && !devnode_pci_addr(root, gpus[g], &gpu))
			l = topo_classify(gpu.place, node, nic_path, nic_node);
		k = (struct gpupair_key){
			.link = gpupair_link_rank(l),
			.numa_off = node < 0 || node != nic_node,
			.taken = taken[g], .index = g,
		};
		if (g && gpupair_cmp(&k, &best) >= 0)
			continue;
		best = k;
		out->gpu = (int)g;
		out->link = l;
		out->gpu_node = node;
	}
	out->far = out->link > TOPO_PXB;
}

int gpupair_plan(const char *sysfs_root, const char (*gpus)[GPUPAIR_BDF_MAX],
		 size_t n_gpus, const struct gpupair_nic *nics, size_t n_nics,
		 struct gpupair *out)
{
	unsigned int taken[GPUPAIR_GPUS_MAX] = { 0 };
	struct devnode_addr nic;
	size_t i;

	if (!n_gpus)
		return -ENODEV;
	if (n_gpus > GPUPAIR_GPUS_MAX)
		n_gpus = GPUPAIR_GPUS_MAX;
	for (i = 0; i < n_nics; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		gpupair_nic_addr(sysfs_root, nics[i].name, &nic);
		out[i].nic_node = nics[i].node >= 0 ? nics[i].node : -1;
		if (nics[i].node < 0 && nic.bdf[0])
			devnode_pci(sysfs_root, nic.bdf, &out[i].nic_node);
		gpupair_one(sysfs_root, gpus, n_gpus, nic.place,
			    out[i].nic_node, taken, &out[i]);
		taken[out[i].gpu]++;
	}
	return 0;
}

void gpupair_warn(const struct gpupair *p, const char *nic,
		  const char *gpu_bdf, char *buf, size_t len)
{
	if (!p->far) {
		fs_copy(buf, len, "");
		return;
	}
	snprintf(buf, len, "%s: its nearest GPU, %d (%s), is %s away, beyond "
		 "the NIC's PCIe switch (through %s): GPUDirect RDMA on such "
		 "a path usually runs well below line rate: expect less, or "
		 "move the NIC to a slot beside a GPU ('nvidia-smi topo -m' "
		 "shows every pair, the server's manual which slots share a "
		 "switch)",
		 nic, p->gpu, gpu_bdf, topo_link_name(p->link),
		 topo_link_desc(p->link));
}
