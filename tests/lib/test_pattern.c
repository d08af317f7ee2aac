// SPDX-License-Identifier: BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pattern.h"
#include "tests/test.h"

static void test_roundtrip(void)
{
	static const uint64_t sizes[] = { 1, 2, 7, 8, 9, 64, 4096, 65537 };
	struct pattern_miss miss;
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint8_t *buf = malloc(sizes[i]);

		pattern_fill(buf, sizes[i], 41);
		EXPECT_EQ_INT(pattern_check(buf, sizes[i], 41, &miss), 0);
		EXPECT_EQ_INT(buf[sizes[i] - 1], pattern_marker(41));
		/* another iteration or size does not pass */
		if (sizes[i] > 1)
			EXPECT_EQ_INT(pattern_check(buf, sizes[i], 42, &miss),
				      -EILSEQ);
		free(buf);
	}
}

static void test_flip_found(void)
{
	uint8_t buf[1000];
	struct pattern_miss miss;

	pattern_fill(buf, sizeof(buf), 7);
	buf[500] ^= 0x10;
	EXPECT_EQ_INT(pattern_check(buf, sizeof(buf), 7, &miss), -EILSEQ);
	EXPECT_EQ_U64(miss.offset, 500);
	EXPECT_EQ_INT(miss.actual, miss.expected ^ 0x10);
}

static void test_marker(void)
{
	uint64_t i;

	for (i = 0; i < 1000; i++) {
		EXPECT_TRUE(pattern_marker(i) != 0);
		EXPECT_TRUE(pattern_marker(i) != pattern_marker(i + 1));
	}
}

int main(void)
{
	test_roundtrip();
	test_flip_found();
	test_marker();
	return test_finish("test_pattern");
}
