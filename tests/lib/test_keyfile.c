// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/lib/keyfile.c: a key of 32..1024 bytes less one
 * trailing newline, a missing file, a directory, a short key; the key is
 * cleared on failure; the strength floor (keyfile_weak): 16 x 'a', 32 x
 * 'a', "abab...", a key with one byte in more than a quarter, refused
 * with why; base64 and hex of random bytes taken.
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

#define K32 "0123456789abcdefghijklmnopqrstuv" /* 32 bytes, 32 values */

static void test_load(void)
{
	struct keyfile k;

	EXPECT_EQ_INT(keyfile_load(put("ok", K32 "\n", 0600), &k), 0);
	EXPECT_EQ_INT((int)k.len, 32);
	EXPECT_TRUE(!memcmp(k.key, K32, 32));
	EXPECT_EQ_INT(keyfile_load(put("crlf", K32 "XY\r\n", 0600), &k), 0);
	EXPECT_EQ_INT((int)k.len, 34);
	/* only one newline goes: the rest is key */
	EXPECT_EQ_INT(keyfile_load(put("nn", K32 "\n\n", 0600), &k), 0);
	EXPECT_EQ_INT((int)k.len, 33);
	/* readable by others: used, with a warning */
	EXPECT_EQ_INT(keyfile_load(put("open", K32, 0644), &k), 0);
	EXPECT_EQ_INT(keyfile_load(put("short", "0123456789abcdefghijklmnopqrstu\n",
				       0600), &k), -EINVAL);
	EXPECT_EQ_INT((int)k.len, 0);
	EXPECT_EQ_INT(keyfile_load(put("empty", "", 0600), &k), -EINVAL);
	EXPECT_EQ_INT(keyfile_load("/nonexistent/key", &k), -ENOENT);
	EXPECT_EQ_INT(keyfile_load(dir, &k), -EINVAL);
	keyfile_clear(&k);
	EXPECT_EQ_INT((int)k.len, 0);
}

/* The floor: why names the rule broken. */
static void test_weak(void)
{
	static const char *const weak[] = {
		"aaaaaaaaaaaaaaaa",                         /* 16 x 'a' */
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",         /* 32 x 'a' */
		"abababababababababababababababab",         /* 2 values */
		"aaaaaaaaaaaaaaaaaaaaaaaaa0123456789bcdef",  /* 'a' 26 of 40 */
		"password-password-password-pass",          /* 31 bytes */
	};
	static const char *const strong[] = {
		/* head -c 32 /dev/urandom | base64 */
		"q9E1m0H2a7Cw4y8Zb5kRVt3xLpNsUoGdJf6eYhTiWcA=",
		/* openssl rand -hex 32 */
		"3f9a0c2be14d7785a6f0c9d21e3b4a5f60718293aabbccddeeff0011"
		"22334455",
		K32,
	};
	struct keyfile k;
	char why[96];
	size_t i;

	for (i = 0; i < sizeof(weak) / sizeof(weak[0]); i++)
		EXPECT_TRUE(keyfile_weak((const uint8_t *)weak[i],
					 strlen(weak[i]), why, sizeof(why)) == why);
	/* ten values, each a tenth: passes; a floor, not a proof */
	EXPECT_TRUE(keyfile_weak((const uint8_t *)"0123456789012345678901234567"
				 "890123456789", 40, why, sizeof(why)) == NULL);
	keyfile_weak((const uint8_t *)weak[0], 16, why, sizeof(why));
	EXPECT_STREQ(why, "16 bytes of key, fewer than 32");
	keyfile_weak((const uint8_t *)weak[1], 32, why, sizeof(why));
	EXPECT_TRUE(strstr(why, "1 distinct byte values, fewer than 10") != NULL);
	keyfile_weak((const uint8_t *)weak[3], 40, why, sizeof(why));
	EXPECT_TRUE(strstr(why, "more than a quarter") != NULL);
	for (i = 0; i < sizeof(strong) / sizeof(strong[0]); i++)
		EXPECT_TRUE(keyfile_weak((const uint8_t *)strong[i],
					 strlen(strong[i]), why,
					 sizeof(why)) == NULL);
	/* keyfile_load refuses them alike (server, client, ib_fabric) */
	EXPECT_EQ_INT(keyfile_load(put("aaaa", "aaaaaaaaaaaaaaaa\n", 0600), &k),
		      -EINVAL);
	EXPECT_EQ_INT(keyfile_load(put("a32", weak[1], 0600), &k), -EINVAL);
	EXPECT_EQ_INT((int)k.len, 0);
	EXPECT_EQ_INT(keyfile_load(put("b64", strong[0], 0600), &k), 0);
}

int main(void)
{
	char cmd[64];

	if (!mkdtemp(dir))
		return 1;
	test_load();
	test_weak();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
	return test_finish("keyfile");
}
