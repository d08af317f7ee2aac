// SPDX-License-Identifier: BSD-2-Clause
#define _GNU_SOURCE /* sched_getaffinity, cpu_set_t */
#include <sched.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/fs.h"
#include "lib/log.h"
#include "host/devnode.h"
#include "host/place.h"
#include "lib/units.h"

#define PLACE_CAP_IPC_LOCK 14 /* linux/capability.h */
#define PLACE_MPOL_PREFERRED 1 /* linux/mempolicy.h; no libnuma here */

int place_set_count(const struct place_set *s)
{
	int n = 0;
	size_t i;

	for (i = 0; i < PLACE_SET_MAX / 64; i++)
		n += __builtin_popcountll(s->bits[i]);
	return n;
}

void place_set_and(struct place_set *d, const struct place_set *a,
		   const struct place_set *b)
{
	size_t i;

	for (i = 0; i < PLACE_SET_MAX / 64; i++)
		d->bits[i] = a->bits[i] & b->bits[i];
}

int place_parse_numa(const char *text, struct place_req *req, char *err,
		     size_t err_len)
{
	char *end;
	long v;

	if (!strcmp(text, "auto") || !strcmp(text, "off")) {
		req->mode = text[0] == 'a' ? PLACE_AUTO : PLACE_OFF;
		req->node = -1;
		return 0;
	}
	errno = 0;
	v = strtol(text, &end, 10);
	if (!text[0] || *end || errno || v < 0 || v >= PLACE_SET_MAX ||
	    text[0] < '0' || text[0] > '9') {
		snprintf(err, err_len, "--numa '%s': give auto, off or a NUMA "
			 "node number (numactl -H lists them)", text);
		return -EINVAL;
	}
	req->mode = PLACE_NODE;
	req->node = (int)v;
	return 0;
}

/* One "N" or "N-M" of a list; *p advances past it. */
static int place_cpu_range(const char **p, long *lo, long *hi)
{
	char *end;

	if (**p < '0' || **p > '9')
		return -EINVAL;
	*lo = strtol(*p, &end, 10);
	*hi = *lo;
	if (*end == '-') {
		if (end[1] < '0' || end[1] > '9')
			return -EINVAL;
		*hi = strtol(end + 1, &end, 10);
	}
	*p = end;
	if (*lo > *hi)
		return -EINVAL;
	return *hi >= PLACE_SET_MAX ? -ERANGE : 0;
}

int place_cpulist_parse(const char *text, struct place_set *out, char *err,
			size_t err_len)
{
	const char *p = text;
	long lo, hi;
	int ret;

	memset(out, 0, sizeof(*out));
	for (;;) {
		ret = place_cpu_range(&p, &lo, &hi);
		if (ret)
			break;
		for (; lo <= hi; lo++)
			place_set_add(out, (int)lo);
		if (*p == '\0')
			return 0;
		if (*p++ != ',') {
			ret = -EINVAL;
			break;
		}
	}
	if (ret == -ERANGE)
		snprintf(err, err_len, "CPU list '%s': CPU numbers stop at %d",
			 text, PLACE_SET_MAX - 1);
	else
		snprintf(err, err_len, "CPU list '%s': write CPUs as 0-3,8 "
			 "(ascending ranges, comma-separated)", text);
	return ret;
}

void place_cpulist_format(const struct place_set *set, char *out, size_t len)
{
	size_t used = 0;
	int cpu, end;

	if (len)
		out[0] = '\0';
	for (cpu = 0; cpu < PLACE_SET_MAX; cpu++) {
		if (!place_set_has(set, cpu))
			continue;
		for (end = cpu; place_set_has(set, end + 1);)
			end++;
		if (used < len)
			used += (size_t)snprintf(out + used, len - used,
						 end > cpu ? "%s%d-%d" : "%s%d",
						 used ? "," : "", cpu, end);
		cpu = end;
	}
}

/* The value of "key:\t..." in a /proc/PID/status file, into buf. */
static int place_status_field(const char *proc_status, const char *key,
			      char *buf, size_t len)
{
	return fs_read_field("", key, buf, len, "%s", proc_status);
}

int place_allowed_read(const char *proc_status, struct place_allowed *out)
{
	char mems[PLACE_LIST_MAX], err[128];
	cpu_set_t cpus;
	int ret, cpu;

	memset(out, 0, sizeof(*out));
	if (sched_getaffinity(0, sizeof(cpus), &cpus)) {
		ret = -errno;
		bench_err("sched_getaffinity: %s", strerror(-ret));
		return ret;
	}
	for (cpu = 0; cpu < CPU_SETSIZE && cpu < PLACE_SET_MAX; cpu++)
		if (CPU_ISSET(cpu, &cpus))
			place_set_add(&out->cpus, cpu);
	/* memory nodes: optional (old kernels, odd sandboxes) */
	if (!place_status_field(proc_status, "Mems_allowed_list", mems,
				sizeof(mems)) &&
	    !place_cpulist_parse(mems, &out->mems, err, sizeof(err)))
		out->has_mems = true;
	return 0;
}

int place_node_cpus(const char *sysfs_root, int node, struct place_set *out)
{
	char list[4096], err[128];

	memset(out, 0, sizeof(*out));
	if (node < 0)
		return -ENOENT;
	if (fs_read(sysfs_root, list, sizeof(list),
		    "/devices/system/node/node%d/cpulist", node))
		return -ENOENT;
	/* a memory-only node has an empty list */
	return list[0] ? place_cpulist_parse(list, out, err, sizeof(err)) : 0;
}

static void __attribute__((format(printf, 2, 3)))
place_warn(struct place_plan *p, const char *fmt, ...)
{
	va_list ap;

	if (p->nwarn == PLACE_WARN_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(p->warn[p->nwarn++], PLACE_MSG_MAX, fmt, ap);
	va_end(ap);
}

static int __attribute__((format(printf, 2, 3)))
place_fail(struct place_plan *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err, sizeof(p->err), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int place_online_nodes(const char *sysfs_root, char *list, size_t len)
{
	char err[128];
	struct place_set nodes;

	if (fs_read(sysfs_root, list, len, "/devices/system/node/online") ||
	    place_cpulist_parse(list, &nodes, err, sizeof(err))) {
		snprintf(list, len, "none known");
		return 0;
	}
	return place_set_count(&nodes);
}

/* "CPU 7 is" / "CPUs 6-7 are": the words around a list. */
static const char *place_cpus_word(const struct place_set *s)
{
	return place_set_count(s) == 1 ? "CPU" : "CPUs";
}

static const char *place_cpus_verb(const struct place_set *s)
{
	return place_set_count(s) == 1 ? "is" : "are";
}

/* --cpu LIST: only CPUs the process may use (never widen a cpuset). */
static int place_take_cpu_list(struct place_plan *p, const char *list,
			       const struct place_allowed *a)
{
	char err[PLACE_MSG_MAX], bad[PLACE_LIST_MAX], ok[PLACE_LIST_MAX];
	struct place_set outside;
	int cpu;

	if (place_cpulist_parse(list, &p->cpus, err, sizeof(err)))
		return place_fail(p, "--cpu: %s", err);
	memset(&outside, 0, sizeof(outside));
	for (cpu = 0; cpu < PLACE_SET_MAX; cpu++)
		if (place_set_has(&p->cpus, cpu) &&
		    !place_set_has(&a->cpus, cpu))
			place_set_add(&outside, cpu);
	if (place_set_count(&outside)) {
		place_cpulist_format(&outside, bad, sizeof(bad));
		place_cpulist_format(&a->cpus, ok, sizeof(ok));
		return place_fail(p, "--cpu %s: %s %s %s outside the CPUs "
				  "this process may use (%s, set by taskset or "
				  "the container's cpuset): choose among %s",
				  list, place_cpus_word(&outside), bad,
				  place_cpus_verb(&outside), ok, ok);
	}
	p->pin_cpus = true;
	p->is_explicit = true;
	return 0;
}

/* AUTO without a NIC node: follow the GPU, or say why nothing is pinned. */
static void place_auto_unknown(struct place_plan *p, const char *root,
			       const char *dev)
{
	char nodes[PLACE_LIST_MAX];
	int n = place_online_nodes(root, nodes, sizeof(nodes));

	if (p->gpu_node >= 0) {
		p->node = p->gpu_node;
		return;
	}
	/* a PCI NIC without locality on a multi-socket host: firmware */
	if (dev && n > 1 && p->nic_is_pci)
		place_warn(p, "%s reports no NUMA node (numa_node is -1 or "
			   "no node number) although this host has %d nodes "
			   "(%s): the firmware gives no PCIe locality, so "
			   "nothing is pinned; give the NIC's socket with "
			   "--numa N", dev, n, nodes);
}

static int place_pick_node(struct place_plan *p, const char *root,
			   const char *dev, const struct place_req *req)
{
	char nodes[PLACE_LIST_MAX];
	struct place_set cpus;

	switch (req->mode) {
	case PLACE_OFF:
		return 0;
	case PLACE_NODE:
		if (place_node_cpus(root, req->node, &cpus)) {
			place_online_nodes(root, nodes, sizeof(nodes));
			return place_fail(p, "--numa %d: this host has no NUMA "
					  "node %d (nodes: %s): pick one of "
					  "those, or --numa auto", req->node,
					  req->node, nodes);
		}
		p->node = req->node;
		p->is_explicit = true;
		if (p->nic_node >= 0 && p->nic_node != p->node)
			place_warn(p, "--numa %d puts this process and its "
				   "buffers on node %d, but %s is on node %d: "
				   "every transfer crosses the CPU sockets' "
				   "link; drop --numa to follow the NIC",
				   p->node, p->node, dev, p->nic_node);
		return 0;
	case PLACE_AUTO:
	default:
		if (p->nic_node >= 0)
			p->node = p->nic_node;
		else
			place_auto_unknown(p, root, dev);
		return 0;
	}
}

/* --cpu given: keep it, but say when it is off the node of the buffers. */
static void place_check_cpu_list(struct place_plan *p, const char *root,
				 const char *dev)
{
	char off[PLACE_LIST_MAX], mine[PLACE_LIST_MAX];
	struct place_set node_cpus, away;
	int cpu;

	if (p->node < 0 || place_node_cpus(root, p->node, &node_cpus))
		return;
	memset(&away, 0, sizeof(away));
	for (cpu = 0; cpu < PLACE_SET_MAX; cpu++)
		if (place_set_has(&p->cpus, cpu) &&
		    !place_set_has(&node_cpus, cpu))
			place_set_add(&away, cpu);
	if (!place_set_count(&away))
		return;
	place_cpulist_format(&away, off, sizeof(off));
	place_cpulist_format(&node_cpus, mine, sizeof(mine));
	place_warn(p, "--cpu: %s %s %s not on NUMA node %d, where %s and the "
		   "buffers are: posts and completions cross the CPU sockets' "
		   "link; choose among node %d's CPUs %s",
		   place_cpus_word(&away), off, place_cpus_verb(&away), p->node,
		   dev ? dev : "the NIC", p->node, mine);
}

static int place_pick_cpus(struct place_plan *p, const char *root,
			   const char *dev, const struct place_allowed *a)
{
	char node_list[PLACE_LIST_MAX], ok[PLACE_LIST_MAX];
	struct place_set node_cpus;

	if (p->pin_cpus) {
		place_check_cpu_list(p, root, dev);
		return 0;
	}
	if (p->node < 0 || place_node_cpus(root, p->node, &node_cpus))
		return 0;
	place_set_and(&p->cpus, &node_cpus, &a->cpus);
	if (place_set_count(&p->cpus)) {
		p->pin_cpus = true;
		return 0;
	}
	place_cpulist_format(&node_cpus, node_list, sizeof(node_list));
	place_cpulist_format(&a->cpus, ok, sizeof(ok));
	if (p->is_explicit)
		return place_fail(p, "--numa %d: none of node %d's CPUs (%s) "
				  "may be used by this process (allowed: %s, "
				  "from taskset or the container's cpuset): "
				  "pick the node of those CPUs, or widen them",
				  p->node, p->node, node_list, ok);
	place_warn(p, "%s is on NUMA node %d (CPUs %s), but this process may "
		   "only run on CPUs %s (taskset, or the pod's cpuset): not "
		   "pinning, so posts and completions cross the CPU sockets' "
		   "link; in Kubernetes set the kubelet's Topology Manager "
		   "policy to single-numa-node (with the static CPU manager), "
		   "or run on node %d's CPUs",
		   p->nic_node >= 0 && dev ? dev : "the GPU", p->node,
		   node_list, ok, p->node);
	return 0;
}

static void place_pick_mem(struct place_plan *p, const struct place_allowed *a)
{
	char mems[PLACE_LIST_MAX];

	if (p->node < 0)
		return;
	if (a->has_mems && !place_set_has(&a->mems, p->node)) {
		place_cpulist_format(&a->mems, mems, sizeof(mems));
		place_warn(p, "cannot put the buffers on NUMA node %d: this "
			   "process may only use the memory of node(s) %s "
			   "(cgroup cpuset.mems), so they go wherever the "
			   "kernel places them; in Kubernetes the Topology "
			   "Manager's single-numa-node policy aligns both",
			   p->node, mems);
		return;
	}
	p->mem_node = p->node;
}

static void place_describe(struct place_plan *p, const char *dev,
			   const struct place_req *req)
{
	const char *cpus = p->pin_cpus ? p->cpu_list : "not pinned";
	const char *pre = p->pin_cpus ? "CPUs " : "";

	if (p->node >= 0)
		snprintf(p->summary, sizeof(p->summary), "%d, %s%s", p->node,
			 pre, cpus);
	else if (req->mode == PLACE_OFF)
		snprintf(p->summary, sizeof(p->summary), "off (--numa off), "
			 "%s%s", pre, cpus);
	else
		snprintf(p->summary, sizeof(p->summary), "unknown (%s has "
			 "none), %s%s", dev ? dev : "no device yet", pre, cpus);
	if (p->mem_node >= 0)
		snprintf(p->mem_policy, sizeof(p->mem_policy),
			 "buffers on node %d", p->mem_node);
	else
		snprintf(p->mem_policy, sizeof(p->mem_policy),
			 "buffers anywhere");
}

int place_decide(const char *sysfs_root, const char *rdma_dev, int gpu_node,
		 const struct place_req *req,
		 const struct place_allowed *allowed, struct place_plan *out)
{
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->node = -1;
	out->mem_node = -1;
	out->nic_is_pci = !devnode_rdma(sysfs_root, rdma_dev, &out->nic_node);
	out->gpu_node = gpu_node;
	if (req->cpu_list)
		ret = place_take_cpu_list(out, req->cpu_list, allowed);
	if (!ret)
		ret = place_pick_node(out, sysfs_root, rdma_dev, req);
	if (!ret)
		ret = place_pick_cpus(out, sysfs_root, rdma_dev, allowed);
	if (ret)
		return ret;
	place_pick_mem(out, allowed);
	if (gpu_node >= 0 && out->nic_node >= 0 && gpu_node != out->nic_node)
		place_warn(out, "the GPU is on NUMA node %d and %s on node %d: "
			   "GPUDirect RDMA between them crosses the CPU "
			   "sockets' link; use a GPU on node %d, or a NIC on "
			   "node %d ('nvidia-smi topo -m' shows the pairs)",
			   gpu_node, rdma_dev, out->nic_node, out->nic_node,
			   gpu_node);
	if (out->pin_cpus)
		place_cpulist_format(&out->cpus, out->cpu_list,
				     sizeof(out->cpu_list));
	place_describe(out, rdma_dev, req);
	return 0;
}

void place_log(const struct place_plan *p)
{
	unsigned int i;

	for (i = 0; i < p->nwarn; i++)
		bench_warn("%s", p->warn[i]);
}

/* Prefer node for the thread's later allocations (provider queues too). */
static int place_prefer_node(int node)
{
	unsigned long mask[PLACE_SET_MAX / (8 * sizeof(unsigned long))] = {0};
	const size_t bits = 8 * sizeof(unsigned long);

	mask[(size_t)node / bits] |= 1UL << ((size_t)node % bits);
	if (syscall(SYS_set_mempolicy, PLACE_MPOL_PREFERRED, mask,
		    (unsigned long)PLACE_SET_MAX + 1))
		return -errno;
	return 0;
}

int place_apply(const struct place_plan *p)
{
	cpu_set_t cpus;
	int ret, cpu;

	CPU_ZERO(&cpus);
	for (cpu = 0; cpu < CPU_SETSIZE && cpu < PLACE_SET_MAX; cpu++)
		if (place_set_has(&p->cpus, cpu))
			CPU_SET(cpu, &cpus);
	if (p->pin_cpus && sched_setaffinity(0, sizeof(cpus), &cpus)) {
		ret = -errno;
		if (p->is_explicit) {
			bench_err("cannot pin to CPUs %s: sched_setaffinity: "
				  "%s: choose CPUs this process may use",
				  p->cpu_list, strerror(-ret));
			return ret;
		}
		bench_warn("cannot pin to CPUs %s (sched_setaffinity: %s): "
			   "running unpinned", p->cpu_list, strerror(-ret));
	}
	if (p->mem_node >= 0) {
		ret = place_prefer_node(p->mem_node);
		/* containers' default seccomp profile allows the NUMA calls
		 * only with CAP_SYS_NICE */
		if (ret)
			bench_warn("cannot prefer NUMA node %d for memory "
				   "(set_mempolicy: %s): in a container, add "
				   "the SYS_NICE capability", p->mem_node,
				   strerror(-ret));
	}
	return 0;
}

/* "Max locked memory   8388608   8388608   bytes": the soft limit. */
static int place_memlock_limit(const char *root, uint64_t *out)
{
	char buf[4096], soft[32], *line;
	struct rlimit rl;

	if (fs_read(root, buf, sizeof(buf), "/proc/self/limits")) {
		if ((root[0] && strcmp(root, "/")) ||
		    getrlimit(RLIMIT_MEMLOCK, &rl))
			return -ENOENT;
		*out = rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX :
		       (uint64_t)rl.rlim_cur;
		return 0;
	}
	line = strstr(buf, "Max locked memory");
	if (!line || sscanf(line + 17, "%31s", soft) != 1)
		return -EINVAL;
	*out = strcmp(soft, "unlimited") ? strtoull(soft, NULL, 10) :
					   UINT64_MAX;
	return 0;
}

int place_memlock_read(const char *root, struct place_memlock *out)
{
	unsigned long long v;
	char field[64];
	long ruid, euid;
	int ret;

	memset(out, 0, sizeof(*out));
	out->uid = -1;
	ret = place_memlock_limit(root, &out->limit_bytes);
	if (ret)
		return ret;
	if (fs_read_field(root, "CapEff", field, sizeof(field),
			  "/proc/self/status"))
		return -ENOENT;
	if (sscanf(field, "%llx", &v) == 1)
		out->has_ipc_lock = (v >> PLACE_CAP_IPC_LOCK) & 1;
	/* "VmPin:  1024 kB": registered memory counts here (pinned_vm) */
	if (!fs_read_field(root, "VmPin", field, sizeof(field),
			   "/proc/self/status") &&
	    sscanf(field, "%llu", &v) == 1)
		out->pinned_bytes = (uint64_t)v * 1024;
	if (!fs_read_field(root, "Uid", field, sizeof(field),
			   "/proc/self/status") &&
	    sscanf(field, "%ld %ld", &ruid, &euid) == 2)
		out->uid = euid;
	return 0;
}

int place_memlock_check(const struct place_memlock *m, uint64_t need_bytes,
			char *why, size_t why_len)
{
	char need[32], pinned[32], limit[32];

	if (why_len)
		why[0] = '\0';
	/* with CAP_IPC_LOCK the kernel skips the limit (most drivers) */
	if (m->has_ipc_lock || m->limit_bytes == UINT64_MAX ||
	    (need_bytes <= m->limit_bytes &&
	     m->pinned_bytes <= m->limit_bytes - need_bytes))
		return 0;
	units_fmt_bytes(need_bytes, need, sizeof(need));
	units_fmt_bytes(m->pinned_bytes, pinned, sizeof(pinned));
	units_fmt_bytes(m->limit_bytes, limit, sizeof(limit));
	snprintf(why, why_len, "registering %s of host memory needs that much "
		 "locked memory, but RLIMIT_MEMLOCK is %s (%s pinned already) "
		 "and the process lacks CAP_IPC_LOCK: run 'ulimit -l "
		 "unlimited' first (or raise the container runtime's memlock "
		 "ulimit); in Kubernetes add IPC_LOCK to the container's "
		 "securityContext.capabilities and run it as root (a non-root "
		 "container does not get added capabilities)", need, limit,
		 pinned);
	return -ENOMEM;
}
