// SPDX-License-Identifier: BSD-2-Clause
#include <errno.h>
#include <string.h>

#include "lib/pattern.h"

/* splitmix64: a cheap, well-mixed function of (size, iter, word). */
static uint64_t pattern_word(uint64_t size, uint64_t iter, uint64_t word)
{
	uint64_t z = size * 0x9e3779b97f4a7c15ULL ^ iter * 0xbf58476d1ce4e5b9ULL ^
		     (word + 1) * 0x94d049bb133111ebULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint8_t pattern_byte(uint64_t size, uint64_t iter, uint64_t off)
{
	if (off == size - 1)
		return pattern_marker(iter);
	return (uint8_t)(pattern_word(size, iter, off / 8) >> (8 * (off % 8)));
}

void pattern_fill(uint8_t *buf, uint64_t size, uint64_t iter)
{
	uint64_t off, w;

	for (off = 0; off + 8 <= size; off += 8) {
		w = pattern_word(size, iter, off / 8);
		memcpy(buf + off, &w, 8); /* little-endian hosts: byte k = w >> 8k */
	}
	for (; off < size; off++)
		buf[off] = pattern_byte(size, iter, off);
	if (size)
		buf[size - 1] = pattern_marker(iter);
}

int pattern_check(const uint8_t *buf, uint64_t size, uint64_t iter,
		  struct pattern_miss *miss)
{
	uint64_t off;

	for (off = 0; off < size; off++) {
		uint8_t want = pattern_byte(size, iter, off);

		if (buf[off] != want) {
			miss->offset = off;
			miss->expected = want;
			miss->actual = buf[off];
			return -EILSEQ;
		}
	}
	return 0;
}
