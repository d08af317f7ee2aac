// SPDX-License-Identifier: BSD-2-Clause
/*
 * ports - the ACTIVE RDMA ports in sysfs (see ports.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/ports.h"
#include "lib/fs.h"

static bool ports_is_active(const char *root, const char *dev,
			    const char *port)
{
	char state[64];

	if (fs_read(root, state, sizeof(state),
		    "/sys/class/infiniband/%s/ports/%s/state", dev, port))
		return false;
	return strstr(state, "ACTIVE") != NULL;
}

/* The ACTIVE ports of one device into out[n..max); the new count. */
static size_t ports_of_dev(const char *root, const char *dev,
			   struct ports_entry *out, size_t n, size_t max)
{
	char **names;
	size_t i, count;

	if (fs_list(root, &names, &count, "/sys/class/infiniband/%s/ports",
		    dev))
		return n;
	for (i = 0; i < count && n < max; i++) {
		if (!ports_is_active(root, dev, names[i]))
			continue;
		snprintf(out[n].dev, sizeof(out[n].dev), "%s", dev);
		out[n].port = (unsigned int)strtoul(names[i], NULL, 10);
		n++;
	}
	free(names);
	return n;
}

size_t ports_active(const char *sysfs_root, struct ports_entry *out,
		    size_t max)
{
	char **devs;
	size_t i, count, n = 0;

	if (fs_list(sysfs_root, &devs, &count, "/sys/class/infiniband"))
		return 0;
	for (i = 0; i < count && n < max; i++)
		n = ports_of_dev(sysfs_root, devs[i], out, n, max);
	free(devs);
	return n;
}
