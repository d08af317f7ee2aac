// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/spec/wire_auth.c, --auth-key-file's challenge:
 *   - offline: an anonymous client's whole exchange with a server that has
 *     a key (its hello, its hello again, a guessed proof) is recorded as
 *     the bytes the server sends; the same exchange with another key and
 *     the same nonces gives the same bytes, so nothing in them depends on
 *     the key and a recording gives nothing to test guessed keys against;
 *   - a client with the key proves it, and gets the server's proof, which
 *     it checks; another key is refused; a proof does not pass as the other
 *     direction's, nor over other nonces;
 *   - the hello repeated too often is refused.
 */
#include <errno.h>
#include <string.h>

#include "spec/wire_auth.h"
#include "tests/test.h"

static void key_of(struct keyfile *k, const char *text)
{
	memset(k, 0, sizeof(*k));
	k->len = strlen(text);
	memcpy(k->key, text, k->len);
}

static void nonce_of(uint8_t n[WIRE_NONCE_BYTES], uint8_t seed)
{
	unsigned int i;

	for (i = 0; i < WIRE_NONCE_BYTES; i++)
		n[i] = (uint8_t)(seed + 7 * i);
}

/*
 * An anonymous client against a server with key k: hello, hello again,
 * a guessed proof. The bytes the server sends, packed, into rec; their
 * length. The last step must refuse.
 */
static size_t anonymous_exchange(const struct keyfile *k, uint8_t *rec,
				 size_t cap)
{
	uint8_t nonce_c[WIRE_NONCE_BYTES], nonce_s[WIRE_NONCE_BYTES];
	struct wire_auth_server st;
	struct wire_msg hi, guess, out;
	struct keyfile guessed;
	size_t n = 0;
	int len;

	nonce_of(nonce_c, 1);
	nonce_of(nonce_s, 2);
	key_of(&guessed, "a guess at the key, 32 bytes long");
	wire_auth_hello(nonce_c, &hi);
	wire_auth_server_init(&st, nonce_s);
	EXPECT_EQ_INT(wire_auth_server_step(&st, k, &hi, &out), WIRE_AUTH_SEND);
	len = wire_pack(&out, rec + n, cap - n);
	n += len > 0 ? (size_t)len : 0;
	EXPECT_EQ_INT(wire_auth_server_step(&st, k, &hi, &out), WIRE_AUTH_SEND);
	len = wire_pack(&out, rec + n, cap - n);
	n += len > 0 ? (size_t)len : 0;
	EXPECT_TRUE(!memcmp(out.u.auth.nonce, nonce_s, WIRE_NONCE_BYTES));
	wire_auth_proof(&guessed, "client", nonce_c, nonce_s, &guess);
	EXPECT_EQ_INT(wire_auth_server_step(&st, k, &guess, &out),
		      -EKEYREJECTED);
	return n;
}

static void test_offline(void)
{
	uint8_t rec_a[4 * WIRE_MSG_MAX], rec_b[4 * WIRE_MSG_MAX];
	uint8_t zero[WIRE_MAC_BYTES] = { 0 };
	struct keyfile a, b;
	struct wire_msg m;
	size_t na, nb;

	key_of(&a, "the first key, of 32 bytes or so!");
	key_of(&b, "Another key: QWERTY-uiop-1234567890");
	na = anonymous_exchange(&a, rec_a, sizeof(rec_a));
	nb = anonymous_exchange(&b, rec_b, sizeof(rec_b));
	EXPECT_EQ_INT((int)na, 2 * (WIRE_HEADER_BYTES + WIRE_NONCE_BYTES +
				    WIRE_MAC_BYTES));
	EXPECT_EQ_INT((int)na, (int)nb);
	EXPECT_TRUE(!memcmp(rec_a, rec_b, na)); /* nothing of the key */
	EXPECT_EQ_INT(wire_unpack(rec_a, na / 2, &m), 0);
	EXPECT_EQ_INT(m.type, WIRE_AUTH);
	EXPECT_TRUE(!memcmp(m.u.auth.mac, zero, sizeof(zero)));
}

/* A client with key ck against a server with key sk: the result of the
 * server's step on the client's proof, and the client's check of the
 * server's proof (when it came). */
static int full_exchange(const struct keyfile *ck, const struct keyfile *sk,
			 bool *server_ok)
{
	uint8_t nonce_c[WIRE_NONCE_BYTES], nonce_s[WIRE_NONCE_BYTES];
	struct wire_auth_server st;
	struct wire_msg hi, ch, proof, out;
	int ret;

	nonce_of(nonce_c, 11);
	nonce_of(nonce_s, 12);
	wire_auth_hello(nonce_c, &hi);
	wire_auth_server_init(&st, nonce_s);
	EXPECT_EQ_INT(wire_auth_server_step(&st, sk, &hi, &ch), WIRE_AUTH_SEND);
	wire_auth_proof(ck, "client", nonce_c, ch.u.auth.nonce, &proof);
	ret = wire_auth_server_step(&st, sk, &proof, &out);
	*server_ok = ret == WIRE_AUTH_PROVED &&
		     wire_auth_check(ck, "server", nonce_c, ch.u.auth.nonce,
				     &out);
	return ret;
}

static void test_exchange(void)
{
	uint8_t n1[WIRE_NONCE_BYTES], n2[WIRE_NONCE_BYTES];
	struct keyfile a, b;
	struct wire_msg p;
	bool ok;

	key_of(&a, "the first key, of 32 bytes or so!");
	key_of(&b, "Another key: QWERTY-uiop-1234567890");
	EXPECT_EQ_INT(full_exchange(&a, &a, &ok), WIRE_AUTH_PROVED);
	EXPECT_TRUE(ok);
	EXPECT_EQ_INT(full_exchange(&b, &a, &ok), -EKEYREJECTED);
	EXPECT_TRUE(!ok);
	nonce_of(n1, 21);
	nonce_of(n2, 22);
	wire_auth_proof(&a, "client", n1, n2, &p);
	EXPECT_TRUE(wire_auth_check(&a, "client", n1, n2, &p));
	EXPECT_TRUE(!wire_auth_check(&a, "server", n1, n2, &p));
	EXPECT_TRUE(!wire_auth_check(&a, "client", n2, n1, &p));
	EXPECT_TRUE(!wire_auth_check(&b, "client", n1, n2, &p));
}

static void test_repeats(void)
{
	uint8_t n[WIRE_NONCE_BYTES];
	struct wire_auth_server st;
	struct wire_msg hi, out;
	struct keyfile a;
	unsigned int i;

	key_of(&a, "the first key, of 32 bytes or so!");
	nonce_of(n, 31);
	wire_auth_hello(n, &hi);
	wire_auth_server_init(&st, n);
	for (i = 0; i <= WIRE_AUTH_REPEATS; i++)
		EXPECT_EQ_INT(wire_auth_server_step(&st, &a, &hi, &out),
			      WIRE_AUTH_SEND);
	EXPECT_EQ_INT(wire_auth_server_step(&st, &a, &hi, &out), -EPROTO);
	wire_auth_server_init(&st, n);
	hi.type = WIRE_HELLO; /* not an AUTH first */
	EXPECT_EQ_INT(wire_auth_server_step(&st, &a, &hi, &out), -EPROTO);
}

int main(void)
{
	test_offline();
	test_exchange();
	test_repeats();
	return test_finish("wire_auth");
}
