// SPDX-License-Identifier: BSD-2-Clause
/*
 * xfer - posting, completion errors, the watchdog, FINs and validation,
 * shared by the bandwidth (xfer_bw.c) and latency (xfer_lat.c) loops.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/log.h"
#include "lib/stop.h"
#include "xfer/xfer_int.h"

/* The one place the verb table's opcode column is expanded. */
static const enum ibv_wr_opcode verb_opcode[BENCH_VERB_COUNT] = {
#define X(e, name, title, op, region, end, lat, div, uc, fixed) \
	[BENCH_VERB_##e] = op,
	BENCH_VERBS(X)
#undef X
};

uint8_t *xfer_slot(const struct xfer *x, unsigned int qp,
		   enum bench_region r, uint64_t size, uint64_t iter)
{
	uint64_t slot = x->validate ? iter % x->slots : 0;

	return conn_region(x->conn, qp, r) + slot * size;
}

/* An atomic's operands for iteration iter: FAA adds 1; CAS moves the
 * counter from iter to iter + 1, which succeeds only when every earlier
 * one did. */
static void xfer_atomic_args(struct ibv_send_wr *wr, uint64_t iter)
{
	wr->wr.atomic.compare_add =
		wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP ? iter : 1;
	wr->wr.atomic.swap = iter + 1;
}

/* Fill one work request for iteration iter. */
static void xfer_wr(const struct xfer *x, unsigned int qp, uint64_t size,
		    uint64_t iter, struct ibv_send_wr *wr, struct ibv_sge *sge)
{
	const struct bench_verb_info *v = bench_verb(x->verb);
	struct conn *c = x->conn;
	uint64_t slot = x->validate ? iter % x->slots : 0;
	uint64_t remote = conn_remote_region(c, qp, v->region) + slot * size;

	*sge = (struct ibv_sge){ .length = (uint32_t)size,
				 .lkey = c->qps[qp].mem->mr->lkey };
	*wr = (struct ibv_send_wr){ .sg_list = sge, .num_sge = 1,
				    .opcode = verb_opcode[x->verb] };
	if (v->fixed_size) { /* atomics: 8 bytes into the aux slot */
		sge->addr = (uintptr_t)conn_aux_slot(c, qp, LAYOUT_AUX_ATOMIC);
		sge->lkey = c->aux.mr->lkey;
		wr->wr.atomic.remote_addr = conn_remote_region(c, qp, v->region);
		wr->wr.atomic.rkey = c->qps[qp].remote.rkey;
		xfer_atomic_args(wr, iter);
		return;
	}
	sge->addr = (uintptr_t)xfer_slot(x, qp, v->region == BENCH_REGION_SEND ?
					 BENCH_REGION_RECV : BENCH_REGION_SEND,
					 size, iter);
	wr->wr.rdma.remote_addr = remote;
	wr->wr.rdma.rkey = c->qps[qp].remote.rkey;
	if (c->qps[qp].ah) { /* UD: the peer's address, not its memory */
		wr->wr.ud.ah = c->qps[qp].ah;
		wr->wr.ud.remote_qpn = c->qps[qp].remote_qpn;
		wr->wr.ud.remote_qkey = CONN_UD_QKEY;
	}
	if (v->region == BENCH_REGION_RECV && size <= c->qps[qp].max_inline)
		wr->send_flags |= IBV_SEND_INLINE;
	if (x->validate && v->region == BENCH_REGION_RECV)
		xfer_fill(x, qp, (uint8_t *)(uintptr_t)sge->addr, size, iter);
}

/*
 * One request, the common case: without --validate every iteration posts
 * the same request (same slot, same addresses), so it is built once per
 * size and only its flags and wr_id change (and an atomic's operands).
 */
static struct xfer_qp_state *xfer_tmpl(const struct xfer *x, unsigned int qp,
				       uint64_t size, uint64_t first)
{
	struct xfer_qp_state *s = &x->qs[qp];

	if (s->tmpl_size != size) {
		xfer_wr(x, qp, size, first, &s->tmpl, &s->tmpl_sge);
		s->tmpl.sg_list = &s->tmpl_sge;
		s->tmpl_flags = s->tmpl.send_flags;
		s->tmpl_size = size;
	}
	return s;
}

/* Requests that stay as built for a whole run: not with --validate
 * (each its own slot) nor compare-and-swap (each its own operands). */
static bool xfer_as_built(const struct xfer *x)
{
	return !x->validate && verb_opcode[x->verb] != IBV_WR_ATOMIC_CMP_AND_SWP;
}

struct ibv_send_wr *xfer_tmpl_wr(const struct xfer *x, unsigned int qp,
				 uint64_t size)
{
	struct xfer_qp_state *s;

	if (!xfer_as_built(x))
		return NULL;
	s = xfer_tmpl(x, qp, size, 0);
	s->tmpl.send_flags = s->tmpl_flags | IBV_SEND_SIGNALED;
	return &s->tmpl;
}

/* A refused post, said once; out of the posting path (cold). The spec
 * says positive errno; some providers return it negative. */
__attribute__((cold, noinline)) int
xfer_post_failed(const struct xfer *x, uint64_t size, uint32_t n, int ret)
{
	ret = abs(ret);
	bench_err("ibv_post_send(%s, %llu bytes, list of %u): %s",
		  bench_verb_name(x->verb), (unsigned long long)size, n,
		  strerror(ret));
	return -ret;
}

static int xfer_post_one(const struct xfer *x, unsigned int qp, uint64_t size,
			 uint64_t first, bool signal, uint64_t count,
			 bool atomic)
{
	struct xfer_qp_state *s = xfer_tmpl(x, qp, size, first);
	struct ibv_send_wr *bad;
	int ret;

	if (atomic)
		xfer_atomic_args(&s->tmpl, first);
	s->tmpl.send_flags = s->tmpl_flags | (signal ? IBV_SEND_SIGNALED : 0);
	s->tmpl.wr_id = signal ? XFER_WR_ID(qp, count) : 0;
	ret = ibv_post_send(x->conn->qps[qp].qp, &s->tmpl, &bad);
	return ret ? xfer_post_failed(x, size, 1, ret) : 0;
}

/*
 * Where request k of a list lies from the first, perftest's layout
 * (perftest_resources.c, ctx_set_send_reg_wqes, increase_loc_addr): one
 * cache-line-rounded message on from the one before, locally and
 * remotely, back to the first after a page's worth; a message over half
 * a page (perftest's cycle buffer) keeps the whole list on the first
 * slot. So with --post_list both post the same requests, and a device
 * that copies (Soft-RoCE, the null device) touches the same lines for
 * both. cycle: the page size. 0 (all on the first slot) also where a
 * region cannot hold it.
 */
static uint64_t xfer_chain_off(const struct xfer *x, unsigned int qp,
			       uint64_t size, uint64_t cycle, uint32_t k)
{
	uint64_t step = (size + 63) & ~63ULL, per = cycle / step;
	uint64_t span;

	if (!size || size > cycle / 2 || x->conn->qps[qp].ah)
		return 0;
	span = step * ((x->send_list < per ? x->send_list : per) - 1) + size;
	if (span > x->conn->region_bytes ||
	    span > x->conn->qps[qp].remote.length)
		return 0;
	return (k % per) * step;
}

/*
 * The list of QP qp without --validate: send_list copies of its tmpl,
 * linked, built once per size, each on its own slot (xfer_chain_step);
 * only a post's last request changes (its flags, wr_id and link, put
 * back after the post), and atomics' operands.
 */
static struct ibv_send_wr *xfer_chain(const struct xfer *x, unsigned int qp,
				      uint64_t size, uint64_t first)
{
	struct xfer_qp_state *s = xfer_tmpl(x, qp, size, first);
	struct ibv_send_wr *wr = x->send_wr + (size_t)qp * x->send_list;
	struct ibv_sge *sge = x->send_sge + (size_t)qp * x->send_list;
	bool spread = !bench_verb(x->verb)->fixed_size;
	long page;
	uint32_t k;

	if (s->chain_size == size)
		return wr;
	page = sysconf(_SC_PAGESIZE);
	for (k = 0; k < x->send_list; k++) {
		uint64_t off = spread ? xfer_chain_off(x, qp, size,
				page > 0 ? (uint64_t)page : 4096, k) : 0;

		wr[k] = s->tmpl;
		sge[k] = s->tmpl_sge;
		sge[k].addr += off;
		wr[k].sg_list = &sge[k];
		wr[k].wr.rdma.remote_addr += off; /* 0 for UD */
		wr[k].send_flags = s->tmpl_flags;
		wr[k].wr_id = 0;
		wr[k].next = k + 1 < x->send_list ? &wr[k + 1] : NULL;
	}
	s->chain_size = size;
	return wr;
}

struct ibv_send_wr *xfer_chain_wr(const struct xfer *x, unsigned int qp,
				  uint64_t size)
{
	if (!x->send_wr || !xfer_as_built(x))
		return NULL;
	return xfer_chain(x, qp, size, 0);
}

static int xfer_post_chain(const struct xfer *x, unsigned int qp,
			   uint64_t size, uint64_t first, uint32_t n,
			   bool signal_last, uint64_t count, bool atomic)
{
	struct ibv_send_wr *wr = xfer_chain(x, qp, size, first), *bad;
	struct ibv_send_wr *last = &wr[n - 1], *next = last->next;
	uint32_t k;
	int ret;

	if (atomic)
		for (k = 0; k < n; k++)
			xfer_atomic_args(&wr[k], first + k);
	last->next = NULL;
	if (signal_last) {
		last->send_flags |= IBV_SEND_SIGNALED;
		last->wr_id = XFER_WR_ID(qp, count);
	}
	ret = ibv_post_send(x->conn->qps[qp].qp, wr, &bad);
	last->next = next;
	last->send_flags = x->qs[qp].tmpl_flags;
	last->wr_id = 0;
	return ret ? xfer_post_failed(x, size, n, ret) : 0;
}

/* n requests, each built for its own slot (--validate), as one list. */
static int xfer_post_list(const struct xfer *x, unsigned int qp,
			  uint64_t size, uint64_t first, uint32_t n,
			  bool signal_last, uint64_t count)
{
	struct ibv_send_wr wr[n], *bad;
	struct ibv_sge sge[n];
	uint32_t k;
	int ret;

	for (k = 0; k < n; k++) {
		xfer_wr(x, qp, size, first + k, &wr[k], &sge[k]);
		wr[k].next = k + 1 < n ? &wr[k + 1] : NULL;
	}
	if (signal_last) {
		wr[n - 1].send_flags |= IBV_SEND_SIGNALED;
		wr[n - 1].wr_id = XFER_WR_ID(qp, count);
	}
	ret = ibv_post_send(x->conn->qps[qp].qp, wr, &bad);
	return ret ? xfer_post_failed(x, size, n, ret) : 0;
}

int xfer_post(const struct xfer *x, unsigned int qp, uint64_t size,
	      uint64_t first, uint32_t n, bool signal_last, uint64_t count)
{
	bool atomic = bench_verb(x->verb)->fixed_size;

	if (x->validate)
		return xfer_post_list(x, qp, size, first, n, signal_last,
				      count);
	if (n == 1)
		return xfer_post_one(x, qp, size, first, signal_last, count,
				     atomic);
	if (n <= x->send_list)
		return xfer_post_chain(x, qp, size, first, n, signal_last,
				       count, atomic);
	/* longer than the list built for --post_list: each built apart */
	return xfer_post_list(x, qp, size, first, n, signal_last, count);
}

/* UD: a receive's first CONN_UD_GRH_BYTES go to QP qp's GRH slot (the
 * same for all: its contents are not read), the message to its slot. */
static struct ibv_sge xfer_grh_sge(const struct xfer *x, unsigned int qp)
{
	return (struct ibv_sge){
		.addr = (uintptr_t)conn_aux_slot(x->conn, qp, LAYOUT_AUX_GRH),
		.length = CONN_UD_GRH_BYTES, .lkey = x->conn->aux.mr->lkey };
}

int xfer_room(struct xfer *x, unsigned int nqps, uint32_t post_list,
	      uint32_t recv_list)
{
	x->recv_list = recv_list;
	if (post_list > 1) {
		x->send_wr = calloc((size_t)nqps * post_list,
				    sizeof(*x->send_wr));
		x->send_sge = calloc((size_t)nqps * post_list,
				     sizeof(*x->send_sge));
		if (!x->send_wr || !x->send_sge)
			return -ENOMEM;
		x->send_list = post_list;
	}
	if (recv_list <= XFER_POLL_BATCH)
		return 0;
	x->recv_wr = calloc(recv_list, sizeof(*x->recv_wr));
	x->recv_sge = calloc(2ull * recv_list, sizeof(*x->recv_sge));
	return x->recv_wr && x->recv_sge ? 0 : -ENOMEM;
}

void xfer_room_free(struct xfer *x)
{
	free(x->recv_wr);
	free(x->recv_sge);
	free(x->send_wr);
	free(x->send_sge);
	x->recv_wr = NULL;
	x->recv_sge = NULL;
	x->send_wr = NULL;
	x->send_sge = NULL;
	x->send_list = 0;
}

uint64_t xfer_recv_whole(const struct xfer *x, uint64_t n, uint64_t room)
{
	if (x->recv_list > 1 && n < room)
		n -= n % x->recv_list;
	return n;
}

/* n receives as one list, from recv_posted on, built in wr and sge (2 a
 * receive). */
static int xfer_post_recv_list(const struct xfer *x, unsigned int qp,
			       uint64_t size, unsigned int n,
			       struct ibv_recv_wr *wr, struct ibv_sge *sge)
{
	bool ud = x->conn->qps[qp].ah;
	struct ibv_recv_wr *bad;
	unsigned int k;
	int ret;

	for (k = 0; k < n; k++) {
		sge[2 * k] = xfer_grh_sge(x, qp);
		/* as long as the largest size: a receive left posted from a
		 * smaller size must still take a larger message */
		sge[2 * k + ud] = (struct ibv_sge){
			.addr = (uintptr_t)xfer_slot(x, qp, BENCH_REGION_RECV,
						     size,
						     x->qs[qp].recv_posted + k),
			.length = (uint32_t)(x->conn->region_bytes / x->slots),
			.lkey = x->conn->qps[qp].mem->mr->lkey
		};
		wr[k] = (struct ibv_recv_wr){ .wr_id = XFER_WR_ID(qp, 0),
					      .sg_list = &sge[2 * k],
					      .num_sge = 1 + ud,
					      .next = k + 1 < n ? &wr[k + 1] :
								  NULL };
	}
	/* --use-srq: QP qp's slots, given to the queue all QPs take from */
	ret = abs(x->conn->srq ? ibv_post_srq_recv(x->conn->srq, wr, &bad) :
				 ibv_post_recv(x->conn->qps[qp].qp, wr, &bad));
	if (ret) {
		bench_err("ibv_post_%srecv(%u): %s", x->conn->srq ? "srq_" : "",
			  n, strerror(ret));
		return -ret;
	}
	x->qs[qp].recv_posted += n;
	return 0;
}

int xfer_post_recv(const struct xfer *x, unsigned int qp, uint64_t size,
		   uint64_t n)
{
	struct ibv_recv_wr stack_wr[XFER_POLL_BATCH];
	struct ibv_sge stack_sge[2 * XFER_POLL_BATCH];
	struct ibv_recv_wr *wr = x->recv_wr ? x->recv_wr : stack_wr;
	struct ibv_sge *sge = x->recv_wr ? x->recv_sge : stack_sge;
	unsigned int k, list = x->recv_list ? x->recv_list : XFER_POLL_BATCH;
	int ret = 0;

	for (; n && !ret; n -= k) {
		k = n < list ? (unsigned int)n : list;
		ret = xfer_post_recv_list(x, qp, size, k, wr, sge);
	}
	return ret;
}

int xfer_post_fin_recv(const struct xfer *x, unsigned int qp)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)conn_aux_slot(x->conn, qp,
						 LAYOUT_AUX_FIN_IN),
		.length = LAYOUT_AUX_SLOT_BYTES,
		.lkey = x->conn->aux.mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = XFER_WR_ID(qp, 0), .sg_list = &sge,
				  .num_sge = 1 }, *bad;
	int ret;

	if (x->qs[qp].fin_armed)
		return 0;
	ret = ibv_post_recv(x->conn->qps[qp].qp, &wr, &bad);
	if (ret)
		bench_err("ibv_post_recv(FIN): %s", strerror(ret));
	else
		x->qs[qp].fin_armed = true;
	return -ret;
}

/* After a failed completion: did our own link go down (a lost peer)? */
static bool xfer_link_down(const struct xfer *x, unsigned int qp)
{
	struct ibv_qp *q = x->conn->qps[qp].qp;
	struct ibv_qp_init_attr init;
	struct ibv_port_attr pa;
	struct ibv_qp_attr a;

	if (!q || ibv_query_qp(q, &a, IBV_QP_PORT, &init) ||
	    ibv_query_port(q->context, a.port_num, &pa) ||
	    pa.state == IBV_PORT_ACTIVE)
		return false;
	bench_err("%s port %u is %s: the link went down",
		  ibv_get_device_name(q->context->device), a.port_num,
		  ibv_port_state_str(pa.state));
	return true;
}

int xfer_wc_error(const struct xfer *x, const struct ibv_wc *wc,
		  uint64_t size)
{
	int said;
	bool gone;

	bench_err("%s completion failed: %s (%d), vendor_err 0x%x, size %llu, "
		  "QP %u", bench_verb_name(x->verb),
		  ibv_wc_status_str(wc->status), wc->status, wc->vendor_err,
		  (unsigned long long)size, XFER_WR_QP(wc->wr_id));
	/* its ERROR (say, it found corrupt data and tore its QPs down,
	 * which is what failed here) may arrive just after */
	said = ctrl_await_error(x->ctrl, 2000);
	if (said && said != -ECONNRESET)
		return said;
	gone = said == -ECONNRESET;
	if (gone)
		bench_err("the %s disconnected (its process ended or it "
			  "closed the connection)", x->ctrl->peer_role);
	switch (wc->status) {
	case IBV_WC_RETRY_EXC_ERR:
	case IBV_WC_RNR_RETRY_EXC_ERR:
	case IBV_WC_WR_FLUSH_ERR:
	case IBV_WC_REM_ABORT_ERR:
		return -ECONNRESET; /* the peer is unreachable */
	default:
		if (gone)
			return -ECONNRESET;
		return xfer_link_down(x, XFER_WR_QP(wc->wr_id)) ? -ENETDOWN :
								  -EIO;
	}
}

int xfer_poll_ctrl(const struct xfer *x, uint64_t *fin_msgs, uint64_t *beats)
{
	struct wire_msg msg;
	int ret;

	while (!(ret = ctrl_poll(x->ctrl, &msg))) {
		if (msg.type == WIRE_FIN && fin_msgs)
			*fin_msgs = msg.u.fin.msgs;
		else if (msg.type == WIRE_ALIVE && beats)
			(*beats)++;
		else if (msg.type != WIRE_ERROR && msg.type != WIRE_ALIVE &&
			 msg.type != WIRE_FIN) {
			/* what follows the run (a RESULT): for the caller */
			ctrl_unread(x->ctrl, &msg);
			return 0;
		} else if (msg.type == WIRE_ERROR) {
			bench_err("the %s reports: %s", x->ctrl->peer_role,
				  msg.u.error.text);
			return ctrl_peer_status(&msg);
		}
	}
	if (ret == -ECONNRESET)
		bench_err("the %s disconnected during the run (its process "
			  "ended or it closed the connection)",
			  x->ctrl->peer_role);
	return ret == -EAGAIN ? 0 : ret;
}

void xfer_watch_init(struct xfer_watch *w, const struct xfer *x)
{
	*w = (struct xfer_watch){ .tsc = x->clock && x->clock->tsc };
	if (w->tsc)
		w->tick0 = tick_now(x->clock);
	w->progress_ns = w->alive_ns = w->ns0 = timer_now_ns();
}

/* The next look's deadline in TSC ticks, at the rate measured since init
 * (once XFER_CHECK_NS has passed: before, every turn reads the clock). */
static void xfer_watch_aim(const struct xfer *x, struct xfer_watch *w,
			   uint64_t now_ns)
{
	uint64_t tick = tick_now(x->clock);
	double per_ns;

	if (now_ns - w->ns0 < XFER_CHECK_NS || tick <= w->tick0)
		return;
	per_ns = (double)(tick - w->tick0) / (double)(now_ns - w->ns0);
	w->next_tick = tick + (uint64_t)((double)(w->next_ns - now_ns) *
					 per_ns) + 1;
}

int xfer_watch_look(const struct xfer *x, struct xfer_watch *w,
		    uint64_t progress, bool send_heartbeat)
{
	uint64_t now_ns = timer_now_ns();

	w->due = now_ns >= w->next_ns;
	if (w->due)
		w->next_ns = now_ns + XFER_CHECK_NS;
	if (w->tsc)
		xfer_watch_aim(x, w, now_ns);
	if (!w->due)
		return 0;
	w->now_ns = now_ns;
	if (stop_flag)
		return -EINTR;
	if (w->ticks && x->tick)
		x->tick(x->tick_arg, now_ns, progress);
	if (x->ctrl->hard_ns && now_ns >= x->ctrl->hard_ns) {
		bench_err("%s: the %s passed this server's hard limit for %s "
			  "(after %llu operations), which no message extends: "
			  "ending its session", bench_verb_name(x->verb),
			  x->ctrl->peer_role, x->ctrl->hard_what ?
			  x->ctrl->hard_what : "this phase",
			  (unsigned long long)progress);
		return -ETIMEDOUT;
	}
	if (progress != w->seen) {
		w->seen = progress;
		w->progress_ns = now_ns;
	} else if (now_ns - w->progress_ns > x->io_timeout_ns) {
		bench_err("%s: no progress for %llu s (after %llu operations): "
			  "the %s is lost or stuck (see --timeout)",
			  bench_verb_name(x->verb),
			  (unsigned long long)(x->io_timeout_ns / NS_PER_S),
			  (unsigned long long)progress, x->ctrl->peer_role);
		return -ETIMEDOUT;
	}
	if (send_heartbeat && now_ns - w->alive_ns > XFER_HEARTBEAT_NS) {
		struct wire_msg msg = { .type = WIRE_ALIVE };

		w->alive_ns = now_ns;
		return ctrl_send(x->ctrl, &msg);
	}
	return 0;
}

/* Where buf lies in QP qp's data buffer (host or GPU: mem_* take
 * offsets). */
static size_t xfer_offset(const struct xfer *x, unsigned int qp,
			  const uint8_t *buf)
{
	return (size_t)(buf - (const uint8_t *)x->conn->qps[qp].mem->addr);
}

void xfer_fill(const struct xfer *x, unsigned int qp, uint8_t *buf,
	       uint64_t size, uint64_t iter)
{
	mem_fill(x->conn->qps[qp].mem, xfer_offset(x, qp, buf), size, iter);
}

int xfer_check(const struct xfer *x, const uint8_t *buf, uint64_t size,
	       uint64_t iter, unsigned int qp)
{
	bool read = bench_verb(x->verb)->region == BENCH_REGION_SEND;
	struct pattern_miss miss;

	if (!x->validate)
		return 0;
	/* test hook: prove we notice (host memory only) */
	if ((int64_t)iter == x->flip_iter && mem_is_host(x->conn->qps[qp].mem))
		((uint8_t *)buf)[size / 2] ^= 0x5a;
	if (!mem_check(x->conn->qps[qp].mem, xfer_offset(x, qp, buf), size,
		       read ? iter % x->slots : iter, &miss))
		return 0;
	bench_err("data corruption: size %llu, iteration %llu, QP %u, offset "
		  "%llu: expected 0x%02x, got 0x%02x",
		  (unsigned long long)size, (unsigned long long)iter, qp,
		  (unsigned long long)miss.offset, miss.expected, miss.actual);
	return -EILSEQ;
}

int xfer_prepare(const struct xfer *x, uint64_t size, bool peer_sends,
		 uint64_t iters)
{
	const struct bench_verb_info *v = bench_verb(x->verb);
	unsigned int qp;
	uint64_t i, want, have;
	int ret = 0;

	for (qp = 0; qp < x->conn->nqps && !ret; qp++) {
		if (v->fixed_size) /* the atomic counter starts at 0 */
			mem_zero(x->conn->qps[qp].mem, xfer_offset(x, qp,
				 conn_region(x->conn, qp, v->region)), 8);
		if (v->region == BENCH_REGION_SEND && x->validate)
			for (i = 0; i < x->slots; i++)
				xfer_fill(x, qp,
					  xfer_slot(x, qp, v->region, size, i),
					  size, i);
		if (!peer_sends)
			continue;
		if (v->bw_end == BENCH_END_FIN) {
			ret = xfer_post_fin_recv(x, qp);
			continue;
		}
		want = x->conn->recv_depth;
		if (iters && want > iters)
			want = iters;
		have = x->qs[qp].recv_posted - x->qs[qp].recv_done;
		if (have < want)
			ret = xfer_post_recv(x, qp, size,
					     xfer_recv_whole(x, want - have,
							     iters ? iters - have :
								     UINT64_MAX));
	}
	return ret;
}

int xfer_fin_send(const struct xfer *x)
{
	struct xfer_watch w;
	unsigned int qp, done = 0;
	struct ibv_wc wc;
	int n, ret;

	for (qp = 0; qp < x->conn->nqps; qp++) {
		struct wire_msg msg = { .type = WIRE_FIN };
		uint8_t *slot = conn_aux_slot(x->conn, qp, LAYOUT_AUX_FIN_OUT);
		struct ibv_sge sge = { .addr = (uintptr_t)slot,
				       .lkey = x->conn->aux.mr->lkey };
		struct ibv_send_wr wr = { .wr_id = XFER_WR_ID(qp, 0),
					  .sg_list = &sge, .num_sge = 1,
					  .opcode = IBV_WR_SEND,
					  .send_flags = IBV_SEND_SIGNALED }, *bad;

		msg.u.fin.msgs = x->qs[qp].last_run;
		n = wire_pack(&msg, slot, LAYOUT_AUX_SLOT_BYTES);
		if (n < 0)
			return n;
		sge.length = (uint32_t)n;
		ret = ibv_post_send(x->conn->qps[qp].qp, &wr, &bad);
		if (ret) {
			bench_err("ibv_post_send(FIN): %s", strerror(ret));
			return -ret;
		}
	}
	xfer_watch_init(&w, x);
	while (done < x->conn->nqps) {
		n = ibv_poll_cq(x->conn->send_cq, 1, &wc);
		if (n < 0)
			return -EIO;
		if (n && wc.status)
			return xfer_wc_error(x, &wc, 0);
		done += (unsigned int)n;
		ret = xfer_watch(x, &w, done, false);
		if (ret)
			return ret;
	}
	return 0;
}
