// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/lib/keyfile.c: a key of 16..1024 bytes less one
 * trailing newline, a missing file, a directory, a short key; the key is
 * cleared on failure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/keyfile.h"
#include "tests/test.h"

static char dir[] = "/tmp/test_keyfile.XXXXXX";

static const char *put(const char *name, const char *text, mode_t mode)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
	return path;
}

static void test_load(void)
{
	struct keyfile k;

	EXPECT_EQ_INT(keyfile_load(put("ok", "0123456789abcdef\n", 0600), &k),
		      0);
	EXPECT_EQ_INT((int)k.len, 16);
	EXPECT_TRUE(!memcmp(k.key, "0123456789abcdef", 16));
	EXPECT_EQ_INT(keyfile_load(put("crlf", "0123456789abcdefXY\r\n", 0600),
				   &k), 0);
	EXPECT_EQ_INT((int)k.len, 18);
	/* only one newline goes: the rest is key */
	EXPECT_EQ_INT(keyfile_load(put("nn", "0123456789abcdef\n\n", 0600),
				   &k), 0);
	EXPECT_EQ_INT((int)k.len, 17);
	/* readable by others: used, with a warning */
	EXPECT_EQ_INT(keyfile_load(put("open", "0123456789abcdef", 0644), &k),
		      0);
	EXPECT_EQ_INT(keyfile_load(put("short", "0123456789abcde\n", 0600),
				   &k), -EINVAL);
	EXPECT_EQ_INT((int)k.len, 0);
	EXPECT_EQ_INT(keyfile_load(put("empty", "", 0600), &k), -EINVAL);
	EXPECT_EQ_INT(keyfile_load("/nonexistent/key", &k), -ENOENT);
	EXPECT_EQ_INT(keyfile_load(dir, &k), -EINVAL);
	keyfile_clear(&k);
	EXPECT_EQ_INT((int)k.len, 0);
}

int main(void)
{
	char cmd[64];

	if (!mkdtemp(dir))
		return 1;
	test_load();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
	return test_finish("keyfile");
}
