// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_host - steps 6-7 of ib_doctor: whether this process may pin
 * the memory a test registers (RLIMIT_MEMLOCK, CAP_IPC_LOCK, uid), and
 * whether the CPUs it may run on sit on the NUMA node of each NIC and GPU:
 * all of them (what the Topology Manager's single-numa-node policy gives),
 * with that node in Mems_allowed_list.
 * Everything comes from /proc/self and sysfs below the root.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "doctor/chk.h"
#include "host/place.h"
#include "spec/wire.h"

#define KIB 1024ULL
#define MIB (1024ULL * 1024ULL)

/* What a bandwidth test registers, per side, at message size size_bytes:
 * the data region 2 x size plus a 64 B FIN slot (conn.c), and the control
 * QP's 8 receive slots + 1 send slot of WIRE_MSG_MAX (ctrl.c); pinning
 * counts whole pages. */
static uint64_t host_pin_bytes(uint64_t size_bytes, uint64_t page)
{
	uint64_t data = 2 * size_bytes + 64, ctrl = 9 * WIRE_MSG_MAX;

	return (data + page - 1) / page * page +
	       (ctrl + page - 1) / page * page;
}

static const char *host_bytes_str(uint64_t n, char *buf, size_t len)
{
	if (n % MIB == 0)
		snprintf(buf, len, "%" PRIu64 " MiB", (uint64_t)(n / MIB));
	else if (n < MIB)
		snprintf(buf, len, "%.0f KiB", (double)n / KIB);
	else
		snprintf(buf, len, "%.1f MiB", (double)n / MIB);
	return buf;
}

static bool host_has_siw(const struct chk_ctx *c)
{
	size_t i;

	for (i = 0; i < c->inv.ndev; i++)
		if (!strncmp(c->inv.devs[i].name, "siw", 3))
			return true;
	return false;
}

static void host_memlock_fix(struct chk_ctx *c, const struct place_memlock *m)
{
	if (m->uid == 0)
		findings_fix(&c->rep, "give the process CAP_IPC_LOCK (pod: "
			   "securityContext.capabilities.add: [IPC_LOCK]) or "
			   "raise the limit: ulimit -l unlimited (systemd/"
			   "containerd: LimitMEMLOCK=infinity)");
	else
		findings_fix(&c->rep, "uid %ld: non-root containers lose "
			   "IPC_LOCK; run as root with IPC_LOCK, or setcap "
			   "cap_ipc_lock+ep on the binaries, or raise the "
			   "runtime's LimitMEMLOCK=infinity", m->uid);
}

/* Can the process pin bytes? place.h's rule, as the benches apply it. */
static bool host_fits(const struct place_memlock *m, uint64_t bytes)
{
	char why[PLACE_MSG_MAX];

	return !place_memlock_check(m, bytes, why, sizeof(why));
}

/* CAP_IPC_LOCK, but siw applies the limit even so, and -a needs more. */
static bool host_siw_short(const struct chk_ctx *c,
			   const struct place_memlock *m, uint64_t sweep)
{
	struct place_memlock no_cap = *m;

	no_cap.has_ipc_lock = false;
	return m->has_ipc_lock && !host_fits(&no_cap, sweep) && host_has_siw(c);
}

void chk_host_memlock(struct chk_ctx *c)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t need = host_pin_bytes(65536, page);
	uint64_t sweep = host_pin_bytes(8 * MIB, page);
	char lim[32] = "unlimited", n1[32], n2[32];
	struct place_memlock m;
	bool unlimited;

	if (place_memlock_read(c->root, &m)) {
		findings_add(&c->rep, 6, "memlock", "host", VERDICT_SKIP,
			   "/proc/self/limits or /proc/self/status unreadable");
		return;
	}
	/* the doctor itself pinned nothing: judge a fresh test process */
	m.pinned_bytes = 0;
	unlimited = m.limit_bytes == UINT64_MAX;
	if (!unlimited)
		host_bytes_str(m.limit_bytes, lim, sizeof(lim));
	host_bytes_str(need, n1, sizeof(n1));
	host_bytes_str(sweep, n2, sizeof(n2));
	if (host_siw_short(c, &m, sweep)) {
		findings_add(&c->rep, 6, "memlock", "host", VERDICT_WARN,
			   "uid %ld with CAP_IPC_LOCK, RLIMIT_MEMLOCK %s: siw "
			   "checks the limit even so, and -a needs %s",
			   m.uid, lim, n2);
		findings_fix(&c->rep, "ulimit -l unlimited before tests on siw");
	} else if (m.has_ipc_lock || unlimited) {
		findings_add(&c->rep, 6, "memlock", "host", VERDICT_PASS,
			   "uid %ld, RLIMIT_MEMLOCK %s, CAP_IPC_LOCK %s: %s "
			   "(a default bandwidth test pins %s)", m.uid, lim,
			   m.has_ipc_lock ? "yes" : "no", m.has_ipc_lock ?
			   "the limit does not apply" : "no limit", n1);
	} else if (!host_fits(&m, need)) {
		findings_add(&c->rep, 6, "memlock", "host", VERDICT_FAIL,
			   "RLIMIT_MEMLOCK %s < the %s a default bandwidth "
			   "test pins (2 x 64 KiB + control), uid %ld without "
			   "CAP_IPC_LOCK: ibv_reg_mr fails with ENOMEM", lim,
			   n1, m.uid);
		host_memlock_fix(c, &m);
	} else if (!host_fits(&m, sweep)) {
		findings_add(&c->rep, 6, "memlock", "host", VERDICT_WARN,
			   "RLIMIT_MEMLOCK %s, uid %ld without CAP_IPC_LOCK: "
			   "fits a default test (%s) but not -a (%s), larger "
			   "-s or NCCL", lim, m.uid, n1, n2);
		host_memlock_fix(c, &m);
	} else {
		findings_add(&c->rep, 6, "memlock", "host", VERDICT_PASS,
			   "RLIMIT_MEMLOCK %s, uid %ld without CAP_IPC_LOCK: "
			   "enough for -a (%s)", lim, m.uid, n2);
	}
}

struct host_cpus {
	char allowed_text[256];
	struct place_set allowed;
	struct place_set node;
	char node_text[256];
	char mems_text[256];            /* Mems_allowed_list, "" if none */
	struct place_set mems;
};

enum host_fit { HOST_FIT_NONE, HOST_FIT_SOME, HOST_FIT_ALL };

/* How the process's CPU set meets numa_node's CPUs; <0: unknown. */
static int host_node_cpus(const struct chk_ctx *c, int numa_node,
			  struct host_cpus *hc)
{
	struct place_set both;
	char err[128];
	int n;

	if (fs_read(c->root, hc->node_text, sizeof(hc->node_text),
		     "/sys/devices/system/node/node%d/cpulist", numa_node) ||
	    place_cpulist_parse(hc->node_text, &hc->node, err, sizeof(err)))
		return -ENOENT;
	place_set_and(&both, &hc->allowed, &hc->node);
	n = place_set_count(&both);
	if (!n)
		return HOST_FIT_NONE;
	return n == place_set_count(&hc->allowed) ? HOST_FIT_ALL :
	       HOST_FIT_SOME;
}

/*
 * A PCI function with no node (host/devnode.h's -1): normal on a one-node
 * host; on more, the firmware's gap, which the benches' placement warns
 * of too and pins nothing for.
 */
static void host_numa_none(struct chk_ctx *c, const char *sub,
			   const char *what)
{
	char nodes[PLACE_LIST_MAX];
	int n = place_online_nodes(c->inv.sysfs, nodes, sizeof(nodes));

	if (n <= 1) {
		findings_add(&c->rep, 7, "numa", sub, VERDICT_PASS,
			   "%s reports no NUMA node (a one-node machine)",
			   what);
		return;
	}
	findings_add(&c->rep, 7, "numa", sub, VERDICT_WARN,
		   "%s reports no NUMA node although this host has %d nodes "
		   "(%s): the firmware gives no PCIe locality, so the benches "
		   "pin nothing", what, n, nodes);
	findings_fix(&c->rep, "give the device's node with --numa N "
		   "(numactl -H lists the nodes)");
}

/* Allowed CPUs on more nodes than numa_node's. */
static void host_numa_span(struct chk_ctx *c, const char *sub,
			   const char *what, int numa_node,
			   const struct host_cpus *hc)
{
	findings_add(&c->rep, 7, "numa", sub, VERDICT_WARN,
		   "%s is on node %d (CPUs %s), but this process's allowed "
		   "CPUs %s span other nodes too: threads placed there cross "
		   "the socket link", what, numa_node, hc->node_text,
		   hc->allowed_text);
	findings_fix(&c->rep, "numactl -N %d -m %d CMD; in Kubernetes, a "
		   "Guaranteed pod with the static CPU manager and the "
		   "Topology Manager's single-numa-node policy", numa_node,
		   numa_node);
}

/* All CPUs on the node: memory must be allowed there too. */
static void host_numa_mems(struct chk_ctx *c, const char *sub,
			   const char *what, int numa_node,
			   const struct host_cpus *hc)
{
	if (hc->mems_text[0] && !place_set_has(&hc->mems, numa_node)) {
		findings_add(&c->rep, 7, "numa", sub, VERDICT_WARN,
			   "%s is on node %d and so are the allowed CPUs (%s), "
			   "but Mems_allowed_list %s leaves node %d out: "
			   "buffers come from another node", what, numa_node,
			   hc->allowed_text, hc->mems_text, numa_node);
		findings_fix(&c->rep, "allow node %d's memory: numactl -m %d "
			   "CMD, or the cgroup's cpuset.mems (the Topology "
			   "Manager's single-numa-node aligns both)",
			   numa_node, numa_node);
		return;
	}
	findings_add(&c->rep, 7, "numa", sub, VERDICT_PASS,
		   "%s on node %d (CPUs %s); allowed CPUs %s all on it%s%s",
		   what, numa_node, hc->node_text, hc->allowed_text,
		   hc->mems_text[0] ? ", memory nodes " : "", hc->mems_text);
}

static void host_numa_one(struct chk_ctx *c, const char *sub,
			  const char *what, int numa_node, struct host_cpus *hc)
{
	int ret;

	if (numa_node < 0) {
		host_numa_none(c, sub, what);
		return;
	}
	ret = host_node_cpus(c, numa_node, hc);
	if (ret < 0) {
		findings_add(&c->rep, 7, "numa", sub, VERDICT_SKIP,
			   "%s is on node %d, whose CPU list is unreadable",
			   what, numa_node);
	} else if (ret == HOST_FIT_ALL) {
		host_numa_mems(c, sub, what, numa_node, hc);
	} else if (ret == HOST_FIT_SOME) {
		host_numa_span(c, sub, what, numa_node, hc);
	} else {
		findings_add(&c->rep, 7, "numa", sub, VERDICT_WARN,
			   "%s is on node %d (CPUs %s), but this process may "
			   "only run on CPUs %s: every completion crosses the "
			   "socket link", what, numa_node, hc->node_text,
			   hc->allowed_text);
		findings_fix(&c->rep, "numactl -N %d -m %d CMD (or taskset -c "
			   "%s); in Kubernetes, the Topology Manager's "
			   "single-numa-node policy", numa_node, numa_node,
			   hc->node_text);
	}
}

/* A GPU with no RDMA NIC on its node: GPUDirect crosses the sockets. */
static bool host_gpu_alone(struct chk_ctx *c, const struct inv_gpu *g)
{
	char nics[160] = "";
	size_t i, off = 0;

	if (g->numa_node < 0)
		return false;
	for (i = 0; i < c->inv.ndev; i++) {
		const struct inv_dev *d = &c->inv.devs[i];

		if (chk_skip_dev(c, d) || !d->bdf[0])
			continue;
		if (d->numa_node == g->numa_node || d->numa_node < 0)
			return false;
		if (off < sizeof(nics))
			off += (size_t)snprintf(nics + off,
						sizeof(nics) - off,
						"%s%s: node %d",
						off ? ", " : "", d->name,
						d->numa_node);
	}
	if (!off)
		return false;
	findings_add(&c->rep, 7, "numa", g->bdf, VERDICT_WARN,
		   "GPU %s is on node %d, no RDMA NIC is (%s): GPU memory "
		   "traffic crosses the socket link", g->bdf, g->numa_node,
		   nics);
	findings_fix(&c->rep, "run GPU tests with a GPU and a NIC of one node "
		   "(nvidia-smi topo -m shows the pairs)");
	return true;
}

void chk_host_numa(struct chk_ctx *c)
{
	struct host_cpus *hc = calloc(1, sizeof(*hc));
	char what[FINDING_SUBJECT_LEN], err[128];
	size_t i;

	if (!hc) {
		c->rep.lost = true;
		return;
	}
	if (fs_read_field(c->root, "Cpus_allowed_list", hc->allowed_text,
			  sizeof(hc->allowed_text), "/proc/self/status") ||
	    place_cpulist_parse(hc->allowed_text, &hc->allowed, err,
				sizeof(err))) {
		findings_add(&c->rep, 7, "numa", "host", VERDICT_SKIP,
			   "Cpus_allowed_list unreadable in /proc/self/status");
		free(hc);
		return;
	}
	if (fs_read_field(c->root, "Mems_allowed_list", hc->mems_text,
			  sizeof(hc->mems_text), "/proc/self/status") ||
	    place_cpulist_parse(hc->mems_text, &hc->mems, err, sizeof(err)))
		hc->mems_text[0] = '\0';
	for (i = 0; i < c->inv.ndev; i++) {
		const struct inv_dev *d = &c->inv.devs[i];

		if (chk_skip_dev(c, d))
			continue;
		if (!d->bdf[0])
			findings_add(&c->rep, 7, "numa", d->name, VERDICT_SKIP,
				   "software device: no NUMA node");
		else
			host_numa_one(c, d->name, d->name, d->numa_node, hc);
	}
	for (i = 0; i < c->inv.ngpu; i++) {
		const struct inv_gpu *g = &c->inv.gpus[i];

		snprintf(what, sizeof(what), "GPU %s", g->bdf);
		if (!host_gpu_alone(c, g))
			host_numa_one(c, g->bdf, what, g->numa_node, hc);
	}
	free(hc);
}
