// SPDX-License-Identifier: BSD-2-Clause
/*
 * hmac - H((K ^ opad) || H((K ^ ipad) || message)), a key longer than a
 * block hashed first (RFC 2104 section 2). See hmac.h.
 */
#include <string.h>

#include "lib/hmac.h"

void hmac_sha256(const void *key, size_t key_len,
		 const struct hmac_part *parts, size_t n,
		 uint8_t out[SHA256_BYTES])
{
	uint8_t k[SHA256_BLOCK] = { 0 }, pad[SHA256_BLOCK], inner[SHA256_BYTES];
	struct sha256 s;
	size_t i;

	if (key_len > SHA256_BLOCK)
		sha256_digest(key, key_len, k);
	else
		memcpy(k, key, key_len);
	for (i = 0; i < SHA256_BLOCK; i++)
		pad[i] = k[i] ^ 0x36;
	sha256_init(&s);
	sha256_update(&s, pad, sizeof(pad));
	for (i = 0; i < n; i++)
		sha256_update(&s, parts[i].data, parts[i].len);
	sha256_final(&s, inner);
	for (i = 0; i < SHA256_BLOCK; i++)
		pad[i] = k[i] ^ 0x5c;
	sha256_init(&s);
	sha256_update(&s, pad, sizeof(pad));
	sha256_update(&s, inner, sizeof(inner));
	sha256_final(&s, out);
	memset(k, 0, sizeof(k));
	memset(pad, 0, sizeof(pad));
}

bool hmac_equal(const uint8_t *a, const uint8_t *b, size_t len)
{
	volatile uint8_t diff = 0;
	size_t i;

	for (i = 0; i < len; i++)
		diff |= a[i] ^ b[i];
	return !diff;
}
