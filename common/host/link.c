// SPDX-License-Identifier: BSD-2-Clause
/*
 * link - link facts from sysfs, and what looks downtrained. See link.h.
 *
 * The layout read, as the kernel builds it for a PCI NIC:
 *   ROOT/class/infiniband/DEV -> ../../devices/pci.../0000:3b:00.0/
 *                                 infiniband/DEV
 *   DEV/ports/N/rate                "400 Gb/sec (4X NDR)"
 *   DEV/ports/N/gid_attrs/ndevs/I   netdev of GID I (EINVAL when unused)
 *   DEV/device -> ../../../0000:3b:00.0   (absent for rxe and siw),
 *                                   resolved by host/devnode.c
 *   DEV/device/{current,max}_link_{speed,width}   link_pcie_read()
 *   DEV/device/numa_node            read by host/devnode.c
 *   ROOT/class/net/IF/{speed,mtu,dev_port}, IF/device/infiniband/DEV
 */
#include "host/devnode.h"
#include "host/link.h"
#include "host/netdev.h"
#include "host/rate.h"
#include "lib/fs.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct link_ctx {
	const char *root;
	const char *dev;
	unsigned port;
};

/* "16.0 GT/s PCIe" (6.x kernels), "8 GT/s" (older); "Unknown" -> 0. */
static double parse_gts(const char *text)
{
	char *end;
	double v;

	if (text[0] < '0' || text[0] > '9')
		return 0.0;
	v = strtod(text, &end);
	return strncmp(end, " GT/s", 5) ? 0.0 : v;
}

static void read_rate(const struct link_ctx *c, struct link_facts *f)
{
	if (fs_read(c->root, f->rate_text, sizeof(f->rate_text),
		    "/class/infiniband/%s/ports/%u/rate", c->dev, c->port))
		f->rate_text[0] = '\0';
	else if (rate_parse_sysfs_gbps(f->rate_text, &f->rate_gbps))
		f->rate_gbps = 0.0;
}

static void read_netdev(const struct link_ctx *c, struct link_facts *f)
{
	struct netdev_list l;
	long v;

	/* a name that does not fit is not trusted (a cut name is another) */
	if (netdev_list(c->root, c->dev, c->port, &l) || !l.n ||
	    !fs_copy(f->netdev, sizeof(f->netdev), l.names[0])) {
		f->netdev[0] = '\0';
		return;
	}
	/* Link down reports -1 (SPEED_UNKNOWN); dummy devices EINVAL. */
	if (!fs_read_long(c->root, &v, "/class/net/%s/speed", f->netdev) &&
	    v > 0 && v <= INT_MAX)
		f->netdev_speed_mbps = (int)v;
	if (!fs_read_long(c->root, &v, "/class/net/%s/mtu", f->netdev) &&
	    v > 0 && v <= INT_MAX)
		f->netdev_mtu = (int)v;
}

static unsigned parse_width(const char *text)
{
	char *end;
	unsigned long v;

	if (text[0] < '0' || text[0] > '9')
		return 0;
	v = strtoul(text, &end, 10);
	return *end || v > 64 ? 0 : (unsigned)v;
}

int link_pcie_read(const char *sysfs_root, const char *dir,
		   struct link_pcie *out)
{
	char buf[64];

	memset(out, 0, sizeof(*out));
	if (!fs_read(sysfs_root, buf, sizeof(buf), "%s/current_link_speed",
		     dir))
		out->cur_gts = parse_gts(buf);
	if (!fs_read(sysfs_root, buf, sizeof(buf), "%s/max_link_speed", dir))
		out->max_gts = parse_gts(buf);
	if (!fs_read(sysfs_root, buf, sizeof(buf), "%s/current_link_width",
		     dir))
		out->cur_width = parse_width(buf);
	if (!fs_read(sysfs_root, buf, sizeof(buf), "%s/max_link_width", dir))
		out->max_width = parse_width(buf);
	if (out->cur_gts <= 0 || out->max_gts <= 0 || !out->cur_width ||
	    !out->max_width)
		return -ENOENT;
	return 0;
}

/* The PCI function (virtual: rxe and siw have none) and its PCIe link. */
static void read_pci(const struct link_ctx *c, struct link_facts *f)
{
	struct devnode_addr a;
	char dir[FS_PATH_MAX + 16];

	if (devnode_rdma_addr(c->root, c->dev, &a))
		return;
	fs_copy(f->pci_addr, sizeof(f->pci_addr), a.bdf);
	snprintf(dir, sizeof(dir), "/devices/%s", a.place);
	link_pcie_read(c->root, dir, &f->pcie);
}

/* Names that would escape ROOT/class/infiniband are refused. */
static bool is_dev_name(const char *dev)
{
	return dev && dev[0] && !strchr(dev, '/') && strcmp(dev, ".") &&
	       strcmp(dev, "..");
}

int link_read(const char *sysfs_root, const char *dev, unsigned port,
	      struct link_facts *out)
{
	struct link_ctx c = { sysfs_root, dev, port };
	struct link_facts f = {
		.netdev_speed_mbps = -1, .netdev_mtu = -1, .numa_node = -1,
	};
	char path[FS_PATH_MAX];

	if (!is_dev_name(dev) || !port || !out)
		return -EINVAL;
	if (!c.root || !c.root[0])
		c.root = "/sys";
	if (fs_path(c.root, path, sizeof(path), "/class/infiniband/%s/ports/%u",
		    dev, port))
		return -ENAMETOOLONG;
	if (!fs_exists(c.root, "/class/infiniband/%s", dev))
		return -ENODEV;
	if (!fs_exists(c.root, "/class/infiniband/%s/ports/%u", dev, port))
		return -ENOENT;
	read_rate(&c, &f);
	read_netdev(&c, &f);
	read_pci(&c, &f);
	devnode_rdma(c.root, dev, &f.numa_node);
	*out = f;
	return 0;
}

/* Collects findings into the caller's array, up to its n. */
struct finding_list {
	char (*items)[LINK_FINDING_LEN];
	int n;
	int used;
};

__attribute__((format(printf, 2, 3)))
static void finding_add(struct finding_list *l, const char *fmt, ...)
{
	va_list ap;

	if (l->used >= l->n)
		return;
	va_start(ap, fmt);
	vsnprintf(l->items[l->used++], LINK_FINDING_LEN, fmt, ap);
	va_end(ap);
}

/*
 * Port: below the hinted maximum width or speed. The hints stand in for
 * PortInfo's LinkWidthSupported/LinkSpeedSupported, which verbs does not
 * expose: the caller knows them from the NIC model or the fabric plan.
 */
static void downtrain_port(struct finding_list *l, const struct rate_link *a,
			   unsigned max_speed, unsigned max_width)
{
	struct rate_link m = *a, hint;
	char b[48];

	/* An unset or unknown hint leaves that dimension at the active one. */
	if (max_speed && !rate_from_port(max_speed, 0, RATE_WIDTH_1X, &hint)) {
		m.lane_gbps = hint.lane_gbps;
		m.speed_name = hint.speed_name;
	}
	if (max_width && !rate_from_port(RATE_SPEED_SDR, 0, max_width, &hint)) {
		m.lanes = hint.lanes;
		m.width_name = hint.width_name;
	}
	m.link_gbps = m.lane_gbps * m.lanes;
	snprintf(b, sizeof(b), "%.0f Gb/s of %.0f Gb/s", a->link_gbps,
		 m.link_gbps);
	if (m.lanes > a->lanes)
		finding_add(l,
			    "port runs %s of %s (%s): at most %s; check the cable and the peer's port",
			    a->width_name, m.width_name, a->speed_name, b);
	if (m.lane_gbps > a->lane_gbps)
		finding_add(l,
			    "port runs %s of %s (%s): at most %s; check the cable's rating and the peer's port",
			    a->speed_name, m.speed_name, a->width_name, b);
}

/* PCIe: below the device's own capability (slot, riser, bifurcation). */
static void downtrain_pcie(struct finding_list *l, const struct link_facts *f)
{
	bool narrow = f->pcie.max_width && f->pcie.cur_width &&
		      f->pcie.cur_width < f->pcie.max_width;
	bool slow = f->pcie.max_gts > 0 && f->pcie.cur_gts > 0 &&
		    f->pcie.cur_gts < f->pcie.max_gts;
	double cap = rate_pcie_gbps(f->pcie.cur_gts, f->pcie.cur_width);

	if (narrow && slow)
		finding_add(l,
			    "PCIe link runs x%u of x%u at %.1f of %.1f GT/s: at most %.0f Gb/s; reseat the card, check the slot's width and generation",
			    f->pcie.cur_width, f->pcie.max_width,
			    f->pcie.cur_gts, f->pcie.max_gts, cap);
	else if (narrow)
		finding_add(l,
			    "PCIe link runs x%u of x%u (%.1f GT/s): at most %.0f Gb/s; reseat the card or move it to a slot wired x%u",
			    f->pcie.cur_width, f->pcie.max_width,
			    f->pcie.cur_gts, cap, f->pcie.max_width);
	else if (slow)
		finding_add(l,
			    "PCIe link runs %.1f of %.1f GT/s (x%u): at most %.0f Gb/s; check the slot's generation and the BIOS PCIe speed",
			    f->pcie.cur_gts, f->pcie.max_gts,
			    f->pcie.cur_width, cap);
}

int link_downtrain(const struct link_facts *f, unsigned active_speed,
		   unsigned active_width, unsigned max_speed_hint,
		   unsigned max_width_hint, char findings[][LINK_FINDING_LEN],
		   int n)
{
	struct finding_list l = { findings, n, 0 };
	struct rate_link a;
	bool has_port;
	int before;

	if (!f || n < 0 || (!findings && n > 0))
		return -EINVAL;
	if (!active_speed && !active_width)
		has_port = !rate_parse_sysfs(f->rate_text, &a);
	else
		has_port = !rate_from_port(active_speed, 0, active_width, &a);
	if (has_port)
		downtrain_port(&l, &a, max_speed_hint, max_width_hint);
	before = l.used;
	downtrain_pcie(&l, f);
	/* A PCIe link at full capability that still cannot feed the port. */
	if (has_port && l.used == before &&
	    rate_pcie_gbps(f->pcie.cur_gts, f->pcie.cur_width) > 0.0 &&
	    rate_pcie_gbps(f->pcie.cur_gts, f->pcie.cur_width) < a.link_gbps)
		finding_add(&l,
			    "PCIe x%u at %.1f GT/s carries at most %.0f Gb/s, below the port's %.0f Gb/s; move the NIC to a faster slot",
			    f->pcie.cur_width, f->pcie.cur_gts,
			    rate_pcie_gbps(f->pcie.cur_gts, f->pcie.cur_width),
			    a.link_gbps);
	return l.used;
}
