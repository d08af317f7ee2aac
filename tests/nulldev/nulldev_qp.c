/* tests/nulldev/nulldev_qp.c - the null device's CQs and QPs: the data
 * path. The sender does every operation at post time against the peer's
 * mapped memory; a SEND (or a write with immediate) that finds no posted
 * receive waits in the QP's pending ring (RNR retry, unbounded) and is
 * retried on each post and each poll of its send CQ.
 */
#define _GNU_SOURCE
#include "nulldev.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define ND_HDR 320 /* sizeof(struct nd_qshm), rounded to cache lines */

static uint32_t nd_pow2(uint32_t n)
{
	uint32_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

static struct nd_rqe *nd_rq(struct nd_qshm *s)
{
	return (struct nd_rqe *)((char *)s + ND_HDR);
}

static struct nd_cqe *nd_icq(struct nd_qshm *s)
{
	return (struct nd_cqe *)(nd_rq(s) + s->rq_size);
}

/* ---- CQs ---- */

static struct ibv_cq *nd_create_cq(struct ibv_context *ctx, int cqe,
				   struct ibv_comp_channel *ch, int vec)
{
	struct nd_cq *cq = calloc(1, sizeof(*cq));

	(void)ctx;
	(void)vec;
	if (ch) {
		free(cq);
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (!cq)
		return NULL;
	cq->size = nd_pow2((uint32_t)(cqe > 0 ? cqe : 1) * 2 + 64);
	cq->ring = calloc(cq->size, sizeof(*cq->ring));
	if (!cq->ring) {
		free(cq);
		return NULL;
	}
	pthread_spin_init(&cq->lock, PTHREAD_PROCESS_PRIVATE);
	cq->cq.cqe = cqe;
	return &cq->cq;
}

static int nd_destroy_cq(struct ibv_cq *ibcq)
{
	struct nd_cq *cq = (struct nd_cq *)ibcq;

	if (cq->sqps || cq->rqps)
		return EBUSY;
	pthread_spin_destroy(&cq->lock);
	free(cq->ring);
	free(cq);
	return 0;
}

static int nd_cq_room(const struct nd_cq *cq)
{
	return cq->size - (cq->head - cq->tail) > 0;
}

static void nd_cq_push(struct nd_cq *cq, const struct ibv_wc *wc)
{
	cq->ring[cq->head++ & (cq->size - 1)] = *wc;
}

/* ---- the peer's receive queue and inbound completion ring ---- */

static struct nd_rqe *nd_peer_rqe(struct nd_qshm *p)
{
	uint32_t t = atomic_load_explicit(&p->rq_tail, memory_order_relaxed);
	uint32_t h = atomic_load_explicit(&p->rq_head, memory_order_acquire);
	uint32_t ch = atomic_load_explicit(&p->cq_head, memory_order_relaxed);
	uint32_t ct = atomic_load_explicit(&p->cq_tail, memory_order_acquire);

	if (t == h || ch - ct >= p->cq_size)
		return NULL;
	return &nd_rq(p)[t & (p->rq_size - 1)];
}

static void nd_peer_complete(struct nd_qshm *p, const struct nd_cqe *e)
{
	uint32_t h = atomic_load_explicit(&p->cq_head, memory_order_relaxed);
	uint32_t t = atomic_load_explicit(&p->rq_tail, memory_order_relaxed);

	/* the receive's slot is free before its completion shows: a
	 * receiver that reposts on seeing the completion must find room
	 * (perftest's ib_send_bw server did not, now and then: "Couldn't
	 * post recv") */
	nd_icq(p)[h & (p->cq_size - 1)] = *e;
	atomic_store_explicit(&p->rq_tail, t + 1, memory_order_release);
	atomic_store_explicit(&p->cq_head, h + 1, memory_order_release);
}

/* ---- resolving a key and an address to a pointer here ---- */

static char *nd_resolve(struct nd_qp *q, uint32_t key, uint64_t addr,
			uint64_t len)
{
	struct nd_map *m = &q->rc[key % ND_RCACHE];

	if (m->key != key || !m->ptr) {
		if (nd_map_key(nd_ctx_of(q->vqp.qp.context), key, m)) {
			m->ptr = NULL;
			return NULL;
		}
	}
	if (addr < m->base || addr + len > m->base + m->size ||
	    addr + len < addr)
		return NULL;
	return m->ptr + (addr - m->base);
}

static uint64_t nd_gather(const struct ibv_send_wr *wr, char *dst)
{
	uint64_t n = 0;

	for (int i = 0; i < wr->num_sge; i++) {
		memcpy(dst + n, (void *)(uintptr_t)wr->sg_list[i].addr,
		       wr->sg_list[i].length);
		n += wr->sg_list[i].length;
	}
	return n;
}

static uint64_t nd_wr_len(const struct ibv_send_wr *wr)
{
	uint64_t n = 0;

	for (int i = 0; i < wr->num_sge; i++)
		n += wr->sg_list[i].length;
	return n;
}

static int nd_scatter_local(const struct ibv_send_wr *wr, const char *src,
			    uint64_t len)
{
	for (int i = 0; i < wr->num_sge && len; i++) {
		uint64_t k = wr->sg_list[i].length < len ? wr->sg_list[i].length
							 : len;

		memcpy((void *)(uintptr_t)wr->sg_list[i].addr, src, k);
		src += k;
		len -= k;
	}
	return IBV_WC_SUCCESS;
}

/* a SEND's bytes into the receive the peer posted */
static int nd_send_into(struct nd_qp *q, const struct ibv_send_wr *wr,
			const struct nd_rqe *r, uint64_t *len)
{
	int i = 0;
	uint64_t off = 0, total = nd_wr_len(wr);

	for (uint32_t j = 0; j < r->num_sge && off < total; j++) {
		uint64_t k = r->sge[j].length;
		char *d = nd_resolve(q, r->sge[j].lkey, r->sge[j].addr, k);

		if (!d)
			return IBV_WC_REM_ACCESS_ERR;
		for (; i < wr->num_sge && k; i++) {
			const struct ibv_sge *s = &wr->sg_list[i];
			uint64_t n = s->length < k ? s->length : k;

			memcpy(d, (void *)(uintptr_t)s->addr, n);
			d += n;
			k -= n;
			off += n;
		}
	}
	*len = off;
	return off < total ? IBV_WC_REM_INV_REQ_ERR : IBV_WC_SUCCESS;
}

/* ---- one work request ---- */

static int nd_atomic(struct nd_qp *q, const struct ibv_send_wr *wr)
{
	uint64_t *p = (uint64_t *)nd_resolve(q, wr->wr.atomic.rkey,
					     wr->wr.atomic.remote_addr, 8);
	uint64_t old = wr->wr.atomic.compare_add;

	if (!p || (wr->wr.atomic.remote_addr & 7) || wr->num_sge < 1)
		return IBV_WC_REM_ACCESS_ERR;
	if (wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP)
		__atomic_compare_exchange_n(p, &old, wr->wr.atomic.swap, 0,
					    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	else
		old = __atomic_fetch_add(p, wr->wr.atomic.compare_add,
					 __ATOMIC_SEQ_CST);
	memcpy((void *)(uintptr_t)wr->sg_list[0].addr, &old, 8);
	return IBV_WC_SUCCESS;
}

static int nd_rdma(struct nd_qp *q, const struct ibv_send_wr *wr,
		   uint64_t *len)
{
	char *p;

	*len = nd_wr_len(wr);
	p = nd_resolve(q, wr->wr.rdma.rkey, wr->wr.rdma.remote_addr, *len);
	if (!p)
		return IBV_WC_REM_ACCESS_ERR;
	if (wr->opcode == IBV_WR_RDMA_READ)
		return nd_scatter_local(wr, p, *len);
	nd_gather(wr, p);
	return IBV_WC_SUCCESS;
}

static const struct {
	enum ibv_wc_opcode wc;
	enum ibv_wc_opcode rwc; /* the peer's, when it takes a receive */
	int takes_recv;
} nd_ops_of[] = {
	[IBV_WR_RDMA_WRITE] = {IBV_WC_RDMA_WRITE, 0, 0},
	[IBV_WR_RDMA_WRITE_WITH_IMM] = {IBV_WC_RDMA_WRITE,
					IBV_WC_RECV_RDMA_WITH_IMM, 1},
	[IBV_WR_SEND] = {IBV_WC_SEND, IBV_WC_RECV, 1},
	[IBV_WR_SEND_WITH_IMM] = {IBV_WC_SEND, IBV_WC_RECV, 1},
	[IBV_WR_RDMA_READ] = {IBV_WC_RDMA_READ, 0, 0},
	[IBV_WR_ATOMIC_CMP_AND_SWP] = {IBV_WC_COMP_SWAP, 0, 0},
	[IBV_WR_ATOMIC_FETCH_AND_ADD] = {IBV_WC_FETCH_ADD, 0, 0},
};

static int nd_has_imm(enum ibv_wr_opcode op)
{
	return op == IBV_WR_SEND_WITH_IMM || op == IBV_WR_RDMA_WRITE_WITH_IMM;
}

static int nd_do(struct nd_qp *q, const struct ibv_send_wr *wr,
		 struct nd_rqe *r, uint64_t *len)
{
	*len = 0;
	switch (wr->opcode) {
	case IBV_WR_SEND:
	case IBV_WR_SEND_WITH_IMM:
		return nd_send_into(q, wr, r, len);
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		*len = 8;
		return nd_atomic(q, wr);
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_RDMA_READ:
		return nd_rdma(q, wr, len);
	default:
		return IBV_WC_LOC_QP_OP_ERR;
	}
}

static int nd_connect(struct nd_qp *q)
{
	if (!q->peer)
		q->peer = nd_map_path(nd_ctx_of(q->vqp.qp.context), 'q',
				      q->dest_qpn, &q->peer_len);
	return q->peer ? 0 : -ENOTCONN;
}

/* 0: done (completed, or failed with a completion); -EAGAIN: no room */
static int nd_exec(struct nd_qp *q, const struct ibv_send_wr *wr)
{
	int sig = q->sig_all || (wr->send_flags & IBV_SEND_SIGNALED);
	struct ibv_wc wc = {.wr_id = wr->wr_id, .qp_num = q->vqp.qp.qp_num};
	struct nd_rqe *r = NULL;
	uint64_t len;
	int known = (unsigned)wr->opcode < sizeof(nd_ops_of) / sizeof(nd_ops_of[0]);

	if (!nd_cq_room(q->scq))
		return -EAGAIN;
	if (nd_connect(q)) {
		wc.status = IBV_WC_RETRY_EXC_ERR;
	} else {
		if (known && nd_ops_of[wr->opcode].takes_recv) {
			r = nd_peer_rqe(q->peer);
			if (!r)
				return -EAGAIN;
		}
		wc.status = nd_do(q, wr, r, &len);
		wc.byte_len = len;
	}
	if (r) {
		struct nd_cqe e = {.wr_id = r->wr_id, .byte_len = len,
				   .opcode = nd_ops_of[wr->opcode].rwc,
				   .src_qp = q->vqp.qp.qp_num,
				   .status = wc.status};

		if (nd_has_imm(wr->opcode)) {
			e.imm = wr->imm_data;
			e.wc_flags = IBV_WC_WITH_IMM;
		}
		if (wr->opcode == IBV_WR_RDMA_WRITE_WITH_IMM)
			e.byte_len = len;
		nd_peer_complete(q->peer, &e);
	}
	wc.opcode = known ? nd_ops_of[wr->opcode].wc : IBV_WC_SEND;
	if (sig || wc.status != IBV_WC_SUCCESS)
		nd_cq_push(q->scq, &wc);
	return 0;
}

static void nd_progress(struct nd_qp *q)
{
	while (q->pend_tail != q->pend_head) {
		struct nd_pend *p = &q->pend[q->pend_tail & (q->pend_size - 1)];

		if (nd_exec(q, &p->wr))
			return;
		q->pend_tail++;
	}
}

static int nd_queue(struct nd_qp *q, const struct ibv_send_wr *wr)
{
	struct nd_pend *p;
	uint32_t off = 0;

	if (q->pend_head - q->pend_tail >= q->pend_size)
		return ENOMEM;
	p = &q->pend[q->pend_head & (q->pend_size - 1)];
	p->wr = *wr;
	p->wr.next = NULL;
	p->wr.sg_list = p->sge;
	memcpy(p->sge, wr->sg_list, wr->num_sge * sizeof(*p->sge));
	if (wr->send_flags & IBV_SEND_INLINE) {
		for (int i = 0; i < wr->num_sge; i++) {
			memcpy(p->inl + off,
			       (void *)(uintptr_t)wr->sg_list[i].addr,
			       wr->sg_list[i].length);
			p->sge[i].addr = (uintptr_t)(p->inl + off);
			off += wr->sg_list[i].length;
		}
	}
	q->pend_head++;
	return 0;
}

static int nd_wr_ok(const struct nd_qp *q, const struct ibv_send_wr *wr)
{
	if (wr->num_sge < 0 || wr->num_sge > ND_MAX_SGE)
		return 0;
	if ((wr->send_flags & IBV_SEND_INLINE) &&
	    nd_wr_len(wr) > q->max_inline)
		return 0;
	return q->attr.qp_state == IBV_QPS_RTS;
}

static int nd_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
			struct ibv_send_wr **bad)
{
	struct nd_qp *q = (struct nd_qp *)ibqp;
	int ret = 0;

	pthread_spin_lock(&q->scq->lock);
	for (; wr; wr = wr->next) {
		if (!nd_wr_ok(q, wr)) {
			ret = EINVAL;
			break;
		}
		if (q->pend_tail == q->pend_head && !nd_exec(q, wr))
			continue;
		ret = nd_queue(q, wr);
		if (ret)
			break;
	}
	pthread_spin_unlock(&q->scq->lock);
	if (ret)
		*bad = wr;
	return ret;
}

static int nd_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
			struct ibv_recv_wr **bad)
{
	struct nd_qshm *s = ((struct nd_qp *)ibqp)->shm;

	for (; wr; wr = wr->next) {
		uint32_t h = atomic_load_explicit(&s->rq_head,
						  memory_order_relaxed);
		uint32_t t = atomic_load_explicit(&s->rq_tail,
						  memory_order_acquire);
		struct nd_rqe *r = &nd_rq(s)[h & (s->rq_size - 1)];

		if (h - t >= s->rq_size || wr->num_sge > ND_MAX_SGE) {
			*bad = wr;
			return ENOMEM;
		}
		r->wr_id = wr->wr_id;
		r->num_sge = wr->num_sge;
		for (int i = 0; i < wr->num_sge; i++)
			r->sge[i] = (struct nd_sge){wr->sg_list[i].addr,
						    wr->sg_list[i].length,
						    wr->sg_list[i].lkey};
		atomic_store_explicit(&s->rq_head, h + 1, memory_order_release);
	}
	return 0;
}

static int nd_drain(struct nd_qp *q, int n, struct ibv_wc *wc)
{
	struct nd_qshm *s = q->shm;
	uint32_t t = atomic_load_explicit(&s->cq_tail, memory_order_relaxed);
	uint32_t h = atomic_load_explicit(&s->cq_head, memory_order_acquire);
	int k = 0;

	for (; k < n && t != h; k++, t++) {
		const struct nd_cqe *e = &nd_icq(s)[t & (s->cq_size - 1)];

		wc[k] = (struct ibv_wc){
			.wr_id = e->wr_id, .status = e->status,
			.opcode = e->opcode, .byte_len = e->byte_len,
			.imm_data = e->imm, .qp_num = q->vqp.qp.qp_num,
			.src_qp = e->src_qp, .wc_flags = e->wc_flags};
	}
	atomic_store_explicit(&s->cq_tail, t, memory_order_release);
	return k;
}

static int nd_poll_cq(struct ibv_cq *ibcq, int n, struct ibv_wc *wc)
{
	struct nd_cq *cq = (struct nd_cq *)ibcq;
	int k = 0;

	pthread_spin_lock(&cq->lock);
	for (struct nd_qp *q = cq->sqps; q; q = q->next_s)
		if (q->pend_tail != q->pend_head)
			nd_progress(q);
	for (; k < n && cq->tail != cq->head; k++)
		wc[k] = cq->ring[cq->tail++ & (cq->size - 1)];
	for (struct nd_qp *q = cq->rqps; q && k < n; q = q->next_r)
		k += nd_drain(q, n - k, wc + k);
	pthread_spin_unlock(&cq->lock);
	return k;
}

/* ---- QPs ---- */

static int nd_qp_shm(struct nd_qp *q, struct ibv_context *ctx,
		     uint32_t max_recv)
{
	uint32_t rq = nd_pow2(max_recv ? max_recv : 1);
	size_t len = ND_HDR + rq * sizeof(struct nd_rqe) +
		     2 * rq * sizeof(struct nd_cqe);
	uint32_t qpn;

	q->shm_fd = memfd_create("nulldev-qp", MFD_CLOEXEC);
	if (q->shm_fd < 0 || ftruncate(q->shm_fd, len))
		return -errno;
	q->shm = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
		      q->shm_fd, 0);
	if (q->shm == MAP_FAILED)
		return -errno;
	q->shm_len = len;
	q->shm->rq_size = rq;
	q->shm->cq_size = 2 * rq;
	q->shm->pid = getpid();
	if (nd_publish(nd_ctx_of(ctx), 'q', q->shm_fd, 0, len, 0, 0xffffff,
		       &qpn))
		return -EAGAIN;
	q->shm->qpn = qpn;
	q->vqp.qp.qp_num = qpn;
	return 0;
}

static void nd_qp_lists(struct nd_qp *q, int add)
{
	struct nd_qp **pp;

	pthread_spin_lock(&q->scq->lock);
	if (add) {
		q->next_s = q->scq->sqps;
		q->scq->sqps = q;
	} else {
		for (pp = &q->scq->sqps; *pp != q; pp = &(*pp)->next_s)
			;
		*pp = q->next_s;
	}
	pthread_spin_unlock(&q->scq->lock);
	pthread_spin_lock(&q->rcq->lock);
	if (add) {
		q->next_r = q->rcq->rqps;
		q->rcq->rqps = q;
	} else {
		for (pp = &q->rcq->rqps; *pp != q; pp = &(*pp)->next_r)
			;
		*pp = q->next_r;
	}
	pthread_spin_unlock(&q->rcq->lock);
}

static void nd_qp_free(struct nd_qp *q)
{
	if (q->shm && q->shm != MAP_FAILED)
		munmap(q->shm, q->shm_len);
	if (q->shm_fd >= 0)
		close(q->shm_fd);
	if (q->peer)
		munmap(q->peer, q->peer_len);
	free(q->pend);
	free(q->wrs);
	free(q->wr_sge);
	free(q->wr_inl);
	free(q);
}

static void nd_qp_init(struct nd_qp *q, struct ibv_context *ctx,
		       struct ibv_qp_init_attr_ex *a)
{
	struct ibv_qp *qp = &q->vqp.qp;

	qp->context = ctx;
	qp->qp_context = a->qp_context;
	qp->pd = a->pd;
	qp->send_cq = a->send_cq;
	qp->recv_cq = a->recv_cq;
	qp->qp_type = a->qp_type;
	qp->state = IBV_QPS_RESET;
	pthread_mutex_init(&qp->mutex, NULL);
	pthread_cond_init(&qp->cond, NULL);
	q->scq = (struct nd_cq *)a->send_cq;
	q->rcq = (struct nd_cq *)a->recv_cq;
	q->sig_all = a->sq_sig_all;
	q->max_inline = a->cap.max_inline_data;
	a->cap.max_send_sge = a->cap.max_recv_sge = ND_MAX_SGE;
	q->cap = a->cap;
}

static struct ibv_qp *nd_create_qp_ex(struct ibv_context *ctx,
				      struct ibv_qp_init_attr_ex *a)
{
	struct nd_qp *q;

	if ((a->qp_type != IBV_QPT_RC && a->qp_type != IBV_QPT_UC) ||
	    a->srq || a->cap.max_inline_data > ND_MAX_INLINE ||
	    !a->send_cq || !a->recv_cq) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	q = calloc(1, sizeof(*q));
	if (!q)
		return NULL;
	q->shm_fd = -1;
	q->pend_size = nd_pow2(a->cap.max_send_wr + 1);
	q->pend = calloc(q->pend_size, sizeof(*q->pend));
	if (!q->pend || nd_qp_shm(q, ctx, a->cap.max_recv_wr)) {
		nd_qp_free(q);
		errno = ENOMEM;
		return NULL;
	}
	nd_qp_init(q, ctx, a);
	nd_qp_setup_ex(q);
	nd_qp_lists(q, 1);
	return &q->vqp.qp;
}

static struct ibv_qp *nd_create_qp(struct ibv_pd *pd,
				   struct ibv_qp_init_attr *a)
{
	struct ibv_qp_init_attr_ex ex = {
		.qp_context = a->qp_context, .send_cq = a->send_cq,
		.recv_cq = a->recv_cq, .srq = a->srq, .cap = a->cap,
		.qp_type = a->qp_type, .sq_sig_all = a->sq_sig_all,
		.comp_mask = IBV_QP_INIT_ATTR_PD, .pd = pd};
	struct ibv_qp *qp = nd_create_qp_ex(pd->context, &ex);

	if (qp)
		a->cap = ex.cap;
	return qp;
}

static int nd_destroy_qp(struct ibv_qp *qp)
{
	struct nd_qp *q = (struct nd_qp *)qp;

	nd_qp_lists(q, 0);
	nd_unpublish(nd_ctx_of(qp->context), 'q', qp->qp_num);
	nd_qp_free(q);
	return 0;
}

#define ND_KEEP(mask, bit, field)                                              \
	do {                                                                   \
		if ((mask) & (bit))                                            \
			q->attr.field = attr->field;                           \
	} while (0)

static int nd_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask)
{
	struct nd_qp *q = (struct nd_qp *)qp;

	ND_KEEP(mask, IBV_QP_STATE, qp_state);
	ND_KEEP(mask, IBV_QP_DEST_QPN, dest_qp_num);
	ND_KEEP(mask, IBV_QP_PATH_MTU, path_mtu);
	ND_KEEP(mask, IBV_QP_ACCESS_FLAGS, qp_access_flags);
	ND_KEEP(mask, IBV_QP_PORT, port_num);
	ND_KEEP(mask, IBV_QP_PKEY_INDEX, pkey_index);
	ND_KEEP(mask, IBV_QP_AV, ah_attr);
	ND_KEEP(mask, IBV_QP_SQ_PSN, sq_psn);
	ND_KEEP(mask, IBV_QP_RQ_PSN, rq_psn);
	ND_KEEP(mask, IBV_QP_TIMEOUT, timeout);
	ND_KEEP(mask, IBV_QP_RETRY_CNT, retry_cnt);
	ND_KEEP(mask, IBV_QP_RNR_RETRY, rnr_retry);
	ND_KEEP(mask, IBV_QP_MIN_RNR_TIMER, min_rnr_timer);
	ND_KEEP(mask, IBV_QP_MAX_QP_RD_ATOMIC, max_rd_atomic);
	ND_KEEP(mask, IBV_QP_MAX_DEST_RD_ATOMIC, max_dest_rd_atomic);
	if (mask & IBV_QP_DEST_QPN)
		q->dest_qpn = attr->dest_qp_num;
	if ((mask & IBV_QP_STATE) && attr->qp_state == IBV_QPS_RTR)
		nd_connect(q); /* or at the first post, if the peer is late */
	return 0;
}

static int nd_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
		       struct ibv_qp_init_attr *init)
{
	struct nd_qp *q = (struct nd_qp *)qp;

	(void)mask;
	*attr = q->attr;
	attr->cur_qp_state = q->attr.qp_state;
	attr->cap = q->cap;
	memset(init, 0, sizeof(*init));
	init->qp_context = qp->qp_context;
	init->send_cq = qp->send_cq;
	init->recv_cq = qp->recv_cq;
	init->cap = q->cap;
	init->qp_type = qp->qp_type;
	init->sq_sig_all = q->sig_all;
	return 0;
}

const struct verbs_context_ops nd_qp_ops = {
	.create_cq = nd_create_cq,
	.destroy_cq = nd_destroy_cq,
	.poll_cq = nd_poll_cq,
	.create_qp = nd_create_qp,
	.create_qp_ex = nd_create_qp_ex,
	.destroy_qp = nd_destroy_qp,
	.modify_qp = nd_modify_qp,
	.query_qp = nd_query_qp,
	.post_send = nd_post_send,
	.post_recv = nd_post_recv,
};

/* the ibv_wr_* API: the requests between wr_start and wr_complete are
 * built in the QP, then posted as one list */
int nd_post_list(struct nd_qp *q);
int nd_post_list(struct nd_qp *q)
{
	struct ibv_send_wr *bad;

	for (uint32_t i = 0; i < q->nwr; i++) {
		q->wrs[i].next = i + 1 < q->nwr ? &q->wrs[i + 1] : NULL;
		q->wrs[i].sg_list = &q->wr_sge[i * ND_MAX_SGE];
	}
	return q->nwr ? nd_post_send(&q->vqp.qp, q->wrs, &bad) : 0;
}
