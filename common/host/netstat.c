// SPDX-License-Identifier: BSD-2-Clause
/*
 * netstat - a network interface's byte and packet counters. See netstat.h.
 */
#include "host/netstat.h"
#include "lib/fs.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

/* The sysfs root, "/sys" unless one is given. */
static const char *ns_root(const char *sysfs_root)
{
	return sysfs_root && sysfs_root[0] ? sysfs_root : "/sys";
}

/* One counter file: a decimal number, nothing after it. */
static int ns_value(const char *root, const char *ifname, const char *file,
		    uint64_t *value)
{
	return fs_read_u64(root, value, "/class/net/%s/statistics/%s", ifname,
			   file);
}

int netstat_read(const char *sysfs_root, const char *ifname,
		 struct netstat *out)
{
	const struct {
		const char *file;
		size_t off;
	} files[] = {
		{ "rx_bytes", offsetof(struct netstat, rx_bytes) },
		{ "tx_bytes", offsetof(struct netstat, tx_bytes) },
		{ "rx_packets", offsetof(struct netstat, rx_packets) },
		{ "tx_packets", offsetof(struct netstat, tx_packets) },
	};
	const char *root = ns_root(sysfs_root);
	size_t i;
	int ret;

	if (!ifname || !ifname[0] || strchr(ifname, '/') ||
	    !strcmp(ifname, ".") || !strcmp(ifname, "..") || !out)
		return -EINVAL;
	if (!fs_exists(root, "/class/net/%s/statistics", ifname))
		return -ENOENT;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		ret = ns_value(root, ifname, files[i].file,
			       (uint64_t *)((char *)out + files[i].off));
		if (ret)
			return ret;
	}
	return 0;
}

int netstat_list(const char *sysfs_root, char ***names_out, size_t *n_out)
{
	return fs_list(ns_root(sysfs_root), names_out, n_out, "/class/net");
}
