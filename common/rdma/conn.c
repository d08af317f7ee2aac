// SPDX-License-Identifier: BSD-2-Clause
/*
 * conn - the data connections' CQs, buffers and QPs. See conn.h; the
 * offsets in the buffers are spec/layout.h's.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "rdma/conn.h"
#include "lib/log.h"

struct ibv_qp *conn_qp_make(struct ibv_qp *(*make)(void *arg,
						  struct ibv_qp_init_attr *qia),
			    void *arg, struct ibv_qp_init_attr *qia,
			    const struct conn_qp_caps *caps,
			    uint32_t *inline_out)
{
	uint32_t want_inline = caps->want_inline;
	struct ibv_qp *qp;

	for (;;) { /* the device's inline limit: halve until one fits */
		qia->cap = (struct ibv_qp_cap){ .max_send_wr = caps->send_wr,
						.max_recv_wr = caps->recv_wr,
						.max_send_sge = 1,
						.max_recv_sge = caps->recv_sge ?
								caps->recv_sge : 1,
						.max_inline_data = want_inline };
		qia->srq = caps->srq;
		qp = make(arg, qia);
		if (qp || !want_inline)
			break;
		want_inline /= 2;
	}
	/* what was asked, not what the device rounds it up to */
	if (qp && inline_out)
		*inline_out = qia->cap.max_inline_data < want_inline ?
			      qia->cap.max_inline_data : want_inline;
	return qp;
}

struct conn_qp_caps conn_qp_data_caps(const struct conn *c,
				      uint32_t want_inline)
{
	return (struct conn_qp_caps){ .send_wr = c->send_depth + 1,
				      .recv_wr = c->srq ? 0 : c->recv_depth + 1,
				      .want_inline = want_inline,
				      .srq = c->srq };
}

/* rdma_cm's way: the QP belongs to the id. */
struct conn_cm_qp {
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
};

static struct ibv_qp *conn_cm_make(void *arg, struct ibv_qp_init_attr *qia)
{
	struct conn_cm_qp *m = arg;

	return rdma_create_qp(m->id, m->pd, qia) ? NULL : m->id->qp;
}

/* An RC QP on rdma_cm's id with caps (and its SRQ, if any). */
static int conn_cm_qp_create(struct rdma_cm_id *id, struct ibv_pd *pd,
			     struct ibv_cq *send_cq, struct ibv_cq *recv_cq,
			     struct conn_qp_caps *caps, uint32_t *inline_out)
{
	struct ibv_qp_init_attr qia = { .send_cq = send_cq,
					.recv_cq = recv_cq,
					.qp_type = IBV_QPT_RC };
	struct conn_cm_qp m = { .id = id, .pd = pd };
	int e;

	if (conn_qp_make(conn_cm_make, &m, &qia, caps, inline_out))
		return 0;
	e = errno ? errno : EINVAL;
	bench_err("rdma_create_qp(send %u, recv %u%s): %s", caps->send_wr,
		  caps->recv_wr, caps->srq ? ", SRQ" : "", strerror(e));
	return -e;
}

int conn_qp_create(struct rdma_cm_id *id, struct ibv_pd *pd,
		   struct ibv_cq *send_cq, struct ibv_cq *recv_cq,
		   uint32_t send_wr, uint32_t recv_wr, uint32_t want_inline,
		   uint32_t *inline_out)
{
	struct conn_qp_caps caps = { .send_wr = send_wr,
				     .recv_wr = recv_wr,
				     .want_inline = want_inline };

	return conn_cm_qp_create(id, pd, send_cq, recv_cq, &caps, inline_out);
}

static struct ibv_cq *conn_cq(struct ibv_context *verbs, uint32_t depth,
			      struct ibv_comp_channel *ch)
{
	struct ibv_cq *cq = ibv_create_cq(verbs, (int)depth, NULL, ch, 0);
	int ret;

	if (!cq) {
		bench_err("ibv_create_cq(%u): %s", depth, strerror(errno));
		return NULL;
	}
	ret = ch ? ibv_req_notify_cq(cq, 0) : 0;
	if (ret) {
		bench_err("ibv_req_notify_cq: %s", strerror(ret));
		ibv_destroy_cq(cq);
		return NULL;
	}
	return cq;
}

/* -e: one channel for both CQs, non-blocking (conn_cq_wait polls it). */
static int conn_channel(struct conn *c, struct ibv_context *verbs)
{
	int flags;

	c->channel = ibv_create_comp_channel(verbs);
	if (!c->channel) {
		bench_err("ibv_create_comp_channel: %s", strerror(errno));
		return -ENOMEM;
	}
	flags = fcntl(c->channel->fd, F_GETFL);
	if (flags < 0 ||
	    fcntl(c->channel->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		bench_err("completion channel: O_NONBLOCK: %s", strerror(errno));
		return -errno;
	}
	return 0;
}

int conn_cq_wait(const struct conn *c, int timeout_ms)
{
	struct pollfd pfd;
	struct ibv_cq *cq;
	void *cq_ctx;
	int ret;

	if (!c->channel)
		return 0;
	pfd = (struct pollfd){ .fd = c->channel->fd, .events = POLLIN };
	ret = poll(&pfd, 1, timeout_ms);
	if (ret <= 0)
		return ret < 0 && errno != EINTR ? -errno : 0;
	if (ibv_get_cq_event(c->channel, &cq, &cq_ctx))
		return errno == EAGAIN ? 0 : -errno;
	ibv_ack_cq_events(cq, 1);
	ret = ibv_req_notify_cq(cq, 0);
	if (ret)
		bench_err("ibv_req_notify_cq: %s", strerror(ret));
	return -ret;
}

/* --use-srq: one shared receive queue, as deep as all the QPs' queues. */
static int conn_srq(struct conn *c, struct ibv_pd *pd, uint32_t depth)
{
	struct ibv_srq_init_attr a = { .attr = { .max_wr = depth,
						 .max_sge = 2 } };

	int e;

	c->srq = ibv_create_srq(pd, &a);
	if (c->srq)
		return 0;
	e = errno ? errno : EINVAL;
	bench_err("ibv_create_srq(%u receives): %s: this device takes no SRQ "
		  "of that depth; drop --use-srq (each QP then keeps its own "
		  "receives) or lower -r",
		  depth, strerror(e));
	return -e;
}

/*
 * The data buffers: one for every QP, or with --mr_per_qp one each, an MR
 * each (perftest's create_single_mr per QP); then each QP's regions.
 */
static int conn_data_mem(struct conn *c, struct ibv_pd *pd,
			 const struct conn_params *p)
{
	int access = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
		     IBV_ACCESS_REMOTE_ATOMIC;
	unsigned int i, n = p->mr_per_qp ? p->nqps : 1;
	struct mem_buf *m;
	int ret = 0;

	c->own = p->mr_per_qp ? calloc(p->nqps, sizeof(*c->own)) : NULL;
	if (p->mr_per_qp && !c->own)
		return -ENOMEM;
	for (i = 0; i < n && !ret; i++) {
		m = c->own ? &c->own[i] : &c->mem;
		ret = mem_alloc(&p->mem, layout_data_bytes(p->nqps / n,
							   p->region_bytes), m);
		if (!ret)
			ret = mem_register(m, pd, access);
	}
	for (i = 0; i < p->nqps && !ret; i++) {
		c->qps[i].mem = c->own ? &c->own[i] : &c->mem;
		c->qps[i].base = (uint8_t *)c->qps[i].mem->addr +
				 layout_region(c->own ? 0 : i, 0, p->region_bytes);
	}
	return ret;
}

int conn_init(struct conn *c, struct ibv_context *verbs, struct ibv_pd *pd,
	      const struct conn_params *p)
{
	int ret = -ENOMEM;

	c->nqps = p->nqps;
	c->region_bytes = p->region_bytes;
	c->send_depth = p->send_depth;
	c->recv_depth = p->recv_depth;
	c->qps = calloc(p->nqps, sizeof(*c->qps));
	if (p->events) {
		ret = conn_channel(c, verbs);
		if (ret)
			goto err;
		ret = -ENOMEM;
	}
	c->send_cq = conn_cq(verbs, p->nqps * (p->send_depth + 1), c->channel);
	c->recv_cq = conn_cq(verbs, p->nqps * (p->recv_depth + 1), c->channel);
	if (!c->qps || !c->send_cq || !c->recv_cq)
		goto err;
	ret = p->srq ? conn_srq(c, pd, p->nqps * (p->recv_depth + 1)) : 0;
	if (ret)
		goto err;
	ret = conn_data_mem(c, pd, p);
	if (!ret)
		ret = mem_host_alloc(layout_aux_bytes(p->nqps), p->numa_node,
				     &c->aux);
	if (!ret)
		ret = mem_register(&c->aux, pd, 0);
	if (!ret)
		return 0;
err:
	conn_destroy(c);
	return ret;
}

int conn_qp_setup(struct conn *c, unsigned int i, struct ibv_pd *pd,
		  uint32_t want_inline)
{
	struct conn_qp_caps q = conn_qp_data_caps(c, want_inline);
	int ret;

	ret = conn_cm_qp_create(c->qps[i].ep.id, pd, c->send_cq, c->recv_cq, &q,
				&c->qps[i].max_inline);
	if (!ret)
		c->qps[i].qp = c->qps[i].ep.id->qp;
	return ret;
}

unsigned int conn_bufs(const struct conn *c)
{
	return c->own ? c->nqps : 1;
}

void conn_local_buf(const struct conn *c, unsigned int i,
		    struct wire_buf *out)
{
	out->addr = (uint64_t)(uintptr_t)c->qps[i].base;
	out->length = c->region_bytes;
	out->rkey = c->qps[i].mem->mr->rkey;
}

void conn_remote_buf(struct conn *c, unsigned int i,
		     const struct wire_buf *b)
{
	unsigned int q;

	if (c->own) {
		c->qps[i].remote = *b;
		return;
	}
	for (q = 0; q < c->nqps; q++) { /* one buffer: QP q's regions */
		c->qps[q].remote = *b;
		c->qps[q].remote.addr += layout_region(q, 0, b->length);
	}
}

void conn_destroy(struct conn *c)
{
	unsigned int i;

	/* the QPs go first (with their ids), then what they used */
	for (i = 0; c->qps && i < c->nqps; i++) {
		if (c->qps[i].ep.id)
			cm_close(&c->qps[i].ep);
		else if (c->qps[i].qp && ibv_destroy_qp(c->qps[i].qp))
			bench_warn("ibv_destroy_qp: %s", strerror(errno));
		if (c->qps[i].ah && ibv_destroy_ah(c->qps[i].ah))
			bench_warn("ibv_destroy_ah: %s", strerror(errno));
	}
	free(c->qps);
	c->qps = NULL;
	if (c->srq && ibv_destroy_srq(c->srq))
		bench_warn("ibv_destroy_srq: %s", strerror(errno));
	c->srq = NULL;
	mem_free(&c->mem);
	for (i = 0; c->own && i < c->nqps; i++)
		mem_free(&c->own[i]);
	free(c->own);
	c->own = NULL;
	mem_free(&c->aux);
	if (c->send_cq && ibv_destroy_cq(c->send_cq))
		bench_warn("ibv_destroy_cq: %s", strerror(errno));
	if (c->recv_cq && ibv_destroy_cq(c->recv_cq))
		bench_warn("ibv_destroy_cq: %s", strerror(errno));
	c->send_cq = c->recv_cq = NULL;
	if (c->channel && ibv_destroy_comp_channel(c->channel))
		bench_warn("ibv_destroy_comp_channel: %s", strerror(errno));
	c->channel = NULL;
}
