// SPDX-License-Identifier: BSD-2-Clause
/*
 * inv - the host's RDMA devices, ports, GPUs and addresses, read
 * once from sysfs (inv.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/inv.h"
#include "host/devnode.h"
#include "host/netdev.h"
#include "host/rate.h"
#include "host/topo.h"

#define IB "/sys/class/infiniband"

int inv_parse_state(const char *text, long *num, char *name, size_t len)
{
	char *end;
	long v = strtol(text, &end, 10);

	if (end == text || *end != ':')
		return -EINVAL;
	end++;
	while (*end == ' ')
		end++;
	*num = v;
	fs_copy(name, len, end);
	return 0;
}

const char *inv_xport_str(enum inv_xport x)
{
	return x == INV_XPORT_IB ? "IB" :
	       x == INV_XPORT_ROCE ? "RoCE" : "iWARP";
}

static void inv_add_ndev(struct inv_port *p, const char *name)
{
	unsigned int i;

	for (i = 0; i < p->n_ndevs; i++)
		if (!strcmp(p->ndevs[i], name))
			return;
	if (p->n_ndevs < INV_NDEVS_MAX)
		fs_copy(p->ndevs[p->n_ndevs++], PROBE_IFNAME_LEN, name);
}

/* SYSFS/class/net/IF/attr as a positive int, else -1. */
static int inv_net_long(const char *sysfs, const char *ifname,
			const char *attr)
{
	long v;

	if (fs_read_long(sysfs, &v, "/class/net/%s/%s", ifname, attr) ||
	    v <= 0 || v > INT_MAX)
		return -1;
	return (int)v;
}

static void inv_port_netdev(const char *sysfs, const struct probe *pr,
			    const struct inv_dev *d, struct inv_port *p)
{
	struct netdev_list l;
	unsigned int i;

	/* host/netdev.h's rule, as link_read and --netdev apply it */
	if (!netdev_list(sysfs, d->name, p->num, &l))
		for (i = 0; i < l.n; i++)
			inv_add_ndev(p, l.names[i]);
	if (p->n_ndevs)
		fs_copy(p->netdev, sizeof(p->netdev), p->ndevs[0]);
	/* siw and other iWARP devices: only RDMA netlink knows */
	if (!p->netdev[0] && pr->port_netdev &&
	    pr->port_netdev(pr->priv, d->name, p->num, p->netdev,
			    sizeof(p->netdev)))
		p->netdev[0] = '\0';
	if (!p->netdev[0] || !strcmp(p->netdev, p->link.netdev))
		return;
	inv_add_ndev(p, p->netdev);
	/* link_read's netdev facts are of its netdev: none here */
	p->link.netdev_speed_mbps = inv_net_long(sysfs, p->netdev, "speed");
	p->link.netdev_mtu = inv_net_long(sysfs, p->netdev, "mtu");
}

static void inv_read_port(const char *root, const char *sysfs,
		     const struct probe *pr, const struct inv_dev *d,
		     struct inv_port *p)
{
	struct rate_link rl;
	char buf[64];

	p->state = p->phys = -1;
	if (!fs_read(root, buf, sizeof(buf), IB "/%s/ports/%u/state",
		      d->name, p->num))
		inv_parse_state(buf, &p->state, p->state_text,
				   sizeof(p->state_text));
	if (!fs_read(root, buf, sizeof(buf), IB "/%s/ports/%u/phys_state",
		      d->name, p->num))
		inv_parse_state(buf, &p->phys, p->phys_text,
				   sizeof(p->phys_text));
	if (link_read(sysfs, d->name, p->num, &p->link))
		p->link = (struct link_facts){ .netdev_speed_mbps = -1,
					       .netdev_mtu = -1,
					       .numa_node = -1 };
	if (!rate_parse_sysfs(p->link.rate_text, &rl)) {
		p->width_lanes = rl.lanes;
		fs_copy(p->speed_name, sizeof(p->speed_name), rl.speed_name);
	}
	fs_read(root, buf, sizeof(buf), IB "/%s/ports/%u/link_layer",
		 d->name, p->num);
	if (d->is_rnic)
		p->xport = INV_XPORT_IWARP;
	else if (!strcmp(buf, "InfiniBand"))
		p->xport = INV_XPORT_IB;
	else
		p->xport = INV_XPORT_ROCE;
	inv_port_netdev(sysfs, pr, d, p);
}

static void inv_read_dev(const char *root, const char *sysfs,
		    const struct probe *pr, const char *name,
		    struct inv_dev *d)
{
	const struct link_facts *l = &d->ports[0].link;
	struct devnode_addr a;
	char buf[64], **ports;
	size_t n, i;

	memset(d, 0, sizeof(*d));
	fs_copy(d->name, sizeof(d->name), name);
	if (!fs_read(root, buf, sizeof(buf), IB "/%s/node_type", name))
		d->is_rnic = !strncmp(buf, "4:", 2);
	/* software devices (rxe, siw) have no "device" link */
	if (!devnode_rdma_addr(sysfs, name, &a)) {
		fs_copy(d->bdf, sizeof(d->bdf), a.bdf);
		fs_copy(d->pci_place, sizeof(d->pci_place), a.place);
		fs_link_name(root, d->driver, sizeof(d->driver),
			      IB "/%s/device/driver", name);
	}
	fs_list(root, &ports, &n, IB "/%s/ports", name);
	for (i = 0; i < n && d->nports < INV_PORTS_MAX; i++) {
		struct inv_port *p = &d->ports[d->nports++];

		p->num = (unsigned int)strtoul(ports[i], NULL, 10);
		inv_read_port(root, sysfs, pr, d, p);
	}
	free(ports);
	devnode_rdma(sysfs, name, &d->numa_node);
	/* the device's PCI facts are the same in every port's */
	d->pcie = l->pcie;
}

/* /dev/infiniband/uverbsN of each device, from the uverbs class. */
static void inv_uverbs(const char *root, struct inv *inv)
{
	char **uv, ibdev[INV_NAME_LEN];
	size_t n, i, k;

	fs_list(root, &uv, &n, "/sys/class/infiniband_verbs");
	for (i = 0; i < n; i++) {
		if (fs_read(root, ibdev, sizeof(ibdev),
			     "/sys/class/infiniband_verbs/%s/ibdev", uv[i]))
			continue;
		for (k = 0; k < inv->ndev; k++)
			if (!strcmp(inv->devs[k].name, ibdev))
				fs_copy(inv->devs[k].uverbs,
					 sizeof(inv->devs[k].uverbs), uv[i]);
	}
	free(uv);
}

/* NVIDIA GPUs, by host/topo.h's rule. */
static int inv_gpus(const char *root, struct inv *inv)
{
	struct devnode_addr a;
	char **pci;
	struct inv_gpu *g;
	size_t n, i;

	fs_list(root, &pci, &n, "/sys/bus/pci/devices");
	inv->gpus = calloc(INV_GPUS_MAX, sizeof(*inv->gpus));
	if (!inv->gpus) {
		free(pci);
		return -ENOMEM;
	}
	for (i = 0; i < n && inv->ngpu < INV_GPUS_MAX; i++) {
		if (!topo_is_gpu(inv->sysfs, pci[i]))
			continue;
		g = &inv->gpus[inv->ngpu++];
		fs_copy(g->bdf, sizeof(g->bdf), pci[i]);
		devnode_pci_addr(inv->sysfs, pci[i], &a);
		fs_copy(g->pci_place, sizeof(g->pci_place), a.place);
		devnode_pci(inv->sysfs, pci[i], &g->numa_node);
	}
	free(pci);
	return 0;
}

int inv_read(const char *root, const struct probe *probe,
		     struct inv *inv)
{
	char **names;
	size_t n, i;
	int ret;

	memset(inv, 0, sizeof(*inv));
	ret = fs_path(root, inv->sysfs, sizeof(inv->sysfs), "/sys");
	if (ret)
		return ret;
	fs_list(root, &names, &n, IB);
	inv->devs = calloc(n ? n : 1, sizeof(*inv->devs));
	if (!inv->devs) {
		free(names);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		inv_read_dev(root, inv->sysfs, probe, names[i],
			&inv->devs[inv->ndev++]);
	free(names);
	inv_uverbs(root, inv);
	if (probe->addrs &&
	    probe->addrs(probe->priv, &inv->addrs, &inv->naddr)) {
		inv->addrs = NULL;
		inv->naddr = 0;
	}
	return inv_gpus(root, inv);
}

void inv_free(struct inv *inv)
{
	free(inv->devs);
	free(inv->gpus);
	free(inv->addrs);
	memset(inv, 0, sizeof(*inv));
}

/* Port number num of the device named name, or NULL. */
static const struct inv_port *inv_find(const struct inv *inv,
					  const char *name, unsigned int num,
					  const struct inv_dev **dev)
{
	size_t i;
	unsigned int p;

	for (i = 0; i < inv->ndev; i++)
		for (p = 0; p < inv->devs[i].nports; p++)
			if (!strcmp(inv->devs[i].name, name) &&
			    inv->devs[i].ports[p].num == num) {
				if (dev)
					*dev = &inv->devs[i];
				return &inv->devs[i].ports[p];
			}
	return NULL;
}

const struct inv_port *inv_port_of(const struct inv *inv,
					     const char *ifname,
					     const struct inv_dev **dev)
{
	char name[INV_NAME_LEN];
	unsigned int num, p;
	size_t i;

	if (!netdev_find_port(inv->sysfs, ifname, name, sizeof(name), &num))
		return inv_find(inv, name, num, dev);
	for (i = 0; i < inv->ndev; i++)
		for (p = 0; p < inv->devs[i].nports; p++)
			if (!strcmp(inv->devs[i].ports[p].netdev, ifname))
				return inv_find(inv, inv->devs[i].name,
						inv->devs[i].ports[p].num, dev);
	return NULL;
}
