/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pattern - the data --validate writes and checks. Pure.
 *
 * Every byte depends on the message size, the iteration and its offset, so
 * a message that lands in the wrong place, a stale message, or a flipped
 * byte all show. The last byte is always pattern_marker(iter): never 0 (a
 * fresh buffer's value) and different in consecutive iterations, so the
 * ping-pong tests can poll it to see a message arrive.
 */
#ifndef RDMABENCH_LIB_PATTERN_H
#define RDMABENCH_LIB_PATTERN_H

#include <stdint.h>

static inline uint8_t pattern_marker(uint64_t iter)
{
	return (uint8_t)(iter % 255 + 1);
}

/* Fill size bytes at buf with the pattern of (size, iter). */
void pattern_fill(uint8_t *buf, uint64_t size, uint64_t iter);

/* Where a check failed. */
struct pattern_miss {
	uint64_t offset;
	uint8_t expected;
	uint8_t actual;
};

/*
 * Check size bytes at buf against the pattern of (size, iter).
 * Returns 0, or -EILSEQ with the first wrong byte in *miss.
 */
int pattern_check(const uint8_t *buf, uint64_t size, uint64_t iter,
		  struct pattern_miss *miss);

#endif
