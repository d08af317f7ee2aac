// SPDX-License-Identifier: BSD-2-Clause
/*
 * pcipath - read a function's configuration space, the bridges between
 * two functions, the IOMMU group's type (pcipath.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "host/pcipath.h"
#include "lib/fs.h"

int pcipath_cfg(const char *sysfs_root, const char *place,
		struct pcicfg *out)
{
	uint8_t buf[PCICFG_MAX_LEN];
	char path[FS_PATH_MAX];
	ssize_t n;
	size_t got = 0;
	int fd, ret;

	memset(out, 0, sizeof(*out));
	ret = fs_path(sysfs_root, path, sizeof(path), "/devices/%s/config",
		      place);
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (got < sizeof(buf) &&
	       (n = read(fd, buf + got, sizeof(buf) - got)) > 0)
		got += (size_t)n;
	close(fd);
	return pcicfg_decode(buf, got, out);
}

/* Split place at its slashes: where each component starts, its length. */
static size_t path_parts(const char *place, const char **starts,
			 size_t *lens, size_t max)
{
	const char *p = place, *slash;
	size_t n = 0;

	while (*p && n < max) {
		slash = strchr(p, '/');
		starts[n] = p;
		lens[n] = slash ? (size_t)(slash - p) : strlen(p);
		n++;
		if (!slash)
			break;
		p = slash + 1;
	}
	return n;
}

/* The bridges of place from component first to the function's parent. */
static size_t path_below(const char *place, size_t first,
			 char (*out)[DEVNODE_PLACE_LEN], size_t n, size_t max)
{
	const char *starts[32];
	size_t lens[32], k, parts = path_parts(place, starts, lens, 32);

	for (k = first; k + 1 < parts && n < max; k++)
		snprintf(out[n++], DEVNODE_PLACE_LEN, "%.*s",
			 (int)(starts[k] + lens[k] - place), place);
	return n;
}

size_t pcipath_between(const char *place_a, const char *place_b,
		       char (*out)[DEVNODE_PLACE_LEN], size_t max)
{
	const char *sa[32], *sb[32];
	size_t la[32], lb[32], na, nb, common = 0, n;

	na = path_parts(place_a, sa, la, 32);
	nb = path_parts(place_b, sb, lb, 32);
	while (common < na && common < nb && la[common] == lb[common] &&
	       !memcmp(sa[common], sb[common], la[common]))
		common++;
	if (!common)
		return 0;       /* different host bridges: no path below one */
	n = path_below(place_a, common, out, 0, max);
	return path_below(place_b, common, out, n, max);
}

enum pcipath_iommu pcipath_iommu(const char *sysfs_root, const char *place,
				 char *type, size_t len)
{
	char buf[32] = "";
	enum pcipath_iommu m = PCIPATH_IOMMU_UNKNOWN;

	if (!fs_exists(sysfs_root, "/devices/%s/iommu_group", place))
		m = PCIPATH_IOMMU_OFF;
	else if (fs_read(sysfs_root, buf, sizeof(buf),
			 "/devices/%s/iommu_group/type", place))
		m = PCIPATH_IOMMU_UNKNOWN;
	else if (!strcmp(buf, "identity"))
		m = PCIPATH_IOMMU_IDENTITY;
	else if (!strncmp(buf, "DMA", 3))
		m = PCIPATH_IOMMU_DMA;
	else if (!strcmp(buf, "blocked"))
		m = PCIPATH_IOMMU_BLOCKED;
	if (type && len)
		snprintf(type, len, "%s", buf);
	return m;
}

const char *pcipath_iommu_name(enum pcipath_iommu m)
{
	static const char *const names[] = {
		[PCIPATH_IOMMU_OFF] = "off",
		[PCIPATH_IOMMU_IDENTITY] = "passthrough",
		[PCIPATH_IOMMU_DMA] = "translated",
		[PCIPATH_IOMMU_BLOCKED] = "blocked",
		[PCIPATH_IOMMU_UNKNOWN] = "unknown",
	};

	return names[m];
}
