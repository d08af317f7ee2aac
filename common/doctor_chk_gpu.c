// SPDX-License-Identifier: BSD-2-Clause
/*
 * doctor_chk_gpu - step 8 of ib_doctor: GPUDirect RDMA. Whether GPU memory
 * can be registered at all (nvidia_peermem, or dmabuf: kernel >= 5.12 with
 * the nvidia module), and how far each GPU sits from its nearest RDMA NIC
 * on PCIe, in nvidia-smi topo's words. NCCL quietly stages through host
 * memory when GPUDirect is missing or the pair is farther than PXB.
 */
#include <stdio.h>
#include <string.h>

#include "doctor_chk.h"

/* Nearest first, as nvidia-smi topo -m names them. */
enum pci_rel { REL_PIX, REL_PXB, REL_PHB, REL_NODE, REL_SYS };

static const char *const rel_name[] = {
	[REL_PIX] = "PIX (one PCIe switch between them)",
	[REL_PXB] = "PXB (several PCIe switches, no host bridge)",
	[REL_PHB] = "PHB (through the CPU's PCIe host bridge)",
	[REL_NODE] = "NODE (across host bridges of one NUMA node)",
	[REL_SYS] = "SYS (across the inter-socket link)",
};

#define PCI_DEPTH_MAX 16

/* Split "/sys/devices/pci0000:15/0000:15:01.0/..." after /sys/devices. */
static unsigned int rel_split(char *path, char **comp)
{
	char *s = strstr(path, "/pci");
	unsigned int n = 0;

	while (s && n < PCI_DEPTH_MAX) {
		*s++ = '\0';
		comp[n++] = s;
		s = strchr(s, '/');
	}
	return n;
}

/*
 * Compare the two paths: another root bus is NODE or SYS by NUMA node;
 * sharing only the root bus is PHB; below the lowest shared bridge, at
 * most one bridge on each side (a switch's downstream port) is PIX,
 * more is PXB.
 */
static enum pci_rel rel_of(const char *a_path, int a_node,
			   const char *b_path, int b_node)
{
	char a[DFS_PATH_MAX], b[DFS_PATH_MAX], *ca[PCI_DEPTH_MAX],
		*cb[PCI_DEPTH_MAX];
	unsigned int na, nb, common = 0;

	dfs_copy(a, sizeof(a), a_path);
	dfs_copy(b, sizeof(b), b_path);
	na = rel_split(a, ca);
	nb = rel_split(b, cb);
	while (common < na && common < nb && !strcmp(ca[common], cb[common]))
		common++;
	if (!common)
		return a_node == b_node ? REL_NODE : REL_SYS;
	if (common == 1)
		return REL_PHB;
	/* components below the shared bridge, the devices themselves
	 * (the last component of each) left out */
	return (int)na - 1 - (int)common <= 1 &&
	       (int)nb - 1 - (int)common <= 1 ? REL_PIX : REL_PXB;
}

static int gpu_kernel_ge(const char *root, int major, int minor)
{
	char buf[64];
	int ma, mi;

	if (dfs_read(root, buf, sizeof(buf), "/proc/sys/kernel/osrelease") ||
	    sscanf(buf, "%d.%d", &ma, &mi) != 2)
		return -1;
	return ma > major || (ma == major && mi >= minor);
}

static void chk_gpudirect(struct doctor_ctx *c)
{
	bool peermem = dfs_exists(c->root, "/sys/module/nvidia_peermem");
	bool nvidia = dfs_exists(c->root, "/sys/module/nvidia");
	int dmabuf_kernel = gpu_kernel_ge(c->root, 5, 12);

	if (!nvidia) {
		doctor_add(&c->rep, 8, "gpudirect", "host", DOCTOR_FAIL,
			   "%zu NVIDIA GPU(s), but the nvidia kernel module is "
			   "not loaded", c->inv.ngpu);
		doctor_fix(&c->rep, "install/load the NVIDIA driver "
			   "(nvidia-smi must work)");
	} else if (peermem) {
		doctor_add(&c->rep, 8, "gpudirect", "host", DOCTOR_PASS,
			   "%zu GPU(s); nvidia_peermem loaded%s", c->inv.ngpu,
			   dmabuf_kernel > 0 ? ", dmabuf possible too" : "");
	} else if (dmabuf_kernel > 0) {
		doctor_add(&c->rep, 8, "gpudirect", "host", DOCTOR_PASS,
			   "%zu GPU(s); dmabuf (kernel >= 5.12, nvidia loaded; "
			   "the open kernel modules are needed); nvidia_peermem "
			   "not loaded, so tools that need it fail",
			   c->inv.ngpu);
	} else {
		doctor_add(&c->rep, 8, "gpudirect", "host", DOCTOR_FAIL,
			   "%zu GPU(s), neither nvidia_peermem nor dmabuf "
			   "(kernel < 5.12): GPU memory cannot be registered, "
			   "NCCL stages through host memory", c->inv.ngpu);
		doctor_fix(&c->rep, "modprobe nvidia_peermem (and load it at "
			   "boot: /etc/modules-load.d)");
	}
}

static void chk_gpu_path(struct doctor_ctx *c, const struct doctor_gpu *g)
{
	const struct doctor_dev *best = NULL;
	enum pci_rel r, best_rel = REL_SYS;
	size_t i;

	for (i = 0; i < c->inv.ndev; i++) {
		const struct doctor_dev *d = &c->inv.devs[i];

		if (doctor_skip_dev(c, d) || !d->pci_path[0] || !g->pci_path[0])
			continue;
		r = rel_of(g->pci_path, g->numa_node, d->pci_path,
			   d->numa_node);
		if (!best || r < best_rel) {
			best = d;
			best_rel = r;
		}
	}
	if (!best) {
		doctor_add(&c->rep, 8, "gpu_nic_path", g->bdf, DOCTOR_SKIP,
			   "no PCI RDMA NIC to pair GPU %s with", g->bdf);
		return;
	}
	doctor_add(&c->rep, 8, "gpu_nic_path", g->bdf,
		   best_rel <= REL_PXB ? DOCTOR_PASS : DOCTOR_WARN,
		   "GPU %s - nearest NIC %s (%s): %s%s", g->bdf, best->name,
		   best->bdf, rel_name[best_rel], best_rel <= REL_PXB ? "" :
		   "; NCCL uses GPUDirect RDMA only up to PXB by default");
	if (best_rel > REL_PXB)
		doctor_fix(&c->rep, "pair the GPU with a NIC under its PCIe "
			   "switch (nvidia-smi topo -m); else move a card, or "
			   "accept it with NCCL_NET_GDR_LEVEL");
}

void doctor_check_gpu(struct doctor_ctx *c)
{
	size_t i;

	if (!c->inv.ngpu) {
		doctor_add(&c->rep, 8, "gpudirect", "host", DOCTOR_SKIP,
			   "no NVIDIA GPU (PCI class 0x0300/0x0302, vendor "
			   "0x10de)");
		return;
	}
	chk_gpudirect(c);
	for (i = 0; i < c->inv.ngpu; i++)
		chk_gpu_path(c, &c->inv.gpus[i]);
}
