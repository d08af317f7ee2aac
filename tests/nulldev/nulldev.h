/* tests/nulldev/nulldev.h - the null device's shared shapes: a libibverbs
 * provider whose "wire" is memory (docs/nulldev.md).
 *
 * Memory crosses processes as memfds: reg_mr moves the registered pages
 * onto a memfd (same address, same bytes, now MAP_SHARED) and publishes it
 * in the device's registry directory as a symlink m-KEY ->
 * "/proc/PID/fd/FD BASE SIZE"; a peer opens that path once and maps it.
 * A QP's receive queue and its inbound completion ring live in a memfd
 * published the same way as q-QPN. Every shared ring has one producer and
 * one consumer. The sender does the work at post time: copies into the
 * peer's mapping, takes the peer's posted receive, pushes the peer's
 * completion, and queues its own completion in its (private) CQ.
 */
#ifndef RDMABENCH_TESTS_NULLDEV_NULLDEV_H
#define RDMABENCH_TESTS_NULLDEV_NULLDEV_H

#include "nulldev_abi.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define ND_MAX_SGE 8
#define ND_MAX_INLINE 1024
#define ND_RCACHE 16

struct nd_sge {
	uint64_t addr;
	uint32_t length, lkey;
};

struct nd_rqe {
	uint64_t wr_id;
	uint32_t num_sge, pad;
	struct nd_sge sge[ND_MAX_SGE];
};

struct nd_cqe {
	uint64_t wr_id;
	uint32_t byte_len, imm, opcode, wc_flags, src_qp, status;
};

/* the shared part of a QP: the owner posts receives (rq_head) and reaps
 * inbound completions (cq_tail); the connected peer takes receives
 * (rq_tail) and pushes completions (cq_head) */
struct nd_qshm {
	_Atomic uint32_t rq_head;
	char pad0[60];
	_Atomic uint32_t rq_tail;
	char pad1[60];
	_Atomic uint32_t cq_head;
	char pad2[60];
	_Atomic uint32_t cq_tail;
	char pad3[60];
	uint32_t rq_size, cq_size, qpn, pid;
	/* struct nd_rqe rq[rq_size]; struct nd_cqe cq[cq_size]; */
};

/* a peer's region as this process sees it */
struct nd_map {
	uint32_t key;
	uint64_t base, size; /* in the owner's address space */
	char *ptr;           /* here */
};

struct nd_ctx {
	struct verbs_context vctx;
	char reg[IBV_SYSFS_PATH_MAX + 16]; /* the registry directory */
	uint64_t guid;
	pthread_mutex_t lock;
	struct nd_map *maps; /* peers' regions, mapped on first use */
	size_t nmaps, capmaps;
};

struct nd_cq;

/* a work request that could not run yet (the peer had no receive posted) */
struct nd_pend {
	struct ibv_send_wr wr;
	struct ibv_sge sge[ND_MAX_SGE];
	char inl[ND_MAX_INLINE];
};

struct nd_qp {
	struct verbs_qp vqp;
	struct nd_qshm *shm; /* ours */
	size_t shm_len;
	int shm_fd;
	struct nd_qshm *peer; /* the connected QP's */
	size_t peer_len;
	uint32_t dest_qpn, sig_all, max_inline;
	struct ibv_qp_attr attr; /* what modify_qp was told, for query_qp */
	struct ibv_qp_cap cap;
	struct nd_pend *pend; /* ring of cap.max_send_wr */
	uint32_t pend_head, pend_tail, pend_size;
	struct nd_cq *scq, *rcq;
	struct nd_qp *next_s, *next_r; /* on scq's, rcq's list */
	struct nd_map rc[ND_RCACHE]; /* last keys resolved */
	/* the ibv_wr_* API builds one request list here */
	struct ibv_send_wr *wrs;
	struct ibv_sge *wr_sge;
	char *wr_inl;
	uint32_t nwr, wr_cap, wr_err;
};

struct nd_cq {
	struct ibv_cq cq;
	struct ibv_wc *ring;
	uint32_t head, tail, size;
	struct nd_qp *sqps, *rqps;
	pthread_spinlock_t lock;
};

/* nulldev.c */
int nd_map_key(struct nd_ctx *c, uint32_t key, struct nd_map *out);
int nd_publish(struct nd_ctx *c, char kind, int fd, uint64_t base,
	       uint64_t size, uint32_t want, uint32_t mask, uint32_t *key);
void nd_unpublish(struct nd_ctx *c, char kind, uint32_t key);
void *nd_map_path(struct nd_ctx *c, char kind, uint32_t key, size_t *len);

/* nulldev_qp.c */
extern const struct verbs_context_ops nd_qp_ops;
void nd_qp_setup_ex(struct nd_qp *q);

static inline struct nd_ctx *nd_ctx_of(struct ibv_context *c)
{
	return (struct nd_ctx *)((char *)c - offsetof(struct nd_ctx, vctx.context));
}

#endif
