// SPDX-License-Identifier: BSD-2-Clause
/*
 * sysver - versions of the kernel, drivers and rdma-core. See sysver.h.
 */
#include "host/sysver.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/fs.h"

/* NULL is the real root. */
static const char *sv_root(const char *root)
{
	return root ? root : "/";
}

int sysver_kernel(const char *root, char *buf, size_t len)
{
	return fs_read(sv_root(root), buf, len, "/proc/sys/kernel/osrelease");
}

int sysver_driver(const char *root, const char *dev, char *buf, size_t len)
{
	int ret;

	if (!dev || !*dev || strchr(dev, '/')) {
		if (len)
			buf[0] = '\0';
		return -EINVAL;
	}
	ret = fs_link_name(sv_root(root), buf, len,
			   "/sys/class/infiniband/%s/device/driver", dev);
	if (ret && len)
		buf[0] = '\0';
	return ret;
}

int sysver_module(const char *root, const char *mod, char *buf, size_t len)
{
	if (!mod || !*mod || strchr(mod, '/')) {
		if (len)
			buf[0] = '\0';
		return -EINVAL;
	}
	return fs_read(sv_root(root), buf, len, "/sys/module/%s/version",
		       mod);
}

int sysver_nvidia(const char *root, char *buf, size_t len)
{
	return sysver_module(root, "nvidia", buf, len);
}

int sysver_rdma_core(const char *lib_path, char *buf, size_t len)
{
	static const char stem[] = "libibverbs.so.1.";
	const char *base = lib_path ? strrchr(lib_path, '/') : NULL;
	const char *abi, *rel;

	if (len)
		buf[0] = '\0';
	base = base ? base + 1 : lib_path;
	if (!base || strncmp(base, stem, sizeof(stem) - 1))
		return -EINVAL;
	abi = base + sizeof(stem) - 1;
	rel = strchr(abi, '.');
	/* 1.ABI.RELEASE: the ABI a number, the release at least "N" */
	if (!rel || rel == abi || strspn(abi, "0123456789") !=
	    (size_t)(rel - abi) || !rel[1] ||
	    strspn(rel + 1, "0123456789.") != strlen(rel + 1))
		return -EINVAL;
	if ((size_t)snprintf(buf, len, "%s", rel + 1) >= len) {
		if (len)
			buf[0] = '\0';
		return -EOVERFLOW;
	}
	return 0;
}
