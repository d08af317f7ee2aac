// SPDX-License-Identifier: BSD-2-Clause
/*
 * session_auth - the challenge of --auth-key-file on both sides. See
 * session_auth.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hmac.h"
#include "lib/log.h"
#include "lib/nonce.h"
#include "lib/stop.h"
#include "lib/timer.h"
#include "run/session/session_auth.h"
#include "run/session/session_ctx.h"

static const char auth_label[] = "rdmabench-auth-v1";

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

int session_auth_load(struct session *s, struct keyfile *k)
{
	const char *path = s->b->cfg.auth_key_file;
	int ret;

	s->key = NULL;
	if (!path[0])
		path = getenv(SESSION_AUTH_ENV) ? getenv(SESSION_AUTH_ENV) : "";
	if (!path[0])
		return 0;
	ret = keyfile_load(path, k);
	if (!ret)
		s->key = k;
	return ret;
}

/* Server: refuse the client: why in the log, tell in the ERROR. */
static int auth_refuse(struct session *s, const char *why, const char *tell)
{
	bench_err("client %s: %s; refused before any allocation", s->b->peer,
		  why);
	ctrl_send_error(&s->b->ctrl, -EKEYREJECTED, tell);
	return -EKEYREJECTED;
}

int session_auth_first(struct session *s, struct wire_msg *msg)
{
	uint64_t deadline_ns = ctrl_deadline_ns(&s->b->ctrl);
	int ret;

	for (;;) {
		ret = ctrl_poll(&s->b->ctrl, msg);
		if (ret != -EAGAIN)
			return ret;
		if (stop_flag)
			return -EINTR;
		if (timer_expired(deadline_ns))
			return -ETIMEDOUT;
		timer_sleep_ms(10);
	}
}

/* Server: the client's proof, answering a repeated first AUTH again. */
static int auth_server_proof(struct session *s, const uint8_t *nonce_c,
			     const struct wire_msg *ours, struct wire_msg *in)
{
	int ret;

	for (;;) {
		ret = session_auth_first(s, in);
		if (ret)
			return ret;
		if (in->type != WIRE_AUTH ||
		    memcmp(in->u.auth.nonce, nonce_c, WIRE_NONCE_BYTES))
			return 0;
		ret = ctrl_send(&s->b->ctrl, ours); /* it missed our answer */
		if (ret)
			return ret;
	}
}

/* Server: answer the client's AUTH (hi), check its proof. */
static int auth_server_exchange(struct session *s, const struct wire_msg *hi)
{
	struct wire_msg out = { .type = WIRE_AUTH }, in;
	uint8_t want[WIRE_MAC_BYTES];
	int ret;

	ret = nonce_fill(out.u.auth.nonce, sizeof(out.u.auth.nonce));
	if (ret)
		return ret;
	auth_mac(s->key, "server", hi->u.auth.nonce, out.u.auth.nonce,
		 out.u.auth.mac);
	ret = ctrl_send(&s->b->ctrl, &out);
	if (!ret)
		ret = auth_server_proof(s, hi->u.auth.nonce, &out, &in);
	if (ret)
		return ret;
	if (in.type == WIRE_ERROR) {
		bench_err("client %s: %s; refused before any allocation",
			  s->b->peer, in.u.error.text);
		return -EKEYREJECTED;
	}
	auth_mac(s->key, "client", hi->u.auth.nonce, out.u.auth.nonce, want);
	if (in.type != WIRE_AUTH ||
	    !hmac_equal(want, in.u.auth.mac, sizeof(want)))
		return auth_refuse(s, "its proof does not match the key of "
				   "--auth-key-file (another key)",
				   "authentication failed: this client's key "
				   "is not the server's (--auth-key-file)");
	return 0;
}

int session_auth_server(struct session *s, struct wire_msg *first)
{
	int ret;

	s->authed = false;
	if (!s->key && first->type != WIRE_AUTH)
		return 0;
	if (!s->key)
		return auth_refuse(s, "it authenticates (--auth-key-file), but "
				   "this server has no key",
				   "this server has no key: start it with "
				   "--auth-key-file, or run the client without");
	if (first->type != WIRE_AUTH)
		return auth_refuse(s, "it did not authenticate, and this server "
				   "requires --auth-key-file's key",
				   "this server requires authentication: give "
				   "the client --auth-key-file (or "
				   SESSION_AUTH_ENV ") with the server's key");
	ret = auth_server_exchange(s, first);
	do { /* the next message: its LOCATE or HELLO, not a repeat */
		if (!ret)
			ret = session_auth_first(s, first);
	} while (!ret && first->type == WIRE_AUTH);
	s->authed = !ret;
	return ret;
}

/* Client: the server's proof of the key, against our nonce. */
static int auth_check_server(struct session *s, const uint8_t *nonce_c,
			     const struct wire_auth *a)
{
	uint8_t want[WIRE_MAC_BYTES];

	auth_mac(s->key, "server", nonce_c, a->nonce, want);
	if (hmac_equal(want, a->mac, sizeof(want)))
		return 0;
	bench_err("the server did not prove the key of --auth-key-file %s: "
		  "its key differs (or it is not the server you meant)",
		  s->key->path);
	ctrl_send_error(&s->b->ctrl, -EKEYREJECTED, "authentication failed: "
			"the server's key is not this client's "
			"(--auth-key-file)");
	return -EKEYREJECTED;
}

int session_auth_client(struct session *s)
{
	struct wire_msg hi = { .type = WIRE_AUTH }, msg;
	struct wire_msg proof = { .type = WIRE_AUTH };
	int ret;

	s->authed = false;
	if (!s->key)
		return 0;
	ret = nonce_fill(hi.u.auth.nonce, sizeof(hi.u.auth.nonce));
	if (!ret)
		ret = ctrl_ask(&s->b->ctrl, &hi, WIRE_AUTH, &msg, 2000);
	if (!ret)
		ret = auth_check_server(s, hi.u.auth.nonce, &msg.u.auth);
	if (ret)
		return ret;
	auth_mac(s->key, "client", hi.u.auth.nonce, msg.u.auth.nonce,
		 proof.u.auth.mac);
	ret = ctrl_send(&s->b->ctrl, &proof);
	s->authed = !ret;
	return ret;
}
