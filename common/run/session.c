// SPDX-License-Identifier: BSD-2-Clause
/*
 * session - the two sides of a run. The client sends its whole test
 * configuration (HELLO); the server adopts it, so the server needs no test
 * flags and the two sides cannot disagree.
 */
#include <errno.h>
#include <string.h>

#include "lib/log.h"
#include "lib/stop.h"
#include "report/report.h"
#include "run/measure.h"
#include "run/session.h"
#include "run/setup.h"
#include "spec/check.h"
#include "spec/test.h"
#include "lib/timer.h"

bool session_retryable(int err)
{
	return err == -ECONNREFUSED || err == -ETIMEDOUT ||
	       err == -EHOSTUNREACH || err == -ENETUNREACH ||
	       err == -ECONNRESET;
}

int session_connect_retry(struct bench_ctx *b, session_attempt_fn attempt,
			  const char *via, const char *hint, bool log_any)
{
	uint64_t deadline_ns = timer_deadline_ns(b->cfg.connect_timeout_s * 1000);
	bool told = false;
	int ret;

	for (;;) {
		ret = attempt(b, deadline_ns);
		if (!ret || !session_retryable(ret) ||
		    timer_expired(deadline_ns) || stop_flag)
			break;
		if (!told)
			bench_info("no rdmabench server at %s %s %llu yet (%s); "
				   "retrying for up to %llu s",
				   b->cfg.server_addr, via,
				   (unsigned long long)b->cfg.tcp_port,
				   strerror(-ret),
				   (unsigned long long)b->cfg.connect_timeout_s);
		told = true;
		timer_sleep_ms(200);
	}
	if (ret && (log_any || session_retryable(ret)))
		bench_err("could not reach an rdmabench server at %s %s %llu "
			  "within %llu s: %s (%s)", b->cfg.server_addr, via,
			  (unsigned long long)b->cfg.tcp_port,
			  (unsigned long long)b->cfg.connect_timeout_s,
			  strerror(-ret), hint);
	return ret;
}

/* Client: one attempt at the control channel (rdma_cm). */
static int client_ctrl_attempt(struct bench_ctx *b, uint64_t deadline_ns)
{
	const struct wire_connect req = { .kind = WIRE_CONN_CTRL };
	int ret;

	ret = cm_resolve(b->cfg.server_addr, (uint16_t)b->cfg.tcp_port,
			 deadline_ns, &b->ctrl.ep);
	if (!ret)
		ret = setup_check_device(b, b->ctrl.ep.id);
	if (!ret)
		ret = ctrl_setup(&b->ctrl);
	if (!ret)
		ret = cm_connect(&b->ctrl.ep, &req, deadline_ns);
	if (!ret) {
		b->port = b->ctrl.ep.id->port_num;
		return 0;
	}
	ctrl_destroy(&b->ctrl);
	return ret;
}

/* Client: connect the control channel, retrying until the deadline. */
static int client_connect_ctrl(struct bench_ctx *b)
{
	return session_connect_retry(b, client_ctrl_attempt, "port",
				     "is the server running, and is this IP "
				     "on an RDMA device?", false);
}

/*
 * The HELLO goes again every 2 s until answered: on iWARP (siw) a message
 * sent as the connection is established can be lost before the passive
 * side's QP takes it (seen in the lab); the server ignores repeats.
 */
int session_client_hello(struct bench_ctx *b)
{
	struct wire_msg msg;
	uint64_t deadline_ns = timer_deadline_ns(b->ctrl.timeout_ms);
	uint64_t timeout_ms = b->ctrl.timeout_ms;
	int ret;

	b->ctrl.timeout_ms = 2000;
	b->ctrl.quiet_timeout = true;
	do {
		msg = (struct wire_msg){ .type = WIRE_HELLO, .u.hello = b->test };
		ret = ctrl_send(&b->ctrl, &msg);
		if (!ret)
			ret = ctrl_recv(&b->ctrl, WIRE_HELLO_ACK, &msg);
	} while (ret == -ETIMEDOUT && !timer_expired(deadline_ns));
	b->ctrl.quiet_timeout = false;
	b->ctrl.timeout_ms = timeout_ms;
	if (ret == -ETIMEDOUT)
		bench_err("the server did not answer HELLO within %llu ms "
			  "(see --timeout)", (unsigned long long)timeout_ms);
	if (!ret && msg.u.hello_ack.status) {
		bench_err("the server refused the test: %s",
			  msg.u.hello_ack.text);
		ret = msg.u.hello_ack.status;
	}
	return ret;
}

/* Client: one rdma_cm connection per data QP. */
static int client_connect_data(struct bench_ctx *b)
{
	uint64_t deadline_ns = timer_deadline_ns(b->test.io_timeout_ms);
	unsigned int i;
	int ret = 0;

	for (i = 0; i < b->test.qps && !ret; i++) {
		struct wire_connect req = { .kind = WIRE_CONN_DATA,
					    .qp_index = (uint16_t)i };
		struct cm_ep *ep = &b->data.qps[i].ep;

		ret = cm_resolve(b->cfg.server_addr, (uint16_t)b->cfg.tcp_port,
				 deadline_ns, ep);
		if (!ret)
			ret = setup_data_qp(b, i);
		if (!ret)
			ret = cm_connect(ep, &req, deadline_ns);
		if (ret)
			bench_err("data connection %u of %u to %s: %s", i + 1,
				  b->test.qps, b->cfg.server_addr,
				  strerror(-ret));
	}
	return ret;
}

int session_client(struct bench_ctx *b)
{
	int ret;

	ret = client_connect_ctrl(b);
	if (!ret)
		ret = session_client_hello(b);
	if (!ret)
		ret = setup_data_init(b);
	if (!ret) {
		ret = client_connect_data(b);
		if (ret)
			(void)ctrl_await_error(&b->ctrl, 1000);
	}
	if (!ret)
		ret = setup_xchg_bufs(b);
	if (ret)
		return ret;
	return session_client_sizes(b);
}

int session_client_sizes(struct bench_ctx *b)
{
	const struct measure_ops *ops = measure_ops_get(b->test.measure);
	struct wire_msg bye = { .type = WIRE_BYE };
	uint64_t size, first, last;
	int ret = 0;

	setup_print_header(b);
	test_sizes(&b->test, &first, &last);
	for (size = first; !ret && size <= last; size *= 2) {
		ret = ops->client_size(b, size);
		/* --run_infinitely: the same size again until interrupted */
		if (b->cfg.run_infinitely && !ret && !stop_flag)
			size /= 2;
	}
	report_rule(stdout);
	if (!ret)
		ret = ctrl_send(&b->ctrl, &bye);
	return ret;
}

/* Server: take the client's HELLO and answer it. */
int session_server_hello(struct bench_ctx *b)
{
	struct wire_msg msg, ack = { .type = WIRE_HELLO_ACK };
	int ret;

	ret = ctrl_recv(&b->ctrl, WIRE_HELLO, &msg);
	if (ret)
		return ret;
	b->test = msg.u.hello;
	/* the client's --timeout, never longer than ours (nor 0): a client
	 * must not hold this server longer than its operator allows */
	if (!b->test.io_timeout_ms ||
	    b->test.io_timeout_ms > b->cfg.io_timeout_s * 1000)
		b->test.io_timeout_ms = (uint32_t)(b->cfg.io_timeout_s * 1000);
	ack.u.hello_ack.status = check_test(&b->test, &b->cfg,
		ack.u.hello_ack.text, sizeof(ack.u.hello_ack.text));
	snprintf(ack.u.hello_ack.dev_name, sizeof(ack.u.hello_ack.dev_name),
		 "%s", ibv_get_device_name(b->ctrl.verbs->device));
	ret = ctrl_send(&b->ctrl, &ack);
	if (ack.u.hello_ack.status) {
		bench_err("refused the client's test: %s", ack.u.hello_ack.text);
		return ack.u.hello_ack.status;
	}
	b->ctrl.timeout_ms = b->test.io_timeout_ms;
	b->cfg.report_gbits = b->test.flags & WIRE_HELLO_GBITS;
	bench_info("client %s runs %s", b->peer, b->test.tool);
	return ret;
}

/* Between connection requests: has the client given up (ERROR) or gone? */
static int server_client_left(struct bench_ctx *b)
{
	struct wire_msg msg;
	int ret;

	for (;;) {
		ret = ctrl_poll(&b->ctrl, &msg);
		if (ret == -EAGAIN)
			return 0;
		if (ret) {
			bench_err("the client left before its data connections "
				  "came");
			return -ECONNRESET;
		}
		if (msg.type == WIRE_ERROR) {
			/* its failure, not ours: for this side a lost peer */
			bench_err("the client reports: %s", msg.u.error.text);
			return -ECONNABORTED;
		}
		if (msg.type != WIRE_HELLO && msg.type != WIRE_ALIVE) {
			bench_err("expected data connections, got %s on the "
				  "control channel", wire_type_name(msg.type));
			return -EPROTO;
		}
	}
}

/*
 * A connection request until deadline_ns, the control channel read every
 * 200 ms meanwhile: a client that failed after its HELLO (no GPU memory,
 * a buffer it could not register) says so there, and this server should
 * not wait out its --timeout for data connections that will never come.
 */
static int server_get_request(struct bench_ctx *b, uint64_t deadline_ns,
			      struct cm_ep *ep, struct wire_connect *req)
{
	uint64_t slice_ns;
	int ret;

	for (;;) {
		slice_ns = timer_deadline_ns(200);
		ret = cm_get_request(&b->listener, !deadline_ns ||
				     slice_ns < deadline_ns ? slice_ns :
				     deadline_ns, ep, req);
		if (ret != -ETIMEDOUT || (deadline_ns &&
					   timer_expired(deadline_ns)))
			return ret;
		ret = server_client_left(b);
		if (ret)
			return ret;
	}
}

/* Server: wait for a connection request of the given kind. */
static int server_accept(struct bench_ctx *b, struct cm_ep *ep,
			 uint16_t kind, uint64_t deadline_ns, uint16_t *index)
{
	struct wire_connect req;
	int ret;

	ret = kind == WIRE_CONN_DATA ?
	      server_get_request(b, deadline_ns, ep, &req) :
	      cm_get_request(&b->listener, deadline_ns, ep, &req);
	if (ret)
		return ret;
	if (req.kind == WIRE_CONN_CTRL && kind == WIRE_CONN_DATA) {
		/* the client we wait for is gone or stuck: the new one is
		 * refused now, retries, and finds this server free */
		bench_err("another client connected while %s's data QPs were "
			  "awaited: giving up on %s (the new one will retry)",
			  b->peer, b->peer);
		cm_reject(ep);
		return -ECONNABORTED;
	}
	if (req.kind != kind) {
		bench_err("expected a %s connection, got kind %u",
			  kind == WIRE_CONN_CTRL ? "control" : "data", req.kind);
		cm_reject(ep);
		return -EPROTO;
	}
	ret = setup_check_device(b, ep->id);
	if (ret)
		cm_reject(ep);
	if (index)
		*index = req.qp_index;
	return ret;
}

/* Server: the client's data QPs, in whatever order they come. */
static int server_accept_data(struct bench_ctx *b)
{
	uint64_t deadline_ns = timer_deadline_ns(b->test.io_timeout_ms);
	struct cm_ep ep = { 0 };
	unsigned int n;
	uint16_t i;
	int ret = 0;

	for (n = 0; n < b->test.qps && !ret; n++) {
		ret = server_accept(b, &ep, WIRE_CONN_DATA, deadline_ns, &i);
		if (!ret && (i >= b->test.qps || b->data.qps[i].ep.id)) {
			bench_err("the client sent a bad data QP index %u", i);
			cm_reject(&ep);
			ret = -EPROTO;
		}
		if (ret)
			break;
		b->data.qps[i].ep = ep;
		ret = setup_data_qp(b, i);
		if (!ret)
			ret = cm_accept(&b->data.qps[i].ep, deadline_ns);
	}
	return ret;
}

/*
 * Server: a SYNC may only ask for a size the HELLO announced: the buffers
 * were sized for it. Never trust a length from the wire.
 */
static int server_check_sync(struct bench_ctx *b, const struct wire_sync *s)
{
	char why[WIRE_TEXT_MAX];
	uint64_t first, last;

	test_sizes(&b->test, &first, &last);
	if (s->size_bytes >= first && s->size_bytes <= last &&
	    s->size_bytes <= b->test.max_size_bytes)
		return 0;
	snprintf(why, sizeof(why), "SYNC for %llu-byte messages, but the "
		 "HELLO announced %llu..%llu bytes",
		 (unsigned long long)s->size_bytes, (unsigned long long)first,
		 (unsigned long long)last);
	bench_err("the client sent a %s", why);
	ctrl_send_error(&b->ctrl, -EPROTO, why);
	return -EPROTO;
}

int session_server_sizes(struct bench_ctx *b)
{
	const struct measure_ops *ops = measure_ops_get(b->test.measure);
	struct wire_msg msg;
	int ret;

	setup_print_header(b);
	while (!(ret = ctrl_recv(&b->ctrl, 0, &msg))) {
		if (msg.type == WIRE_BYE)
			break;
		if (msg.type != WIRE_SYNC) {
			bench_err("expected SYNC or BYE from the client, got %s",
				  wire_type_name(msg.type));
			return -EPROTO;
		}
		ret = server_check_sync(b, &msg.u.sync);
		if (!ret)
			ret = ops->server_size(b, &msg.u.sync);
		if (ret)
			return ret;
	}
	report_rule(stdout);
	return ret;
}

static int server_serve(struct bench_ctx *b)
{
	uint64_t timeout_ms = b->cfg.io_timeout_s * 1000;
	int ret;

	ret = server_accept(b, &b->ctrl.ep, WIRE_CONN_CTRL, 0, NULL);
	if (!ret)
		ret = ctrl_setup(&b->ctrl);
	if (!ret)
		ret = cm_accept(&b->ctrl.ep, timer_deadline_ns(timeout_ms));
	if (!ret) {
		b->port = b->ctrl.ep.id->port_num;
		cm_peer_str(&b->ctrl.ep, b->peer, sizeof(b->peer));
		ret = session_server_hello(b);
	}
	if (!ret)
		ret = setup_data_init(b);
	if (!ret)
		ret = server_accept_data(b);
	if (!ret)
		ret = setup_xchg_bufs(b);
	if (ret)
		return ret;
	return session_server_sizes(b);
}

int session_server(struct bench_ctx *b)
{
	int ret;

	ret = cm_listen((uint16_t)b->cfg.tcp_port, &b->listener);
	if (ret)
		return ret;
	bench_info("waiting for a client on port %llu (rdmabench %s)",
		   (unsigned long long)b->cfg.tcp_port, RDMABENCH_VERSION);
	ret = server_serve(b);
	while (b->cfg.persistent && !stop_flag) {
		session_client_done(b, ret);
		ret = server_serve(b);
	}
	cm_close(&b->listener);
	return b->cfg.persistent && stop_flag ? 0 : ret;
}

void session_client_done(struct bench_ctx *b, int err)
{
	if (err && err != -EINTR)
		bench_warn("client %s: %s; serving the next one", b->peer,
			   strerror(-err));
	if (err)
		ctrl_send_error(&b->ctrl, err, "failed; see the server's log");
	setup_release(b);
	bench_info("waiting for the next client (--persistent)");
}
