/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * session_tcp - the --oob tcp rendezvous backend (session_tcp.c), and
 * what --oob auto (session_auto.c) takes from it.
 * Each returns 0 or -errno, logged, unless said otherwise.
 */
#ifndef RDMABENCH_RUN_SESSION_SESSION_TCP_H
#define RDMABENCH_RUN_SESSION_SESSION_TCP_H

#include <stdbool.h>
#include <stdint.h>

#include "rdma/route.h"
#include "run/ctx.h"
#include "run/session/session_ops.h"
#include "spec/wire.h"

extern const struct session_ops session_tcp_ops;

/*
 * Open the device dev (or netdev's; both empty: the first one) for the
 * TCP control channel, which then owns it; b->port is the port to use
 * (netdev: its own).
 */
int session_tcp_open(struct bench_ctx *b, const char *dev,
		     const char *netdev);

/* The GID of b->port for the raw QPs (-x, else the best RoCEv2 one),
 * said in a "data path:" line. */
int session_tcp_gid(struct bench_ctx *b);

/* Client, on tcp's state: the route to the server, looked up once
 * (bounded) and kept for the connection; *out points to it. */
int session_tcp_route(struct session_be *tcp, const struct route **out);

/* Server, on tcp's state: its listening socket (-1: not listening). */
int session_tcp_listen_fd(struct session_be *tcp);

/* Server: are connections waiting in its line (their first message
 * still coming)? The accept must then be called without a new one. */
bool session_tcp_waiting(struct session_be *tcp);

/*
 * Server, on tcp's state: the next TCP client until deadline_ns (probes
 * skipped) and its first message: a LOCATE (--oob auto: *located, its
 * kind in *want) or a HELLO (--oob tcp: *want any), which stays to be
 * read. A timeout is -ETIMEDOUT, not logged.
 */
int session_tcp_accept(struct session_be *tcp, uint64_t deadline_ns,
		       enum wire_data_kind *want, bool *located);

#endif
