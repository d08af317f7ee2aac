/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ctrl - the control channel: wire messages as SEND/RECV on their own small
 * RC QP, connected through rdma_cm before any test traffic. Every send and
 * receive has a deadline; a peer that disconnects is noticed at once.
 */
#ifndef RDMABENCH_CTRL_H
#define RDMABENCH_CTRL_H

#include <stdint.h>
#include <infiniband/verbs.h>

#include "cm.h"
#include "mem.h"
#include "wire.h"

#define CTRL_RECV_SLOTS 8

struct ctrl {
	struct cm_ep ep;
	struct ibv_pd *pd;          /* the run's PD: the data path uses it */
	struct ibv_cq *send_cq;
	struct ibv_cq *recv_cq;
	struct mem_buf mem;         /* CTRL_RECV_SLOTS + 1 slots */
	uint64_t timeout_ms;        /* for each send and receive */
	const char *peer_role;      /* "server" or "client", for messages */
};

/* Build PD, CQs, QP and receive slots on c->ep.id. Returns 0 or -errno. */
int ctrl_setup(struct ctrl *c);

/* Undo ctrl_setup and close the connection; accepts a partly built one. */
void ctrl_destroy(struct ctrl *c);

/* Send msg; wait for its completion. Returns 0 or -errno (logged). */
int ctrl_send(struct ctrl *c, const struct wire_msg *msg);

/* Tell a peer that is still there why we stop; failures are ignored. */
void ctrl_send_error(struct ctrl *c, int status, const char *text);

/*
 * Receive the next message, which must be of type `type` (0: any but
 * ERROR). An ERROR from the
 * peer is logged and returned as its status; another type is -EPROTO.
 * Returns 0 or -errno (logged).
 */
int ctrl_recv(struct ctrl *c, uint16_t type, struct wire_msg *msg);

/*
 * Non-blocking: 0 with a message, -EAGAIN when none is waiting,
 * -ECONNRESET when the peer has gone, or -errno.
 */
int ctrl_poll(struct ctrl *c, struct wire_msg *msg);

#endif
