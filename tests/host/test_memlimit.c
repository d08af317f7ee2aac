// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/host/memlimit.c on fake trees planted in /tmp: cgroup
 * v2 (a limit on a parent binds), v1, a container whose cgroup path is
 * not in its mount, RLIMIT_MEMLOCK and CAP_IPC_LOCK, and the rule that
 * turns them into the default --max-mem, with its words.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host/memlimit.h"
#include "tests/test.h"
#include "tests/tree.h"

#define HAS(s, sub) EXPECT_TRUE(strstr((s), (sub)) != NULL)

static char root[PATH_MAX / 2];

/* Write text into ROOT/rel, making its folders. */
static void put(const char *rel, const char *text)
{
	tree_put(root, rel, text);
}

/* A fresh tree with a /proc/self of memlock limit (bytes or
 * "unlimited") and CapEff (bit 14: CAP_IPC_LOCK). */
static void fresh(const char *memlock, const char *capeff)
{
	char text[256], cmd[PATH_MAX];

	if (root[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		EXPECT_EQ_INT(system(cmd), 0);
	}
	snprintf(root, sizeof(root), "/tmp/test_memlimit.XXXXXX");
	EXPECT_TRUE(mkdtemp(root) != NULL);
	snprintf(text, sizeof(text), "Limit Soft Limit Hard Limit Units\n"
		 "Max locked memory         %s            %s            "
		 "bytes\n", memlock, memlock);
	put("proc/self/limits", text);
	snprintf(text, sizeof(text), "Name:\tib_write_bw\nUid:\t0\t0\t0\t0\n"
		 "CapEff:\t%s\nVmPin:\t       0 kB\n", capeff);
	put("proc/self/status", text);
}

static uint64_t cap_of(char *from, size_t len)
{
	struct memlimit m;

	EXPECT_EQ_INT(memlimit_read(root, &m), 0);
	return memlimit_cap(&m, from, len);
}

static void test_none(void)
{
	char from[96];
	struct memlimit m;

	fresh("unlimited", "0000000000000000");
	EXPECT_EQ_U64(cap_of(from, sizeof(from)), MEMLIMIT_DEFAULT_BYTES);
	EXPECT_STREQ(from, "no cgroup or memlock limit found");
	/* "max" everywhere is no limit either */
	put("proc/self/cgroup", "0::/a/b\n");
	put("sys/fs/cgroup/a/b/memory.max", "max\n");
	EXPECT_EQ_U64(cap_of(from, sizeof(from)), MEMLIMIT_DEFAULT_BYTES);
	/* nothing readable at all: still an answer */
	EXPECT_EQ_INT(memlimit_read("/nonexistent/root", &m), 0);
	EXPECT_EQ_U64(m.cgroup_bytes, UINT64_MAX);
	EXPECT_EQ_U64(m.memlock_bytes, UINT64_MAX);
}

static void test_v2(void)
{
	char from[96];
	struct memlimit m;

	fresh("unlimited", "0000000000000000");
	put("proc/self/cgroup", "0::/system.slice/run-r1.scope\n");
	put("sys/fs/cgroup/system.slice/run-r1.scope/memory.max",
	    "536870912\n");
	EXPECT_EQ_U64(cap_of(from, sizeof(from)), 256ULL << 20);
	EXPECT_STREQ(from, "half the cgroup limit 512.0 MiB (memory.max)");
	EXPECT_EQ_INT(memlimit_read(root, &m), 0);
	EXPECT_STREQ(m.cgroup_file,
		     "/sys/fs/cgroup/system.slice/run-r1.scope/memory.max");
	/* a tighter parent binds */
	put("sys/fs/cgroup/system.slice/memory.max", "268435456\n");
	EXPECT_EQ_U64(cap_of(from, sizeof(from)), 128ULL << 20);
	EXPECT_EQ_INT(memlimit_read(root, &m), 0);
	EXPECT_STREQ(m.cgroup_file, "/sys/fs/cgroup/system.slice/memory.max");
	/* a container: its path is not in its mount, the top is its own */
	fresh("unlimited", "0000000000000000");
	put("proc/self/cgroup", "0::/kubepods/pod1/c1\n");
	put("sys/fs/cgroup/memory.max", "4294967296\n");
	EXPECT_EQ_U64(cap_of(from, sizeof(from)), 2ULL << 30);
	/* garbage is no limit */
	put("sys/fs/cgroup/memory.max", "lots\n");
	EXPECT_EQ_U64(cap_of(from, sizeof(from)), MEMLIMIT_DEFAULT_BYTES);
}

static void test_v1(void)
{
	char from[96];

	fresh("unlimited", "0000000000000000");
	put("proc/self/cgroup", "9:pids:/\n4:cpu,memory:/docker/abc\n0::/\n");
	put("sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes",
	    "1073741824\n");
	put("sys/fs/cgroup/memory/memory.limit_in_bytes",
	    "9223372036854771712\n"); /* v1's "none" */
	EXPECT_EQ_U64(cap_of(from, sizeof(from)), 512ULL << 20);
	HAS(from, "(memory.limit_in_bytes)");
}

static void test_memlock(void)
{
	char from[96];

	/* 64 MiB of memlock is less than half of 512 MiB */
	fresh("67108864", "0000000000000000");
	put("proc/self/cgroup", "0::/\n");
	put("sys/fs/cgroup/memory.max", "536870912\n");
	EXPECT_EQ_U64(cap_of(from, sizeof(from)), 64ULL << 20);
	EXPECT_STREQ(from, "RLIMIT_MEMLOCK 64.0 MiB (ulimit -l)");
	/* CAP_IPC_LOCK (bit 14): the memlock limit does not apply */
	fresh("67108864", "0000000000004000");
	put("proc/self/cgroup", "0::/\n");
	put("sys/fs/cgroup/memory.max", "536870912\n");
	EXPECT_EQ_U64(cap_of(from, sizeof(from)), 256ULL << 20);
	/* memlock alone */
	fresh("8388608", "0000000000000000");
	EXPECT_EQ_U64(cap_of(from, sizeof(from)), 8ULL << 20);
}

int main(void)
{
	char cmd[PATH_MAX];

	test_none();
	test_v2();
	test_v1();
	test_memlock();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	EXPECT_EQ_INT(system(cmd), 0);
	return test_finish("memlimit");
}
