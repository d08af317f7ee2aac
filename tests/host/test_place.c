// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/host/place.c on the fake sysfs trees of tests/fixtures/place
 * (make-trees.sh there describes them), found under $TEST_SRCDIR (default
 * "."): NUMA decisions, CPU lists, the memlock preflight, and one real
 * place_apply() within the CPUs this test may already use.
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/place.h"
#include "tests/test.h"

static char two[PATH_MAX], one[PATH_MAX], fixtures[PATH_MAX / 2];

#define HAS(s, sub) EXPECT_TRUE(strstr((s), (sub)) != NULL)

static struct place_set set_of(const char *list)
{
	struct place_set s;
	char err[128];

	EXPECT_EQ_INT(place_cpulist_parse(list, &s, err, sizeof(err)), 0);
	return s;
}

/* Allowed: CPUs from the list, memory of every node (mems unknown). */
static struct place_allowed allowed_cpus(const char *list)
{
	struct place_allowed a = { .cpus = set_of(list) };

	return a;
}

static void test_cpulist(void)
{
	static const char *const bad[] = { "", "a", "3-1", "1,,2", "1-",
					   "-1", "1 ", "0-3,x", "1,2," };
	struct place_set s;
	char out[64], err[128];
	size_t i;

	s = set_of("12-15,0-3,8");
	place_cpulist_format(&s, out, sizeof(out));
	EXPECT_STREQ(out, "0-3,8,12-15");
	EXPECT_EQ_INT(place_set_count(&s), 9);
	s = set_of("5");
	place_cpulist_format(&s, out, sizeof(out));
	EXPECT_STREQ(out, "5");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_EQ_INT(place_cpulist_parse(bad[i], &s, err, sizeof(err)),
			      -EINVAL);
	EXPECT_EQ_INT(place_cpulist_parse("0-1024", &s, err, sizeof(err)),
		      -ERANGE);
	HAS(err, "stop at 1023");
	memset(&s, 0, sizeof(s));
	place_cpulist_format(&s, out, sizeof(out));
	EXPECT_STREQ(out, "");
}

static void test_parse_numa(void)
{
	struct place_req r;
	char err[160];

	EXPECT_EQ_INT(place_parse_numa("auto", &r, err, sizeof(err)), 0);
	EXPECT_EQ_INT(r.mode, PLACE_AUTO);
	EXPECT_EQ_INT(place_parse_numa("off", &r, err, sizeof(err)), 0);
	EXPECT_EQ_INT(r.mode, PLACE_OFF);
	EXPECT_EQ_INT(place_parse_numa("1", &r, err, sizeof(err)), 0);
	EXPECT_EQ_INT(r.mode, PLACE_NODE);
	EXPECT_EQ_INT(r.node, 1);
	EXPECT_EQ_INT(place_parse_numa("-1", &r, err, sizeof(err)), -EINVAL);
	EXPECT_EQ_INT(place_parse_numa("one", &r, err, sizeof(err)), -EINVAL);
	EXPECT_STREQ(err, "--numa 'one': give auto, off or a NUMA node number "
		     "(numactl -H lists them)");
}

/* Two sockets, NIC on node 1, everything allowed: pin to node 1. */
static void test_nic_node(void)
{
	struct place_allowed a = allowed_cpus("0-31");
	struct place_req req = { .mode = PLACE_AUTO };
	struct place_plan p;

	EXPECT_EQ_INT(place_decide(two, "mlx5_0", -1, &req, &a, &p), 0);
	EXPECT_EQ_INT(p.nic_node, 1);
	EXPECT_EQ_INT(p.node, 1);
	EXPECT_TRUE(p.pin_cpus);
	EXPECT_STREQ(p.cpu_list, "8-15,24-31");
	EXPECT_EQ_INT(p.mem_node, 1);
	EXPECT_STREQ(p.summary, "1, CPUs 8-15,24-31");
	EXPECT_STREQ(p.mem_policy, "buffers on node 1");
	EXPECT_EQ_INT(p.nwarn, 0);
	/* a cpuset of node 1 plus one CPU of node 0: only node 1's kept */
	a = allowed_cpus("7-9");
	EXPECT_EQ_INT(place_decide(two, "mlx5_0", -1, &req, &a, &p), 0);
	EXPECT_STREQ(p.summary, "1, CPUs 8-9");
}

/* numa_node -1: no pinning; a warning only where it is suspicious. */
static void test_unknown_node(void)
{
	struct place_allowed a = allowed_cpus("0-31");
	struct place_req req = { .mode = PLACE_AUTO };
	struct place_plan p;

	EXPECT_EQ_INT(place_decide(two, "mlx5_bad", -1, &req, &a, &p), 0);
	EXPECT_EQ_INT(p.node, -1);
	EXPECT_TRUE(!p.pin_cpus);
	EXPECT_EQ_INT(p.mem_node, -1);
	EXPECT_STREQ(p.summary, "unknown (mlx5_bad has none), not pinned");
	EXPECT_EQ_INT(p.nwarn, 1);
	HAS(p.warn[0], "mlx5_bad reports no NUMA node");
	HAS(p.warn[0], "--numa N");
	/* Soft-RoCE has no PCI device: nothing to warn about */
	EXPECT_EQ_INT(place_decide(two, "rxe0", -1, &req, &a, &p), 0);
	EXPECT_EQ_INT(p.nwarn, 0);
	EXPECT_STREQ(p.summary, "unknown (rxe0 has none), not pinned");
	/* one socket: -1 is normal */
	a = allowed_cpus("0-3");
	EXPECT_EQ_INT(place_decide(one, "mlx5_0", -1, &req, &a, &p), 0);
	EXPECT_EQ_INT(p.nwarn, 0);
	EXPECT_EQ_INT(p.node, -1);
	/* no NIC node, but the GPU's: follow the GPU */
	a = allowed_cpus("0-31");
	EXPECT_EQ_INT(place_decide(two, "rxe0", 0, &req, &a, &p), 0);
	EXPECT_EQ_INT(p.node, 0);
	EXPECT_STREQ(p.cpu_list, "0-7,16-23");
}

/* A pod whose cpuset lies on node 0 while the NIC is on node 1. */
static void test_cpuset_excludes_nic_node(void)
{
	struct place_allowed a = allowed_cpus("0-7");
	struct place_req req = { .mode = PLACE_AUTO };
	struct place_plan p;

	EXPECT_EQ_INT(place_decide(two, "mlx5_0", -1, &req, &a, &p), 0);
	EXPECT_TRUE(!p.pin_cpus);
	EXPECT_EQ_INT(p.node, 1);
	EXPECT_EQ_INT(p.mem_node, 1); /* memory of node 1 is still allowed */
	EXPECT_STREQ(p.summary, "1, not pinned");
	EXPECT_EQ_INT(p.nwarn, 1);
	EXPECT_STREQ(p.warn[0],
		     "mlx5_0 is on NUMA node 1 (CPUs 8-15,24-31), but this "
		     "process may only run on CPUs 0-7 (taskset, or the pod's "
		     "cpuset): not pinning, so posts and completions cross the "
		     "CPU sockets' link; in Kubernetes set the kubelet's "
		     "Topology Manager policy to single-numa-node (with the "
		     "static CPU manager), or run on node 1's CPUs");
	/* and cpuset.mems holds node 0 only: the buffers cannot follow */
	place_set_add(&a.mems, 0);
	a.has_mems = true;
	EXPECT_EQ_INT(place_decide(two, "mlx5_0", -1, &req, &a, &p), 0);
	EXPECT_EQ_INT(p.mem_node, -1);
	EXPECT_EQ_INT(p.nwarn, 2);
	HAS(p.warn[1], "cannot put the buffers on NUMA node 1");
	HAS(p.warn[1], "node(s) 0 (cgroup cpuset.mems)");
	EXPECT_STREQ(p.mem_policy, "buffers anywhere");
}

static void test_explicit_cpu(void)
{
	struct place_allowed a = allowed_cpus("0-7");
	struct place_req req = { .mode = PLACE_AUTO, .cpu_list = "6-9" };
	struct place_plan p;

	/* never widen: CPUs outside the cpuset are an error naming them */
	EXPECT_EQ_INT(place_decide(two, "mlx5_0", -1, &req, &a, &p), -EINVAL);
	EXPECT_STREQ(p.err, "--cpu 6-9: CPUs 8-9 are outside the CPUs this "
		     "process may use (0-7, set by taskset or the container's "
		     "cpuset): choose among 0-7");
	req.cpu_list = "9";
	EXPECT_EQ_INT(place_decide(two, "mlx5_0", -1, &req, &a, &p), -EINVAL);
	HAS(p.err, "--cpu 9: CPU 9 is outside the CPUs");
	req.cpu_list = "1-2";
	EXPECT_EQ_INT(place_decide(two, "mlx5_0", -1, &req, &a, &p), 0);
	EXPECT_STREQ(p.summary, "1, CPUs 1-2");
	EXPECT_EQ_INT(p.nwarn, 1);
	HAS(p.warn[0], "--cpu: CPUs 1-2 are not on NUMA node 1");
	req.cpu_list = "1-x";
	EXPECT_EQ_INT(place_decide(two, "mlx5_0", -1, &req, &a, &p), -EINVAL);
	HAS(p.err, "--cpu: CPU list '1-x'");
	/* --numa off with --cpu: pinned, memory anywhere */
	req = (struct place_req){ .mode = PLACE_OFF, .cpu_list = "2-3" };
	EXPECT_EQ_INT(place_decide(two, "mlx5_0", -1, &req, &a, &p), 0);
	EXPECT_STREQ(p.summary, "off (--numa off), CPUs 2-3");
	EXPECT_EQ_INT(p.mem_node, -1);
}

static void test_explicit_node(void)
{
	struct place_allowed a = allowed_cpus("0-31");
	struct place_req req = { .mode = PLACE_NODE, .node = 0 };
	struct place_plan p;

	EXPECT_EQ_INT(place_decide(two, "mlx5_0", -1, &req, &a, &p), 0);
	EXPECT_STREQ(p.summary, "0, CPUs 0-7,16-23");
	EXPECT_EQ_INT(p.nwarn, 1);
	HAS(p.warn[0], "--numa 0 puts this process and its buffers on node 0, "
	    "but mlx5_0 is on node 1");
	req.node = 5;
	EXPECT_EQ_INT(place_decide(two, "mlx5_0", -1, &req, &a, &p), -EINVAL);
	EXPECT_STREQ(p.err, "--numa 5: this host has no NUMA node 5 (nodes: "
		     "0-1): pick one of those, or --numa auto");
	req.node = 1;
	a = allowed_cpus("0-7");
	EXPECT_EQ_INT(place_decide(two, "mlx5_0", -1, &req, &a, &p), -EINVAL);
	HAS(p.err, "--numa 1: none of node 1's CPUs (8-15,24-31) may be used");
	req.mode = PLACE_OFF;
	EXPECT_EQ_INT(place_decide(two, "mlx5_0", -1, &req, &a, &p), 0);
	EXPECT_STREQ(p.summary, "off (--numa off), not pinned");
	EXPECT_EQ_INT(p.nwarn, 0);
}

static void test_gpu_node(void)
{
	struct place_allowed a = allowed_cpus("0-31");
	struct place_req req = { .mode = PLACE_AUTO };
	struct place_plan p;

	EXPECT_EQ_INT(place_decide(two, "mlx5_0", 0, &req, &a, &p), 0);
	EXPECT_EQ_INT(p.node, 1); /* the NIC's node wins */
	EXPECT_EQ_INT(p.nwarn, 1);
	HAS(p.warn[0], "the GPU is on NUMA node 0 and mlx5_0 on node 1");
	EXPECT_EQ_INT(place_decide(two, "mlx5_0", 1, &req, &a, &p), 0);
	EXPECT_EQ_INT(p.nwarn, 0);
}

static void test_memlock(void)
{
	struct place_memlock m = { .limit_bytes = 8 << 20 };
	char why[PLACE_MSG_MAX], path[PATH_MAX];

	EXPECT_EQ_INT(place_memlock_check(&m, 8 << 20, why, sizeof(why)), 0);
	EXPECT_EQ_INT(place_memlock_check(&m, 16 << 20, why, sizeof(why)),
		      -ENOMEM);
	HAS(why, "registering 16.0 MiB of host memory");
	HAS(why, "RLIMIT_MEMLOCK is 8.0 MiB (0 KiB pinned already)");
	HAS(why, "ulimit -l unlimited");
	HAS(why, "IPC_LOCK");
	/* what is pinned already counts: 6 + 4 > 8 */
	m.pinned_bytes = 6 << 20;
	EXPECT_EQ_INT(place_memlock_check(&m, 4 << 20, why, sizeof(why)),
		      -ENOMEM);
	m.has_ipc_lock = true;
	EXPECT_EQ_INT(place_memlock_check(&m, 4 << 20, why, sizeof(why)), 0);
	EXPECT_STREQ(why, "");
	m = (struct place_memlock){ .limit_bytes = UINT64_MAX };
	EXPECT_EQ_INT(place_memlock_check(&m, UINT64_MAX / 2, why,
					  sizeof(why)), 0);
	/* a fake /proc/self: the soft limit, capability bit 14, VmPin in kB */
	snprintf(path, sizeof(path), "%s/user", fixtures);
	EXPECT_EQ_INT(place_memlock_read(path, &m), 0);
	EXPECT_TRUE(!m.has_ipc_lock);
	EXPECT_EQ_U64(m.limit_bytes, 8 << 20);
	EXPECT_EQ_U64(m.pinned_bytes, 2 << 20);
	EXPECT_EQ_INT(m.uid, 1000);
	snprintf(path, sizeof(path), "%s/root", fixtures);
	EXPECT_EQ_INT(place_memlock_read(path, &m), 0);
	EXPECT_TRUE(m.has_ipc_lock);
	EXPECT_EQ_U64(m.limit_bytes, UINT64_MAX);
	EXPECT_EQ_U64(m.pinned_bytes, 0);
	EXPECT_EQ_INT(m.uid, 0);
	snprintf(path, sizeof(path), "%s/none", fixtures);
	EXPECT_EQ_INT(place_memlock_read(path, &m), -ENOENT);
	/* the real process */
	EXPECT_EQ_INT(place_memlock_read("/", &m), 0);
	EXPECT_TRUE(m.uid >= 0);
}

/* The real process: read what it may use, pin to one of those CPUs. */
static void test_apply_here(void)
{
	struct place_plan p = { .node = -1, .mem_node = -1, .pin_cpus = true,
				.is_explicit = true };
	struct place_allowed a, after;
	char path[PATH_MAX];
	int cpu;

	EXPECT_EQ_INT(place_allowed_read("/proc/self/status", &a), 0);
	EXPECT_TRUE(place_set_count(&a.cpus) >= 1);
	for (cpu = 0; !place_set_has(&a.cpus, cpu) && cpu < PLACE_SET_MAX;)
		cpu++;
	place_set_add(&p.cpus, cpu);
	snprintf(p.cpu_list, sizeof(p.cpu_list), "%d", cpu);
	EXPECT_EQ_INT(place_apply(&p), 0);
	EXPECT_EQ_INT(place_allowed_read("/proc/self/status", &after), 0);
	EXPECT_EQ_INT(place_set_count(&after.cpus), 1);
	EXPECT_TRUE(place_set_has(&after.cpus, cpu));
	/* give the rest back, as a later test would expect */
	p.cpus = a.cpus;
	EXPECT_EQ_INT(place_apply(&p), 0);
	snprintf(path, sizeof(path), "%s/user/proc/self/status", fixtures);
	EXPECT_EQ_INT(place_allowed_read(path, &a), 0);
	EXPECT_TRUE(a.has_mems && place_set_count(&a.mems) == 1);
}

int main(void)
{
	const char *src = getenv("TEST_SRCDIR");

	snprintf(fixtures, sizeof(fixtures), "%s/tests/fixtures/place",
		 src ? src : ".");
	snprintf(two, sizeof(two), "%s/two-socket/sys", fixtures);
	snprintf(one, sizeof(one), "%s/one-node/sys", fixtures);
	test_cpulist();
	test_parse_numa();
	test_nic_node();
	test_unknown_node();
	test_cpuset_excludes_nic_node();
	test_explicit_cpu();
	test_explicit_node();
	test_gpu_node();
	test_memlock();
	test_apply_here();
	return test_finish("test_place");
}
