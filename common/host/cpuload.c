// SPDX-License-Identifier: BSD-2-Clause
/*
 * cpuload - /proc/stat's "cpu" line, as perftest's --cpu_util reads it
 * (cpuload.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "host/cpuload.h"
#include "lib/fs.h"

int cpuload_parse(const char *line, struct cpuload *out)
{
	uint64_t nice, sys;

	if (strncmp(line, "cpu ", 4) ||
	    sscanf(line, "cpu %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
		   &out->user, &nice, &sys, &out->idle) != 4)
		return -EINVAL;
	return 0;
}

int cpuload_read(const char *root, struct cpuload *out)
{
	char line[256];
	FILE *f;
	int ret;

	ret = fs_open_lines(root, &f, "/proc/stat");
	if (ret)
		return ret;
	ret = fgets(line, sizeof(line), f) ? cpuload_parse(line, out)
					   : -EINVAL;
	fclose(f);
	return ret;
}

int cpuload_mhz(const char *root, double *mhz)
{
	char line[256], *colon;
	FILE *f;
	int ret;

	ret = fs_open_lines(root, &f, "/proc/cpuinfo");
	if (ret)
		return ret;
	ret = -ENOENT;
	while (ret == -ENOENT && fgets(line, sizeof(line), f)) {
		colon = strchr(line, ':');
		if (strncmp(line, "cpu MHz", 7) || !colon)
			continue;
		ret = sscanf(colon + 1, "%lf", mhz) == 1 && *mhz > 0 ? 0 :
								       -EINVAL;
	}
	fclose(f);
	return ret;
}

double cpuload_pct(const struct cpuload *a, const struct cpuload *b)
{
	uint64_t user = b->user - a->user, idle = b->idle - a->idle;

	if (b->user < a->user || b->idle < a->idle || !(user + idle))
		return 0;
	return 100.0 * (double)user / (double)(user + idle);
}
