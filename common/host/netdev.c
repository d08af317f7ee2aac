// SPDX-License-Identifier: BSD-2-Clause
/*
 * netdev - the netdev <-> RDMA port rule (see netdev.h). The layout read:
 *   ROOT/class/infiniband/DEV/ports/N/gid_attrs/ndevs/I  (EINVAL: unused)
 *   ROOT/class/infiniband/DEV/parent                      (rxe only)
 *   ROOT/class/net/IF/device/infiniband/DEV, IF/dev_port  (PCI, IPoIB)
 *   ROOT/class/net/IF/lower_LOWER                         (stacked ones)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "host/netdev.h"
#include "lib/fs.h"

#define NETDEV_DEPTH_MAX 8      /* VLAN on macvlan on bond on ...: plenty */

/* One path component: no '/', not "." or "..". */
static bool netdev_name_ok(const char *name)
{
	return name && name[0] && !strchr(name, '/') && strcmp(name, ".") &&
	       strcmp(name, "..") && strlen(name) < NETDEV_NAME_LEN;
}

static const char *netdev_root(const char *sysfs_root)
{
	return sysfs_root && sysfs_root[0] ? sysfs_root : "/sys";
}

static void netdev_add(struct netdev_list *l, const char *name)
{
	unsigned int i;

	if (!netdev_name_ok(name) || l->n == NETDEV_LIST_MAX)
		return;
	for (i = 0; i < l->n; i++)
		if (!strcmp(l->names[i], name))
			return;
	fs_copy(l->names[l->n++], NETDEV_NAME_LEN, name);
}

/* Is class/net/IF DEV's port N's PCI (or IPoIB) netdev? */
static bool netdev_of_function(const char *root, const char *dev,
			       unsigned int port, const char *ifname)
{
	long dev_port;

	if (!fs_exists(root, "/class/net/%s/device/infiniband/%s", ifname,
		       dev))
		return false;
	/* no dev_port: a single-port function */
	if (fs_read_long(root, &dev_port, "/class/net/%s/dev_port", ifname))
		return true;
	return dev_port == (long)port - 1;
}

/* A port without GID netdevs (IB, no IP yet): rxe's parent, or the PCI
 * function's netdev of this port. */
static void netdev_own(const char *root, const char *dev, unsigned int port,
		       struct netdev_list *l)
{
	char name[NETDEV_NAME_LEN], **nets;
	size_t n, i;

	if (port == 1 && !fs_read(root, name, sizeof(name),
				  "/class/infiniband/%s/parent", dev)) {
		netdev_add(l, name);
		return;
	}
	fs_list(root, &nets, &n, "/class/net");
	for (i = 0; i < n && !l->n; i++)
		if (netdev_of_function(root, dev, port, nets[i]))
			netdev_add(l, nets[i]);
	free(nets);
}

int netdev_list(const char *sysfs_root, const char *dev, unsigned int port,
		struct netdev_list *out)
{
	const char *root = netdev_root(sysfs_root);
	char name[NETDEV_NAME_LEN], **gids;
	size_t n, i;

	memset(out, 0, sizeof(*out));
	if (!netdev_name_ok(dev) || !port)
		return -EINVAL;
	/* in index order: the lowest is the port's own (its MAC GID) */
	fs_list(root, &gids, &n, "/class/infiniband/%s/ports/%u/gid_attrs/ndevs",
		dev, port);
	for (i = 0; i < n && out->n < NETDEV_LIST_MAX; i++)
		if (!fs_read(root, name, sizeof(name),
			     "/class/infiniband/%s/ports/%u/gid_attrs/ndevs/%s",
			     dev, port, gids[i]))
			netdev_add(out, name);
	free(gids);
	if (!out->n)
		netdev_own(root, dev, port, out);
	return 0;
}

/* The first port whose list holds ifname; 0 or -ENODEV. */
static int netdev_search(const char *root, const char *ifname, char *dev,
			 size_t len, unsigned int *port)
{
	struct netdev_list l;
	char **devs, **ports;
	size_t nd, np, i, k;
	unsigned int j;
	int ret = -ENODEV;

	fs_list(root, &devs, &nd, "/class/infiniband");
	for (i = 0; i < nd && ret; i++) {
		fs_list(root, &ports, &np, "/class/infiniband/%s/ports",
			devs[i]);
		for (k = 0; k < np && ret; k++) {
			*port = (unsigned int)strtoul(ports[k], NULL, 10);
			if (netdev_list(root, devs[i], *port, &l))
				continue;
			for (j = 0; j < l.n && ret; j++)
				if (!strcmp(l.names[j], ifname))
					ret = fs_copy(dev, len, devs[i]) ?
					      0 : -ENAMETOOLONG;
		}
		free(ports);
	}
	free(devs);
	return ret;
}

/* The netdev right below ifname (its first lower_*), or -ENOENT. */
static int netdev_lower(const char *root, char *ifname, size_t len)
{
	char **names;
	size_t n, i;
	int ret = -ENOENT;

	fs_list(root, &names, &n, "/class/net/%s", ifname);
	for (i = 0; i < n && ret; i++)
		if (!strncmp(names[i], "lower_", 6) &&
		    netdev_name_ok(names[i] + 6))
			ret = fs_copy(ifname, len, names[i] + 6) ?
			      0 : -ENAMETOOLONG;
	free(names);
	return ret;
}

int netdev_find_port(const char *sysfs_root, const char *ifname, char *dev,
		     size_t len, unsigned int *port)
{
	const char *root = netdev_root(sysfs_root);
	char name[NETDEV_NAME_LEN];
	int depth, ret;

	if (!netdev_name_ok(ifname) || !dev || !port)
		return -EINVAL;
	fs_copy(name, sizeof(name), ifname);
	for (depth = 0; depth < NETDEV_DEPTH_MAX; depth++) {
		ret = netdev_search(root, name, dev, len, port);
		if (ret != -ENODEV || netdev_lower(root, name, sizeof(name)))
			return ret;
	}
	return -ENODEV;
}
