// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_port - steps 2-3 of ib_doctor: each port's state, its link
 * speed against what it supports, the PCIe link behind the device, and the
 * RDMA MTU against the netdev's (RoCE at MTU 1024 silently costs ~7%).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "doctor/chk.h"
#include "doctor/net.h"
#include "host/rate.h"

/* The fix for a port that is not ACTIVE, by link layer and state. */
static void chk_state_fix(struct chk_ctx *c, const struct inv_port *p)
{
	long flags = 0;

	if (p->xport != INV_XPORT_IB && p->netdev[0] &&
	    !fs_read_long(c->root, &flags, "/sys/class/net/%s/flags",
			   p->netdev) && !(flags & 0x1))
		findings_fix(&c->rep, "its netdev %s is down: ip link set %s up",
			   p->netdev, p->netdev);
	else if (p->xport == INV_XPORT_IB && p->state == 2)
		findings_fix(&c->rep, "INIT with the link up means no subnet "
			   "manager configured the port: run opensm on a node "
			   "of this fabric or enable the switch's SM");
	else if (p->phys == 3)
		findings_fix(&c->rep, "the port is disabled: enable it on the "
			   "switch (or ibportstate ... enable on IB)");
	else
		findings_fix(&c->rep, "no link: check the cable/transceiver and "
			   "the switch port%s%s",
			   p->netdev[0] ? "; netdev " : "", p->netdev);
}

static void chk_port_state(struct chk_ctx *c, const struct inv_dev *d,
			   const struct inv_port *p)
{
	char sub[FINDING_SUBJECT_LEN];

	chk_dev_port_subject(sub, sizeof(sub), d, p);
	if (p->state == 4 && p->phys == 5) {
		findings_add(&c->rep, 2, "port_state", sub, VERDICT_PASS,
			   "ACTIVE, LinkUp (%s)", inv_xport_str(p->xport));
		return;
	}
	findings_add(&c->rep, 2, "port_state", sub, VERDICT_FAIL,
		   "port is %s, physical state %s (want ACTIVE, LinkUp)",
		   p->state_text[0] ? p->state_text : "unknown",
		   p->phys_text[0] ? p->phys_text : "unknown");
	chk_state_fix(c, p);
}

static void chk_speed_ib(struct chk_ctx *c, const char *sub,
			 const struct inv_dev *d,
			 const struct inv_port *p)
{
	if (p->width_lanes != 1) {
		findings_add(&c->rep, 2, "link_speed", sub, VERDICT_PASS,
			   "%s (its rated width and speed: link_rate)",
			   p->link.rate_text);
		return;
	}
	findings_add(&c->rep, 2, "link_speed", sub, VERDICT_WARN,
		   "%s: HCA ports are 4X (or 2X split), 1X means lanes did "
		   "not train", p->link.rate_text);
	findings_fix(&c->rep, "reseat or replace the cable; mlxlink -d %s shows "
		   "the failing lanes", d->bdf);
}

/* Ethernet: the netdev's speed against the fastest mode it supports. */
static void chk_speed_eth(struct chk_ctx *c, const char *sub,
			  const struct inv_port *p)
{
	const struct probe *pr = c->probe;
	struct probe_netdev_link nl = { 0 };
	char speed[32] = "speed unknown", max[40] = "maximum not known";
	long mbps = p->link.netdev_speed_mbps;

	if (mbps > 0)
		snprintf(speed, sizeof(speed), "at %ld Gb/s", mbps / 1000);
	if (p->netdev[0] && pr->netdev_link &&
	    !pr->netdev_link(pr->priv, p->netdev, &nl) && nl.max_speed_mbps)
		snprintf(max, sizeof(max), "supports %lu Gb/s",
			 nl.max_speed_mbps / 1000);
	if (mbps > 0 && nl.max_speed_mbps > (unsigned long)mbps) {
		findings_add(&c->rep, 2, "link_speed", sub, VERDICT_WARN,
			   "%s runs %s but %s (rate %s): the link trained down",
			   p->netdev, speed, max, p->link.rate_text);
		findings_fix(&c->rep, "check the cable/transceiver and the "
			   "switch port's speed (ethtool %s, and the switch "
			   "side); a reseat usually tells", p->netdev);
		return;
	}
	findings_add(&c->rep, 2, "link_speed", sub, VERDICT_PASS, "%s; %s %s, %s",
		   p->link.rate_text, p->netdev[0] ? p->netdev : "no netdev",
		   speed, max);
}

static void chk_link_speed(struct chk_ctx *c, const struct inv_dev *d,
			   const struct inv_port *p)
{
	char sub[FINDING_SUBJECT_LEN];

	chk_dev_port_subject(sub, sizeof(sub), d, p);
	if (!d->bdf[0])
		findings_add(&c->rep, 2, "link_speed", sub, VERDICT_SKIP,
			   "software device: no physical link (rate %s)",
			   p->link.rate_text);
	else if (p->xport == INV_XPORT_IB)
		chk_speed_ib(c, sub, d, p);
	else
		chk_speed_eth(c, sub, p);
}

static bool pcie_down(const struct link_pcie *l)
{
	return l->cur_width < l->max_width || l->cur_gts < l->max_gts;
}

/*
 * The first switch upstream port between the root port and the device whose
 * link trained down. In a sysfs path below pciDDDD:BB the bridges go root
 * port, then (switch upstream port, switch downstream port) pairs: the
 * upstream ports sit at odd depths, and each one's link is the one into
 * the switch. Downstream ports are skipped: their maximum is their own,
 * not the device's below them.
 */
static bool pcie_upstream_down(const char *sysfs, const char *place, char *bdf,
			       size_t len, struct link_pcie *l)
{
	char p[FS_PATH_MAX + 16], *s, *next;
	unsigned int depth = 0;

	snprintf(p, sizeof(p), "/devices/%s", place);
	s = strstr(p, "/pci");
	s = s ? strchr(s + 1, '/') : NULL;
	for (; s && (next = strchr(s + 1, '/')); s = next, depth++) {
		if (depth % 2 == 0)
			continue;
		*next = '\0';
		if (!link_pcie_read(sysfs, p, l) && pcie_down(l)) {
			fs_copy(bdf, len, s + 1);
			return true;
		}
		*next = '/';
	}
	return false;
}

static double dev_rate_gbps(const struct inv_dev *d)
{
	double r = 0;
	unsigned int i;

	for (i = 0; i < d->nports; i++)
		if (d->ports[i].link.rate_gbps > r)
			r = d->ports[i].link.rate_gbps;
	return r;
}

static void chk_pcie_verdict(struct chk_ctx *c, const struct inv_dev *d,
			     const char *bdf, const struct link_pcie *l)
{
	struct link_pcie up;
	char upbdf[INV_BDF_LEN];
	double rate = dev_rate_gbps(d);
	/* payload bits the link carries (rate.h: encoding, no TLP overhead) */
	double gbps = rate_pcie_gbps(l->cur_gts, l->cur_width);

	if (pcie_down(l)) {
		findings_add(&c->rep, 2, "pcie", d->name, VERDICT_WARN,
			   "%s runs PCIe %.1f GT/s x%u of %.1f GT/s x%u: "
			   "~%.0f Gb/s for a %.0f Gb/s port", bdf, l->cur_gts,
			   l->cur_width, l->max_gts, l->max_width, gbps, rate);
		findings_fix(&c->rep, "reseat the card, or move it to a full "
			   "x%u slot (check riser and BIOS bifurcation); "
			   "lspci -vv -s %s shows LnkSta/LnkCap", l->max_width,
			   bdf);
	} else if (pcie_upstream_down(c->inv.sysfs, d->pci_place, upbdf,
				      sizeof(upbdf), &up)) {
		findings_add(&c->rep, 2, "pcie", d->name, VERDICT_WARN,
			   "the PCIe switch port %s above %s runs %.1f GT/s "
			   "x%u of %.1f GT/s x%u", upbdf, bdf, up.cur_gts,
			   up.cur_width, up.max_gts, up.max_width);
		findings_fix(&c->rep, "the switch's uplink trained down: reseat "
			   "the board/riser; lspci -vv -s %s", upbdf);
	} else if (rate > 0 && gbps < rate) {
		findings_add(&c->rep, 2, "pcie", d->name, VERDICT_WARN,
			   "%s PCIe %.1f GT/s x%u carries ~%.0f Gb/s: less "
			   "than the %.0f Gb/s port", bdf, l->cur_gts,
			   l->cur_width,
			   gbps, rate);
		findings_fix(&c->rep, "use a slot of the NIC's generation "
			   "(%.0f Gb/s needs Gen5 x16 for 400G)", rate);
	} else {
		findings_add(&c->rep, 2, "pcie", d->name, VERDICT_PASS,
			   "%s PCIe %.1f GT/s x%u (its maximum), ~%.0f Gb/s "
			   "for a %.0f Gb/s port", bdf, l->cur_gts, l->cur_width,
			   gbps, rate);
	}
}

static void chk_pcie(struct chk_ctx *c, const struct inv_dev *d)
{
	struct link_pcie l = d->pcie;
	char path[FS_PATH_MAX];
	const char *bdf = d->bdf;

	if (!d->bdf[0]) {
		findings_add(&c->rep, 2, "pcie", d->name, VERDICT_SKIP,
			   "software device: no PCIe link");
		return;
	}
	/* an SR-IOV VF has no link of its own: its PF's is the one */
	if (!l.cur_width || l.cur_gts <= 0) {
		if (fs_resolve(c->inv.sysfs, path, sizeof(path),
			       "/devices/%s/physfn", d->pci_place) ||
		    link_pcie_read(c->inv.sysfs, path, &l)) {
			findings_add(&c->rep, 2, "pcie", d->name, VERDICT_SKIP,
				   "%s shows no PCIe link attributes", d->bdf);
			return;
		}
		bdf = strrchr(path, '/') + 1;
	}
	chk_pcie_verdict(c, d, bdf, &l);
}

static void chk_port_dev(struct chk_ctx *c, const struct inv_dev *d)
{
	unsigned int p;

	for (p = 0; p < d->nports; p++)
		chk_port_state(c, d, &d->ports[p]);
	for (p = 0; p < d->nports; p++)
		chk_link_speed(c, d, &d->ports[p]);
	chk_pcie(c, d);
}

void chk_port_check(struct chk_ctx *c)
{
	chk_dev_each(c, chk_port_dev);
}

/* RoCE: the RDMA MTU follows the netdev's MTU (minus 96 header bytes). */
static void chk_mtu_roce(struct chk_ctx *c, const char *sub,
			 const struct inv_port *p,
			 const struct probe_port_attr *pa, bool probed)
{
	long nd_mtu = p->link.netdev_mtu;
	unsigned int allowed, active, max;

	if (!p->netdev[0] || nd_mtu <= 0) {
		findings_add(&c->rep, 3, "mtu", sub, VERDICT_SKIP,
			   "no netdev MTU to compare with (see netdev_map)");
		return;
	}
	allowed = net_roce_mtu(nd_mtu);
	active = probed ? pa->active_mtu_bytes : allowed;
	max = probed && pa->max_mtu_bytes ? pa->max_mtu_bytes : 4096;
	if (active >= 4096 || active >= max) {
		findings_add(&c->rep, 3, "mtu", sub, VERDICT_PASS,
			   "active MTU %u%s; %s MTU %ld allows %u", active,
			   active < 4096 ? " (the device's maximum)" : "",
			   p->netdev, nd_mtu, allowed);
		return;
	}
	findings_add(&c->rep, 3, "mtu", sub, VERDICT_WARN,
		   "RoCEv2 at MTU %u caps payload at ~%.1f%% of line rate "
		   "(%s MTU %ld allows %u%s)", active,
		   100.0 * rate_wire_efficiency(active, RATE_ROCE_V2),
		   p->netdev, nd_mtu, allowed,
		   active < allowed ? ", yet the port reports less" : "");
	findings_fix(&c->rep, "set the netdev MTU to 4200 or 9000: ip link set "
		   "%s mtu 9000, here and on the peer, and allow it on every "
		   "switch port", p->netdev);
}

static void chk_mtu_port(struct chk_ctx *c, const struct inv_dev *d,
			 const struct inv_port *p)
{
	const struct probe *pr = c->probe;
	struct probe_port_attr pa = { 0 };
	char sub[FINDING_SUBJECT_LEN];
	bool probed;

	chk_dev_port_subject(sub, sizeof(sub), d, p);
	probed = pr->port_query &&
		 !pr->port_query(pr->priv, d->name, p->num, &pa) &&
		 pa.active_mtu_bytes;
	if (p->xport == INV_XPORT_IWARP) {
		findings_add(&c->rep, 3, "mtu", sub, VERDICT_SKIP,
			   "iWARP runs over TCP: its segments follow the "
			   "netdev MTU, there is no RoCE MTU");
	} else if (p->xport == INV_XPORT_ROCE) {
		chk_mtu_roce(c, sub, p, &pa, probed);
	} else if (!probed) {
		findings_add(&c->rep, 3, "mtu", sub, VERDICT_SKIP,
			   "the IB MTU needs ibv_query_port (not tried here)");
	} else if (pa.active_mtu_bytes < pa.max_mtu_bytes) {
		findings_add(&c->rep, 3, "mtu", sub, VERDICT_WARN,
			   "IB MTU %u on a %u-capable port caps payload at "
			   "~%.1f%%", pa.active_mtu_bytes, pa.max_mtu_bytes,
			   100.0 * rate_wire_efficiency(pa.active_mtu_bytes,
							RATE_IB));
		findings_fix(&c->rep, "raise the partition MTU in the subnet "
			   "manager (opensm partitions.conf: mtu=5 is 4096)");
	} else {
		findings_add(&c->rep, 3, "mtu", sub, VERDICT_PASS,
			   "IB MTU %u (the port's maximum)",
			   pa.active_mtu_bytes);
	}
}

void chk_port_mtu(struct chk_ctx *c)
{
	size_t i;
	unsigned int p;

	for (i = 0; i < c->inv.ndev; i++)
		if (!chk_skip_dev(c, &c->inv.devs[i]))
			for (p = 0; p < c->inv.devs[i].nports; p++)
				chk_mtu_port(c, &c->inv.devs[i],
					     &c->inv.devs[i].ports[p]);
}
