/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fabric_gate - rank 0's side of the barrier's join (fabric_barrier.h):
 * every connection read at once, each with its own JOIN_ANSWER_MS to
 * answer the challenge, each JOIN judged (fabric/join.h) against the
 * host list's addresses of the node it claims and the job's key.
 */
#ifndef RDMABENCH_FABRIC_LIVE_FABRIC_GATE_H
#define RDMABENCH_FABRIC_LIVE_FABRIC_GATE_H

#include "fabric/live/fabric_barrier.h"

/* The most connections read at once; one more drops the oldest. */
#define FABRIC_GATE_PENDING 32

/*
 * Fill b->fds[1..), b->addrs and b->nonces from the connections on the
 * listening socket lfd until every rank has joined, c->deadline_ns or
 * stop_flag. Returns 0 or -errno (-ETIMEDOUT, -EINTR; not logged).
 */
int fabric_gate_run(struct fabric_barrier *b, const struct fabric_join_cfg *c,
		    int lfd);

#endif
