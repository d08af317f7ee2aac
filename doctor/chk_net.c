// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_net - steps 4-5 of ib_doctor: which netdev each RDMA port
 * uses, whether every IP on those netdevs has a RoCEv2 GID (without one,
 * rdma_cm cannot use the address), and with --peer whether the route to
 * the peer leaves through an RDMA netdev and rdma_cm resolves it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/chk.h"
#include "doctor/net.h"

#define GIDS_MAX 256

struct gid_entry {
	unsigned int index;
	unsigned char gid[16];
	bool is_v2;
	char ndev[PROBE_IFNAME_LEN];
};

/* The addresses of ifname (link-local IPv6 left out) as "a, b". */
static size_t chk_addr_list(const struct chk_ctx *c, const char *ifname,
			    char *out, size_t len)
{
	size_t i, n = 0, off = 0;

	out[0] = '\0';
	for (i = 0; i < c->inv.naddr; i++) {
		const struct probe_addr *a = &c->inv.addrs[i];

		if (strcmp(a->ifname, ifname) || net_addr_link_local(a))
			continue;
		if (off < len)
			off += (size_t)snprintf(out + off, len - off, "%s%s",
						n ? ", " : "", a->text);
		n++;
	}
	return n;
}

static void chk_netdev_port(struct chk_ctx *c, const struct inv_dev *d,
			    const struct inv_port *p)
{
	char sub[FINDING_SUBJECT_LEN], addrs[200];
	bool ib = p->xport == INV_XPORT_IB;

	chk_dev_port_subject(sub, sizeof(sub), d, p);
	if (!p->netdev[0]) {
		findings_add(&c->rep, 4, "netdev_map", sub,
			   ib ? VERDICT_WARN : VERDICT_FAIL, "%s",
			   ib ? "no IPoIB netdev: rdma_cm over IB resolves "
				"addresses through IPoIB" :
				"no netdev found for this port: RoCE/iWARP "
				"addresses and GIDs come from one");
		findings_fix(&c->rep, "%s", ib ? "modprobe ib_ipoib and give "
			   "the ib netdev an IP" : "bring up the NIC's "
			   "Ethernet driver; for Soft-RoCE: rdma link add rxe0 "
			   "type rxe netdev IF (rdma link show lists the "
			   "pairs)");
		return;
	}
	if (!c->inv.addrs) {
		findings_add(&c->rep, 4, "netdev_map", sub, VERDICT_PASS,
			   "%s (addresses not read here)", p->netdev);
	} else if (!chk_addr_list(c, p->netdev, addrs, sizeof(addrs))) {
		findings_add(&c->rep, 4, "netdev_map", sub, VERDICT_WARN,
			   "%s has no IP address: rdma_cm cannot reach %s",
			   p->netdev, d->name);
		findings_fix(&c->rep, "ip addr add ADDR/LEN dev %s (in a pod: "
			   "the network attachment's IPAM gives it)",
			   p->netdev);
	} else {
		findings_add(&c->rep, 4, "netdev_map", sub, VERDICT_PASS,
			   "%s, %s", p->netdev, addrs);
	}
}

/* The port's GID table: only entries with a type (the rest are unused). */
static size_t chk_gid_table(const char *root, const struct inv_dev *d,
			    const struct inv_port *p, struct gid_entry *g)
{
	char **idx, buf[64];
	size_t n, i, k = 0;

	fs_list(root, &idx, &n, "/sys/class/infiniband/%s/ports/%u/gids",
		 d->name, p->num);
	for (i = 0; i < n && k < GIDS_MAX; i++) {
		if (fs_read(root, buf, sizeof(buf),
			     "/sys/class/infiniband/%s/ports/%u/gids/%s",
			     d->name, p->num, idx[i]) ||
		    net_gid_parse(buf, g[k].gid) ||
		    fs_read(root, buf, sizeof(buf), "/sys/class/infiniband/"
			     "%s/ports/%u/gid_attrs/types/%s", d->name, p->num,
			     idx[i]))
			continue;
		g[k].is_v2 = !strcmp(buf, "RoCE v2");
		g[k].index = (unsigned int)strtoul(idx[i], NULL, 10);
		fs_read(root, g[k].ndev, sizeof(g[k].ndev),
			 "/sys/class/infiniband/%s/ports/%u/gid_attrs/ndevs/%s",
			 d->name, p->num, idx[i]);
		k++;
	}
	free(idx);
	return k;
}

/* The RoCEv2 GID of a on its netdev: its index, -1 none, -2 only v1. */
static int chk_gid_of(const struct gid_entry *g, size_t n,
		      const struct probe_addr *a)
{
	unsigned char want[16];
	size_t i;
	int found = -1;

	net_addr_gid(a, want);
	for (i = 0; i < n; i++) {
		if (memcmp(g[i].gid, want, 16) || strcmp(g[i].ndev, a->ifname))
			continue;
		if (g[i].is_v2)
			return (int)g[i].index;
		found = -2;
	}
	return found;
}

/*
 * Is ifname the port's netdev, a netdev of its GID table, or a device
 * stacked on the netdev (bridge, bond, macvlan)? An IP on the last kind
 * has no GID unless the kernel ties it to the port.
 */
static bool chk_on_port(const struct chk_ctx *c,
			const struct inv_port *p, const char *ifname)
{
	return inv_port_of(&c->inv, ifname, NULL) == p;
}

/* Go through the port's addresses; ok/bad lists; returns how many. */
static size_t chk_gid_match(const struct chk_ctx *c,
			    const struct inv_port *p,
			    const struct gid_entry *g, size_t ng,
			    char *ok, char *bad, size_t len)
{
	size_t i, n = 0, okoff = 0, badoff = 0;

	ok[0] = bad[0] = '\0';
	for (i = 0; i < c->inv.naddr; i++) {
		const struct probe_addr *a = &c->inv.addrs[i];
		int idx;

		if (!chk_on_port(c, p, a->ifname) || net_addr_link_local(a))
			continue;
		n++;
		idx = chk_gid_of(g, ng, a);
		if (idx >= 0 && okoff < len)
			okoff += (size_t)snprintf(ok + okoff, len - okoff,
				"%s%s GID %d", okoff ? ", " : "", a->text, idx);
		else if (idx < 0 && badoff < len)
			badoff += (size_t)snprintf(bad + badoff, len - badoff,
				"%s%s on %s%s", badoff ? ", " : "", a->text,
				a->ifname, idx == -2 ? " (RoCE v1 only)" : "");
	}
	return n;
}

static void chk_gids_port(struct chk_ctx *c, const struct inv_dev *d,
			  const struct inv_port *p, struct gid_entry *g)
{
	char sub[FINDING_SUBJECT_LEN], ok[160], bad[160];
	size_t ng = chk_gid_table(c->root, d, p, g);

	chk_dev_port_subject(sub, sizeof(sub), d, p);
	if (!c->inv.addrs || !p->netdev[0]) {
		findings_add(&c->rep, 4, "roce_gid", sub, VERDICT_SKIP,
			   "%s", p->netdev[0] ? "interface addresses not read "
			   "here" : "no netdev (see netdev_map)");
		return;
	}
	if (!chk_gid_match(c, p, g, ng, ok, bad, sizeof(ok))) {
		findings_add(&c->rep, 4, "roce_gid", sub, VERDICT_SKIP,
			   "no IP on %s to look for (see netdev_map)",
			   p->netdev);
	} else if (bad[0]) {
		findings_add(&c->rep, 4, "roce_gid", sub, VERDICT_FAIL,
			   "no RoCEv2 GID carries %s%s%s: rdma_cm cannot use "
			   "it", bad, ok[0] ? "; fine: " : "", ok);
		findings_fix(&c->rep, "the kernel makes GIDs from the addresses "
			   "of %s and the VLANs on it: put the IP there, not "
			   "on a bond/bridge above it, and in this namespace",
			   p->netdev);
	} else {
		findings_add(&c->rep, 4, "roce_gid", sub, VERDICT_PASS,
			   "%s (RoCE v2)", ok);
	}
}

static void chk_netdevs_dev(struct chk_ctx *c, const struct inv_dev *d)
{
	struct gid_entry *g = NULL;
	unsigned int p;

	for (p = 0; p < d->nports; p++)
		chk_netdev_port(c, d, &d->ports[p]);
	for (p = 0; p < d->nports; p++) {
		if (d->ports[p].xport != INV_XPORT_ROCE)
			continue;
		if (!g && !(g = calloc(GIDS_MAX, sizeof(*g)))) {
			c->rep.lost = true;
			return;
		}
		chk_gids_port(c, d, &d->ports[p], g);
	}
	free(g);
}

void chk_net_netdevs(struct chk_ctx *c)
{
	chk_dev_each(c, chk_netdevs_dev);
}

/* The RDMA netdevs, for a fix line: "rxe_if (rxe0), siw_if (siw0)". */
static void chk_rdma_netdevs(const struct chk_ctx *c, char *out,
			     size_t len)
{
	size_t i, off = 0;
	unsigned int p;

	out[0] = '\0';
	for (i = 0; i < c->inv.ndev; i++)
		for (p = 0; p < c->inv.devs[i].nports && off < len; p++)
			if (c->inv.devs[i].ports[p].netdev[0])
				off += (size_t)snprintf(out + off, len - off,
					"%s%s (%s)", off ? ", " : "",
					c->inv.devs[i].ports[p].netdev,
					c->inv.devs[i].name);
}

/* Which interface traffic to peer leaves through; local addresses too. */
static int chk_peer_ifname(const struct chk_ctx *c,
			   const struct probe_addr *peer, char *ifname,
			   size_t len, bool *local)
{
	const struct probe *pr = c->probe;
	size_t i;
	int ret = -EOPNOTSUPP;

	*local = false;
	for (i = 0; i < c->inv.naddr; i++)
		if (net_addr_equal(&c->inv.addrs[i], peer)) {
			*local = true;
			fs_copy(ifname, len, c->inv.addrs[i].ifname);
			return 0;
		}
	if (pr->route)
		ret = pr->route(pr->priv, peer, ifname, len);
	if (ret && ret != -ENETUNREACH && ret != -EHOSTUNREACH)
		ret = net_route_proc(c->root, peer, ifname, len);
	return ret;
}

static void chk_route(struct chk_ctx *c, const struct probe_addr *peer)
{
	const struct inv_dev *d = NULL;
	const struct inv_port *p;
	char ifname[PROBE_IFNAME_LEN], nds[200];
	bool local;
	int ret = chk_peer_ifname(c, peer, ifname, sizeof(ifname), &local);

	chk_rdma_netdevs(c, nds, sizeof(nds));
	if (ret) {
		findings_add(&c->rep, 5, "route", peer->text, VERDICT_FAIL,
			   "no route to %s: %s", peer->text, strerror(-ret));
		findings_fix(&c->rep, "give an RDMA netdev an address in the "
			   "peer's subnet, or add a route through one: %s",
			   nds[0] ? nds : "none here");
		return;
	}
	p = inv_port_of(&c->inv, ifname, &d);
	if (!p) {
		findings_add(&c->rep, 5, "route", peer->text, VERDICT_FAIL,
			   "the route to %s leaves through %s, which has no "
			   "RDMA device: rdma_cm fails, and a TCP tool would "
			   "run over plain Ethernet", peer->text, ifname);
		findings_fix(&c->rep, "use the peer's IP on the RDMA network, "
			   "or route it through an RDMA netdev (ip route add "
			   "%s dev IF): %s", peer->text, nds[0] ? nds : "none");
	} else if (chk_skip_dev(c, d)) {
		findings_add(&c->rep, 5, "route", peer->text, VERDICT_FAIL,
			   "the route to %s leaves through %s, which is %s's, "
			   "not -d %s's", peer->text, ifname, d->name,
			   c->only_dev);
		findings_fix(&c->rep, "use -d %s, or the peer's IP on %s's "
			   "network", d->name, c->only_dev);
	} else {
		findings_add(&c->rep, 5, "route", peer->text, VERDICT_PASS,
			   "%s %s, %s port %u (%s)", local ?
			   "a local address on" : "the route leaves through",
			   ifname, d->name, p->num, inv_xport_str(p->xport));
	}
}

static void chk_cm_fix(struct chk_ctx *c, int err)
{
	if (err == -ETIMEDOUT)
		findings_fix(&c->rep, "no ARP/ND answer in %u ms: is the peer "
			   "up, and in this subnet?", CHK_CM_TIMEOUT_MS);
	else if (err == -EHOSTUNREACH || err == -ENODEV ||
		 err == -EADDRNOTAVAIL || err == -ENETUNREACH)
		findings_fix(&c->rep, "the way to the peer has no RDMA device "
			   "(see route)");
	else
		findings_fix(&c->rep, "modprobe rdma_ucm, and see dmesg");
}

static void chk_cm(struct chk_ctx *c, const struct probe_addr *peer)
{
	const struct probe *pr = c->probe;
	char dev[INV_NAME_LEN] = "";
	unsigned int port = 0;
	int ret = -EOPNOTSUPP;

	if (c->inv.ndev && pr->cm_resolve)
		ret = pr->cm_resolve(pr->priv, peer->text,
				     CHK_CM_TIMEOUT_MS, dev, sizeof(dev),
				     &port);
	if (!c->inv.ndev) {
		findings_add(&c->rep, 5, "cm_resolve", peer->text, VERDICT_SKIP,
			   "no RDMA device to resolve with");
	} else if (ret == -EOPNOTSUPP) {
		findings_add(&c->rep, 5, "cm_resolve", peer->text, VERDICT_SKIP,
			   "rdma_cm not tried here");
	} else if (ret) {
		findings_add(&c->rep, 5, "cm_resolve", peer->text, VERDICT_FAIL,
			   "rdma_cm cannot resolve %s: %s", peer->text,
			   strerror(-ret));
		chk_cm_fix(c, ret);
	} else if (c->only_dev && *c->only_dev && strcmp(dev, c->only_dev)) {
		findings_add(&c->rep, 5, "cm_resolve", peer->text, VERDICT_FAIL,
			   "rdma_cm resolves %s to %s port %u, not -d %s",
			   peer->text, dev, port, c->only_dev);
		findings_fix(&c->rep, "use -d %s (the benches refuse a -d that "
			   "does not own the path)", dev);
	} else {
		findings_add(&c->rep, 5, "cm_resolve", peer->text, VERDICT_PASS,
			   "rdma_cm resolves address and route to %s via %s "
			   "port %u", peer->text, dev, port);
	}
}

void chk_net_peer(struct chk_ctx *c)
{
	struct probe_addr peer;

	if (!c->peer || !*c->peer) {
		findings_add(&c->rep, 5, "route", "-", VERDICT_SKIP,
			   "no --peer IP: route and rdma_cm not checked");
		return;
	}
	/* the CLI has checked it already; a bad one here is a bug */
	if (net_addr_parse(c->peer, &peer)) {
		findings_add(&c->rep, 5, "route", c->peer, VERDICT_FAIL,
			   "--peer %s is not an IP address", c->peer);
		return;
	}
	chk_route(c, &peer);
	chk_cm(c, &peer);
}
