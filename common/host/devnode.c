// SPDX-License-Identifier: BSD-2-Clause
/*
 * devnode - a device's NUMA node and PCI function from sysfs (devnode.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "host/devnode.h"
#include "lib/fs.h"

/* A name must stay one path component below its class folder. */
static bool devnode_name_ok(const char *name)
{
	return name && name[0] && !strchr(name, '/') && strcmp(name, ".") &&
	       strcmp(name, "..");
}

/* The kernel's "%d": digits only; "-1", hex and the rest give -1. */
static int devnode_parse(const char *text)
{
	char *end;
	long v;

	if (text[0] < '0' || text[0] > '9')
		return -1;
	errno = 0;
	v = strtol(text, &end, 10);
	return errno || *end || v >= DEVNODE_MAX ? -1 : (int)v;
}

/* ROOT/FOLDER/NAME{SUB}/numa_node: the one read of that file. */
static int devnode_read(const char *root, const char *folder,
			const char *name, const char *sub, int *node)
{
	char text[16];
	int ret;

	*node = -1;
	if (!devnode_name_ok(name))
		return -ENOENT;
	ret = fs_read(root, text, sizeof(text), "%s/%s%s/numa_node", folder,
		      name, sub);
	if (!ret)
		*node = devnode_parse(text);
	/* longer than any node number: garbage, but the file is there */
	return ret == -EOVERFLOW ? 0 : ret;
}

int devnode_rdma(const char *sysfs_root, const char *dev, int *node)
{
	return devnode_read(sysfs_root, "/class/infiniband", dev, "/device",
			    node);
}

int devnode_pci(const char *sysfs_root, const char *bdf, int *node)
{
	return devnode_read(sysfs_root, "/bus/pci/devices", bdf, "", node);
}

/* DDDD:BB:DD.F as the kernel names a PCI function (domain 4 to 8 digits). */
static bool devnode_is_bdf(const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = strspn(s, hex);

	if (n < 4 || n > 8 || s[n] != ':')
		return false;
	s += n + 1;
	if (strspn(s, hex) != 2 || s[2] != ':')
		return false;
	s += 3;
	if (strspn(s, hex) != 2 || s[2] != '.')
		return false;
	return s[3] >= '0' && s[3] <= '7' && !s[4];
}

/* ROOT/FOLDER/NAME{SUB} resolved: the one reading of a PCI function. */
static int devnode_addr_read(const char *root, const char *folder,
			     const char *name, const char *sub,
			     struct devnode_addr *out)
{
	static const char pfx[] = "/devices/pci";
	char real[FS_PATH_MAX];
	const char *bdf;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!devnode_name_ok(name))
		return -ENOENT;
	ret = fs_resolve(root, real, sizeof(real), "%s/%s%s", folder, name,
			 sub);
	if (ret)
		return ret;
	bdf = strrchr(real, '/') + 1;
	if (strncmp(real, pfx, sizeof(pfx) - 1) || !devnode_is_bdf(bdf))
		return -ENOENT;
	if (!fs_copy(out->place, sizeof(out->place),
		     real + sizeof("/devices/") - 1)) {
		out->place[0] = '\0';
		return -ENAMETOOLONG;
	}
	fs_copy(out->bdf, sizeof(out->bdf), bdf);
	return 0;
}

int devnode_rdma_addr(const char *sysfs_root, const char *dev,
		      struct devnode_addr *out)
{
	return devnode_addr_read(sysfs_root, "/class/infiniband", dev,
				 "/device", out);
}

int devnode_net_addr(const char *sysfs_root, const char *ifname,
		     struct devnode_addr *out)
{
	return devnode_addr_read(sysfs_root, "/class/net", ifname, "/device",
				 out);
}

int devnode_pci_addr(const char *sysfs_root, const char *bdf,
		     struct devnode_addr *out)
{
	return devnode_addr_read(sysfs_root, "/bus/pci/devices", bdf, "", out);
}
