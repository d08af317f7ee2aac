// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_pcie - step 8 of ib_doctor, the PCIe peer path of GPUDirect RDMA:
 * settings that each halve GPU<->NIC bandwidth with every other check
 * green. From PCI configuration space (lib/pcicfg.h, as lspci -vvv
 * decodes it) and the IOMMU group's type (host/pcipath.h):
 *   acs          ACS P2P redirect (ReqRedir/CmpltRedir) on a switch port
 *                between a GPU and its nearest NIC: peer traffic goes up
 *                to the root complex and back;
 *   iommu, ats   the IOMMU translating a NIC's or GPU's DMA (DMA, DMA-FQ)
 *                without ATS to cache the translations;
 *   maxreadreq   a NIC's MaxReadReq below 4096 (NVIDIA's tuning guide
 *                asks 4096 for ConnectX: each read request fetches at most
 *                that much, so 512 needs 8x the outstanding requests);
 *   relaxed_ord  a NIC without relaxed ordering (mlx5 uses it for its
 *                memory regions only when the function allows it).
 * The kernel gives an unprivileged reader only the 64-byte header of
 * config space: then each is "unknown (run as root)", a SKIP, never a
 * pass. A software device (rxe, siw) is judged by its netdev's PCI NIC.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "doctor/chk.h"
#include "host/pcipath.h"
#include "host/topo.h"

#define PCIE_WANT_MRRS 4096u

/* The place of the PCI function that carries d's traffic: its own, or
 * for a software device its first port's netdev's. false: none. */
static bool pcie_place(const struct chk_ctx *c, const struct inv_dev *d,
		       char *place, size_t len)
{
	char path[FS_PATH_MAX];

	if (d->pci_place[0])
		return fs_copy(place, len, d->pci_place);
	if (!d->nports || !d->ports[0].netdev[0] ||
	    fs_resolve(c->inv.sysfs, path, sizeof(path),
		       "/class/net/%s/device", d->ports[0].netdev) ||
	    strncmp(path, "/devices/pci", 12))
		return false;
	return fs_copy(place, len, path + strlen("/devices/"));
}

static const char *pcie_bdf(const char *place)
{
	const char *slash = strrchr(place, '/');

	return slash ? slash + 1 : place;
}

/* An SR-IOV VF's Device Control is the PF's: the place to read. */
static void pcie_pf_place(const struct chk_ctx *c, char *place, size_t len)
{
	char path[FS_PATH_MAX];

	if (!fs_resolve(c->inv.sysfs, path, sizeof(path), "/devices/%s/physfn",
			place) && !strncmp(path, "/devices/", 9))
		fs_copy(place, len, path + 9);
}

/* Config space of place, or a SKIP finding saying why it is unknown. */
static bool pcie_cfg(struct chk_ctx *c, const char *check, const char *sub,
		     const char *place, struct pcicfg *cfg)
{
	int ret = pcipath_cfg(c->inv.sysfs, place, cfg);

	if (ret) {
		findings_add(&c->rep, 8, check, sub, VERDICT_SKIP,
			   "unknown: %s's config space is unreadable (%s)",
			   pcie_bdf(place), strerror(-ret));
		return false;
	}
	if (cfg->header_only) {
		findings_add(&c->rep, 8, check, sub, VERDICT_SKIP,
			   "unknown (run as root): the kernel gives this user "
			   "only the 64-byte header of %s's config space",
			   pcie_bdf(place));
		return false;
	}
	if (!cfg->has_exp) {
		findings_add(&c->rep, 8, check, sub, VERDICT_SKIP,
			   "%s has no PCI Express capability (conventional "
			   "PCI)", pcie_bdf(place));
		return false;
	}
	return true;
}

static void pcie_mrrs(struct chk_ctx *c, const char *sub, const char *place,
		      const struct pcicfg *cfg)
{
	unsigned int mrrs = pcicfg_maxreadreq(cfg);
	const char *bdf = pcie_bdf(place);

	if (mrrs >= PCIE_WANT_MRRS) {
		findings_add(&c->rep, 8, "maxreadreq", sub, VERDICT_PASS,
			   "%s DevCtl MaxReadReq %u bytes", bdf, mrrs);
		return;
	}
	findings_add(&c->rep, 8, "maxreadreq", sub, VERDICT_WARN,
		   "%s DevCtl MaxReadReq %u bytes (NVIDIA asks %u for its "
		   "NICs): each DMA read fetches at most %u bytes, so line "
		   "rate needs %ux the outstanding reads", bdf, mrrs,
		   PCIE_WANT_MRRS, mrrs, PCIE_WANT_MRRS / mrrs);
	findings_fix(&c->rep, "setpci -s %s CAP_EXP+8.w=5000:7000 (MaxReadReq "
		   "4096) at every boot (udev rule or systemd unit); lspci "
		   "-vvv -s %s shows DevCtl", bdf, bdf);
}

static void pcie_ro(struct chk_ctx *c, const char *sub, const char *place,
		    const struct pcicfg *cfg)
{
	const char *bdf = pcie_bdf(place);

	if (pcicfg_relaxed_ord(cfg)) {
		findings_add(&c->rep, 8, "relaxed_ord", sub, VERDICT_PASS,
			   "%s DevCtl RlxdOrd+", bdf);
		return;
	}
	findings_add(&c->rep, 8, "relaxed_ord", sub, VERDICT_WARN,
		   "%s DevCtl RlxdOrd-: the NIC may not reorder its writes, "
		   "and mlx5 then registers memory without relaxed ordering "
		   "(GPUDirect and AMD/Arm hosts lose the most)", bdf);
	findings_fix(&c->rep, "setpci -s %s CAP_EXP+8.w=0010:0010 at every "
		   "boot, or enable relaxed ordering in the BIOS; leave it "
		   "off where the kernel turned it off for a root port quirk "
		   "(dmesg)", bdf);
}

/* MaxReadReq and relaxed ordering of d's function (a VF: its PF's). */
static void pcie_devctl(struct chk_ctx *c, const struct inv_dev *d,
			const char *place_in)
{
	char place[DEVNODE_PLACE_LEN];
	struct pcicfg cfg;

	fs_copy(place, sizeof(place), place_in);
	pcie_pf_place(c, place, sizeof(place));
	if (!pcie_cfg(c, "maxreadreq", d->name, place, &cfg)) {
		/* the same reason, in relaxed_ord's row too */
		pcie_cfg(c, "relaxed_ord", d->name, place, &cfg);
		return;
	}
	pcie_mrrs(c, d->name, place, &cfg);
	pcie_ro(c, d->name, place, &cfg);
}

static void pcie_ats(struct chk_ctx *c, const char *sub, const char *place,
		     const struct pcicfg *cfg, bool known)
{
	const char *bdf = pcie_bdf(place);

	if (!known) {
		findings_add(&c->rep, 8, "ats", sub, VERDICT_SKIP,
			   "unknown (run as root): ATS is in %s's extended "
			   "config space", bdf);
	} else if (cfg->ats_enabled) {
		findings_add(&c->rep, 8, "ats", sub, VERDICT_PASS,
			   "%s ATSCtl Enable+: the device caches its "
			   "translations", bdf);
	} else {
		findings_add(&c->rep, 8, "ats", sub, VERDICT_WARN,
			   "%s %s: each DMA waits on the IOMMU's translation",
			   bdf, cfg->has_ats ? "ATSCtl Enable-" :
			   "has no ATS capability");
		findings_fix(&c->rep, cfg->has_ats ? "enable ATS (ConnectX: "
			   "mlxconfig -d %s set ATS_ENABLED=true, reboot; no "
			   "pci=noats on the kernel command line), or boot with "
			   "iommu=pt" : "boot with iommu=pt (the device cannot "
			   "cache translations)", bdf);
	}
}

/* iommu and ats for the function at place (subject sub). */
static void pcie_iommu(struct chk_ctx *c, const char *sub, const char *place)
{
	char type[32];
	enum pcipath_iommu m = pcipath_iommu(c->inv.sysfs, place, type,
					     sizeof(type));
	const char *bdf = pcie_bdf(place);
	struct pcicfg cfg;
	bool known, fast;

	if (m != PCIPATH_IOMMU_DMA) {
		findings_add(&c->rep, 8, "iommu", sub,
			   m == PCIPATH_IOMMU_UNKNOWN ? VERDICT_SKIP :
			   m == PCIPATH_IOMMU_BLOCKED ? VERDICT_FAIL :
			   VERDICT_PASS, "%s: IOMMU %s%s%s%s", bdf,
			   pcipath_iommu_name(m), type[0] ? " (" : "", type,
			   type[0] ? ")" : "");
		if (m == PCIPATH_IOMMU_BLOCKED)
			findings_fix(&c->rep, "the IOMMU blocks %s's DMA: "
				   "bind it to its driver, not vfio", bdf);
		findings_add(&c->rep, 8, "ats", sub, VERDICT_SKIP,
			   "not used: the IOMMU does not translate %s's DMA",
			   bdf);
		return;
	}
	known = !pcipath_cfg(c->inv.sysfs, place, &cfg) && !cfg.header_only;
	fast = known && cfg.ats_enabled;
	findings_add(&c->rep, 8, "iommu", sub, fast ? VERDICT_PASS :
		   VERDICT_WARN, "%s: IOMMU translated (%s), %s", bdf, type,
		   fast ? "ATS on" : known ? "without ATS: every DMA is "
		   "translated by the IOMMU" : "ATS unknown (run as root)");
	if (!fast)
		findings_fix(&c->rep, "boot with iommu=pt (Intel: intel_iommu=on "
			   "iommu=pt; AMD: iommu=pt) so devices bypass "
			   "translation, or enable ATS (see ats)");
	pcie_ats(c, sub, place, &cfg, known);
}

static void pcie_nic(struct chk_ctx *c, const struct inv_dev *d)
{
	char place[DEVNODE_PLACE_LEN];

	if (!pcie_place(c, d, place, sizeof(place))) {
		findings_add(&c->rep, 8, "maxreadreq", d->name, VERDICT_SKIP,
			   "software device with no PCI NIC below it");
		return;
	}
	pcie_devctl(c, d, place);
	pcie_iommu(c, d->name, place);
}

/* The bridges of the path that redirect peer traffic, as text; -EACCES
 * when one is unknown. Returns how many redirect. */
static int pcie_acs_scan(struct chk_ctx *c, char (*br)[DEVNODE_PLACE_LEN],
			 size_t n, char *bad, size_t len, char *unk,
			 size_t ulen)
{
	char bits[128];
	struct pcicfg cfg;
	size_t i, off = 0;
	int redirect = 0;

	for (i = 0; i < n; i++) {
		if (pcipath_cfg(c->inv.sysfs, br[i], &cfg) ||
		    cfg.header_only) {
			fs_copy(unk, ulen, pcie_bdf(br[i]));
			return -EACCES;
		}
		if (!pcicfg_acs_redirects(&cfg) || off >= len)
			continue;
		pcicfg_acs_str(cfg.acs_ctl, bits, sizeof(bits));
		off += (size_t)snprintf(bad + off, len - off, "%s%s (%s)",
					redirect ? "; " : "",
					pcie_bdf(br[i]), bits);
		redirect++;
	}
	return redirect;
}

/* The fix names the first redirecting port (bad starts with its address). */
static void pcie_acs_fix(struct chk_ctx *c, const char *bad)
{
	char first[DEVNODE_BDF_LEN] = "";

	sscanf(bad, "%19[^ ]", first);
	findings_fix(&c->rep, "clear ACS control on those switch ports: "
		   "setpci -s %s ECAP_ACS+6.w=0000 (each of them, at every "
		   "boot), or disable ACS in the BIOS; keep it where VMs need "
		   "the isolation", first);
}

static void pcie_acs(struct chk_ctx *c, const struct inv_gpu *g)
{
	char br[PCIPATH_BRIDGES_MAX][DEVNODE_PLACE_LEN];
	char bad[FINDING_TEXT_LEN - 120] = "", unk[DEVNODE_BDF_LEN] = "";
	enum topo_link rel;
	const struct inv_dev *d = chk_gpu_nearest(c, g, &rel);
	size_t n;
	int ret;

	if (!d || rel > TOPO_PXB) {
		findings_add(&c->rep, 8, "acs", g->bdf, VERDICT_SKIP, "%s",
			   d ? "GPU and NIC meet at the root complex or "
			   "beyond: no switch between them (gpu_nic_path)" :
			   "no PCI RDMA NIC to pair the GPU with");
		return;
	}
	n = pcipath_between(g->pci_place, d->pci_place, br, PCIPATH_BRIDGES_MAX);
	ret = pcie_acs_scan(c, br, n, bad, sizeof(bad), unk, sizeof(unk));
	if (ret < 0) {
		findings_add(&c->rep, 8, "acs", g->bdf, VERDICT_SKIP,
			   "unknown (run as root): the config space of bridge "
			   "%s between GPU %s and %s is unreadable", unk,
			   g->bdf, d->name);
	} else if (ret) {
		findings_add(&c->rep, 8, "acs", g->bdf, VERDICT_WARN,
			   "ACS redirects GPU %s <-> %s peer traffic to the "
			   "root complex at %s", g->bdf, d->name, bad);
		pcie_acs_fix(c, bad);
	} else {
		findings_add(&c->rep, 8, "acs", g->bdf, VERDICT_PASS,
			   "no ACS redirect on the %zu switch port(s) between "
			   "GPU %s and %s", n, g->bdf, d->name);
	}
}

void chk_pcie_check(struct chk_ctx *c)
{
	size_t i;

	chk_dev_each(c, pcie_nic);
	for (i = 0; i < c->inv.ngpu; i++) {
		pcie_iommu(c, c->inv.gpus[i].bdf, c->inv.gpus[i].pci_place);
		pcie_acs(c, &c->inv.gpus[i]);
	}
}
