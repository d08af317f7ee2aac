/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pcipath - the PCIe facts of GPUDirect's peer path, from sysfs alone:
 * the configuration space of a function (lib/pcicfg.h decodes it), the
 * bridges between a GPU and its NIC, and the IOMMU's mode for a function.
 *
 * Pure: reads files under a sysfs root ("/sys", or a fake tree in tests).
 * Places are host/topo.h's: "pci0000:15/0000:15:01.0/.../0000:19:00.0".
 */
#ifndef RDMABENCH_HOST_PCIPATH_H
#define RDMABENCH_HOST_PCIPATH_H

#include <stddef.h>

#include "host/devnode.h"
#include "lib/pcicfg.h"

#define PCIPATH_BRIDGES_MAX 8

/*
 * Read and decode ROOT/devices/PLACE/config. 0 (out->header_only when
 * the kernel gave only the 64-byte header: an unprivileged reader),
 * -ENOENT / -EACCES from the read, -EINVAL for no function there.
 */
int pcipath_cfg(const char *sysfs_root, const char *place,
		struct pcicfg *out);

/*
 * The bridges strictly between two functions: below the point where
 * their paths meet (that point itself, a switch's upstream port or the
 * host bridge, carries no peer traffic across) down to each function,
 * not the functions themselves. Places into out[0..max); returns how many
 * (at most max).
 */
size_t pcipath_between(const char *place_a, const char *place_b,
		       char (*out)[DEVNODE_PLACE_LEN], size_t max);

enum pcipath_iommu {
	PCIPATH_IOMMU_OFF,       /* no iommu_group: no IOMMU, or it is off */
	PCIPATH_IOMMU_IDENTITY,  /* iommu=pt: passthrough */
	PCIPATH_IOMMU_DMA,       /* translated: DMA, DMA-FQ */
	PCIPATH_IOMMU_BLOCKED,   /* "blocked": no DMA at all */
	PCIPATH_IOMMU_UNKNOWN,   /* a group whose type is unreadable */
};

/*
 * The IOMMU's mode for the function at place, from
 * ROOT/devices/PLACE/iommu_group/type ("identity", "DMA", "DMA-FQ",
 * "blocked"); the type's text into type (may be NULL).
 */
enum pcipath_iommu pcipath_iommu(const char *sysfs_root, const char *place,
				 char *type, size_t len);

/* "off", "passthrough", "translated", "blocked", "unknown". */
const char *pcipath_iommu_name(enum pcipath_iommu m);

#endif
