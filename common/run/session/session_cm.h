/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * session_cm - the rdma_cm rendezvous backend (session_cm.c), and what
 * --oob auto (session_auto.c) sets and reads of it.
 */
#ifndef RDMABENCH_RUN_SESSION_SESSION_CM_H
#define RDMABENCH_RUN_SESSION_SESSION_CM_H

#include <stdint.h>

#include "run/session/session_ops.h"

extern const struct session_ops session_cm_ops;

/* Where the client connects (addr; NULL: as it was) and the port it
 * connects to or the server listens on; both -p until set. */
void session_cm_at(struct session_be *cm, const char *addr, uint16_t port);

/* Server: the listener's event channel's fd (-1: not listening). */
int session_cm_listen_fd(struct session_be *cm);

#endif
