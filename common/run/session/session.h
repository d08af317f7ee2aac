/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * session - the client's and the server's side of one run, over either
 * rendezvous (rdma_cm, or --oob tcp): control channel, HELLO, data
 * connections, every size, goodbye; the server serves client after
 * client with --persistent. Returns 0 or -errno (logged).
 */
#ifndef RDMABENCH_RUN_SESSION_SESSION_H
#define RDMABENCH_RUN_SESSION_SESSION_H

#include "run/ctx.h"

int session_client(struct bench_ctx *b);
int session_server(struct bench_ctx *b);

#endif
