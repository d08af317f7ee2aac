// SPDX-License-Identifier: BSD-2-Clause
#include <errno.h>
#include <string.h>

#include "conn.h"
#include "log.h"

int conn_qp_create(struct rdma_cm_id *id, struct ibv_pd *pd,
		   struct ibv_cq *send_cq, struct ibv_cq *recv_cq,
		   uint32_t send_wr, uint32_t recv_wr, uint32_t want_inline,
		   uint32_t *inline_out)
{
	struct ibv_qp_init_attr qia = {
		.send_cq = send_cq,
		.recv_cq = recv_cq,
		.qp_type = IBV_QPT_RC,
		.sq_sig_all = 0,
	};
	int ret = 0;

	/* Devices differ in the inline size they allow: halve until one
	 * accepts (rxe, siw and mlx5 all differ). */
	for (;;) {
		qia.cap = (struct ibv_qp_cap){ .max_send_wr = send_wr,
					       .max_recv_wr = recv_wr,
					       .max_send_sge = 1,
					       .max_recv_sge = 1,
					       .max_inline_data = want_inline };
		if (!rdma_create_qp(id, pd, &qia))
			break;
		ret = -errno;
		if (!want_inline)
			break;
		want_inline /= 2;
	}
	if (ret && !id->qp) {
		bench_err("rdma_create_qp(send %u, recv %u): %s", send_wr,
			  recv_wr, strerror(-ret));
		return ret;
	}
	if (inline_out)
		*inline_out = qia.cap.max_inline_data;
	return 0;
}

int conn_setup(struct conn *c, struct ibv_pd *pd, uint64_t region_bytes,
	       uint32_t send_depth, int numa_node)
{
	struct ibv_context *verbs = c->ep.id->verbs;
	size_t len = 2 * region_bytes + CONN_FIN_SLOT_BYTES;
	int ret;

	c->region_bytes = region_bytes;
	c->send_depth = send_depth;
	c->cq = ibv_create_cq(verbs, (int)(send_depth + 2), NULL, NULL, 0);
	if (!c->cq) {
		ret = -errno;
		bench_err("ibv_create_cq(%u): %s", send_depth + 2,
			  strerror(-ret));
		return ret;
	}
	/* one receive slot: the FIN that ends a bandwidth run */
	ret = conn_qp_create(c->ep.id, pd, c->cq, c->cq, send_depth + 1, 2,
			     256, &c->max_inline);
	if (ret)
		goto err_destroy_cq;
	ret = mem_host_alloc(len, numa_node, &c->mem);
	if (ret)
		goto err_destroy_qp;
	ret = mem_register(&c->mem, pd,
			   IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
				   IBV_ACCESS_REMOTE_ATOMIC);
	if (ret)
		goto err_free_mem;
	return 0;

err_free_mem:
	mem_free(&c->mem);
err_destroy_qp:
	rdma_destroy_qp(c->ep.id);
err_destroy_cq:
	ibv_destroy_cq(c->cq);
	c->cq = NULL;
	return ret;
}

void conn_local_buf(const struct conn *c, struct wire_buf *out)
{
	out->addr = (uint64_t)(uintptr_t)c->mem.addr;
	out->length = c->region_bytes;
	out->rkey = c->mem.mr->rkey;
}

uint8_t *conn_recv_region(const struct conn *c)
{
	return c->mem.addr;
}

uint8_t *conn_send_region(const struct conn *c)
{
	return (uint8_t *)c->mem.addr + c->region_bytes;
}

uint8_t *conn_fin_slot(const struct conn *c)
{
	return (uint8_t *)c->mem.addr + 2 * c->region_bytes;
}

void conn_destroy(struct conn *c)
{
	/* the QP goes first (with the id), then what it used */
	cm_close(&c->ep);
	mem_free(&c->mem);
	if (c->cq && ibv_destroy_cq(c->cq))
		bench_warn("ibv_destroy_cq: %s", strerror(errno));
	c->cq = NULL;
}
