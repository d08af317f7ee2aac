/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hmac - HMAC-SHA256 (RFC 2104, FIPS 198-1) over several pieces, and a
 * comparison of MACs whose time does not depend on where they differ.
 * Pure.
 */
#ifndef RDMABENCH_LIB_HMAC_H
#define RDMABENCH_LIB_HMAC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/sha256.h"

/* One piece of the message: the MAC covers the pieces in order. */
struct hmac_part {
	const void *data;
	size_t len;
};

/* HMAC-SHA256 with key (any length) over parts[0..n). */
void hmac_sha256(const void *key, size_t key_len,
		 const struct hmac_part *parts, size_t n,
		 uint8_t out[SHA256_BYTES]);

/* a and b equal in all len bytes; the time is the same wherever they
 * differ. */
bool hmac_equal(const uint8_t *a, const uint8_t *b, size_t len);

#endif
