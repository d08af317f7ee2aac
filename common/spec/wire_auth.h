/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * wire_auth - the messages of --auth-key-file's challenge, made and
 * checked by pure functions (run/session/session_auth.c sends them).
 *
 *   client -> AUTH { nonce_c, 0 }                 (sent again every 2 s)
 *   server -> AUTH { nonce_s, 0 }                 (no proof: a challenge)
 *   client -> AUTH { 0, HMAC(key, L "client" nonce_c nonce_s) }
 *   server -> AUTH { 0, HMAC(key, L "server" nonce_c nonce_s) }
 *
 * L is WIRE_AUTH_LABEL. The client proves the key first: the server
 * answers a client that has not proved it with a fresh random nonce and
 * nothing else, so what an anonymous client records depends on no key
 * and gives nothing to test guessed keys against offline (tests/spec/
 * test_wire_auth.c shows it: the same nonces, two keys, the same bytes).
 * The server proves the key only to a client that did. Both nonces are
 * fresh (getrandom) and the direction is in the MAC, so no proof can be
 * replayed nor one side's pass as the other's.
 */
#ifndef RDMABENCH_SPEC_WIRE_AUTH_H
#define RDMABENCH_SPEC_WIRE_AUTH_H

#include <stdbool.h>

#include "lib/keyfile.h"
#include "spec/wire.h"

#define WIRE_AUTH_LABEL "rdmabench-auth-v3"

/* Client: its first AUTH, nonce_c in it. */
void wire_auth_hello(const uint8_t nonce_c[WIRE_NONCE_BYTES],
		     struct wire_msg *out);

/*
 * Server: the answer to the client's first AUTH (hi): nonce_s only. k is
 * not read (it is taken to show, in the tests, that the answer cannot
 * depend on it).
 */
void wire_auth_challenge(const struct keyfile *k, const struct wire_msg *hi,
			 const uint8_t nonce_s[WIRE_NONCE_BYTES],
			 struct wire_msg *out);

/*
 * Server: the exchange as a state machine, fed each message of the
 * client's (the first, its AUTH hello, included); nonce_s is fresh.
 * wire_auth_server_step answers in *out: WIRE_AUTH_SEND (send *out, feed
 * the next message), WIRE_AUTH_PROVED (send *out, the server's proof: the
 * client proved the key), or -EKEYREJECTED (no proof, or not the key's;
 * *out is nothing to send), -EPROTO (not an AUTH first, or the hello
 * repeated more than WIRE_AUTH_REPEATS times). Until the client's proof
 * passes, *out is the challenge: nonce_s, never anything of k.
 */
#define WIRE_AUTH_SEND 1
#define WIRE_AUTH_PROVED 2
#define WIRE_AUTH_REPEATS 8

struct wire_auth_server {
	uint8_t nonce_c[WIRE_NONCE_BYTES];
	uint8_t nonce_s[WIRE_NONCE_BYTES];
	unsigned int step;            /* messages fed */
};

void wire_auth_server_init(struct wire_auth_server *st,
			   const uint8_t nonce_s[WIRE_NONCE_BYTES]);

int wire_auth_server_step(struct wire_auth_server *st,
			  const struct keyfile *k, const struct wire_msg *in,
			  struct wire_msg *out);

/* Either side: its proof ("client" or "server") over both nonces. */
void wire_auth_proof(const struct keyfile *k, const char *dir,
		     const uint8_t nonce_c[WIRE_NONCE_BYTES],
		     const uint8_t nonce_s[WIRE_NONCE_BYTES],
		     struct wire_msg *out);

/* Is in the proof of dir over both nonces (an AUTH, compared in
 * constant time)? */
bool wire_auth_check(const struct keyfile *k, const char *dir,
		     const uint8_t nonce_c[WIRE_NONCE_BYTES],
		     const uint8_t nonce_s[WIRE_NONCE_BYTES],
		     const struct wire_msg *in);

#endif
