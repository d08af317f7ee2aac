// SPDX-License-Identifier: BSD-2-Clause
/*
 * session - the two sides of a run, written once over a rendezvous
 * backend (session_ops.h). The client sends its whole test configuration
 * (HELLO); the server adopts it, so the server needs no test flags and
 * the two sides cannot disagree.
 */
#include <errno.h>
#include <netdb.h>
#include <string.h>

#include "lib/log.h"
#include "lib/nonce.h"
#include "lib/resolve.h"
#include "lib/stop.h"
#include "lib/timer.h"
#include "run/measure.h"
#include "run/session/busy.h"
#include "run/session/session.h"
#include "run/session/session_auth.h"
#include "run/session/session_auto.h"
#include "run/session/session_cm.h"
#include "run/session/session_ops.h"
#include "run/session/session_ctx.h"
#include "run/session/session_tcp.h"
#include "run/setup.h"
#include "spec/check.h"
#include "spec/limit.h"
#include "spec/test.h"
#include "spec/turns.h"

/* The rendezvous backends, by --oob (opts_oob: -R is cm). */
static const struct session_ops *const session_backends[] = {
	[OPTS_OOB_CM] = &session_cm_ops,
	[OPTS_OOB_TCP] = &session_tcp_ops,
	[OPTS_OOB_AUTO] = &session_auto_ops,
};

/* The backend of --oob, its state new for session s. */
static int session_backend(struct session *s, struct session_be **be)
{
	return session_be_new(s, session_backends[opts_oob(&s->b->cfg)], be);
}

/* What a later attempt may not meet: a port clash is iWARP's rdma_cm
 * port taken in the kernel's TCP stack (siw: session_port_clash), which a
 * new id draws anew. */
static bool session_retryable(int err)
{
	return err == -ECONNREFUSED || err == -ETIMEDOUT ||
	       err == -EHOSTUNREACH || err == -ENETUNREACH ||
	       err == -ECONNRESET || session_port_clash(err);
}

/*
 * Client: the backend's attempt() until it succeeds, fails for good, or
 * --connect-timeout passes, 200 ms apart; says once that it retries and,
 * if it gives up, why. A stop (SIGINT/SIGTERM) ends it: -EINTR, which
 * the driver says.
 */
static int session_connect(struct session_be *be)
{
	const struct session_ops *ops = &be->ops;
	const struct bench_ctx *b = be->s->b;
	uint64_t deadline_ns = be->s->connect_by_ns;
	bool told = false;
	int ret;

	for (;;) {
		ret = ops->attempt(be, deadline_ns);
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
		if (timer_wait_ms(200))
			break;
	}
	if (ret && stop_flag)
		return -EINTR;
	if (ret && ret != -EKEYREJECTED && ret != -EBUSY && /* said */
	    (ops->log_any || session_retryable(ret)))
		bench_err_why(&be->s->b->why, "could not reach an rdmabench server at %s %s %llu "
			  "within %llu s: %s (%s)", b->cfg.server_addr,
			  ops->port_what,
			  (unsigned long long)b->cfg.tcp_port,
			  (unsigned long long)b->cfg.connect_timeout_s,
			  strerror(-ret), ops->retry_hint);
	return ret;
}

/* Client: why the server's name never resolved, with the fix: the run's
 * error (exit 5). */
static void session_name_error(struct bench_ctx *b, int eai, bool waited)
{
	const char *host = b->cfg.server_addr;
	char waited_text[64] = "";

	if (waited)
		snprintf(waited_text, sizeof(waited_text), " (looked up for "
			 "%llu s: --connect-timeout)",
			 (unsigned long long)b->cfg.connect_timeout_s);
	if (!resolve_retryable(host, eai))
		bench_err_why(&b->why, "cannot resolve the server address '%s': %s: check "
			  "the name or IP, or give the server's IP", host,
			  gai_strerror(eai));
	else
		bench_err_why(&b->why, "cannot resolve the server address '%s'%s: %s%s: "
			  "check the name for a typo; a server still starting "
			  "(a Kubernetes Service's name resolves once its pod "
			  "is ready) needs a longer --connect-timeout; else add "
			  "the name to /etc/hosts or DNS, or give the server's "
			  "IP", host, waited_text,
			  gai_strerror(eai), eai == EAI_AGAIN ? " (no answer "
			  "within " RESOLVE_TEXT ")" : "");
}

/*
 * Client: the server's name, looked up until it resolves or
 * --connect-timeout passes (a server whose name has no record yet is
 * one not up yet: a headless Service's pod not ready, a ring peer not
 * named yet), twice a second (gentle on a cluster's DNS); one line says
 * that it waits. Every rendezvous (auto, --oob tcp, rdma_cm) looks the
 * name up again itself once it resolves. 0, -EHOSTUNREACH (said: the
 * run's error) or -EINTR.
 */
static int session_await_name(struct session *s)
{
	struct bench_ctx *b = s->b;
	const char *host = b->cfg.server_addr;
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM }, *res;
	bool told = false;
	int eai;

	for (;;) {
		eai = resolve_addr(host, NULL, &hints, &res);
		if (!eai) {
			freeaddrinfo(res);
			return 0;
		}
		if (stop_flag)
			return -EINTR;
		if (!resolve_retryable(host, eai) ||
		    timer_expired(s->connect_by_ns))
			break;
		if (!told)
			bench_info("waiting for %s to resolve (%s; up to %llu s: "
				   "--connect-timeout)", host, gai_strerror(eai),
				   (unsigned long long)b->cfg.connect_timeout_s);
		told = true;
		if (timer_wait_ms(500))
			return -EINTR;
	}
	session_name_error(b, eai, told);
	return -EHOSTUNREACH;
}

/*
 * The HELLO goes again every 2 s until answered (ctrl_ask: on siw a
 * message sent as the connection is established can be lost); the server
 * ignores repeats.
 */
static int session_client_hello(struct session *s)
{
	struct wire_msg hello = { .type = WIRE_HELLO }, msg;
	struct bench_ctx *b = s->b;
	int ret;

	setup_clamp_ud(b);
	wire_hello_encode(&b->test, &hello.u.hello);
	ret = ctrl_ask(&b->ctrl, &hello, WIRE_HELLO_ACK, &msg, 2000);
	if (!ret && msg.u.hello_ack.status) {
		bench_err("the server refused the test: %s",
			  msg.u.hello_ack.text);
		ret = msg.u.hello_ack.status;
	}
	s->token = ret ? 0 : msg.u.hello_ack.token; /* rdma_cm data CONNECTs */
	return ret;
}

static int session_client_sizes(struct session *s)
{
	struct bench_ctx *b = s->b;
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
static void server_phase(struct session *s, uint64_t ms, const char *what)
{
	uint64_t end_ns = timer_deadline_ns(ms);
	struct bench_ctx *b = s->b;

	if (s->end_ns && s->end_ns < end_ns) {
		end_ns = s->end_ns;
		snprintf(s->hard_text, sizeof(s->hard_text), "its whole "
			 "session (--max-duration %llu s)",
			 (unsigned long long)b->cfg.max_duration_s);
	} else {
		snprintf(s->hard_text, sizeof(s->hard_text), "%s (%llu s)",
			 what, (unsigned long long)((ms + 999) / 1000));
	}
	b->ctrl.hard_ns = end_ns;
	b->ctrl.hard_what = s->hard_text;
}

/* Server: the HELLO is in: the session's end, and the most it may take
 * (for the busy answers). */
static void server_session_limits(struct session *s)
{
	struct bench_ctx *b = s->b;
	uint64_t test_ns = timer_deadline_ns(limit_test_ms(&b->test));

	s->end_ns = timer_deadline_ns(limit_session_ms(b->cfg.max_duration_s));
	busy_expect(s, test_ns < s->end_ns ? test_ns : s->end_ns);
	b->ctrl.hard_ns = 0; /* this server's own allocations come next */
}

/* Server: take the client's HELLO and answer it. */
static int session_server_hello(struct session *s)
{
	struct wire_msg msg, ack = { .type = WIRE_HELLO_ACK };
	struct bench_ctx *b = s->b;
	int ret;

	ret = ctrl_recv(&b->ctrl, WIRE_HELLO, &msg);
	if (ret)
		return ret;
	s->hello_in = true; /* a client, not a stranger: it counts */
	wire_hello_decode(&msg.u.hello, &b->test);
	/* the client's --timeout, never longer than ours (nor 0): a client
	 * must not hold this server longer than its operator allows */
	if (!b->test.io_timeout_ms ||
	    b->test.io_timeout_ms > b->cfg.io_timeout_s * 1000)
		b->test.io_timeout_ms = (uint32_t)(b->cfg.io_timeout_s * 1000);
	ack.u.hello_ack.status = check_test(&b->test, &b->cfg,
		ack.u.hello_ack.text, sizeof(ack.u.hello_ack.text));
	/* rdma_cm: only data connections with this token join the session */
	if (nonce_fill(&s->token, sizeof(s->token)))
		return -EIO;
	/* its data connection requests may follow the answer at once */
	busy_cm(s, false);
	ack.u.hello_ack.token = s->token;
	snprintf(ack.u.hello_ack.dev_name, sizeof(ack.u.hello_ack.dev_name),
		 "%s", ibv_get_device_name(b->ctrl.verbs->device));
	ret = ctrl_send(&b->ctrl, &ack);
	if (ack.u.hello_ack.status) {
		bench_err("refused the client's test: %s", ack.u.hello_ack.text);
		return ack.u.hello_ack.status;
	}
	b->ctrl.timeout_ms = b->test.io_timeout_ms;
	s->helloed = true;
	server_session_limits(s);
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

static int session_server_sizes(struct session *s)
{
	struct bench_ctx *b = s->b;
	const struct measure_ops *ops = measure_ops_get(b->test.measure);
	struct wire_msg msg;
	int ret;

	setup_print_header(b);
	/* the first size is still the set-up's (its set-up limit anew) */
	server_phase(s, limit_setup_ms(&b->test), "its first size");
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
		server_phase(s, limit_size_ms(&b->test, msg.u.sync.size_bytes),
			     "this size's run (-D, or -n at the floor rate)");
		if (!ret)
			ret = ops->server_size(b, &msg.u.sync);
		if (ret)
			return ret;
		server_phase(s, LIMIT_GAP_MS, "its next size");
	}
	setup_print_footer(b);
	return ret;
}

/* --persistent: one client is over (err: how); free its resources. The
 * next session starts with no peer, limits or name of this one. */
static void session_client_done(struct session *s, int err)
{
	struct bench_ctx *b = s->b;

	if (err && err != -EINTR)
		bench_warn("client %s: %s; serving the next one",
			   b->peer[0] ? b->peer : "(not yet named)",
			   strerror(-err));
	if (err)
		ctrl_send_error(&b->ctrl, err, "failed; see the server's log");
	setup_release(b);
	b->peer[0] = '\0';
	s->end_ns = 0;
	s->hello_in = false;
	bench_info("waiting for the next client%s",
		   b->cfg.persistent ? " (--persistent)" : "");
}

/*
 * Served its one client? Without --persistent a server ends after the
 * first connection that sent a well-formed HELLO (and proved the key of
 * --auth-key-file) or LOCATE, or was perftest's client (ret); a
 * stranger's bytes, garbage or silence do not count:
 * ib_fabric's one-shot link servers keep serving their real client.
 */
static bool session_served(const struct session *s, int ret)
{
	/* perftest's client is a client (of the wrong tool): the user's to
	 * fix, so a one-shot server ends, exit 2 */
	return !s->b->cfg.persistent &&
	       (s->hello_in || ret == -WIRE_EPERFTEST);
}

/* What differs between the two sides of the one flow. */
struct session_side {
	int (*ctrl)(struct session_be *be);
	int (*hello)(struct session *s);
	int (*data)(struct session_be *be);
	int (*sizes)(struct session *s);
};

static int client_data(struct session_be *be)
{
	return be->ops.connect_data(be);
}

static int server_ctrl(struct session_be *be)
{
	return be->ops.accept_ctrl(be, 0);
}

static int server_data(struct session_be *be)
{
	struct session *s = be->s;
	int ret;

	server_phase(s, limit_setup_ms(&s->b->test),
		     "its data connections and buffers");
	ret = be->ops.accept_data(be);
	busy_cm(s, true); /* its data connections are in */
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
static int session_flow(struct session_be *be)
{
	struct session *s = be->s;
	const struct session_side *side = &session_sides[s->b->is_server];
	int ret;

	ret = side->ctrl(be);
	be = be->ops.handoff(be); /* --oob auto: its choice carries on */
	if (!ret)
		ret = side->hello(s);
	if (!ret)
		ret = setup_data_init(s->b);
	if (!ret)
		ret = side->data(be);
	if (!ret)
		ret = setup_xchg_bufs(s->b);
	return ret ? ret : side->sizes(s);
}

/*
 * Client: a busy server (serving another client) is asked again every
 * second until --connect-timeout; said once, and at the end if it stayed
 * busy. The server's name resolves first (session_await_name).
 */
static int session_client_tries(struct session_be *be)
{
	struct bench_ctx *b = be->s->b;
	uint64_t deadline_ns = be->s->connect_by_ns;
	bool told = false;
	int ret;

	ret = session_await_name(be->s);
	if (ret)
		return ret;
	for (;;) {
		b->rendezvous = be->ops.name; /* an iWARP redirect undone */
		ret = be->ops.open(be);
		if (!ret)
			ret = session_flow(be);
		if (ret != -EBUSY || timer_expired(deadline_ns) || stop_flag)
			break;
		if (!told)
			bench_info("the server at %s is %s; asking again every "
				   "second for up to %llu s (--connect-timeout)",
				   b->cfg.server_addr, b->ctrl.peer_text,
				   (unsigned long long)b->cfg.connect_timeout_s);
		told = true;
		setup_release(b);
		if (timer_wait_ms(1000))
			break;
	}
	if (ret == -EBUSY && stop_flag)
		return -EINTR;
	if (ret == -EBUSY)
		bench_err("the server at %s stayed busy for %llu s "
			  "(--connect-timeout): %s; try later, or wait longer",
			  b->cfg.server_addr,
			  (unsigned long long)b->cfg.connect_timeout_s,
			  b->ctrl.peer_text);
	return ret;
}

/* Either side: --auth-key-file's key, the backend of --oob, then run. */
static int session_run(struct session *s, int (*run)(struct session_be *be))
{
	struct session_be *be = NULL;
	struct keyfile key;
	int ret;

	ret = session_auth_load(s, &key);
	if (!ret)
		ret = session_backend(s, &be);
	if (!ret)
		ret = run(be);
	session_be_free(be);
	keyfile_clear(&key);
	return ret;
}

int session_client(struct bench_ctx *b)
{
	struct session s = { .b = b };

	/* one wait in all for the server: its name, its listener, its turn */
	s.connect_by_ns = timer_deadline_ns(b->cfg.connect_timeout_s * 1000);
	return session_run(&s, session_client_tries);
}

/* Server: a client's turn is over: a source whose connection ended
 * without a valid HELLO (or the key's proof) is slowed in the line;
 * one that sent one is not (spec/turns.h). */
static void session_turn_over(struct session *s)
{
	const char *peer = s->b->peer, *colon = strrchr(peer, ':');
	char host[TURNS_HOST_MAX];

	snprintf(host, sizeof(host), "%.*s", (int)(colon ?
		 (size_t)(colon - peer) : strlen(peer)), peer);
	if (s->helloed)
		turns_pardon(&s->turns, host);
	else if (host[0])
		turns_strike(&s->turns, host, timer_now_ns());
	s->helloed = false;
}

/* Server: the loop over clients (one unless --persistent). */
static int session_serve(struct session_be *be)
{
	const struct session_ops *ops = &be->ops;
	struct session *s = be->s;
	struct bench_ctx *b = s->b;
	int ret;

	if (s->key)
		bench_info("clients must prove the key of --auth-key-file %s",
			   s->key->path);
	bool pick = !b->cfg.tcp_port; /* -p 0 */

	ret = ops->open(be);
	if (!ret)
		ret = ops->listen(be);
	if (ret)
		return ret;
	if (pick)
		bench_info("-p 0: listening on port %llu: give the client -p "
			   "%llu", (unsigned long long)b->cfg.tcp_port,
			   (unsigned long long)b->cfg.tcp_port);
	bench_info("waiting for a client on %s %llu%s%s (rdmabench %s%s)",
		   ops->port_what, (unsigned long long)b->cfg.tcp_port,
		   b->cfg.bind_addr[0] ? " at " : "", b->cfg.bind_addr,
		   RDMABENCH_VERSION, ops->listen_note);
	for (;;) {
		b->rendezvous = ops->name;
		ret = session_flow(be);
		session_turn_over(s);
		busy_end(s);
		if (session_served(s, ret) || stop_flag)
			break;
		session_client_done(s, ret);
		ret = ops->open(be);
		if (ret)
			break;
	}
	ops->unlisten(be);
	return b->cfg.persistent && stop_flag ? 0 : ret;
}

int session_server(struct bench_ctx *b)
{
	struct session s = { .b = b };
	struct busy busy;

	turns_init(&s.turns);
	busy_init(&busy, &s); /* before it listens: the listeners join it */
	return session_run(&s, session_serve);
}
