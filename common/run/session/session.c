// SPDX-License-Identifier: BSD-2-Clause
/*
 * session - the two sides of a run, written once over a rendezvous
 * backend (session_ops.h). The client sends its whole test configuration
 * (HELLO); the server adopts it, so the server needs no test flags and
 * the two sides cannot disagree.
 */
#include <errno.h>
#include <string.h>

#include "lib/log.h"
#include "lib/nonce.h"
#include "lib/stop.h"
#include "lib/timer.h"
#include "run/measure.h"
#include "run/session/busy.h"
#include "run/session/session.h"
#include "run/session/session_auth.h"
#include "run/session/session_ops.h"
#include "run/setup.h"
#include "spec/check.h"
#include "spec/limit.h"
#include "spec/test.h"

/* The rendezvous backends, by --oob (opts_oob: -R is cm). */
static const struct session_ops *const session_backends[] = {
	[OPTS_OOB_CM] = &session_cm_ops,
	[OPTS_OOB_TCP] = &session_tcp_ops,
	[OPTS_OOB_AUTO] = &session_auto_ops,
};

static const struct session_ops *session_backend(struct bench_ctx *b)
{
	const struct session_ops *ops = session_backends[opts_oob(&b->cfg)];

	b->rendezvous = ops->name;
	snprintf(b->srv_addr, sizeof(b->srv_addr), "%s", b->cfg.server_addr);
	b->srv_port = b->cm_port = (uint16_t)b->cfg.tcp_port;
	return ops;
}

static bool session_retryable(int err)
{
	return err == -ECONNREFUSED || err == -ETIMEDOUT ||
	       err == -EHOSTUNREACH || err == -ENETUNREACH ||
	       err == -ECONNRESET;
}

/*
 * Client: the backend's attempt() until it succeeds, fails for good, or
 * --connect-timeout passes, 200 ms apart; says once that it retries and,
 * if it gives up, why.
 */
static int session_connect(struct bench_ctx *b, const struct session_ops *ops)
{
	uint64_t deadline_ns = timer_deadline_ns(b->cfg.connect_timeout_s * 1000);
	bool told = false;
	int ret;

	for (;;) {
		ret = ops->attempt(b, deadline_ns);
		if (!ret || !session_retryable(ret) ||
		    timer_expired(deadline_ns) || stop_flag)
			break;
		if (!told)
			bench_info("no rdmabench server at %s %s %llu yet (%s); "
				   "retrying for up to %llu s",
				   b->cfg.server_addr, ops->port_what,
				   (unsigned long long)b->cfg.tcp_port,
				   strerror(-ret),
				   (unsigned long long)b->cfg.connect_timeout_s);
		told = true;
		timer_sleep_ms(200);
	}
	if (ret && ret != -EKEYREJECTED && ret != -EBUSY && /* said */
	    (ops->log_any || session_retryable(ret)))
		bench_err("could not reach an rdmabench server at %s %s %llu "
			  "within %llu s: %s (%s)", b->cfg.server_addr,
			  ops->port_what,
			  (unsigned long long)b->cfg.tcp_port,
			  (unsigned long long)b->cfg.connect_timeout_s,
			  strerror(-ret), ops->retry_hint);
	return ret;
}

/*
 * The HELLO goes again every 2 s until answered (ctrl_ask: on siw a
 * message sent as the connection is established can be lost); the server
 * ignores repeats.
 */
static int session_client_hello(struct bench_ctx *b)
{
	struct wire_msg hello = { .type = WIRE_HELLO }, msg;
	int ret;

	wire_hello_encode(&b->test, &hello.u.hello);
	ret = ctrl_ask(&b->ctrl, &hello, WIRE_HELLO_ACK, &msg, 2000);
	if (!ret && msg.u.hello_ack.status) {
		bench_err("the server refused the test: %s",
			  msg.u.hello_ack.text);
		ret = msg.u.hello_ack.status;
	}
	b->token = ret ? 0 : msg.u.hello_ack.token; /* rdma_cm data CONNECTs */
	return ret;
}

static int session_client_sizes(struct bench_ctx *b)
{
	const struct measure_ops *ops = measure_ops_get(b->test.measure);
	struct wire_msg bye = { .type = WIRE_BYE };
	uint64_t size, first, last;
	int ret = 0;

	setup_print_header(b);
	if (b->hooks) /* --rails: every rail starts measuring at once */
		b->hooks->start(b);
	test_sizes(&b->test, &first, &last);
	for (size = first; !ret && size <= last; size *= 2) {
		ret = ops->client_size(b, size);
		/* --run_infinitely: the same size again until interrupted */
		if (b->cfg.run_infinitely && !ret && !stop_flag)
			size /= 2;
	}
	setup_print_footer(b);
	if (!ret)
		ret = ctrl_send(&b->ctrl, &bye);
	return ret;
}

/*
 * Server: the client's current phase ends by ms from now, or its
 * session's end (--max-duration), whichever is first, whatever it sends.
 */
static void server_phase(struct bench_ctx *b, uint64_t ms, const char *what)
{
	uint64_t end_ns = timer_deadline_ns(ms);

	if (b->session_end_ns && b->session_end_ns < end_ns) {
		end_ns = b->session_end_ns;
		snprintf(b->hard_text, sizeof(b->hard_text), "its whole "
			 "session (--max-duration %llu s)",
			 (unsigned long long)b->cfg.max_duration_s);
	} else {
		snprintf(b->hard_text, sizeof(b->hard_text), "%s (%llu s)",
			 what, (unsigned long long)((ms + 999) / 1000));
	}
	b->ctrl.hard_ns = end_ns;
	b->ctrl.hard_what = b->hard_text;
}

/* Server: the HELLO is in: the session's end, and the most it may take
 * (for the busy answers). */
static void server_session_limits(struct bench_ctx *b)
{
	uint64_t test_ns = timer_deadline_ns(limit_test_ms(&b->test));

	b->session_end_ns = timer_deadline_ns(limit_session_ms(
		b->cfg.max_duration_s));
	busy_expect(b, test_ns < b->session_end_ns ? test_ns :
						     b->session_end_ns);
	b->ctrl.hard_ns = 0; /* this server's own allocations come next */
}

/* Server: take the client's HELLO and answer it. */
static int session_server_hello(struct bench_ctx *b)
{
	struct wire_msg msg, ack = { .type = WIRE_HELLO_ACK };
	int ret;

	ret = ctrl_recv(&b->ctrl, WIRE_HELLO, &msg);
	if (ret)
		return ret;
	wire_hello_decode(&msg.u.hello, &b->test);
	/* the client's --timeout, never longer than ours (nor 0): a client
	 * must not hold this server longer than its operator allows */
	if (!b->test.io_timeout_ms ||
	    b->test.io_timeout_ms > b->cfg.io_timeout_s * 1000)
		b->test.io_timeout_ms = (uint32_t)(b->cfg.io_timeout_s * 1000);
	ack.u.hello_ack.status = check_test(&b->test, &b->cfg,
		ack.u.hello_ack.text, sizeof(ack.u.hello_ack.text));
	/* rdma_cm: only data connections with this token join the session */
	if (nonce_fill(&b->token, sizeof(b->token)))
		return -EIO;
	/* its data connection requests may follow the answer at once */
	busy_cm(b, false);
	ack.u.hello_ack.token = b->token;
	snprintf(ack.u.hello_ack.dev_name, sizeof(ack.u.hello_ack.dev_name),
		 "%s", ibv_get_device_name(b->ctrl.verbs->device));
	ret = ctrl_send(&b->ctrl, &ack);
	if (ack.u.hello_ack.status) {
		bench_err("refused the client's test: %s", ack.u.hello_ack.text);
		return ack.u.hello_ack.status;
	}
	b->ctrl.timeout_ms = b->test.io_timeout_ms;
	server_session_limits(b);
	b->cfg.report_gbits = b->test.gbits;
	bench_info("client %s runs %s", b->peer, b->test.tool);
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

static int session_server_sizes(struct bench_ctx *b)
{
	const struct measure_ops *ops = measure_ops_get(b->test.measure);
	struct wire_msg msg;
	int ret;

	setup_print_header(b);
	/* the first size is still the set-up's (its set-up limit anew) */
	server_phase(b, limit_setup_ms(&b->test), "its first size");
	for (;;) {
		ret = ctrl_recv(&b->ctrl, 0, &msg);
		if (ret || msg.type == WIRE_BYE)
			break;
		if (msg.type != WIRE_SYNC) {
			bench_err("expected SYNC or BYE from the client, got %s",
				  wire_type_name(msg.type));
			return -EPROTO;
		}
		ret = server_check_sync(b, &msg.u.sync);
		server_phase(b, limit_size_ms(&b->test, msg.u.sync.size_bytes),
			     "this size's run (-D, or -n at the floor rate)");
		if (!ret)
			ret = ops->server_size(b, &msg.u.sync);
		if (ret)
			return ret;
		server_phase(b, LIMIT_GAP_MS, "its next size");
	}
	setup_print_footer(b);
	return ret;
}

/* --persistent: one client is over (err: how); free its resources. The
 * next session starts with no peer, limits or name of this one. */
static void session_client_done(struct bench_ctx *b, int err)
{
	if (err && err != -EINTR)
		bench_warn("client %s: %s; serving the next one",
			   b->peer[0] ? b->peer : "(not yet named)",
			   strerror(-err));
	if (err)
		ctrl_send_error(&b->ctrl, err, "failed; see the server's log");
	setup_release(b);
	b->peer[0] = '\0';
	b->session_end_ns = 0;
	bench_info("waiting for the next client (--persistent)");
}

/* What differs between the two sides of the one flow. */
struct session_side {
	int (*ctrl)(struct bench_ctx *b, const struct session_ops *ops);
	int (*hello)(struct bench_ctx *b);
	int (*data)(struct bench_ctx *b, const struct session_ops *ops);
	int (*sizes)(struct bench_ctx *b);
};

static int client_data(struct bench_ctx *b, const struct session_ops *ops)
{
	return ops->connect_data(b);
}

static int server_ctrl(struct bench_ctx *b, const struct session_ops *ops)
{
	return ops->accept_ctrl(b, 0);
}

static int server_data(struct bench_ctx *b, const struct session_ops *ops)
{
	int ret;

	server_phase(b, limit_setup_ms(&b->test),
		     "its data connections and buffers");
	ret = ops->accept_data(b);
	busy_cm(b, true); /* its data connections are in */
	return ret;
}

/* By b->is_server. */
static const struct session_side session_sides[] = {
	[false] = { .ctrl = session_connect, .hello = session_client_hello,
		    .data = client_data, .sizes = session_client_sizes },
	[true] = { .ctrl = server_ctrl, .hello = session_server_hello,
		   .data = server_data, .sizes = session_server_sizes },
};

/*
 * The rendezvous, either side: control channel, HELLO, data set-up, data
 * QPs, buffers, every size, goodbye.
 */
static int session_flow(struct bench_ctx *b, const struct session_ops *ops)
{
	const struct session_side *side = &session_sides[b->is_server];
	int ret;

	b->via = NULL;
	ret = side->ctrl(b, ops);
	if (b->via) /* --oob auto: the backend it chose carries on */
		ops = b->via;
	if (!ret)
		ret = side->hello(b);
	if (!ret)
		ret = setup_data_init(b);
	if (!ret)
		ret = side->data(b, ops);
	if (!ret)
		ret = setup_xchg_bufs(b);
	return ret ? ret : side->sizes(b);
}

/*
 * Client: a busy server (serving another client) is asked again every
 * second until --connect-timeout; said once, and at the end if it stayed
 * busy.
 */
static int session_client_tries(struct bench_ctx *b,
				const struct session_ops *ops)
{
	uint64_t deadline_ns = timer_deadline_ns(b->cfg.connect_timeout_s *
						 1000);
	bool told = false;
	int ret;

	for (;;) {
		ops = session_backend(b); /* an iWARP redirect undone */
		ret = ops->open(b);
		if (!ret)
			ret = session_flow(b, ops);
		if (ret != -EBUSY || timer_expired(deadline_ns) || stop_flag)
			break;
		if (!told)
			bench_info("the server at %s is %s; asking again every "
				   "second for up to %llu s (--connect-timeout)",
				   b->cfg.server_addr, b->ctrl.peer_text,
				   (unsigned long long)b->cfg.connect_timeout_s);
		told = true;
		setup_release(b);
		timer_sleep_ms(1000);
	}
	if (ret == -EBUSY)
		bench_err("the server at %s stayed busy for %llu s "
			  "(--connect-timeout): %s; try later, or wait longer",
			  b->cfg.server_addr,
			  (unsigned long long)b->cfg.connect_timeout_s,
			  b->ctrl.peer_text);
	return ret;
}

int session_client(struct bench_ctx *b)
{
	const struct session_ops *ops = session_backend(b);
	struct keyfile key;
	int ret;

	ret = session_auth_load(b, &key);
	if (!ret)
		ret = session_client_tries(b, ops);
	keyfile_clear(&key);
	b->key = NULL;
	return ret;
}

/* Server: the loop over clients (one unless --persistent). */
static int session_serve(struct bench_ctx *b, const struct session_ops *ops)
{
	struct busy busy;
	int ret;

	ret = ops->open(b);
	if (!ret)
		ret = ops->listen(b);
	if (ret)
		return ret;
	bench_info("waiting for a client on %s %llu%s%s (rdmabench %s%s)",
		   ops->port_what, (unsigned long long)b->cfg.tcp_port,
		   b->cfg.bind_addr[0] ? " at " : "", b->cfg.bind_addr,
		   RDMABENCH_VERSION, ops->listen_note);
	if (b->cm_port != b->cfg.tcp_port)
		bench_info("rdma_cm clients (-R) connect to port %u: an iWARP "
			   "device's rdma_cm listener is a TCP socket, and TCP "
			   "port %llu is the control channel's", b->cm_port,
			   (unsigned long long)b->cfg.tcp_port);
	busy_init(&busy, b);
	for (;;) {
		ret = session_flow(b, ops);
		busy_end(b);
		if (!b->cfg.persistent || stop_flag)
			break;
		session_client_done(b, ret);
		ret = ops->open(b);
		if (ret)
			break;
	}
	b->busy = NULL;
	ops->unlisten(b);
	return b->cfg.persistent && stop_flag ? 0 : ret;
}

int session_server(struct bench_ctx *b)
{
	const struct session_ops *ops = session_backend(b);
	struct keyfile key;
	int ret;

	ret = session_auth_load(b, &key);
	if (!ret && b->key)
		bench_info("clients must prove the key of --auth-key-file %s",
			   key.path);
	if (!ret)
		ret = session_serve(b, ops);
	keyfile_clear(&key);
	b->key = NULL;
	return ret;
}
