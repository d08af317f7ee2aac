// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/lib/sha256.c and hmac.c: the FIPS 180 examples
 * (one block, two blocks, a million 'a' fed in odd pieces) and the
 * HMAC-SHA256 cases of RFC 4231 (short, long and block-size keys, the
 * truncated case 5 as a prefix), a MAC over pieces, and hmac_equal.
 */
#include <stdio.h>
#include <string.h>

#include "lib/hmac.h"
#include "lib/sha256.h"
#include "tests/test.h"

static const char *hex(const uint8_t *d, size_t n)
{
	static char out[2 * SHA256_BYTES + 1];
	size_t i;

	for (i = 0; i < n && i < SHA256_BYTES; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
	out[2 * i] = '\0';
	return out;
}

static const char *sha(const char *s)
{
	uint8_t d[SHA256_BYTES];

	sha256_digest(s, strlen(s), d);
	return hex(d, sizeof(d));
}

static void test_sha256(void)
{
	uint8_t a[997], d[SHA256_BYTES];
	struct sha256 s;
	size_t left;

	EXPECT_STREQ(sha(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934c"
			      "a495991b7852b855");
	EXPECT_STREQ(sha("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a39617"
				 "7a9cb410ff61f20015ad");
	EXPECT_STREQ(sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnop"
			 "nopq"), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff"
				  "2167f6ecedd419db06c1");
	EXPECT_STREQ(sha("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghij"
			 "klmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrst"
			 "nopqrstu"), "cf5b16a778af8380036ce59e7b0492370b249b11e8f"
				      "07a51afac45037afee9d1");
	memset(a, 'a', sizeof(a));
	sha256_init(&s);
	for (left = 1000000; left; left -= left < sizeof(a) ? left : sizeof(a))
		sha256_update(&s, a, left < sizeof(a) ? left : sizeof(a));
	sha256_final(&s, d);
	EXPECT_STREQ(hex(d, sizeof(d)), "cdc76e5c9914fb9281a1c7e284d73e67f1809"
					"a48a497200e046d39ccc7112cd0");
}

static const char *mac(const void *key, size_t klen, const void *msg,
		       size_t mlen)
{
	struct hmac_part p = { msg, mlen };
	uint8_t d[SHA256_BYTES];

	hmac_sha256(key, klen, &p, 1, d);
	return hex(d, sizeof(d));
}

static void test_rfc4231(void)
{
	uint8_t k[131], m[50], k25[25];
	size_t i;

	memset(k, 0x0b, 20);
	EXPECT_STREQ(mac(k, 20, "Hi There", 8), "b0344c61d8db38535ca8afceaf0bf1"
		     "2b881dc200c9833da726e9376c2e32cff7");
	EXPECT_STREQ(mac("Jefe", 4, "what do ya want for nothing?", 28),
		     "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b9"
		     "64ec3843");
	memset(k, 0xaa, sizeof(k));
	memset(m, 0xdd, sizeof(m));
	EXPECT_STREQ(mac(k, 20, m, 50), "773ea91e36800e46854db8ebd09181a72959"
		     "098b3ef8c122d9635514ced565fe");
	for (i = 0; i < sizeof(k25); i++)
		k25[i] = (uint8_t)(i + 1);
	memset(m, 0xcd, sizeof(m));
	EXPECT_STREQ(mac(k25, 25, m, 50), "82558a389a443c0ea4cc819899f2083a85f"
		     "0faa3e578f8077a2e3ff46729665b");
	memset(k, 0x0c, 20); /* case 5: truncated to 128 bits */
	EXPECT_TRUE(!strncmp(mac(k, 20, "Test With Truncation", 20),
			     "a3b6167473100ee06e0c796c2955552b", 32));
	memset(k, 0xaa, sizeof(k));
	EXPECT_STREQ(mac(k, 131, "Test Using Larger Than Block-Size Key - Hash "
			 "Key First", 54), "60e431591ee0b67f0d8a26aacbf5b77f8e0b"
		     "c6213728c5140546040f0ee37f54");
	EXPECT_STREQ(mac(k, 131, "This is a test using a larger than block-size"
			 " key and a larger than block-size data. The key needs"
			 " to be hashed before being used by the HMAC algorithm"
			 ".", 152), "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0"
		     "713938a7f51535c3a35e2");
}

static void test_parts_and_equal(void)
{
	const struct hmac_part parts[] = { { "what do ya ", 11 },
					   { "", 0 },
					   { "want for nothing?", 17 } };
	uint8_t d[SHA256_BYTES], e[SHA256_BYTES];

	hmac_sha256("Jefe", 4, parts, 3, d);
	EXPECT_STREQ(hex(d, sizeof(d)), "5bdcc146bf60754e6a042426089575c75a003"
		     "f089d2739839dec58b964ec3843");
	memcpy(e, d, sizeof(e));
	EXPECT_TRUE(hmac_equal(d, e, sizeof(d)));
	e[31] ^= 1;
	EXPECT_TRUE(!hmac_equal(d, e, sizeof(d)));
	e[31] ^= 1;
	e[0] ^= 0x80;
	EXPECT_TRUE(!hmac_equal(d, e, sizeof(d)));
	EXPECT_TRUE(hmac_equal(d, e, 0));
}

int main(void)
{
	test_sha256();
	test_rfc4231();
	test_parts_and_equal();
	return test_finish("hmac");
}
