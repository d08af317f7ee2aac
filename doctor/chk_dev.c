// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_dev - step 1 of ib_doctor: the devices and what user space
 * needs to reach them: uverbs and rdma_cm device files, a provider.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "doctor/chk.h"

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
}
