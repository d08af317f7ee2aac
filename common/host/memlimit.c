// SPDX-License-Identifier: BSD-2-Clause
/*
 * memlimit - the default --max-mem from the cgroup memory limit and
 * RLIMIT_MEMLOCK (the rule is in memlimit.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/memlimit.h"
#include "host/place.h"
#include "lib/units.h"

/* A limit at or above this is "none" (v1 says 0x7ffffffffffff000). */
#define MEMLIMIT_NONE (1ULL << 60)

/* Where each cgroup version keeps the limit: below ROOT, a folder per
 * cgroup, the path from /proc/self/cgroup in between. */
struct memlimit_kind {
	const char *dir;
	const char *file;
};

static const struct memlimit_kind memlimit_v2 = { "/sys/fs/cgroup",
						  "memory.max" };
static const struct memlimit_kind memlimit_v1 = { "/sys/fs/cgroup/memory",
						  "memory.limit_in_bytes" };

/* "max" or a number of bytes; UINT64_MAX for none or unreadable. */
static uint64_t memlimit_value(const char *text)
{
	unsigned long long v;
	char *end;

	if (!strcmp(text, "max"))
		return UINT64_MAX;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || end == text || *end || v >= MEMLIMIT_NONE)
		return UINT64_MAX;
	return v;
}

/*
 * The tightest limit of cgroup path and each of its parents (a parent's
 * limit binds its children too; in a container the path may not exist and
 * the mount's top is the container's own cgroup).
 */
static void memlimit_walk(const char *root, const struct memlimit_kind *k,
			  char *path, struct memlimit *out)
{
	char buf[64], *slash;
	uint64_t v;

	for (;;) {
		slash = path + strlen(path);
		while (slash > path && slash[-1] == '/')
			*--slash = '\0';
		if (!fs_read(root, buf, sizeof(buf), "%s%s/%s", k->dir, path,
			     k->file) &&
		    (v = memlimit_value(buf)) < out->cgroup_bytes) {
			out->cgroup_bytes = v;
			snprintf(out->cgroup_file, sizeof(out->cgroup_file),
				 "%s%s/%s", k->dir, path, k->file);
		}
		slash = strrchr(path, '/');
		if (!slash)
			return;
		*slash = '\0';
	}
}

/* A line "ID:CONTROLLERS:PATH" of /proc/self/cgroup: v2's is "0::PATH". */
static void memlimit_line(const char *root, char *line, struct memlimit *out)
{
	char *ctl = strchr(line, ':'), *path, *c, *save = NULL;

	if (!ctl || !(path = strchr(ctl + 1, ':')))
		return;
	*path++ = '\0';
	ctl++;
	if (!*ctl) {
		memlimit_walk(root, &memlimit_v2, path, out);
		return;
	}
	for (c = strtok_r(ctl, ",", &save); c; c = strtok_r(NULL, ",", &save))
		if (!strcmp(c, "memory"))
			memlimit_walk(root, &memlimit_v1, path, out);
}

int memlimit_read(const char *root, struct memlimit *out)
{
	struct place_memlock ml;
	char buf[4096], *line, *save = NULL;

	memset(out, 0, sizeof(*out));
	out->cgroup_bytes = out->memlock_bytes = UINT64_MAX;
	if (!fs_read(root, buf, sizeof(buf), "/proc/self/cgroup"))
		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			memlimit_line(root, line, out);
	if (!place_memlock_read(root, &ml) && !ml.has_ipc_lock &&
	    ml.limit_bytes != UINT64_MAX)
		out->memlock_bytes = ml.limit_bytes > ml.pinned_bytes ?
				     ml.limit_bytes - ml.pinned_bytes : 0;
	return 0;
}

uint64_t memlimit_cap(const struct memlimit *m, char *from, size_t len)
{
	uint64_t half = m->cgroup_bytes == UINT64_MAX ? UINT64_MAX :
			m->cgroup_bytes / 2;
	const char *file;
	char limit[32];

	if (half == UINT64_MAX && m->memlock_bytes == UINT64_MAX) {
		snprintf(from, len, "no cgroup or memlock limit found");
		return MEMLIMIT_DEFAULT_BYTES;
	}
	if (m->memlock_bytes < half) {
		units_fmt_bytes(m->memlock_bytes, limit, sizeof(limit));
		snprintf(from, len, "RLIMIT_MEMLOCK %s (ulimit -l)", limit);
		return m->memlock_bytes;
	}
	units_fmt_bytes(m->cgroup_bytes, limit, sizeof(limit));
	file = strrchr(m->cgroup_file, '/');
	snprintf(from, len, "half the cgroup limit %s (%s)", limit,
		 file ? file + 1 : m->cgroup_file);
	return half;
}
