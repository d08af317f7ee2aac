// SPDX-License-Identifier: BSD-2-Clause
/*
 * qp_raw - QPs without rdma_cm (--oob tcp). See qp_raw.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "rdma/qp_raw.h"

/* The verbs way: the QP is the protection domain's. */
static struct ibv_qp *qp_raw_make(void *pd, struct ibv_qp_init_attr *qia)
{
	return ibv_create_qp(pd, qia);
}

/* --pkey_index: an entry of the port's P_Key table, said when it is not. */
static int qp_raw_pkey_fits(struct ibv_context *ctx,
			    const struct qp_raw_path *path,
			    const struct ibv_port_attr *pa)
{
	if (!path->pkey_index || path->pkey_index < pa->pkey_tbl_len)
		return 0;
	bench_err("--pkey_index %u: %s port %u has %u P_Key table entr%s "
		  "(ibv_devinfo -v lists them): give --pkey_index 0..%u",
		  path->pkey_index, ibv_get_device_name(ctx->device),
		  path->port, pa->pkey_tbl_len,
		  pa->pkey_tbl_len == 1 ? "y" : "ies",
		  pa->pkey_tbl_len ? pa->pkey_tbl_len - 1 : 0);
	return -EINVAL;
}

int qp_raw_create(struct conn *c, unsigned int i, struct ibv_pd *pd,
		  uint32_t want_inline, const struct qp_raw_path *path,
		  struct qp_raw_addr *addr)
{
	struct ibv_qp_init_attr qia = { .send_cq = c->send_cq,
					.recv_cq = c->recv_cq,
					.qp_type = path->ud ? IBV_QPT_UD :
						   path->uc ? IBV_QPT_UC
							    : IBV_QPT_RC };
	struct conn_qp_caps caps = conn_qp_data_caps(c, want_inline);
	struct ibv_port_attr pa;
	union ibv_gid gid;
	int ret;

	caps.recv_sge = path->ud ? 2 : 1;
	c->qps[i].qp = conn_qp_make(qp_raw_make, pd, &qia, &caps,
				    &c->qps[i].max_inline);
	if (!c->qps[i].qp) {
		ret = -errno;
		bench_err("ibv_create_qp: %s", strerror(-ret));
		return ret;
	}
	memset(addr, 0, sizeof(*addr));
	addr->qpn = c->qps[i].qp->qp_num;
	addr->psn = (uint32_t)lrand48() & 0xffffff;
	c->qps[i].psn = addr->psn;
	if (!ibv_query_port(c->qps[i].qp->context, path->port, &pa))
		addr->lid = pa.lid;
	ret = qp_raw_pkey_fits(c->qps[i].qp->context, path, &pa);
	if (ret)
		return ret;
	if (path->gid_index >= 0 &&
	    !ibv_query_gid(c->qps[i].qp->context, path->port, path->gid_index,
			   &gid))
		memcpy(addr->gid, gid.raw, sizeof(addr->gid));
	return 0;
}

static int qp_raw_modify(struct ibv_qp *qp, struct ibv_qp_attr *a,
			 int mask, const char *state)
{
	int ret = ibv_modify_qp(qp, a, mask);

	if (ret)
		bench_err("ibv_modify_qp(%s): %s", state, strerror(ret));
	return -ret;
}

/* The peer's address as verbs takes it (an AH, or a connected QP's AV). */
static struct ibv_ah_attr qp_raw_av(const struct qp_raw_path *path,
				    const struct qp_raw_addr *peer)
{
	struct ibv_ah_attr av = { .dlid = path->dlid ? path->dlid : peer->lid,
				  .port_num = path->port,
				  .sl = path->sl,
				  .static_rate = path->static_rate };

	if (path->gid_index >= 0) {
		av.is_global = 1;
		av.grh.hop_limit = path->hop_limit;
		av.grh.traffic_class = path->traffic_class;
		av.grh.flow_label = path->flow_label & 0xfffff;
		av.grh.sgid_index = (uint8_t)path->gid_index;
		memcpy(av.grh.dgid.raw, peer->gid, 16);
	}
	return av;
}

/* UD: INIT (with the Q_Key), RTR, RTS, then the peer's address handle. */
static int qp_raw_connect_ud(struct conn *c, unsigned int i, struct ibv_pd *pd,
			     const struct qp_raw_path *path,
			     const struct qp_raw_addr *peer)
{
	struct ibv_qp *qp = c->qps[i].qp;
	struct ibv_ah_attr av = qp_raw_av(path, peer);
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT,
				 .port_num = path->port,
				 .pkey_index = path->pkey_index,
				 .qkey = CONN_UD_QKEY };
	int ret;

	ret = qp_raw_modify(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			    IBV_QP_PORT | IBV_QP_QKEY, "INIT");
	a = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTR };
	if (!ret)
		ret = qp_raw_modify(qp, &a, IBV_QP_STATE, "RTR");
	a = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTS,
				  .sq_psn = c->qps[i].psn };
	if (!ret)
		ret = qp_raw_modify(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN,
				    "RTS");
	if (ret)
		return ret;
	c->qps[i].ah = ibv_create_ah(pd, &av);
	if (!c->qps[i].ah) {
		ret = errno ? -errno : -EINVAL;
		bench_err("ibv_create_ah: %s", strerror(-ret));
		return ret;
	}
	c->qps[i].remote_qpn = peer->qpn;
	return 0;
}

int qp_raw_connect(struct conn *c, unsigned int i, struct ibv_pd *pd,
		   const struct qp_raw_path *path,
		   const struct qp_raw_addr *peer)
{
	struct ibv_qp *qp = c->qps[i].qp;
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = path->port,
		.pkey_index = path->pkey_index,
		.qp_access_flags = path->uc ? IBV_ACCESS_REMOTE_WRITE :
					      IBV_ACCESS_REMOTE_WRITE |
						      IBV_ACCESS_REMOTE_READ |
						      IBV_ACCESS_REMOTE_ATOMIC,
	};
	int ret;

	if (path->ud)
		return qp_raw_connect_ud(c, i, pd, path, peer);
	ret = qp_raw_modify(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			    IBV_QP_PORT | IBV_QP_ACCESS_FLAGS, "INIT");
	if (ret)
		return ret;
	a = (struct ibv_qp_attr){
		.qp_state = IBV_QPS_RTR, .path_mtu = path->mtu,
		.dest_qp_num = peer->qpn, .rq_psn = peer->psn,
		.max_dest_rd_atomic = path->max_dest_rd_atomic, .min_rnr_timer = 12,
		.ah_attr = qp_raw_av(path, peer),
	};
	/* UC has no reads, atomics, acks or retries to set up */
	ret = qp_raw_modify(qp, &a, IBV_QP_STATE | IBV_QP_AV |
			    IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			    (path->uc ? 0 : IBV_QP_MAX_DEST_RD_ATOMIC |
			     IBV_QP_MIN_RNR_TIMER), "RTR");
	if (ret)
		return ret;
	a = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTS,
				  .timeout = path->timeout,
				  .retry_cnt = path->retry_cnt, .rnr_retry = 7,
				  .sq_psn = c->qps[i].psn,
				  .max_rd_atomic = path->max_rd_atomic };
	return qp_raw_modify(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN |
			     (path->uc ? 0 : IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			      IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC),
			     "RTS");
}

int qp_raw_rate_held(const struct conn *c, unsigned int i,
		     const struct qp_raw_path *path)
{
	struct ibv_qp_init_attr init;
	struct ibv_port_attr pa;
	struct ibv_qp_attr a;
	struct ibv_qp *qp = c->qps[i].qp;

	if (ibv_query_port(qp->context, path->port, &pa) ||
	    pa.link_layer != IBV_LINK_LAYER_INFINIBAND)
		return -EOPNOTSUPP;
	if (path->ud) /* the address handle holds it */
		return 0;
	memset(&a, 0, sizeof(a));
	if (ibv_query_qp(qp, &a, IBV_QP_AV, &init) ||
	    a.ah_attr.static_rate != path->static_rate)
		return -EOPNOTSUPP;
	return 0;
}
