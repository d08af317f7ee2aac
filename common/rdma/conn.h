/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conn - the data connections: one send CQ and one receive CQ shared by
 * -q QPs (each its own rdma_cm connection), one registered buffer for all
 * of them (with --mr_per_qp one buffer and MR each), and a small host
 * buffer for control slots. rdma_cm moves each
 * QP through INIT -> RTR -> RTS when it connects (without rdma_cm, with
 * --oob tcp, rdma/qp_raw.h makes and connects them).
 *
 * The buffers' layout is spec/layout.h's: for QP i, [recv region | send
 * region], region_bytes each, and LAYOUT_AUX_COUNT host slots. A region
 * holds `slots` messages of the largest size. Each QP knows where its
 * regions lie (base, in mem), and where the peer's regions of that QP
 * lie (remote): the hot loops never ask which of the two layouts it is.
 */
#ifndef RDMABENCH_RDMA_CONN_H
#define RDMABENCH_RDMA_CONN_H

#include <stdbool.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#include "spec/bench.h"
#include "spec/layout.h"
#include "rdma/cm.h"
#include "rdma/mem.h"
#include "spec/wire.h"

struct conn_qp {
	struct cm_ep ep;         /* rdma_cm: the connection that owns the QP */
	struct ibv_qp *qp;       /* the QP (rdma_cm's, or ours with --oob tcp) */
	uint32_t max_inline;     /* bytes this QP sends inline */
	uint32_t psn;            /* --oob tcp: our first packet number */
	struct ibv_ah *ah;       /* -c UD: the address of the peer's QP */
	uint32_t remote_qpn;     /* -c UD: the peer's QP number */
	uint8_t *base;           /* its [recv | send] regions ... */
	struct mem_buf *mem;     /* ... in this buffer, and its MR */
	struct wire_buf remote;  /* the peer's regions of this QP: their
				  * base, region_bytes and rkey */
};

/* -c UD: the Q_Key of every UD QP (perftest's DEF_QKEY), and the bytes a
 * UD receive gets in front of the message (the GRH, there or not). */
#define CONN_UD_QKEY 0x11111111u
#define CONN_UD_GRH_BYTES 40u

struct conn {
	struct ibv_cq *send_cq;
	struct ibv_cq *recv_cq;
	/* -e: both CQs report through it, armed; NULL: polled */
	struct ibv_comp_channel *channel;
	/* --use-srq: one receive queue that every QP takes from; NULL:
	 * each QP its own */
	struct ibv_srq *srq;
	struct conn_qp *qps;
	unsigned int nqps;
	struct mem_buf mem;      /* the regions of every QP (one MR) ... */
	struct mem_buf *own;     /* ... or --mr_per_qp: nqps buffers, a QP's
				  * regions and MR each; NULL: mem */
	struct mem_buf aux;      /* host: a FIN/atomic slot per QP */
	uint64_t region_bytes;
	uint32_t send_depth;     /* send queue slots per QP */
	uint32_t recv_depth;     /* receive queue slots per QP */
};

struct conn_params {
	unsigned int nqps;
	uint64_t region_bytes;
	uint32_t send_depth;
	uint32_t recv_depth;
	int numa_node;           /* the host buffers' node */
	struct mem_spec mem;     /* the data buffer: host or GPU memory */
	bool events;             /* -e: the CQs get a completion channel */
	bool srq; /* --use-srq: one SRQ for the QPs */
	bool mr_per_qp;          /* --mr_per_qp: a buffer and MR per QP */
};

/* A QP's queues: slots of one SGE each, inline bytes at most. */
struct conn_qp_caps {
	uint32_t send_wr;
	uint32_t recv_wr;
	uint32_t want_inline;
	uint32_t recv_sge;       /* 0: 1; UD: 2 (the GRH, then the slot) */
	struct ibv_srq *srq; /* the QP takes receives from it; NULL: own */
};

/*
 * Make a QP with make(arg, qia), qia holding the CQs and the QP type, the
 * queues caps. Devices differ in the inline size they allow (rxe, siw,
 * mlx5): it is halved until one accepts. *inline_out (may be NULL) gets
 * what was asked, not what the device rounds it up to (rxe grants 16 B
 * for 0): -I 0 means no inline at all. Returns the QP, or NULL with errno
 * from the last try (not logged). rdma_cm's QPs and raw ones (qp_raw.h)
 * both come from here.
 */
struct ibv_qp *conn_qp_make(struct ibv_qp *(*make)(void *arg,
						  struct ibv_qp_init_attr *qia),
			    void *arg, struct ibv_qp_init_attr *qia,
			    const struct conn_qp_caps *caps,
			    uint32_t *inline_out);

/*
 * A data QP's queues: c's depths, +1 each for the FIN after the last
 * operation.
 */
struct conn_qp_caps conn_qp_data_caps(const struct conn *c,
				      uint32_t want_inline);

/*
 * Create a RC QP on id: send_wr/recv_wr slots, inline as large as the
 * device allows up to want_inline (granted size in *inline_out, which
 * may be NULL): conn_qp_make(). Returns 0 or -errno (logged).
 */
int conn_qp_create(struct rdma_cm_id *id, struct ibv_pd *pd,
		   struct ibv_cq *send_cq, struct ibv_cq *recv_cq,
		   uint32_t send_wr, uint32_t recv_wr, uint32_t want_inline,
		   uint32_t *inline_out);

/* CQs and buffers on verbs for p->nqps QPs. Returns 0 or -errno (logged). */
int conn_init(struct conn *c, struct ibv_context *verbs, struct ibv_pd *pd,
	      const struct conn_params *p);

/* The QP of c->qps[i] on its (resolved or requested) id. */
int conn_qp_setup(struct conn *c, unsigned int i, struct ibv_pd *pd,
		  uint32_t want_inline);

/*
 * The buffer messages (WIRE_BUF) each side sends: one for all QPs (QP 0's
 * regions are the buffer's start; QP i's follow), or with --mr_per_qp one
 * a QP, in QP order. Both sides know which: --mr_per_qp travels.
 */
unsigned int conn_bufs(const struct conn *c);

/* Our buffer message i (< conn_bufs) as the peer needs it. */
void conn_local_buf(const struct conn *c, unsigned int i,
		    struct wire_buf *out);

/* The peer's buffer message i (< conn_bufs): where its regions lie. */
void conn_remote_buf(struct conn *c, unsigned int i,
		     const struct wire_buf *b);

/*
 * QP i's local region r, and the peer's address of its region r: inline
 * (the hot loops call them; hotloop.c links no conn.o).
 */
static inline uint8_t *conn_region(const struct conn *c, unsigned int i,
				   enum bench_region r)
{
	return c->qps[i].base + layout_region(0, r, c->region_bytes);
}

static inline uint64_t conn_remote_region(const struct conn *c,
					  unsigned int i, enum bench_region r)
{
	return c->qps[i].remote.addr +
	       layout_region(0, r, c->qps[i].remote.length);
}

/* QP i's host slot `which` (LAYOUT_AUX_SLOT_BYTES). */
static inline uint8_t *conn_aux_slot(const struct conn *c, unsigned int i,
				     enum layout_aux which)
{
	return (uint8_t *)c->aux.addr + layout_aux(i, which);
}

/*
 * -e: wait up to timeout_ms for a completion event on c->channel; when one
 * came, ack it and arm its CQ again (the caller then polls that CQ: what
 * completed between the event and the arming is found there). 0 also
 * when none came (the caller's deadlines decide), -errno on failure
 * (logged). Without a channel, 0 at once.
 */
int conn_cq_wait(const struct conn *c, int timeout_ms);

/* Undo everything; accepts a partly built conn. */
void conn_destroy(struct conn *c);

#endif
