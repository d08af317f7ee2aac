/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memlimit - how much memory a server may let one client make it allocate
 * by default (--max-mem when not given): what fits where the process runs.
 *
 * The rule (memlimit_cap): half of the tightest cgroup memory limit of the
 * process (cgroup v2 memory.max of its cgroup and every parent, or v1
 * memory.limit_in_bytes), the other half left for the process itself, the
 * page cache and a second client's set-up; and no more than RLIMIT_MEMLOCK
 * (less what is pinned already) unless the process has CAP_IPC_LOCK, as
 * registered memory is locked memory. With neither limit: 8 GiB, the old
 * fixed default.
 *
 * Pure: reads ROOT/proc/self/cgroup, ROOT/sys/fs/cgroup/... and
 * ROOT/proc/self/{limits,status} through lib/fs.c; root "/" (or "") is the
 * real machine, tests plant a fake tree.
 */
#ifndef RDMABENCH_HOST_MEMLIMIT_H
#define RDMABENCH_HOST_MEMLIMIT_H

#include <stddef.h>
#include <stdint.h>

#include "lib/fs.h"

/* The default when no limit applies: the old fixed --max-mem. */
#define MEMLIMIT_DEFAULT_BYTES (8ULL << 30)

struct memlimit {
	uint64_t cgroup_bytes;        /* UINT64_MAX: no cgroup limit found */
	char cgroup_file[FS_PATH_MAX]; /* the file that set it, below root */
	uint64_t memlock_bytes;       /* RLIMIT_MEMLOCK less VmPin; UINT64_MAX:
				       * unlimited or CAP_IPC_LOCK */
};

/*
 * Read the limits under root into out. Never fails: what cannot be read
 * counts as no limit (a machine without cgroups, a fake tree without
 * /proc). Returns 0.
 */
int memlimit_read(const char *root, struct memlimit *out);

/*
 * The default cap of the rule above; from gets where it came from, for
 * the server's refusal, at most ~60 bytes ("half the cgroup limit
 * 512.0 MiB (memory.max)"; m->cgroup_file names the whole path).
 */
uint64_t memlimit_cap(const struct memlimit *m, char *from, size_t len);

#endif
