// SPDX-License-Identifier: BSD-2-Clause
/*
 * session_auth - the challenge of --auth-key-file on both sides. See
 * session_auth.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "lib/nonce.h"
#include "lib/stop.h"
#include "lib/timer.h"
#include "run/session/session_auth.h"
#include "run/session/session_ctx.h"
#include "spec/wire_auth.h"

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

/* Server: the client's next message; its ERROR is a refusal. */
static int auth_server_next(struct session *s, struct wire_msg *in)
{
	int ret = session_auth_first(s, in);

	if (ret || in->type != WIRE_ERROR)
		return ret;
	bench_err("client %s: %s; refused before any allocation", s->b->peer,
		  in->u.error.text);
	return -EKEYREJECTED;
}

/*
 * Server: the exchange from the client's AUTH (hi) on: a challenge (a
 * nonce, no proof) until the client proves the key, then our proof
 * (spec/wire_auth.h).
 */
static int auth_server_exchange(struct session *s, const struct wire_msg *hi)
{
	uint8_t nonce_s[WIRE_NONCE_BYTES];
	struct wire_auth_server st;
	struct wire_msg in = *hi, out;
	int ret, step;

	ret = nonce_fill(nonce_s, sizeof(nonce_s));
	if (ret)
		return ret;
	wire_auth_server_init(&st, nonce_s);
	for (;;) {
		step = wire_auth_server_step(&st, s->key, &in, &out);
		if (step == -EKEYREJECTED)
			return auth_refuse(s, "it did not prove the key of "
					   "--auth-key-file (another key)",
					   "authentication failed: this "
					   "client's key is not the server's "
					   "(--auth-key-file)");
		if (step < 0)
			return auth_refuse(s, "it sent its first AUTH too often",
					   "authentication failed: the first "
					   "AUTH was repeated too often");
		ret = ctrl_send(&s->b->ctrl, &out);
		if (ret || step == WIRE_AUTH_PROVED)
			return ret;
		ret = auth_server_next(s, &in);
		if (ret)
			return ret;
	}
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

/* Client: the server's proof, skipping repeats of its challenge (ch),
 * which a repeated first AUTH of ours may have drawn. */
static int auth_client_recv_proof(struct session *s, const struct wire_msg *ch,
				  struct wire_msg *msg)
{
	unsigned int skips;
	int ret = 0;

	for (skips = 0; skips < 8 && !ret; skips++) {
		ret = ctrl_recv(&s->b->ctrl, WIRE_AUTH, msg);
		if (!ret && memcmp(msg->u.auth.nonce, ch->u.auth.nonce,
				   WIRE_NONCE_BYTES))
			return 0;
	}
	return ret ? ret : -EPROTO;
}

/* Client: the server's proof of the key, against both nonces. */
static int auth_check_server(struct session *s, const uint8_t *nonce_c,
			     const uint8_t *nonce_s, const struct wire_msg *in)
{
	if (wire_auth_check(s->key, "server", nonce_c, nonce_s, in))
		return 0;
	bench_err("the server did not prove the key of --auth-key-file %s: "
		  "its key differs (or it is not the server you meant)",
		  s->key->path);
	ctrl_send_error(&s->b->ctrl, -EKEYREJECTED, "authentication failed: "
			"the server's key is not this client's "
			"(--auth-key-file)");
	return -EKEYREJECTED;
}

/*
 * Client: our nonce, the server's challenge, our proof first, then the
 * server's. A server that refuses our proof says so in an ERROR, which
 * ctrl_recv returns as -EKEYREJECTED.
 */
int session_auth_client(struct session *s)
{
	uint8_t nonce_c[WIRE_NONCE_BYTES];
	struct wire_msg hi, ch, msg;
	int ret;

	s->authed = false;
	if (!s->key)
		return 0;
	ret = nonce_fill(nonce_c, sizeof(nonce_c));
	if (ret)
		return ret;
	wire_auth_hello(nonce_c, &hi);
	ret = ctrl_ask(&s->b->ctrl, &hi, WIRE_AUTH, &ch, 2000);
	if (ret)
		return ret;
	wire_auth_proof(s->key, "client", nonce_c, ch.u.auth.nonce, &msg);
	ret = ctrl_send(&s->b->ctrl, &msg);
	if (!ret)
		ret = auth_client_recv_proof(s, &ch, &msg);
	if (!ret)
		ret = auth_check_server(s, nonce_c, ch.u.auth.nonce, &msg);
	s->authed = !ret;
	return ret;
}
