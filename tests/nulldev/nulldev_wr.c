/* tests/nulldev/nulldev_wr.c - the null device's ibv_wr_* API (perftest
 * 4.5 posts through it unless --use_old_post_send): each wr_* call fills
 * one ibv_send_wr in the QP; wr_complete posts the list as ibv_post_send
 * would. Room for max_send_wr requests between wr_start and wr_complete.
 */
#define _GNU_SOURCE
#include "nulldev.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int nd_post_list(struct nd_qp *q);

static struct nd_qp *nd_q(struct ibv_qp_ex *x)
{
	return (struct nd_qp *)x;
}

static struct ibv_send_wr *nd_new(struct ibv_qp_ex *x, enum ibv_wr_opcode op)
{
	struct nd_qp *q = nd_q(x);
	struct ibv_send_wr *w;

	if (q->nwr == q->wr_cap) {
		q->wr_err = ENOMEM;
		q->nwr--; /* overwrite the last: wr_complete fails anyway */
	}
	w = &q->wrs[q->nwr++];
	memset(w, 0, sizeof(*w));
	w->wr_id = x->wr_id;
	w->send_flags = x->wr_flags;
	w->opcode = op;
	return w;
}

static struct ibv_send_wr *nd_last(struct ibv_qp_ex *x)
{
	struct nd_qp *q = nd_q(x);

	return q->nwr ? &q->wrs[q->nwr - 1] : nd_new(x, IBV_WR_SEND);
}

static void nd_wr_start(struct ibv_qp_ex *x)
{
	nd_q(x)->nwr = 0;
	nd_q(x)->wr_err = 0;
}

static int nd_wr_complete(struct ibv_qp_ex *x)
{
	struct nd_qp *q = nd_q(x);
	int ret = q->wr_err ? (int)q->wr_err : nd_post_list(q);

	q->nwr = 0;
	return ret;
}

static void nd_wr_abort(struct ibv_qp_ex *x)
{
	nd_q(x)->nwr = 0;
}

static void nd_wr_rdma(struct ibv_qp_ex *x, enum ibv_wr_opcode op,
		       uint32_t rkey, uint64_t addr)
{
	struct ibv_send_wr *w = nd_new(x, op);

	w->wr.rdma.rkey = rkey;
	w->wr.rdma.remote_addr = addr;
}

static void nd_wr_write(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr)
{
	nd_wr_rdma(x, IBV_WR_RDMA_WRITE, rkey, addr);
}

static void nd_wr_write_imm(struct ibv_qp_ex *x, uint32_t rkey,
			    uint64_t addr, __be32 imm)
{
	nd_wr_rdma(x, IBV_WR_RDMA_WRITE_WITH_IMM, rkey, addr);
	nd_last(x)->imm_data = imm;
}

static void nd_wr_read(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr)
{
	nd_wr_rdma(x, IBV_WR_RDMA_READ, rkey, addr);
}

static void nd_wr_send(struct ibv_qp_ex *x)
{
	nd_new(x, IBV_WR_SEND);
}

static void nd_wr_send_imm(struct ibv_qp_ex *x, __be32 imm)
{
	nd_new(x, IBV_WR_SEND_WITH_IMM)->imm_data = imm;
}

static void nd_wr_atomic(struct ibv_qp_ex *x, enum ibv_wr_opcode op,
			 uint32_t rkey, uint64_t addr, uint64_t a, uint64_t b)
{
	struct ibv_send_wr *w = nd_new(x, op);

	w->wr.atomic.rkey = rkey;
	w->wr.atomic.remote_addr = addr;
	w->wr.atomic.compare_add = a;
	w->wr.atomic.swap = b;
}

static void nd_wr_cas(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr,
		      uint64_t compare, uint64_t swap)
{
	nd_wr_atomic(x, IBV_WR_ATOMIC_CMP_AND_SWP, rkey, addr, compare, swap);
}

static void nd_wr_faa(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr,
		      uint64_t add)
{
	nd_wr_atomic(x, IBV_WR_ATOMIC_FETCH_AND_ADD, rkey, addr, add, 0);
}

static struct ibv_sge *nd_sges(struct nd_qp *q)
{
	return &q->wr_sge[(q->nwr ? q->nwr - 1 : 0) * ND_MAX_SGE];
}

static void nd_wr_sge(struct ibv_qp_ex *x, uint32_t lkey, uint64_t addr,
		      uint32_t length)
{
	struct ibv_send_wr *w = nd_last(x);

	nd_sges(nd_q(x))[0] = (struct ibv_sge){addr, length, lkey};
	w->num_sge = 1;
}

static void nd_wr_sge_list(struct ibv_qp_ex *x, size_t n,
			   const struct ibv_sge *sg)
{
	struct ibv_send_wr *w = nd_last(x);

	if (n > ND_MAX_SGE) {
		nd_q(x)->wr_err = EINVAL;
		n = ND_MAX_SGE;
	}
	memcpy(nd_sges(nd_q(x)), sg, n * sizeof(*sg));
	w->num_sge = (int)n;
}

static void nd_wr_inline(struct ibv_qp_ex *x, void *addr, size_t length)
{
	struct nd_qp *q = nd_q(x);
	struct ibv_send_wr *w = nd_last(x);
	char *buf = q->wr_inl + (q->nwr - 1) * (size_t)ND_MAX_INLINE;

	if (length > ND_MAX_INLINE) {
		q->wr_err = EINVAL;
		length = ND_MAX_INLINE;
	}
	if (addr != buf)
		memcpy(buf, addr, length);
	nd_sges(q)[0] = (struct ibv_sge){(uintptr_t)buf, (uint32_t)length, 0};
	w->num_sge = 1;
	w->send_flags |= IBV_SEND_INLINE;
}

static void nd_wr_inline_list(struct ibv_qp_ex *x, size_t n,
			      const struct ibv_data_buf *bufs)
{
	struct nd_qp *q = nd_q(x);
	char *buf = q->wr_inl + (nd_last(x), q->nwr - 1) * (size_t)ND_MAX_INLINE;
	size_t off = 0;

	for (size_t i = 0; i < n; i++) {
		if (off + bufs[i].length > ND_MAX_INLINE) {
			q->wr_err = EINVAL;
			break;
		}
		memcpy(buf + off, bufs[i].addr, bufs[i].length);
		off += bufs[i].length;
	}
	nd_wr_inline(x, buf, off);
}

/* room for the requests of one wr_start..wr_complete, and the ops */
void nd_qp_setup_ex(struct nd_qp *q)
{
	struct ibv_qp_ex *x = &q->vqp.qp_ex;

	q->wr_cap = q->cap.max_send_wr ? q->cap.max_send_wr : 1;
	q->wrs = calloc(q->wr_cap, sizeof(*q->wrs));
	q->wr_sge = calloc((size_t)q->wr_cap * ND_MAX_SGE, sizeof(*q->wr_sge));
	q->wr_inl = calloc(q->wr_cap, ND_MAX_INLINE);
	if (!q->wrs || !q->wr_sge || !q->wr_inl)
		q->wr_cap = 0; /* wr_* then fails at wr_complete */
	q->vqp.comp_mask |= ND_VERBS_QP_EX;
	x->wr_start = nd_wr_start;
	x->wr_complete = nd_wr_complete;
	x->wr_abort = nd_wr_abort;
	x->wr_rdma_write = nd_wr_write;
	x->wr_rdma_write_imm = nd_wr_write_imm;
	x->wr_rdma_read = nd_wr_read;
	x->wr_send = nd_wr_send;
	x->wr_send_imm = nd_wr_send_imm;
	x->wr_atomic_cmp_swp = nd_wr_cas;
	x->wr_atomic_fetch_add = nd_wr_faa;
	x->wr_set_sge = nd_wr_sge;
	x->wr_set_sge_list = nd_wr_sge_list;
	x->wr_set_inline_data = nd_wr_inline;
	x->wr_set_inline_data_list = nd_wr_inline_list;
}
