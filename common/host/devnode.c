// SPDX-License-Identifier: BSD-2-Clause
/*
 * devnode - the NUMA node of a device from sysfs (devnode.h).
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
