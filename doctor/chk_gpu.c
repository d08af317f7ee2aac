// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_gpu - step 8 of ib_doctor: GPUDirect RDMA. Whether GPU memory
 * can be registered at all (nvidia_peermem, or dmabuf: kernel >= 5.12 with
 * NVIDIA's open kernel modules, which /proc/driver/nvidia/version names),
 * and how far each GPU sits from its nearest RDMA NIC
 * on PCIe, in nvidia-smi topo's words (topo.h). NCCL quietly stages
 * through host memory when GPUDirect is missing or the pair is farther
 * than PXB.
 */
#include <stdio.h>
#include <string.h>

#include "doctor/chk.h"
#include "host/topo.h"

static int gpu_kernel_ge(const char *root, int major, int minor)
{
	char buf[64];
	int ma, mi;

	if (fs_read(root, buf, sizeof(buf), "/proc/sys/kernel/osrelease") ||
	    sscanf(buf, "%d.%d", &ma, &mi) != 2)
		return -1;
	return ma > major || (ma == major && mi >= minor);
}

/* Which kernel modules the NVIDIA driver is, from its version file:
 * dmabuf registration of GPU memory needs the open ones. */
enum gpu_kmod { GPU_KMOD_UNKNOWN, GPU_KMOD_OPEN, GPU_KMOD_PROPRIETARY };

static enum gpu_kmod gpu_kmod(const char *root, char *ver, size_t len)
{
	char buf[256] = "";
	FILE *f;

	ver[0] = '\0';
	if (fs_open_lines(root, &f, "/proc/driver/nvidia/version"))
		return GPU_KMOD_UNKNOWN;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	if (!buf[0])
		return GPU_KMOD_UNKNOWN;
	snprintf(ver, len, "%s", buf);
	return strstr(buf, "Open Kernel Module") ? GPU_KMOD_OPEN :
	       GPU_KMOD_PROPRIETARY;
}

bool chk_gpu_registrable(const struct chk_ctx *c)
{
	char ver[8];

	return fs_exists(c->root, "/sys/module/nvidia") &&
	       (fs_exists(c->root, "/sys/module/nvidia_peermem") ||
		(gpu_kernel_ge(c->root, 5, 12) > 0 &&
		 gpu_kmod(c->root, ver, sizeof(ver)) != GPU_KMOD_PROPRIETARY));
}

/* No nvidia_peermem, kernel >= 5.12: dmabuf, if the modules are open. */
static void chk_dmabuf(struct chk_ctx *c)
{
	char ver[128];
	enum gpu_kmod k = gpu_kmod(c->root, ver, sizeof(ver));

	if (k == GPU_KMOD_OPEN) {
		findings_add(&c->rep, 8, "gpudirect", "host", VERDICT_PASS,
			   "%zu GPU(s); dmabuf (kernel >= 5.12, NVIDIA's open "
			   "kernel modules: %s); nvidia_peermem not loaded, so "
			   "tools that need it fail", c->inv.ngpu, ver);
		return;
	}
	findings_add(&c->rep, 8, "gpudirect", "host",
		   k == GPU_KMOD_PROPRIETARY ? VERDICT_FAIL : VERDICT_WARN,
		   "%zu GPU(s), nvidia_peermem not loaded, and dmabuf needs "
		   "NVIDIA's open kernel modules: %s", c->inv.ngpu,
		   k == GPU_KMOD_PROPRIETARY ? ver :
		   "/proc/driver/nvidia/version is unreadable, so whether "
		   "they are is unknown");
	findings_fix(&c->rep, "modprobe nvidia_peermem (load it at boot: "
		   "/etc/modules-load.d), or install the open kernel modules "
		   "(R515+, nvidia-open / --kernel-module-type=open) for "
		   "dmabuf");
}

static void chk_gpudirect(struct chk_ctx *c)
{
	bool peermem = fs_exists(c->root, "/sys/module/nvidia_peermem");
	bool nvidia = fs_exists(c->root, "/sys/module/nvidia");
	int dmabuf_kernel = gpu_kernel_ge(c->root, 5, 12);

	if (!nvidia) {
		findings_add(&c->rep, 8, "gpudirect", "host", VERDICT_FAIL,
			   "%zu NVIDIA GPU(s), but the nvidia kernel module is "
			   "not loaded", c->inv.ngpu);
		findings_fix(&c->rep, "install/load the NVIDIA driver "
			   "(nvidia-smi must work)");
	} else if (peermem) {
		findings_add(&c->rep, 8, "gpudirect", "host", VERDICT_PASS,
			   "%zu GPU(s); nvidia_peermem loaded%s", c->inv.ngpu,
			   dmabuf_kernel > 0 ? ", dmabuf possible too" : "");
	} else if (dmabuf_kernel > 0) {
		chk_dmabuf(c);
	} else {
		findings_add(&c->rep, 8, "gpudirect", "host", VERDICT_FAIL,
			   "%zu GPU(s), neither nvidia_peermem nor dmabuf "
			   "(kernel < 5.12): GPU memory cannot be registered, "
			   "NCCL stages through host memory", c->inv.ngpu);
		findings_fix(&c->rep, "modprobe nvidia_peermem (and load it at "
			   "boot: /etc/modules-load.d)");
	}
}

const struct inv_dev *chk_gpu_nearest(const struct chk_ctx *c,
				      const struct inv_gpu *g,
				      enum topo_link *rel)
{
	const struct inv_dev *best = NULL;
	enum topo_link r;
	size_t i;

	*rel = TOPO_UNKNOWN;
	for (i = 0; i < c->inv.ndev && g->pci_place[0]; i++) {
		const struct inv_dev *d = &c->inv.devs[i];

		if (chk_skip_dev(c, d) || !d->pci_place[0])
			continue;
		r = topo_classify(g->pci_place, g->numa_node, d->pci_place,
				  d->numa_node);
		if (r != TOPO_UNKNOWN && (!best || r < *rel)) {
			best = d;
			*rel = r;
		}
	}
	return best;
}

static void chk_gpu_path(struct chk_ctx *c, const struct inv_gpu *g)
{
	enum topo_link best_rel;
	const struct inv_dev *best = chk_gpu_nearest(c, g, &best_rel);

	if (!best) {
		findings_add(&c->rep, 8, "gpu_nic_path", g->bdf, VERDICT_SKIP,
			   "no PCI RDMA NIC to pair GPU %s with", g->bdf);
		return;
	}
	findings_add(&c->rep, 8, "gpu_nic_path", g->bdf,
		   best_rel <= TOPO_PXB ? VERDICT_PASS : VERDICT_WARN,
		   "GPU %s - nearest NIC %s (%s): %s (through %s)%s", g->bdf,
		   best->name, best->bdf, topo_link_name(best_rel),
		   topo_link_desc(best_rel), best_rel <= TOPO_PXB ? "" :
		   "; NCCL uses GPUDirect RDMA only up to PXB by default");
	if (best_rel > TOPO_PXB)
		findings_fix(&c->rep, "pair the GPU with a NIC under its PCIe "
			   "switch (nvidia-smi topo -m); else move a card, or "
			   "accept it with NCCL_NET_GDR_LEVEL");
}

void chk_gpu_check(struct chk_ctx *c)
{
	size_t i;

	if (!c->inv.ngpu) {
		findings_add(&c->rep, 8, "gpudirect", "host", VERDICT_SKIP,
			   "no NVIDIA GPU (PCI class 0x0300/0x0302, vendor "
			   "0x10de)");
		return;
	}
	chk_gpudirect(c);
	for (i = 0; i < c->inv.ngpu; i++)
		chk_gpu_path(c, &c->inv.gpus[i]);
}
