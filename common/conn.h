/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn - the data connection: its CQ, RC QP and registered buffer, and
 * the QP helper the control channel shares. rdma_cm moves the QP through
 * INIT -> RTR -> RTS when it connects.
 *
 * Buffer layout (both sides): [recv region | send region | fin slot]; the
 * peer writes into our recv region, we write from our send region.
 */
#ifndef RDMABENCH_CONN_H
#define RDMABENCH_CONN_H

#include <stdint.h>
#include <infiniband/verbs.h>

#include "cm.h"
#include "mem.h"
#include "wire.h"

#define CONN_FIN_SLOT_BYTES 64

struct conn {
	struct cm_ep ep;
	struct ibv_cq *cq;       /* send and receive completions */
	struct mem_buf mem;
	uint64_t region_bytes;   /* size of each of recv/send regions */
	uint32_t max_inline;     /* bytes the QP sends inline */
	uint32_t send_depth;     /* send queue slots */
	struct wire_buf remote;  /* the peer's buffer */
};

/*
 * Create a CQ-less RC QP on id: send_wr/recv_wr slots, inline asked as
 * large as the device allows up to want_inline (the granted size goes to
 * *inline_out). Returns 0 or -errno (logged).
 */
int conn_qp_create(struct rdma_cm_id *id, struct ibv_pd *pd,
		   struct ibv_cq *send_cq, struct ibv_cq *recv_cq,
		   uint32_t send_wr, uint32_t recv_wr, uint32_t want_inline,
		   uint32_t *inline_out);

/*
 * Build c's CQ, QP (on c->ep.id) and registered buffer with two regions of
 * region_bytes on numa_node. Returns 0 or -errno (logged).
 */
int conn_setup(struct conn *c, struct ibv_pd *pd, uint64_t region_bytes,
	       uint32_t send_depth, int numa_node);

/* Our buffer as the peer needs it. */
void conn_local_buf(const struct conn *c, struct wire_buf *out);

/* The regions. */
uint8_t *conn_recv_region(const struct conn *c);
uint8_t *conn_send_region(const struct conn *c);
uint8_t *conn_fin_slot(const struct conn *c);

/* Undo conn_setup and close the connection; accepts a partly built one. */
void conn_destroy(struct conn *c);

#endif
