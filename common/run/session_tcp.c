// SPDX-License-Identifier: BSD-2-Clause
/*
 * session_tcp - the two sides of a run with --oob tcp: the control channel
 * is a TCP socket (the server can be reached by any name, e.g. a headless
 * Service), the device is -d / --netdev / the first one, the GID is -x or
 * the best RoCEv2 GID, and the QPs are connected by hand with the numbers
 * exchanged over the socket. iWARP QPs connect only through rdma_cm.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdma/ctrl_tcp.h"
#include "rdma/qp_raw.h"
#include "lib/log.h"
#include "lib/stop.h"
#include "run/session.h"
#include "lib/timer.h"

/* Open the device, check it can do this, pick the GID, set up the PD. */
static int tcp_device(struct bench_ctx *b)
{
	struct ibv_context *verbs;
	int ret;

	ret = dev_open(b->cfg.dev_name, b->cfg.netdev, &verbs);
	if (ret)
		return ret;
	ret = ctrl_tcp_setup(&b->ctrl, verbs); /* the ctrl owns verbs now */
	if (ret)
		return ret;
	b->port = (uint8_t)b->cfg.ib_port;
	if (verbs->device->transport_type == IBV_TRANSPORT_IWARP) {
		bench_err("%s is iWARP: its QPs connect only through rdma_cm, so "
			  "it has no TCP out-of-band path: drop --oob tcp",
			  ibv_get_device_name(verbs->device));
		return -EOPNOTSUPP;
	}
	ret = dev_pick_gid(verbs, b->port, b->cfg.has_gid_index ?
			   (int)b->cfg.gid_index : -1, b->cfg.netdev,
			   &b->gid_index, b->local, sizeof(b->local));
	if (!ret)
		bench_info("data path: %s port %u, GID %s (index %d)",
			   ibv_get_device_name(verbs->device), b->port, b->local,
			   b->gid_index);
	return ret;
}

/* This side's path for the raw QPs: port, GID, MTU, reads in flight. */
static void tcp_path(const struct bench_ctx *b, enum ibv_mtu peer_mtu,
		     struct qp_raw_path *path)
{
	struct ibv_port_attr pa = { .active_mtu = IBV_MTU_1024 };
	struct ibv_device_attr da = { .max_qp_rd_atom = 16 };

	ibv_query_port(b->ctrl.verbs, b->port, &pa);
	ibv_query_device(b->ctrl.verbs, &da);
	path->port = b->port;
	path->uc = b->test.flags & WIRE_HELLO_UC;
	path->gid_index = b->gid_index;
	path->mtu = pa.active_mtu < peer_mtu || !peer_mtu ? pa.active_mtu
							  : peer_mtu;
	path->max_rd_atomic = da.max_qp_rd_atom < 16 ?
			      (uint8_t)da.max_qp_rd_atom : 16;
}

static void tcp_info_pack(const struct qp_raw_addr *a, unsigned int i,
			  enum ibv_mtu mtu, struct wire_msg *m)
{
	*m = (struct wire_msg){ .type = WIRE_QP_INFO };
	m->u.qp_info.qp_index = (uint16_t)i;
	m->u.qp_info.lid = a->lid;
	m->u.qp_info.qpn = a->qpn;
	m->u.qp_info.psn = a->psn;
	m->u.qp_info.mtu = (uint8_t)mtu;
	memcpy(m->u.qp_info.gid, a->gid, sizeof(a->gid));
}

static void tcp_info_unpack(const struct wire_msg *m, struct qp_raw_addr *a)
{
	a->qpn = m->u.qp_info.qpn;
	a->psn = m->u.qp_info.psn;
	a->lid = m->u.qp_info.lid;
	memcpy(a->gid, m->u.qp_info.gid, sizeof(a->gid));
}

/*
 * Every QP: the client creates its QP and sends its address; the server
 * creates its own, connects it and answers; the client connects.
 */
static int tcp_connect_qps(struct bench_ctx *b)
{
	struct ibv_port_attr pa = { 0 };
	struct qp_raw_addr mine, theirs;
	struct qp_raw_path path;
	struct wire_msg msg;
	unsigned int i;
	int ret = 0;

	ibv_query_port(b->ctrl.verbs, b->port, &pa);
	tcp_path(b, 0, &path);
	for (i = 0; i < b->test.qps && !ret; i++) {
		uint32_t inl = bench_inline_bytes(b);

		ret = qp_raw_create(&b->data, i, b->ctrl.pd, inl, &path, &mine);
		if (!ret && !b->is_server) {
			tcp_info_pack(&mine, i, pa.active_mtu, &msg);
			ret = ctrl_send(&b->ctrl, &msg);
		}
		if (!ret)
			ret = ctrl_recv(&b->ctrl, WIRE_QP_INFO, &msg);
		if (!ret && msg.u.qp_info.qp_index != i) {
			bench_err("QP_INFO for QP %u, expected %u",
				  msg.u.qp_info.qp_index, i);
			ret = -EPROTO;
		}
		if (ret)
			break;
		tcp_info_unpack(&msg, &theirs);
		tcp_path(b, (enum ibv_mtu)msg.u.qp_info.mtu, &path);
		ret = qp_raw_connect(&b->data, i, &path, &theirs);
		if (!ret && b->is_server) {
			tcp_info_pack(&mine, i, pa.active_mtu, &msg);
			ret = ctrl_send(&b->ctrl, &msg);
		}
	}
	return ret;
}

static int tcp_attempt(struct bench_ctx *b, uint64_t deadline_ns)
{
	return oob_connect(b->cfg.server_addr, (uint16_t)b->cfg.tcp_port,
			   deadline_ns, &b->ctrl.fd);
}

/* Client: the TCP connection, retried until --connect-timeout. */
static int tcp_client_connect(struct bench_ctx *b)
{
	int ret;

	/* oob_connect logs nothing: every failure is said here */
	ret = session_connect_retry(b, tcp_attempt, "TCP port",
				    "is the server running with --oob tcp?",
				    true);
	snprintf(b->peer, sizeof(b->peer), "%.60s:%llu (TCP)", b->cfg.server_addr,
		 (unsigned long long)b->cfg.tcp_port);
	return ret;
}

int session_client_tcp(struct bench_ctx *b)
{
	int ret;

	ret = tcp_device(b);
	if (!ret)
		ret = tcp_client_connect(b);
	if (!ret)
		ret = session_client_hello(b);
	if (!ret)
		ret = bench_data_init(b);
	if (!ret)
		ret = tcp_connect_qps(b);
	if (!ret)
		ret = bench_xchg_bufs(b);
	return ret ? ret : session_client_sizes(b);
}

static int tcp_serve(struct bench_ctx *b, int listen_fd)
{
	int ret;

	ret = oob_accept(listen_fd, 0, &b->ctrl.fd, b->peer, sizeof(b->peer));
	if (!ret)
		ret = oob_first_byte(b->ctrl.fd,
				     timer_deadline_ns(b->ctrl.timeout_ms));
	if (!ret)
		ret = session_server_hello(b);
	if (!ret)
		ret = bench_data_init(b);
	if (!ret)
		ret = tcp_connect_qps(b);
	if (!ret)
		ret = bench_xchg_bufs(b);
	return ret ? ret : session_server_sizes(b);
}

int session_server_tcp(struct bench_ctx *b)
{
	int listen_fd, ret;

	ret = tcp_device(b);
	if (ret)
		return ret;
	ret = oob_listen((uint16_t)b->cfg.tcp_port, &listen_fd);
	if (ret)
		return ret;
	bench_info("waiting for a client on TCP port %llu (rdmabench %s, "
		   "--oob tcp)", (unsigned long long)b->cfg.tcp_port,
		   RDMABENCH_VERSION);
	for (;;) {
		ret = tcp_serve(b, listen_fd);
		if (ret == -ENOTCONN && !stop_flag) {
			/* a probe: not a client, not news */
			close(b->ctrl.fd);
			b->ctrl.fd = -1;
			continue;
		}
		if (!b->cfg.persistent || stop_flag)
			break;
		session_client_done(b, ret);
		ret = tcp_device(b);
		if (ret)
			break;
	}
	close(listen_fd);
	return b->cfg.persistent && stop_flag ? 0 : ret;
}
