// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/lib/fs.c's readers on a tree planted in a temporary
 * folder: a value longer than the caller's buffer is refused with
 * -EOVERFLOW and an empty buffer, never cut to another value; trailing
 * newlines and blanks do not count against the buffer.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fs.h"
#include "tests/test.h"
#include "tests/tree.h"

static void test_read_fits(const char *root)
{
	char buf[4];

	tree_put(root, "v/three", "abc\n");
	EXPECT_EQ_INT(fs_read(root, buf, sizeof(buf), "/v/three"), 0);
	EXPECT_STREQ(buf, "abc");
	/* the blanks after a value that fills the buffer are not the value */
	tree_put(root, "v/blanks", "abc  \n\n");
	EXPECT_EQ_INT(fs_read(root, buf, sizeof(buf), "/v/blanks"), 0);
	EXPECT_STREQ(buf, "abc");
	tree_put(root, "v/empty", "");
	EXPECT_EQ_INT(fs_read(root, buf, sizeof(buf), "/v/empty"), 0);
	EXPECT_STREQ(buf, "");
	EXPECT_EQ_INT(fs_read(root, buf, sizeof(buf), "/v/absent"), -ENOENT);
	EXPECT_STREQ(buf, "");
}

static void test_read_long_value(const char *root)
{
	char buf[4], big[200], name[16];

	tree_put(root, "v/four", "abcd\n");
	strcpy(buf, "xyz");
	EXPECT_EQ_INT(fs_read(root, buf, sizeof(buf), "/v/four"), -EOVERFLOW);
	EXPECT_STREQ(buf, "");
	/* a blank inside the value counts: "ab c" is not "ab" */
	tree_put(root, "v/inner", "ab c\n");
	EXPECT_EQ_INT(fs_read(root, buf, sizeof(buf), "/v/inner"), -EOVERFLOW);
	/* more than one read past the buffer */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	tree_put(root, "v/big", big);
	EXPECT_EQ_INT(fs_read(root, name, sizeof(name), "/v/big"), -EOVERFLOW);
	EXPECT_STREQ(name, "");
}

/* A number longer than fs_read_long's buffer: once cut to "000...0", 0. */
static void test_read_long_number(const char *root)
{
	char digits[80];
	long v = 42;

	memset(digits, '0', sizeof(digits) - 2);
	digits[sizeof(digits) - 2] = '7';
	digits[sizeof(digits) - 1] = '\0';
	tree_put(root, "v/number", digits);
	EXPECT_EQ_INT(fs_read_long(root, &v, "/v/number"), -EOVERFLOW);
	EXPECT_EQ_INT(v, 42);
	tree_put(root, "v/seven", "0007\n");
	EXPECT_EQ_INT(fs_read_long(root, &v, "/v/seven"), 0);
	EXPECT_EQ_INT(v, 7);
	tree_put(root, "v/garbage", "1x\n");
	EXPECT_EQ_INT(fs_read_long(root, &v, "/v/garbage"), -EINVAL);
}

static void test_read_field(const char *root)
{
	char out[8], *status;
	size_t n = 9000;

	tree_put(root, "proc/status", "Name:\tx\nVmPin:\t 1024 kB\n"
		 "Cpus_allowed_list:\t0-3,8-11\n");
	EXPECT_EQ_INT(fs_read_field(root, "VmPin", out, sizeof(out),
				    "/proc/status"), 0);
	EXPECT_STREQ(out, "1024 kB");
	EXPECT_EQ_INT(fs_read_field(root, "Cpus_allowed_list", out,
				    sizeof(out), "/proc/status"), -EOVERFLOW);
	EXPECT_STREQ(out, "");
	EXPECT_EQ_INT(fs_read_field(root, "Uid", out, sizeof(out),
				    "/proc/status"), -ENOENT);
	/* a file past the field reader's own buffer */
	status = malloc(n + 1);
	EXPECT_TRUE(status != NULL);
	if (!status)
		return;
	memset(status, 'x', n);
	memcpy(status, "Uid:\t0\n", 7);
	status[n] = '\0';
	tree_put(root, "proc/huge", status);
	free(status);
	EXPECT_EQ_INT(fs_read_field(root, "Uid", out, sizeof(out),
				    "/proc/huge"), -EOVERFLOW);
}

/* A file read line by line, below the root like the others. */
static void test_open_lines(const char *root)
{
	char line[32];
	FILE *f;

	tree_put(root, "proc/net/route", "Iface\tDestination\neth0\t0\n");
	EXPECT_EQ_INT(fs_open_lines(root, &f, "/proc/net/%s", "route"), 0);
	EXPECT_TRUE(f && fgets(line, sizeof(line), f) &&
		    fgets(line, sizeof(line), f));
	EXPECT_STREQ(line, "eth0\t0\n");
	if (f)
		fclose(f);
	EXPECT_EQ_INT(fs_open_lines(root, &f, "/proc/net/ipv6_route"),
		      -ENOENT);
	EXPECT_TRUE(f == NULL);
}

int main(void)
{
	char root[] = "/tmp/test_fs.XXXXXX", cmd[PATH_MAX];

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	test_read_fits(root);
	test_read_long_value(root);
	test_read_long_number(root);
	test_read_field(root);
	test_open_lines(root);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", root);
	return test_finish("test_fs");
}
