/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * place - where this process runs and where its buffers live: the NUMA node
 * of the RDMA NIC (or the one asked for), its CPUs within those the process
 * may use, and whether the buffers can be pinned (RLIMIT_MEMLOCK).
 *
 * NUMA placement is on by default, as in perftest since 2026: the CPUs
 * that post work and the memory the NIC reads should sit on the NIC's
 * socket. It never widens the CPUs the process was given (taskset, a pod's
 * cpuset): it only narrows them, and says so when it cannot.
 *
 * Pure: reads sysfs under a root ("/sys", or a fake tree in tests) and
 * /proc/self/status; place_apply() is the only call that changes anything.
 * Decisions fill messages into the plan instead of logging, so tests can
 * read them; place_log() prints them.
 */
#ifndef RDMABENCH_HOST_PLACE_H
#define RDMABENCH_HOST_PLACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PLACE_MSG_MAX 512
#define PLACE_WARN_MAX 4
#define PLACE_LIST_MAX 256
#define PLACE_SET_MAX 1024 /* CPUs or nodes; glibc's CPU_SETSIZE */

/* A set of CPUs or NUMA nodes (own type: cpu_set_t needs _GNU_SOURCE in
 * every includer). */
struct place_set {
	uint64_t bits[PLACE_SET_MAX / 64];
};

static inline void place_set_add(struct place_set *s, int i)
{
	if (i >= 0 && i < PLACE_SET_MAX)
		s->bits[i / 64] |= 1ULL << (i % 64);
}

static inline bool place_set_has(const struct place_set *s, int i)
{
	return i >= 0 && i < PLACE_SET_MAX &&
	       (s->bits[i / 64] >> (i % 64) & 1);
}

/* Members in s; d = a & b. */
int place_set_count(const struct place_set *s);
void place_set_and(struct place_set *d, const struct place_set *a,
		   const struct place_set *b);

enum place_mode {
	PLACE_AUTO = 0, /* the NIC's node (default) */
	PLACE_NODE,     /* --numa N, perftest's --numa_node=N */
	PLACE_OFF,      /* --numa off, perftest's --disable_numa */
};

struct place_req {
	enum place_mode mode;
	int node;             /* PLACE_NODE: the node asked for */
	const char *cpu_list; /* --cpu / --pin_cores "0-3,8"; NULL: node's */
};

/* What the process may use, as the kernel says (taskset, cgroup cpuset). */
struct place_allowed {
	struct place_set cpus;  /* sched_getaffinity() */
	struct place_set mems;  /* Mems_allowed_list, one bit per node */
	bool has_mems;   /* false: unknown, every node allowed */
};

struct place_plan {
	int node;             /* node of the CPUs and buffers, -1: none */
	int nic_node;         /* host/devnode.h's: -1 unknown (rxe, siw, a
			       * VM, no ACPI _PXM, garbage) */
	bool nic_is_pci;      /* the NIC has a numa_node file */
	int gpu_node;         /* as given, -1: none or unknown */
	bool pin_cpus;        /* place_apply() narrows the affinity to cpus */
	bool is_explicit;     /* --numa N or --cpu: failures are errors */
	struct place_set cpus;
	char cpu_list[PLACE_LIST_MAX]; /* cpus as "0-3,8"; "" unpinned */
	int mem_node;         /* where buffers go (mem_spec.numa_node), -1 */
	char summary[PLACE_MSG_MAX];   /* "1, CPUs 1" for "NUMA node : " */
	char mem_policy[96];  /* "buffers on node 1" / "buffers anywhere" */
	unsigned int nwarn;
	char warn[PLACE_WARN_MAX][PLACE_MSG_MAX];
	char err[PLACE_MSG_MAX]; /* why place_decide() failed */
};

/* "auto", "off" or a node number into req. Returns 0 or -EINVAL (err). */
int place_parse_numa(const char *text, struct place_req *req, char *err,
		     size_t err_len);

/* "0-3,8,12-15" into out. Returns 0, -EINVAL or -ERANGE (err). */
int place_cpulist_parse(const char *text, struct place_set *out, char *err,
			size_t err_len);

/* out = "0-3,8" (the kernel's list form), "" for an empty set. */
void place_cpulist_format(const struct place_set *set, char *out, size_t len);

/* The process's allowed CPUs and nodes (proc_status: "/proc/self/status"). */
int place_allowed_read(const char *proc_status, struct place_allowed *out);

/* CPUs of NUMA node; -ENOENT when the node does not exist. */
int place_node_cpus(const char *sysfs_root, int node, struct place_set *out);

/*
 * The host's online NUMA nodes (ROOT/devices/system/node/online) as a
 * list ("0-1") into list, "none known" when unreadable; returns how many
 * (0: not known).
 */
int place_online_nodes(const char *sysfs_root, char *list, size_t len);

/*
 * Decide where to run and allocate. rdma_dev: the device in use (NULL when
 * not known yet); gpu_node: the GPU's node with GPU memory, else -1.
 * Returns 0 with warnings in out->warn, or -EINVAL with out->err (a node
 * that does not exist, --cpu outside the allowed CPUs, --numa N whose CPUs
 * are all forbidden).
 */
int place_decide(const char *sysfs_root, const char *rdma_dev, int gpu_node,
		 const struct place_req *req,
		 const struct place_allowed *allowed, struct place_plan *out);

/* Print the plan's warnings (bench_warn), one line each. */
void place_log(const struct place_plan *p);

/*
 * Pin the calling thread (and threads it creates later) to p->cpus and
 * prefer p->mem_node for its other allocations. Call before starting
 * threads. Returns 0, or -errno when an explicit request cannot be applied
 * (logged); an automatic one that fails only warns.
 */
int place_apply(const struct place_plan *p);

/* Locked-memory accounting, for registering host memory. */
struct place_memlock {
	uint64_t limit_bytes;  /* RLIMIT_MEMLOCK (soft); UINT64_MAX: none */
	uint64_t pinned_bytes; /* VmPin: what this process pinned already */
	bool has_ipc_lock;     /* CAP_IPC_LOCK effective: the limit is moot */
	long uid;              /* effective uid, -1 unknown */
};

/*
 * The memlock facts of this process from ROOT/proc/self/limits ("Max
 * locked memory", the soft limit) and ROOT/proc/self/status (CapEff,
 * VmPin, Uid); root "" or "/" is the real one, where getrlimit() stands in
 * for an unreadable limits file. A fake root (ib_doctor --root, tests)
 * must have both files. Returns 0 or -errno (not logged).
 */
int place_memlock_read(const char *root, struct place_memlock *out);

/*
 * Can need_bytes more be pinned? 0, or -ENOMEM with the numbers and the
 * fix in why (ulimit -l, IPC_LOCK in a container's securityContext).
 */
int place_memlock_check(const struct place_memlock *m, uint64_t need_bytes,
			char *why, size_t why_len);

#endif
