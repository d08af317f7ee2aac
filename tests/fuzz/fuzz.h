/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz.h - what the libFuzzer targets of tests/fuzz/ share: saying which
 * property an input broke, and stopping so that libFuzzer saves it.
 */
#ifndef RDMABENCH_TESTS_FUZZ_FUZZ_H
#define RDMABENCH_TESTS_FUZZ_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* "TARGET: WHAT (input N bytes: xx xx ...)" on stderr, then abort(). */
static inline void fuzz_abort(const char *target, const char *what,
			      const uint8_t *data, size_t len)
{
	size_t i;

	fprintf(stderr, "%s: %s (input %zu bytes:", target, what, len);
	for (i = 0; i < len && i < 64; i++)
		fprintf(stderr, " %02x", data[i]);
	fprintf(stderr, "%s)\n", len > 64 ? " ..." : "");
	abort();
}

#endif
