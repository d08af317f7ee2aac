// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/lib/sanitize.c: peer text as printable ASCII, escapes
 * as \xNN, a forged line kept on one line, UTF-8, cuts that never split
 * an escape, and cleaning clean text changes nothing.
 */
#include <string.h>

#include "lib/sanitize.h"
#include "tests/test.h"

static char out[256];

static const char *clean(const char *src, size_t len)
{
	return sanitize_text(out, len, src, strlen(src) + 1);
}

static void test_escapes(void)
{
	EXPECT_STREQ(clean("ib_write_bw", sizeof(out)), "ib_write_bw");
	EXPECT_STREQ(clean("", sizeof(out)), "");
	EXPECT_STREQ(clean("\x1b[31mred\x1b[0m", sizeof(out)),
		     "\\x1b[31mred\\x1b[0m");
	EXPECT_STREQ(clean("ok\nverdict: pass", sizeof(out)),
		     "ok\\x0averdict: pass");
	EXPECT_STREQ(clean("a\tb\rc\x7f", sizeof(out)), "a\\x09b\\x0dc\\x7f");
	EXPECT_STREQ(clean("caf\xc3\xa9 \xe2\x9c\x93", sizeof(out)),
		     "caf\\xc3\\xa9 \\xe2\\x9c\\x93");
	/* a backslash stays: clean text is a fixed point */
	EXPECT_STREQ(clean("C:\\x41", sizeof(out)), "C:\\x41");
}

static void test_bounds(void)
{
	char src[300], again[256];

	/* cut with "...", never inside an escape */
	EXPECT_STREQ(clean("abcdefghij", 8), "abcd...");
	EXPECT_STREQ(clean("ab\x01\x02zz", 10), "ab\\x01...");
	EXPECT_STREQ(clean("ab\x01\x02zz", 8), "ab...");
	EXPECT_STREQ(clean("abcdefg", 8), "abcdefg"); /* fits exactly */
	EXPECT_STREQ(clean("abc", 3), "..");
	EXPECT_STREQ(clean("abc", 1), "");
	/* src_max bounds what is read: no NUL needed */
	memset(src, 'x', sizeof(src));
	EXPECT_STREQ(sanitize_text(out, sizeof(out), src, 5), "xxxxx");
	/* over-long: as much as fits, then the dots */
	src[sizeof(src) - 1] = '\0';
	clean(src, sizeof(out));
	EXPECT_EQ_U64(strlen(out), sizeof(out) - 1);
	EXPECT_STREQ(out + sizeof(out) - 4, "...");
	/* in place, and cleaning again changes nothing */
	strcpy(src, "\x1b]0;title\x07\nmore");
	sanitize_text(src, 20, src, sizeof(src));
	EXPECT_STREQ(src, "\\x1b]0;title\\x07...");
	sanitize_text(again, 20, src, sizeof(src));
	EXPECT_STREQ(again, src);
	/* nothing at all for a zero-sized destination */
	out[0] = 'q';
	sanitize_text(out, 0, "abc", 4);
	EXPECT_EQ_INT(out[0], 'q');
}

int main(void)
{
	test_escapes();
	test_bounds();
	return test_finish("sanitize");
}
