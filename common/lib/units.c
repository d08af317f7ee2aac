// SPDX-License-Identifier: BSD-2-Clause
/*
 * units - parsing sizes and converting counts to printed figures.
 * See units.h for the definitions of the figures.
 */
#include "lib/units.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/*
 * Parse leading decimal digits by hand rather than with strtoull(), which
 * accepts leading blanks and a sign ("-1" wraps to UINT64_MAX) and would
 * need errno juggling to detect overflow. Returns 0 with *end_out at the
 * first non-digit, -EINVAL when there is no digit, -ERANGE on overflow.
 */
static int parse_digits(const char *text, uint64_t *value_out,
			const char **end_out)
{
	const char *p = text;
	uint64_t value = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned int digit = (unsigned int)(*p - '0');

		if (value > (UINT64_MAX - digit) / 10)
			return -ERANGE;
		value = value * 10 + digit;
	}
	*value_out = value;
	*end_out = p;
	return 0;
}

/*
 * "K", "KB" and "KiB" all mean 2^10: nobody sizes RDMA buffers in powers
 * of ten, so the B/iB tail is accepted for readability and changes nothing.
 */
static bool is_byte_tail(const char *tail)
{
	return !strcmp(tail, "") || !strcmp(tail, "B") || !strcmp(tail, "iB");
}

/* Binary shift for a K/M/G suffix letter, or -1 when it is not one. */
static int suffix_shift(char c)
{
	switch (c) {
	case 'K': case 'k':
		return 10;
	case 'M': case 'm':
		return 20;
	case 'G': case 'g':
		return 30;
	default:
		return -1;
	}
}

int units_parse_size(const char *text, uint64_t *bytes_out)
{
	const char *end;
	uint64_t value;
	int shift, ret;

	if (!text || !bytes_out)
		return -EINVAL;
	ret = parse_digits(text, &value, &end);
	if (ret)
		return ret;
	if (*end == '\0') {
		*bytes_out = value;
		return 0;
	}
	shift = suffix_shift(*end++);
	if (shift < 0 || !is_byte_tail(end))
		return -EINVAL;
	if (value > (UINT64_MAX >> shift))
		return -ERANGE;
	*bytes_out = value << shift;
	return 0;
}

int units_parse_u64(const char *text, uint64_t min, uint64_t max,
		    uint64_t *value_out)
{
	const char *end;
	uint64_t value;
	int ret;

	if (!text || !value_out)
		return -EINVAL;
	ret = parse_digits(text, &value, &end);
	if (ret)
		return ret;
	if (*end != '\0')
		return -EINVAL;
	if (value < min || value > max)
		return -ERANGE;
	*value_out = value;
	return 0;
}

/*
 * Everything below is in double: a uint64_t product such as bytes * 8
 * could overflow, and 53 bits of mantissa are far more than a printed
 * figure needs.
 */
double units_gbps(uint64_t bytes, uint64_t elapsed_ns)
{
	/* bits per ns is exactly 10^9 bits per s. */
	return elapsed_ns ? (double)bytes * 8.0 / (double)elapsed_ns : 0.0;
}

double units_mibps(uint64_t bytes, uint64_t elapsed_ns)
{
	if (!elapsed_ns)
		return 0.0;
	return (double)bytes / ((double)elapsed_ns / 1e9) / 1048576.0;
}

double units_mpps(uint64_t msgs, uint64_t elapsed_ns)
{
	/* Messages per µs is exactly 10^6 messages per s. */
	return elapsed_ns ? (double)msgs * 1e3 / (double)elapsed_ns : 0.0;
}

double units_ns_to_us(double ns)
{
	return ns / 1e3;
}

void units_fmt_bytes(uint64_t bytes, char *out, size_t len)
{
	if (bytes == UINT64_MAX)
		snprintf(out, len, "unlimited");
	else if (bytes >= 1 << 20)
		snprintf(out, len, "%.1f MiB", (double)bytes / (1 << 20));
	else
		snprintf(out, len, "%llu KiB",
			 (unsigned long long)(bytes + 1023) / 1024);
}
