// SPDX-License-Identifier: BSD-2-Clause
/*
 * scripts/bench/hotloop.c - the software cost of rdmabench's hot loops per
 * work request (bandwidth) and per iteration (latency), without a NIC: a
 * fake verbs provider completes every request at once, so what is timed is
 * our own loop (xfer_bw_run / xfer_lat_run, linked from build/libbench.a)
 * and,
 * for comparison, loops shaped like perftest's (run_iter_bw: one request
 * built once, a cycle stamp per post; run_iter_lat_write: stamp, post,
 * poll its completion, spin on the pong). Built and run by hotloop.sh.
 *
 * Usage: hotloop MODE [ITERS [SIZE [REPS]]]   prints the best of REPS
 *   bw      xfer_bw_run, RDMA write, -t 128 -Q 100, one QP
 *   lat     xfer_lat_run as the initiator, RDMA write ping-pong: the fake
 *           write lands in our own receive region, so the pong is instant
 *   pt-bw   perftest's bandwidth loop shape (with its rdtsc per post)
 *   pt-lat  perftest's write latency loop shape
 *   clock   timer_now_ns() alone;  rdtsc  the TSC read alone
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>
#include <infiniband/verbs.h>

#include "rdma/ctrl.h"
#include "lib/hist.h"
#include "lib/timer.h"
#include "xfer/xfer.h"

/* ---- the control channel: nothing arrives, nothing fails */
int ctrl_poll(struct ctrl *c, struct wire_msg *m) { (void)c; (void)m; return -EAGAIN; }
int ctrl_send(struct ctrl *c, const struct wire_msg *m) { (void)c; (void)m; return 0; }
bool ctrl_peer_gone(struct ctrl *c) { (void)c; return false; }
int ctrl_await_error(struct ctrl *c, unsigned int ms) { (void)c; (void)ms; return 0; }
int ctrl_peer_status(const struct wire_msg *m) { (void)m; return -EPROTO; }
void ctrl_unread(struct ctrl *c, const struct wire_msg *m) { (void)c; (void)m; }

/* ---- the fake provider: writes land at once, completions in a ring */
#define RING 4096
static struct ibv_wc ring[RING];
static unsigned long ring_head, ring_tail;

static int fake_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
			  struct ibv_send_wr **bad)
{
	(void)qp;
	(void)bad;
	for (; wr; wr = wr->next) {
		if (wr->opcode == IBV_WR_RDMA_WRITE)
			memcpy((void *)(uintptr_t)wr->wr.rdma.remote_addr,
			       (void *)(uintptr_t)wr->sg_list->addr,
			       wr->sg_list->length);
		if (wr->send_flags & IBV_SEND_SIGNALED) {
			struct ibv_wc *w = &ring[ring_head++ % RING];

			memset(w, 0, sizeof(*w));
			w->wr_id = wr->wr_id;
		}
	}
	return 0;
}

static int fake_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	int k = 0;

	(void)cq;
	while (k < n && ring_tail < ring_head)
		wc[k++] = ring[ring_tail++ % RING];
	return k;
}

static int fake_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
			  struct ibv_recv_wr **bad)
{
	(void)qp;
	(void)wr;
	(void)bad;
	return 0;
}

static struct ibv_context ctx;
static struct ibv_qp qp;
static struct ibv_cq cq;
static struct ibv_mr mr;
static struct conn conn;
static struct conn_qp cqp;
static struct ctrl ctl;
static struct xfer_qp_state qs;

static int pt_bw(uint64_t iters, uint64_t size, uint64_t *stamps)
{
	struct ibv_send_wr wr = { .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE }, *bad;
	struct ibv_sge sge = { .addr = (uintptr_t)conn.mem.addr + size,
			       .length = (uint32_t)size, .lkey = 1 };
	struct ibv_wc wc[16];
	uint64_t scnt = 0, ccnt = 0;
	int k, n;

	wr.sg_list = &sge;
	wr.wr.rdma.remote_addr = (uintptr_t)conn.mem.addr;
	wr.wr.rdma.rkey = 2;
	while (scnt < iters || ccnt < iters) {
		while (scnt < iters && scnt - ccnt < 128) {
			if (scnt % 100 == 99 || scnt == iters - 1)
				wr.send_flags |= IBV_SEND_SIGNALED;
			else
				wr.send_flags &= ~IBV_SEND_SIGNALED;
			if (size <= 256)
				wr.send_flags |= IBV_SEND_INLINE;
			stamps[scnt] = __rdtsc();
			wr.wr_id = scnt;
			if (ibv_post_send(&qp, &wr, &bad))
				return -EIO;
			scnt++;
		}
		n = ibv_poll_cq(&cq, 16, wc);
		for (k = 0; k < n; k++)
			ccnt = wc[k].wr_id + 1;
	}
	return 0;
}

static int pt_lat(uint64_t iters, uint64_t size, uint64_t *stamps)
{
	struct ibv_send_wr wr = { .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE }, *bad;
	struct ibv_sge sge = { .addr = (uintptr_t)conn.mem.addr + size,
			       .length = (uint32_t)size, .lkey = 1 };
	volatile uint8_t *poll_buf = (uint8_t *)conn.mem.addr + size - 1;
	uint8_t *post_buf = (uint8_t *)conn.mem.addr + 2 * size - 1;
	struct ibv_wc wc;
	uint64_t scnt = 0;

	wr.sg_list = &sge;
	wr.wr.rdma.remote_addr = (uintptr_t)conn.mem.addr;
	wr.wr.rdma.rkey = 2;
	while (scnt < iters) {
		stamps[scnt] = __rdtsc();
		*post_buf = (uint8_t)++scnt;
		if (ibv_post_send(&qp, &wr, &bad))
			return -EIO;
		while (ibv_poll_cq(&cq, 1, &wc) == 0)
			;
		while (*poll_buf != (uint8_t)scnt)
			;
	}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int run_once(const char *mode, const struct xfer *x, uint64_t iters,
		    uint64_t size, uint64_t *stamps)
{
	uint64_t i, sum = 0;

	memset(conn.mem.addr, 0, 2 * size);
	qs = (struct xfer_qp_state){ 0 };
	ring_head = ring_tail = 0;
	if (!strcmp(mode, "bw")) {
		struct xfer_bw_plan p = { .size = size, .iters = iters,
					  .tx_depth = 128, .cq_mod = 100,
					  .post_list = 1, .sends = true };
		struct xfer_bw_out o;

		return xfer_bw_run(x, &p, &o);
	}
	if (!strcmp(mode, "lat")) {
		struct hist *h = hist_create();
		uint64_t done;
		int ret;

		if (!h)
			return -ENOMEM;
		ret = xfer_lat_run(x, true, size, iters, 0, h, &done);
		hist_destroy(h);
		return ret;
	}
	if (!strcmp(mode, "pt-bw"))
		return pt_bw(iters, size, stamps);
	if (!strcmp(mode, "pt-lat"))
		return pt_lat(iters, size, stamps);
	if (!strcmp(mode, "clock")) {
		for (i = 0; i < iters; i++)
			sum += timer_now_ns();
		return sum == 1;
	}
	if (!strcmp(mode, "rdtsc")) {
		for (i = 0; i < iters; i++)
			sum += __rdtsc();
		return sum == 1;
	}
	fprintf(stderr, "hotloop: unknown mode %s\n", mode);
	return -EINVAL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "bw";
	uint64_t iters = argc > 2 ? strtoull(argv[2], NULL, 0) : 1000000;
	uint64_t size = argc > 3 ? strtoull(argv[3], NULL, 0) : 64;
	int reps = argc > 4 ? atoi(argv[4]) : 5, r, ret;
	uint64_t *stamps = calloc(iters, sizeof(*stamps));
	struct xfer x;
	double best = 1e30, t0, dt;

	if (!stamps || !iters || !size)
		return 2;
	ctx.ops.post_send = fake_post_send;
	ctx.ops.poll_cq = fake_poll_cq;
	ctx.ops.post_recv = fake_post_recv;
	qp.context = &ctx;
	cq.context = &ctx;
	mr.lkey = 1;
	mr.rkey = 2;
	conn.send_cq = conn.recv_cq = &cq;
	cqp.qp = &qp;
	cqp.max_inline = 256;
	conn.qps = &cqp;
	conn.nqps = 1;
	conn.region_bytes = size;
	conn.mem.addr = aligned_alloc(4096, (2 * size + 4095) / 4096 * 4096);
	conn.mem.mr = &mr;
	cqp.base = conn.mem.addr;
	cqp.mem = &conn.mem;
	cqp.remote = (struct wire_buf){ .addr = (uintptr_t)conn.mem.addr,
					.length = size, .rkey = 2 };
	conn.send_depth = 128;
	conn.recv_depth = 512;
	ctl.fd = -1;
	ctl.peer_role = "peer";
	x = (struct xfer){ .conn = &conn, .qs = &qs, .ctrl = &ctl,
			   .verb = BENCH_VERB_WRITE,
			   .io_timeout_ns = 3600ULL * NS_PER_S, .slots = 1,
			   .flip_iter = -1, .clock = tick_src_pick(NULL) };
	if (!conn.mem.addr)
		return 2;
	for (r = 0; r < reps; r++) {
		t0 = now_s();
		ret = run_once(mode, &x, iters, size, stamps);
		dt = now_s() - t0;
		if (ret) {
			fprintf(stderr, "hotloop %s: failed (%d)\n", mode, ret);
			return 1;
		}
		if (dt < best)
			best = dt;
	}
	printf("%-7s %8.1f ns per %s (size %llu, best of %d x %llu)\n", mode,
	       best * 1e9 / (double)iters,
	       strcmp(mode, "bw") && strcmp(mode, "pt-bw") ? "iteration" : "WR",
	       (unsigned long long)size, reps, (unsigned long long)iters);
	return 0;
}
