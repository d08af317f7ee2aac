// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/host/hugepages.c on fake /proc/meminfo files planted in
 * /tmp: the pool read, sizes rounded to whole pages, Kubernetes' resource
 * names, and the sentence of an empty pool (nr_hugepages) and of a full
 * cgroup (the pod's hugepages-2Mi). The host's own /proc/meminfo is read
 * once (it must parse, pool or not).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/hugepages.h"
#include "tests/test.h"
#include "tests/tree.h"

#define HAS(s, sub) EXPECT_TRUE(strstr((s), (sub)) != NULL)

static char root[PATH_MAX / 2];

static void meminfo(const char *total, const char *free, const char *size)
{
	char text[512];

	snprintf(text, sizeof(text),
		 "MemTotal:        8000000 kB\n"
		 "HugePages_Total:    %s\nHugePages_Free:     %s\n"
		 "HugePages_Rsvd:        1\nHugePages_Surp:        0\n"
		 "Hugepagesize:       %s\nHugetlb:               0 kB\n",
		 total, free, size);
	tree_put(root, "proc/meminfo", text);
}

static void test_read(void)
{
	struct hugepages hp;

	meminfo("16", "9", "2048 kB");
	EXPECT_EQ_INT(hugepages_read(root, &hp), 0);
	EXPECT_EQ_U64(hp.page_bytes, 2ULL << 20);
	EXPECT_EQ_U64(hp.total, 16);
	EXPECT_EQ_U64(hp.free, 9);
	EXPECT_EQ_U64(hp.rsvd, 1);
	EXPECT_EQ_U64(hugepages_round(&hp, 1), 2ULL << 20);
	EXPECT_EQ_U64(hugepages_round(&hp, 2ULL << 20), 2ULL << 20);
	EXPECT_EQ_U64(hugepages_round(&hp, (2ULL << 20) + 1), 4ULL << 20);
	meminfo("x", "9", "2048 kB");
	EXPECT_EQ_INT(hugepages_read(root, &hp), -EINVAL);
	EXPECT_EQ_U64(hp.page_bytes, 0);
	EXPECT_EQ_U64(hugepages_round(&hp, 5), 5);
	EXPECT_EQ_INT(hugepages_read("/nonexistent-root", &hp), -ENOENT);
}

static void test_k8s(void)
{
	char name[32];

	hugepages_k8s_name(2ULL << 20, name, sizeof(name));
	EXPECT_STREQ(name, "hugepages-2Mi");
	hugepages_k8s_name(1ULL << 30, name, sizeof(name));
	EXPECT_STREQ(name, "hugepages-1Gi");
}

static void test_why(void)
{
	struct hugepages hp = { .page_bytes = 2ULL << 20, .total = 0 };
	char why[HUGEPAGES_MSG_MAX];

	/* an empty pool: 3 pages for 5 MiB, nr_hugepages to 3 */
	hugepages_why(&hp, 5ULL << 20, why, sizeof(why));
	HAS(why,
	    "3 huge pages of 2048 kB are needed, 0 of the pool's 0 are free");
	HAS(why, "echo 3 > /proc/sys/vm/nr_hugepages");
	HAS(why, "hugepages-2Mi resource: 6 MiB");
	HAS(why, "drop --use_hugepages");
	/* 4 free, 1 of them promised: 3 usable, 8 wanted: 16 + 5 */
	hp = (struct hugepages){ .page_bytes = 2ULL << 20,
				 .total = 16,
				 .free = 4,
				 .rsvd = 1 };
	hugepages_why(&hp, 16ULL << 20, why, sizeof(why));
	HAS(why, "echo 21 > /proc/sys/vm/nr_hugepages");
	/* the pool has them: a cgroup limit */
	hp.free = 64;
	hugepages_why(&hp, 16ULL << 20, why, sizeof(why));
	HAS(why, "a hugetlb cgroup limit refused them");
	HAS(why, "hugepages-2Mi resource to at least 16 MiB");
}

static void test_host(void)
{
	struct hugepages hp;

	EXPECT_EQ_INT(hugepages_read("/", &hp), 0);
}

int main(void)
{
	char cmd[PATH_MAX];

	snprintf(root, sizeof(root), "/tmp/test_hugepages.XXXXXX");
	EXPECT_TRUE(mkdtemp(root) != NULL);
	test_read();
	test_k8s();
	test_why();
	test_host();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	EXPECT_EQ_INT(system(cmd), 0);
	return test_finish("test_hugepages");
}
