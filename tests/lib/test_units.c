// SPDX-License-Identifier: BSD-2-Clause
/* Tests for common/lib/units.c: size parsing, ranges and the printed figures. */
#include <errno.h>

#include "tests/test.h"
#include "lib/units.h"

struct size_case {
	const char *text;
	int ret;
	uint64_t bytes;
};

static const struct size_case size_cases[] = {
	{ "64K", 0, 65536 },
	{ "64k", 0, 65536 },
	{ "1M", 0, 1ULL << 20 },
	{ "1MiB", 0, 1ULL << 20 },
	{ "2G", 0, 2ULL << 30 },
	{ "65536", 0, 65536 },
	{ "8KB", 0, 8192 },
	{ "0", 0, 0 },
	{ "18446744073709551615", 0, UINT64_MAX },
	{ "16777215G", 0, 16777215ULL << 30 },
	{ "12Q", -EINVAL, 0 },
	{ "", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "+1", -EINVAL, 0 },
	{ "K", -EINVAL, 0 },
	{ " 5", -EINVAL, 0 },
	{ "5 ", -EINVAL, 0 },
	{ "5KK", -EINVAL, 0 },
	{ "5Kib", -EINVAL, 0 },
	{ "5KBx", -EINVAL, 0 },
	{ "99999999999999999999", -ERANGE, 0 },
	{ "18446744073709551616", -ERANGE, 0 },
	{ "17179869184G", -ERANGE, 0 },
};

static void test_parse_size(void)
{
	size_t i;

	for (i = 0; i < sizeof(size_cases) / sizeof(size_cases[0]); i++) {
		const struct size_case *c = &size_cases[i];
		/* Sentinel: a failed parse must leave the output alone. */
		uint64_t bytes = 0xdeadbeef;
		int ret = units_parse_size(c->text, &bytes);

		if (ret != c->ret)
			fprintf(stderr, "  case \"%s\"\n", c->text);
		EXPECT_EQ_INT(ret, c->ret);
		EXPECT_EQ_U64(bytes, c->ret ? 0xdeadbeef : c->bytes);
	}
	EXPECT_EQ_INT(units_parse_size(NULL, NULL), -EINVAL);
}

static void test_parse_u64(void)
{
	uint64_t v = 0;

	EXPECT_EQ_INT(units_parse_u64("0", 1, 65535, &v), -ERANGE);
	EXPECT_EQ_INT(units_parse_u64("70000", 1, 65535, &v), -ERANGE);
	EXPECT_EQ_INT(units_parse_u64("1", 1, 65535, &v), 0);
	EXPECT_EQ_U64(v, 1);
	EXPECT_EQ_INT(units_parse_u64("65535", 1, 65535, &v), 0);
	EXPECT_EQ_U64(v, 65535);
	EXPECT_EQ_INT(units_parse_u64("18515", 1, 65535, &v), 0);
	EXPECT_EQ_U64(v, 18515);
	EXPECT_EQ_INT(units_parse_u64("99999999999999999999", 0, UINT64_MAX,
				      &v), -ERANGE);
	EXPECT_EQ_INT(units_parse_u64("", 0, 10, &v), -EINVAL);
	EXPECT_EQ_INT(units_parse_u64("-1", 0, 10, &v), -EINVAL);
	EXPECT_EQ_INT(units_parse_u64("5K", 0, 1 << 20, &v), -EINVAL);
	EXPECT_EQ_INT(units_parse_u64(" 5", 0, 10, &v), -EINVAL);
}

static void test_figures(void)
{
	EXPECT_NEAR(units_gbps(125000000, 1000000000), 1.0, 1e-12);
	EXPECT_NEAR(units_gbps(1ULL << 40, 1000000000), 8796.093022208, 1e-6);
	EXPECT_NEAR(units_mibps(1ULL << 20, 1000000000), 1.0, 1e-12);
	EXPECT_NEAR(units_mibps(1ULL << 30, 500000000), 2048.0, 1e-9);
	EXPECT_NEAR(units_mpps(1000000, 1000000000), 1.0, 1e-12);
	EXPECT_NEAR(units_mpps(3, 1000), 3.0, 1e-12);
	EXPECT_TRUE(units_gbps(125000000, 0) == 0.0);
	EXPECT_TRUE(units_mibps(125000000, 0) == 0.0);
	EXPECT_TRUE(units_mpps(125000000, 0) == 0.0);
	EXPECT_NEAR(units_ns_to_us(1500.0), 1.5, 1e-12);
	EXPECT_NEAR(units_ns_to_us(3.0), 0.003, 1e-15);
}

int main(void)
{
	test_parse_size();
	test_parse_u64();
	test_figures();
	return test_finish("test_units");
}
