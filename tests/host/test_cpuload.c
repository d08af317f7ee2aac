// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/host/cpuload.c: /proc/stat's "cpu" line as perftest's
 * --cpu_util reads it (user and idle), and the share between two reads;
 * the host's own /proc/stat is read once (it must parse); -C's "cpu MHz"
 * from a /proc/cpuinfo written in a temporary root.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/cpuload.h"
#include "tests/test.h"

static void test_parse(void)
{
	struct cpuload c;

	EXPECT_EQ_INT(cpuload_parse("cpu  4705 356 584 3699 23 23 0 0 0 0",
				    &c), 0);
	EXPECT_EQ_U64(c.user, 4705);
	EXPECT_EQ_U64(c.idle, 3699);
	EXPECT_EQ_INT(cpuload_parse("cpu0 1 2 3 4", &c), -EINVAL);
	EXPECT_EQ_INT(cpuload_parse("intr 1 2", &c), -EINVAL);
	EXPECT_EQ_INT(cpuload_parse("cpu 1 2", &c), -EINVAL);
}

/* perftest: user / (user + idle) * 100; system time is left out. */
static void test_pct(void)
{
	struct cpuload a = { .user = 100, .idle = 1000 };
	struct cpuload b = { .user = 175, .idle = 1025 };

	EXPECT_TRUE(cpuload_pct(&a, &b) > 74.99 && cpuload_pct(&a, &b) < 75.01);
	EXPECT_TRUE(cpuload_pct(&a, &a) == 0);
	EXPECT_TRUE(cpuload_pct(&b, &a) == 0); /* went back: not a figure */
}

static void test_host(void)
{
	struct cpuload c;

	EXPECT_EQ_INT(cpuload_read("/", &c), 0);
	EXPECT_EQ_INT(cpuload_read("/nonexistent-root", &c), -ENOENT);
}

/* ROOT/proc/cpuinfo holding text; the root's path in root. */
static int put_cpuinfo(char *root, size_t len, const char *text)
{
	char path[PATH_MAX + 32];
	FILE *f;

	snprintf(root, len, "/tmp/test_cpuload.XXXXXX");
	if (!mkdtemp(root))
		return -errno;
	snprintf(path, sizeof(path), "%s/proc", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fputs(text, f);
	fclose(f);
	return 0;
}

static void rm_cpuinfo(const char *root)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc", root);
	rmdir(path);
	rmdir(root);
}

static void test_mhz(void)
{
	static const char *const texts[] = {
		"processor\t: 0\nmodel name\t: X\ncpu MHz\t\t: 2096.013\n"
		"processor\t: 1\ncpu MHz\t\t: 1200.000\n",
		"processor\t: 0\nBogoMIPS\t: 50.00\n", /* arm64: none */
		"cpu MHz\t\t: fast\n",
	};
	static const int want[] = { 0, -ENOENT, -EINVAL };
	char root[PATH_MAX];
	double mhz = 0;
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		EXPECT_EQ_INT(put_cpuinfo(root, sizeof(root), texts[i]), 0);
		EXPECT_EQ_INT(cpuload_mhz(root, &mhz), want[i]);
		if (!want[i])
			EXPECT_TRUE(mhz > 2096.0 && mhz < 2096.1);
		rm_cpuinfo(root);
	}
	EXPECT_EQ_INT(cpuload_mhz("/nonexistent-root", &mhz), -ENOENT);
}

int main(void)
{
	test_parse();
	test_pct();
	test_host();
	test_mhz();
	return test_finish("test_cpuload");
}
