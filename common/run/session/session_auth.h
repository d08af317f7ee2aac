/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * session_auth - --auth-key-file: a mutual HMAC-SHA256 challenge on the
 * control channel, the first exchange after it connects and before
 * LOCATE or HELLO, so before the server allocates anything for the
 * client (over rdma_cm the control QP itself exists already).
 *
 *   client -> AUTH { nonce_c }                 (sent again every 2 s)
 *   server -> AUTH { nonce_s }                 (a challenge, no proof)
 *   client -> AUTH { 0, HMAC(key, L "client" nonce_c nonce_s) }
 *   server -> AUTH { 0, HMAC(key, L "server" nonce_c nonce_s) }
 *
 * (spec/wire_auth.h makes and checks them.) The client proves the key
 * first: a client without it learns nothing that depends on the key.
 * Each side checks the other's proof (in
 * constant time); both nonces are fresh (getrandom), so no answer can be
 * replayed, and the direction keeps one side's proof from passing as
 * the other's. A refusal on either side is -EKEYREJECTED (exit 2), said
 * on both sides. Without a key on either side nothing is exchanged; a
 * key on one side only is refused with what to do.
 *
 * After the exchange the session's messages are bound to it by the
 * channel: every later message comes on the same TCP connection (or the
 * same rdma_cm RC QP) that proved the key, and the server reads no other
 * for the session, so no per-message MAC is added. A stranger can only
 * put a message there by taking over the connection on the path, which
 * HMAC auth does not claim to stop (the data is not protected either).
 */
#ifndef RDMABENCH_RUN_SESSION_SESSION_AUTH_H
#define RDMABENCH_RUN_SESSION_SESSION_AUTH_H

#include "lib/keyfile.h"
#include "spec/wire.h"

struct session;

/* The environment variable read when --auth-key-file is not given. */
#define SESSION_AUTH_ENV "RDMABENCH_AUTH_KEY_FILE"

/*
 * The key of --auth-key-file, else of $RDMABENCH_AUTH_KEY_FILE, into *k
 * (which must outlive the session); s->key is k, or NULL without one.
 * 0 or -errno (logged).
 */
int session_auth_load(struct session *s, struct keyfile *k);

/* Client, the control channel just up: the exchange (nothing without a
 * key). 0, or -errno (logged). */
int session_auth_client(struct session *s);

/*
 * Server: the client's first message, read as it comes (a HELLO is not
 * skipped), within the control channel's timeout. 0 or -errno.
 */
int session_auth_first(struct session *s, struct wire_msg *msg);

/*
 * Server: first is the client's first message. Without a key it must not
 * be AUTH; with one, it must be, and the exchange follows; then *first
 * is the client's next message (its LOCATE or HELLO). s->authed says
 * whether the client proved the key. Called where the first message is
 * read, before the client is given the session (a queue that grants
 * turns calls it before granting one). 0, or -EKEYREJECTED (logged, the
 * client told), or -errno.
 */
int session_auth_server(struct session *s, struct wire_msg *first);

#endif
