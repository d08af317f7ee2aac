// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_dev - step 1 of ib_doctor: the devices and what user space
 * needs to reach them: uverbs and rdma_cm device files, a provider; an
 * InfiniBand SR-IOV VF's GUIDs (zero until the PF assigns them: the port
 * then never gets a LID from the subnet manager).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/chk.h"
#include "host/devnode.h"

void chk_dev_each(struct chk_ctx *c,
		  void (*fn)(struct chk_ctx *c, const struct inv_dev *d))
{
	size_t i;

	for (i = 0; i < c->inv.ndev; i++)
		if (!chk_skip_dev(c, &c->inv.devs[i]))
			fn(c, &c->inv.devs[i]);
}

void chk_dev_port_subject(char *out, size_t len, const struct inv_dev *d,
			 const struct inv_port *p)
{
	snprintf(out, len, "%s/%u", d->name, p->num);
}

static void chk_dev_list(struct chk_ctx *c)
{
	char names[FINDING_TEXT_LEN] = "";
	size_t i, off = 0;
	bool found = false;

	for (i = 0; i < c->inv.ndev && off < sizeof(names); i++) {
		const struct inv_dev *d = &c->inv.devs[i];

		found |= !chk_skip_dev(c, d);
		off += (size_t)snprintf(names + off, sizeof(names) - off,
					"%s%s (%s)", i ? ", " : "", d->name,
					d->nports ? inv_xport_str(
						d->ports[0].xport) : "no port");
	}
	if (!c->inv.ndev) {
		findings_add(&c->rep, 1, "devices", "host", VERDICT_FAIL,
			   "no RDMA device in /sys/class/infiniband");
		findings_fix(&c->rep, "load the NIC's RDMA driver (modprobe "
			   "mlx5_ib, irdma or bnxt_re; Soft-RoCE: modprobe "
			   "rdma_rxe, rdma link add); in a pod, request the "
			   "RDMA resource so the device plugin passes it in");
	} else if (!found) {
		findings_add(&c->rep, 1, "devices", "host", VERDICT_FAIL,
			   "-d %s: no such RDMA device; there are %s",
			   c->only_dev, names);
		findings_fix(&c->rep, "pick one of the devices listed "
			   "(ibv_devices), or drop -d");
	} else {
		findings_add(&c->rep, 1, "devices", "host", VERDICT_PASS,
			   "%zu RDMA device%s: %s", c->inv.ndev,
			   c->inv.ndev == 1 ? "" : "s", names);
	}
}

/* Why opening a device file fails, as a fix. */
static void chk_open_fix(struct findings *rep, int err, const char *what)
{
	if (err == -ENOENT)
		findings_fix(rep, "%s is not there: in a container the device "
			   "plugin passes /dev/infiniband in (request the RDMA "
			   "resource); on a host, check udev (rdma-core's "
			   "rules)", what);
	else if (err == -EPERM)
		findings_fix(rep, "the device cgroup refuses %s: request the "
			   "RDMA resource through the device plugin instead of "
			   "mounting /dev/infiniband by hand", what);
	else
		findings_fix(rep, "make %s readable and writable for this user "
			   "(udev rule, or the 'rdma' group)", what);
}

static void chk_uverbs(struct chk_ctx *c, const struct inv_dev *d)
{
	char path[64];
	int ret;

	if (!d->uverbs[0]) {
		findings_add(&c->rep, 1, "uverbs", d->name, VERDICT_FAIL,
			   "%s has no uverbs device: ib_uverbs is not loaded",
			   d->name);
		findings_fix(&c->rep, "modprobe ib_uverbs");
		return;
	}
	snprintf(path, sizeof(path), "/dev/infiniband/%s", d->uverbs);
	ret = fs_try_open(c->root, "%s", path);
	if (!ret) {
		findings_add(&c->rep, 1, "uverbs", d->name, VERDICT_PASS,
			   "%s opens", path);
		return;
	}
	findings_add(&c->rep, 1, "uverbs", d->name, VERDICT_FAIL,
		   "cannot open %s: %s", path, strerror(-ret));
	chk_open_fix(&c->rep, ret, path);
}

static void chk_rdma_cm(struct chk_ctx *c)
{
	const char *path = "/dev/infiniband/rdma_cm";
	int ret;

	if (!c->inv.ndev) {
		findings_add(&c->rep, 1, "rdma_cm", "host", VERDICT_SKIP,
			   "no RDMA device to connect with");
		return;
	}
	ret = fs_try_open(c->root, "%s", path);
	if (!ret) {
		findings_add(&c->rep, 1, "rdma_cm", "host", VERDICT_PASS,
			   "%s opens", path);
		return;
	}
	findings_add(&c->rep, 1, "rdma_cm", "host", VERDICT_FAIL,
		   "cannot open %s: %s%s", path, strerror(-ret),
		   ret == -ENOENT ? " (rdma_ucm not loaded?)" : "");
	if (ret == -ENOENT && !fs_exists(c->root, "/sys/module/rdma_ucm"))
		findings_fix(&c->rep, "modprobe rdma_ucm");
	else
		chk_open_fix(&c->rep, ret, path);
}

static void chk_provider(struct chk_ctx *c, const struct inv_dev *d)
{
	const struct probe *pr = c->probe;
	int ret = pr->dev_open ? pr->dev_open(pr->priv, d->name) : -EOPNOTSUPP;
	const char *drv = d->driver[0] ? d->driver : "software";
	const char *kind = d->driver[0] ? "driver" : "device";

	if (!ret) {
		findings_add(&c->rep, 1, "provider", d->name, VERDICT_PASS,
			   "ibv_open_device(%s) works (%s %s)", d->name, drv,
			   kind);
	} else if (ret == -EOPNOTSUPP) {
		findings_add(&c->rep, 1, "provider", d->name, VERDICT_SKIP,
			   "ibv_open_device not tried here");
	} else if (ret == -ENODEV) {
		findings_add(&c->rep, 1, "provider", d->name, VERDICT_FAIL,
			   "libibverbs does not list %s: no user-space "
			   "provider for its driver (%s)", d->name, drv);
		findings_fix(&c->rep, "install the provider that matches the "
			   "kernel driver (Debian/Ubuntu: ibverbs-providers; "
			   "RHEL: libibverbs); in a container it must be in "
			   "the image");
	} else {
		findings_add(&c->rep, 1, "provider", d->name, VERDICT_FAIL,
			   "ibv_open_device(%s): %s", d->name, strerror(-ret));
		findings_fix(&c->rep, "check dmesg for the driver's error and "
			   "that /dev/infiniband/%s is usable", d->uverbs);
	}
}

/* "0000:0000:0000:0000" or a GID "fe80:...:0000:0000:0000:0000" ends in
 * a zero GUID: its last four groups. */
static bool dev_guid_zero(const char *text)
{
	size_t n = strlen(text);

	return n >= 19 && !strcmp(text + n - 19, "0000:0000:0000:0000");
}

/* The VF's index under its PF (PF/virtfnN -> the VF) and the PF's netdev;
 * -1 / "PF" when unknown. */
static int dev_vf_index(const struct chk_ctx *c, const struct inv_dev *d,
			char *pf_nd, size_t len)
{
	char **names = NULL, link[DEVNODE_BDF_LEN];
	size_t n = 0, i;
	int idx = -1;

	fs_copy(pf_nd, len, "PF");
	if (!fs_list(c->inv.sysfs, &names, &n, "/devices/%s/physfn/net",
		     d->pci_place) && n)
		fs_copy(pf_nd, len, names[0]);
	free(names);
	names = NULL;
	if (fs_list(c->inv.sysfs, &names, &n, "/devices/%s/physfn",
		    d->pci_place))
		n = 0;
	for (i = 0; i < n && idx < 0; i++)
		if (!strncmp(names[i], "virtfn", 6) &&
		    !fs_link_name(c->inv.sysfs, link, sizeof(link),
				  "/devices/%s/physfn/%s", d->pci_place,
				  names[i]) && !strcmp(link, d->bdf))
			idx = atoi(names[i] + 6);
	free(names);
	return idx;
}

static void chk_vf_guid(struct chk_ctx *c, const struct inv_dev *d)
{
	char node[64] = "", port[64] = "", pf[32], vfs[16] = "N";
	int vf;

	if (!d->pci_place[0] || !d->nports ||
	    d->ports[0].xport != INV_XPORT_IB ||
	    !fs_exists(c->inv.sysfs, "/devices/%s/physfn", d->pci_place))
		return;
	fs_read(c->inv.sysfs, node, sizeof(node), "/class/infiniband/%s/"
		"node_guid", d->name);
	fs_read(c->inv.sysfs, port, sizeof(port), "/class/infiniband/%s/"
		"ports/%u/gids/0", d->name, d->ports[0].num);
	if (!dev_guid_zero(node) && !dev_guid_zero(port)) {
		findings_add(&c->rep, 1, "vf_guid", d->name, VERDICT_PASS,
			   "InfiniBand VF %s: node GUID %s, port GID %s",
			   d->bdf, node[0] ? node : "?", port[0] ? port : "?");
		return;
	}
	vf = dev_vf_index(c, d, pf, sizeof(pf));
	if (vf >= 0)
		snprintf(vfs, sizeof(vfs), "%d", vf);
	findings_add(&c->rep, 1, "vf_guid", d->name, VERDICT_FAIL,
		   "InfiniBand VF %s (VF %s of %s) has a zero %s GUID (node "
		   "%s, port GID %s): the subnet manager gives it no LID",
		   d->bdf, vfs, pf, dev_guid_zero(node) ? "node" : "port",
		   node[0] ? node : "?", port[0] ? port : "?");
	findings_fix(&c->rep, "assign the VF's GUIDs on the host: ip link set "
		   "%s vf %s node_guid 02:00:00:00:00:00:00:%02x; ip link set "
		   "%s vf %s port_guid 02:00:00:00:00:00:01:%02x (unique "
		   "GUIDs of your choosing); then rebind %s to its driver, or "
		   "let the SR-IOV network operator set them", pf, vfs,
		   vf & 0xff, pf, vfs, vf & 0xff, d->bdf);
}

void chk_dev_check(struct chk_ctx *c)
{
	size_t i;

	chk_dev_list(c);
	for (i = 0; i < c->inv.ndev; i++)
		if (!chk_skip_dev(c, &c->inv.devs[i]))
			chk_uverbs(c, &c->inv.devs[i]);
	chk_rdma_cm(c);
	for (i = 0; i < c->inv.ndev; i++)
		if (!chk_skip_dev(c, &c->inv.devs[i]))
			chk_provider(c, &c->inv.devs[i]);
	chk_dev_each(c, chk_vf_guid);
}
