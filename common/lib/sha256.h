/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sha256 - SHA-256 (FIPS 180-4), streaming. Pure, no allocation; for the
 * HMAC of --auth-key-file (lib/hmac.h), not for speed.
 */
#ifndef RDMABENCH_LIB_SHA256_H
#define RDMABENCH_LIB_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_BYTES 32
#define SHA256_BLOCK 64

struct sha256 {
	uint32_t h[8];
	uint64_t bytes;             /* hashed so far */
	uint8_t block[SHA256_BLOCK];
	size_t fill;                /* bytes waiting in block */
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* The digest into out; s must be initialised again before reuse. */
void sha256_final(struct sha256 *s, uint8_t out[SHA256_BYTES]);

/* The digest of len bytes at data, at once. */
void sha256_digest(const void *data, size_t len, uint8_t out[SHA256_BYTES]);

#endif
