/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * session - the client's and the server's side of one run: rendezvous,
 * data connections, every size, goodbye. Returns 0 or -errno (logged).
 */
#ifndef RDMABENCH_SESSION_H
#define RDMABENCH_SESSION_H

#include "run/driver.h"

int session_client(struct bench_ctx *b);
int session_server(struct bench_ctx *b);

/* --oob tcp: the control channel is TCP, the QPs are connected by hand. */
int session_client_tcp(struct bench_ctx *b);
int session_server_tcp(struct bench_ctx *b);

/* Shared by both rendezvous (session.c). */
int session_client_hello(struct bench_ctx *b);
int session_server_hello(struct bench_ctx *b);
int session_client_sizes(struct bench_ctx *b);
int session_server_sizes(struct bench_ctx *b);
bool session_retryable(int err);

/* One connection attempt of the client, bounded by deadline_ns. */
typedef int (*session_attempt_fn)(struct bench_ctx *b, uint64_t deadline_ns);

/*
 * Client: attempt() until it succeeds, fails for good, or
 * --connect-timeout passes, 200 ms apart; says once that it retries and,
 * if it gives up, why ("port" or "TCP port" in via; hint: what to check).
 * log_any: log a failure that is not retryable too (else attempt did).
 */
int session_connect_retry(struct bench_ctx *b, session_attempt_fn attempt,
			  const char *via, const char *hint, bool log_any);

/* --persistent: one client is over (err: how); free its resources. */
void session_client_done(struct bench_ctx *b, int err);

#endif
