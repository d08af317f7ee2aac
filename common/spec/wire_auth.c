// SPDX-License-Identifier: BSD-2-Clause
/*
 * wire_auth - the messages of --auth-key-file's challenge. See
 * wire_auth.h.
 */
#include <errno.h>
#include <string.h>

#include "lib/hmac.h"
#include "spec/wire_auth.h"

static const char auth_label[] = WIRE_AUTH_LABEL;

/* HMAC(key, label || dir || nonce_c || nonce_s). */
static void auth_mac(const struct keyfile *k, const char *dir,
		     const uint8_t *nonce_c, const uint8_t *nonce_s,
		     uint8_t out[WIRE_MAC_BYTES])
{
	const struct hmac_part parts[] = {
		{ auth_label, sizeof(auth_label) - 1 },
		{ dir, strlen(dir) },
		{ nonce_c, WIRE_NONCE_BYTES },
		{ nonce_s, WIRE_NONCE_BYTES },
	};

	hmac_sha256(k->key, k->len, parts, sizeof(parts) / sizeof(parts[0]),
		    out);
}

void wire_auth_hello(const uint8_t nonce_c[WIRE_NONCE_BYTES],
		     struct wire_msg *out)
{
	memset(out, 0, sizeof(*out));
	out->type = WIRE_AUTH;
	memcpy(out->u.auth.nonce, nonce_c, WIRE_NONCE_BYTES);
}

void wire_auth_challenge(const struct keyfile *k, const struct wire_msg *hi,
			 const uint8_t nonce_s[WIRE_NONCE_BYTES],
			 struct wire_msg *out)
{
	(void)k; /* on purpose: nothing of the key before the client proved */
	(void)hi;
	memset(out, 0, sizeof(*out));
	out->type = WIRE_AUTH;
	memcpy(out->u.auth.nonce, nonce_s, WIRE_NONCE_BYTES);
}

void wire_auth_server_init(struct wire_auth_server *st,
			   const uint8_t nonce_s[WIRE_NONCE_BYTES])
{
	memset(st, 0, sizeof(*st));
	memcpy(st->nonce_s, nonce_s, WIRE_NONCE_BYTES);
}

int wire_auth_server_step(struct wire_auth_server *st,
			  const struct keyfile *k, const struct wire_msg *in,
			  struct wire_msg *out)
{
	bool repeat;

	memset(out, 0, sizeof(*out));
	if (st->step++ == 0) {
		if (in->type != WIRE_AUTH)
			return -EPROTO;
		memcpy(st->nonce_c, in->u.auth.nonce, WIRE_NONCE_BYTES);
		wire_auth_challenge(k, in, st->nonce_s, out);
		return WIRE_AUTH_SEND;
	}
	repeat = in->type == WIRE_AUTH &&
		 !memcmp(in->u.auth.nonce, st->nonce_c, WIRE_NONCE_BYTES);
	if (repeat && st->step > WIRE_AUTH_REPEATS + 1)
		return -EPROTO;
	if (repeat) { /* it missed our challenge */
		wire_auth_challenge(k, in, st->nonce_s, out);
		return WIRE_AUTH_SEND;
	}
	if (!wire_auth_check(k, "client", st->nonce_c, st->nonce_s, in))
		return -EKEYREJECTED;
	wire_auth_proof(k, "server", st->nonce_c, st->nonce_s, out);
	return WIRE_AUTH_PROVED;
}

void wire_auth_proof(const struct keyfile *k, const char *dir,
		     const uint8_t nonce_c[WIRE_NONCE_BYTES],
		     const uint8_t nonce_s[WIRE_NONCE_BYTES],
		     struct wire_msg *out)
{
	memset(out, 0, sizeof(*out));
	out->type = WIRE_AUTH;
	auth_mac(k, dir, nonce_c, nonce_s, out->u.auth.mac);
}

bool wire_auth_check(const struct keyfile *k, const char *dir,
		     const uint8_t nonce_c[WIRE_NONCE_BYTES],
		     const uint8_t nonce_s[WIRE_NONCE_BYTES],
		     const struct wire_msg *in)
{
	uint8_t want[WIRE_MAC_BYTES];
	bool ok;

	if (in->type != WIRE_AUTH)
		return false;
	auth_mac(k, dir, nonce_c, nonce_s, want);
	ok = hmac_equal(want, in->u.auth.mac, sizeof(want));
	memset(want, 0, sizeof(want));
	return ok;
}
