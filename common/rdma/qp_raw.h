/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * qp_raw - the data QPs without rdma_cm (--oob tcp): ibv_create_qp, then
 * INIT -> RTR -> RTS by hand with the peer's QP number, PSN and GID (RoCE)
 * or LID (InfiniBand), which the caller exchanges over the control
 * channel. The QPs use the CQs and fill the slots of a struct conn.
 * -c UD takes the same exchange: its QPs connect to no one, and each
 * gets an address handle to the peer's QP instead.
 */
#ifndef RDMABENCH_RDMA_QP_RAW_H
#define RDMABENCH_RDMA_QP_RAW_H

#include <stdbool.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#include "rdma/conn.h"

/* What a peer needs to connect a QP without rdma_cm (--oob tcp). */
struct qp_raw_addr {
	uint32_t qpn;
	uint32_t psn;
	uint16_t lid;
	uint8_t gid[16];
};

/* The local end of a raw QP: port, GID index, path MTU, and the
 * attributes perftest's options set (-T, -S, -L, -u, --retry_count). */
struct qp_raw_path {
	uint8_t port;
	int gid_index;           /* -1: no GRH (InfiniBand without -x) */
	enum ibv_mtu mtu;
	uint8_t max_rd_atomic;      /* reads/atomics out as initiator (-o) */
	uint8_t max_dest_rd_atomic; /* ... served as responder */
	bool uc;                 /* -c UC: unreliable connected */
	bool ud;                 /* -c UD: datagrams, an address handle */
	uint8_t traffic_class;   /* GRH traffic class (-T/--tclass) */
	uint8_t sl;              /* service level (-S) */
	uint8_t hop_limit;       /* GRH hop limit (-L) */
	uint8_t timeout;         /* ack timeout exponent (-u) */
	uint8_t retry_cnt;       /* transport retries (--retry_count) */
	uint32_t flow_label; /* GRH flow label (--flow_label), 20 bits */
	uint16_t pkey_index; /* the P_Key table's entry (--pkey_index) */
	uint8_t static_rate; /* enum ibv_rate (--rate_limit HW), 0: none */
	uint16_t dlid;       /* --dlid: instead of the peer's LID; 0: none */
};

/*
 * QP i of c (c->qps[i].qp, its max_inline and psn), created with
 * ibv_create_qp (RC, UC or UD by path) on c's CQs, inline as large as the
 * device allows up to want_inline (UD: receives of two SGEs, the GRH's
 * and the slot's); *addr filled for the peer. Returns 0 or -errno (logged).
 */
int qp_raw_create(struct conn *c, unsigned int i, struct ibv_pd *pd,
		  uint32_t want_inline, const struct qp_raw_path *path,
		  struct qp_raw_addr *addr);

/*
 * Move QP i of c to RTS towards the peer's address. UD: INIT with the
 * Q_Key, RTR, RTS, and an address handle to the peer (c->qps[i].ah,
 * remote_qpn) on pd. 0 or -errno (logged).
 */
int qp_raw_connect(struct conn *c, unsigned int i, struct ibv_pd *pd,
		   const struct qp_raw_path *path,
		   const struct qp_raw_addr *peer);

/*
 * --rate_limit HW: did QP i of c take path's static rate (InfiniBand: the
 * address's; elsewhere a QP has none)? 0, or -EOPNOTSUPP (not logged).
 */
int qp_raw_rate_held(const struct conn *c, unsigned int i,
		     const struct qp_raw_path *path);

#endif
