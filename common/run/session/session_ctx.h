/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * session_ctx - the session room's own state: what the flow (session.c),
 * its backends, the --auth-key-file challenge (session_auth.c) and the
 * busy thread (busy.c) share beside the run's (run/ctx.h). The room's
 * context header: only files of run/session/ include it
 * (tests/check-layers.sh).
 */
#ifndef RDMABENCH_RUN_SESSION_SESSION_CTX_H
#define RDMABENCH_RUN_SESSION_SESSION_CTX_H

#include <stdbool.h>
#include <stdint.h>

#include "run/ctx.h"
#include "spec/turns.h"

struct busy;
struct keyfile;

struct session {
	struct bench_ctx *b;        /* the run */
	struct keyfile *key;        /* --auth-key-file; NULL: none */
	bool authed;                /* the peer proved the key */
	uint64_t token;             /* rdma_cm data CONNECTs (HELLO_ACK) */
	uint64_t connect_by_ns; /* client: --connect-timeout's end */
	struct busy *busy;          /* server: answers other clients */
	uint64_t end_ns;            /* server: the session's hard end */
	bool hello_in;              /* server: a well-formed HELLO came */
	char hard_text[96];         /* server: b->ctrl.hard_what's text */
	bool helloed;               /* server: this client's HELLO was valid */
	struct turns turns;         /* server: its line, sources slowed */
};

#endif
