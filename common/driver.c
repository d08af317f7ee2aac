// SPDX-License-Identifier: BSD-2-Clause
/*
 * driver - bench_main(), the one orchestration every executable shares:
 * parse, rendezvous (client sends the whole configuration), build the data
 * connection, run every size, report, and map the outcome to an exit code.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "log.h"
#include "report.h"
#include "timer.h"

volatile sig_atomic_t bench_stop;

static void bench_on_signal(int sig)
{
	(void)sig;
	bench_stop = 1;
}

static void bench_signals(void)
{
	struct sigaction sa = { .sa_handler = bench_on_signal };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a dead peer must give -EPIPE/-ECONNRESET, never kill us */
	signal(SIGPIPE, SIG_IGN);
}

static int bench_exit_code(int err)
{
	switch (err) {
	case 0:
		return BENCH_EXIT_OK;
	case -EINVAL:
		return BENCH_EXIT_USAGE;
	case -EILSEQ:
		return BENCH_EXIT_CORRUPT;
	case -ETIMEDOUT:
	case -ECONNRESET:
	case -ECONNREFUSED:
	case -ECONNABORTED:
	case -EHOSTUNREACH:
	case -ENETUNREACH:
	case -EPIPE:
		return BENCH_EXIT_PEER;
	default:
		return BENCH_EXIT_RUNTIME;
	}
}

/* -d names a device: the IP in use must be on it. */
static int bench_check_device(const struct bench_ctx *b,
			      struct rdma_cm_id *id)
{
	const char *dev = ibv_get_device_name(id->verbs->device);

	if (!b->cfg.dev_name[0] || !strcmp(dev, b->cfg.dev_name))
		return 0;
	bench_err("-d %s was given, but the connection runs over %s (the "
		  "device that owns the IP address in use): use that "
		  "device's IP, or drop -d", b->cfg.dev_name, dev);
	return -EINVAL;
}

static void bench_sizes(const struct wire_hello *t, uint64_t *first,
			uint64_t *last)
{
	if (t->flags & WIRE_HELLO_ALL_SIZES) {
		*first = OPTS_SWEEP_MIN_BYTES;
		*last = OPTS_SWEEP_MAX_BYTES;
	} else {
		*first = *last = t->size_bytes;
	}
}

static void bench_build_test(struct bench_ctx *b)
{
	struct wire_hello *t = &b->test;
	uint64_t first, last;

	memset(t, 0, sizeof(*t));
	t->verb = (uint8_t)b->desc->verb;
	t->measure = (uint8_t)b->desc->measure;
	t->flags = (b->cfg.all_sizes ? WIRE_HELLO_ALL_SIZES : 0) |
		   (b->cfg.report_gbits ? WIRE_HELLO_GBITS : 0);
	t->tx_depth = (uint32_t)b->cfg.tx_depth;
	t->cq_mod = (uint32_t)b->cfg.cq_mod;
	t->io_timeout_ms = (uint32_t)(b->cfg.io_timeout_s * 1000);
	t->size_bytes = b->cfg.size_bytes;
	t->iters = b->cfg.iters;
	snprintf(t->tool, sizeof(t->tool), "%s", b->desc->name);
	bench_sizes(t, &first, &last);
	t->max_size_bytes = last;
}

/* Server: is the client's configuration one we can run? */
static int bench_check_test(const struct wire_hello *t, char *why, size_t len)
{
	if (t->verb >= BENCH_VERB_COUNT || t->measure > BENCH_MEASURE_LAT)
		snprintf(why, len, "unknown test (verb %u, measure %u)",
			 t->verb, t->measure);
	else if (!t->iters || !t->tx_depth || !t->cq_mod || !t->size_bytes ||
		 t->max_size_bytes < t->size_bytes ||
		 t->max_size_bytes > (1ULL << 31))
		snprintf(why, len, "invalid test parameters");
	else
		return 0;
	return -EINVAL;
}

static bool bench_retryable(int err)
{
	return err == -ECONNREFUSED || err == -ETIMEDOUT ||
	       err == -EHOSTUNREACH || err == -ENETUNREACH ||
	       err == -ECONNRESET;
}

/* Client: connect the control channel, retrying until the deadline. */
static int client_connect_ctrl(struct bench_ctx *b)
{
	const struct wire_connect req = { .kind = WIRE_CONN_CTRL };
	uint64_t deadline_ns = timer_deadline_ns(b->cfg.connect_timeout_s * 1000);
	bool told = false;
	int ret;

	for (;;) {
		ret = cm_resolve(b->cfg.server_addr, (uint16_t)b->cfg.tcp_port,
				 deadline_ns, &b->ctrl.ep);
		if (!ret)
			ret = bench_check_device(b, b->ctrl.ep.id);
		if (!ret)
			ret = ctrl_setup(&b->ctrl);
		if (!ret)
			ret = cm_connect(&b->ctrl.ep, &req, deadline_ns);
		if (!ret)
			return 0;
		ctrl_destroy(&b->ctrl);
		if (!bench_retryable(ret) || timer_expired(deadline_ns) ||
		    bench_stop)
			break;
		if (!told)
			bench_info("no rdmabench server at %s port %llu yet (%s); "
				   "retrying for up to %llu s",
				   b->cfg.server_addr,
				   (unsigned long long)b->cfg.tcp_port,
				   strerror(-ret),
				   (unsigned long long)b->cfg.connect_timeout_s);
		told = true;
		timer_sleep_ms(200);
	}
	if (bench_retryable(ret))
		bench_err("could not reach an rdmabench server at %s port %llu "
			  "within %llu s: %s (is the server running, and is "
			  "this IP on an RDMA device?)", b->cfg.server_addr,
			  (unsigned long long)b->cfg.tcp_port,
			  (unsigned long long)b->cfg.connect_timeout_s,
			  strerror(-ret));
	return ret;
}

/* Both sides: after the control channel, build and connect the data QP. */
static int bench_data_setup(struct bench_ctx *b, struct rdma_cm_id *id)
{
	const struct measure_ops *ops = run_measure_ops(b->test.measure);
	int ret;

	if (id->verbs != b->ctrl.ep.id->verbs) {
		bench_err("the data connection reached another device than the "
			  "control connection");
		return -EINVAL;
	}
	ret = dev_query(id->verbs, id->port_num, &b->dev);
	if (ret)
		return ret;
	b->xfer = (struct xfer){ .conn = &b->data, .ctrl = &b->ctrl,
				 .verb = b->test.verb,
				 .io_timeout_ns = b->test.io_timeout_ms *
						  NS_PER_MS };
	if (b->test.measure == BENCH_MEASURE_LAT) {
		b->lat_samples_ns = calloc(b->test.iters, sizeof(uint64_t));
		if (!b->lat_samples_ns) {
			bench_err("no memory for %llu latency samples",
				  (unsigned long long)b->test.iters);
			return -ENOMEM;
		}
	}
	return conn_setup(&b->data, b->ctrl.pd, b->test.max_size_bytes,
			  ops->send_depth(&b->test), b->dev.numa_node);
}

static int bench_xchg_bufs(struct bench_ctx *b)
{
	struct wire_msg mine = { .type = WIRE_BUF }, theirs;
	int ret;

	conn_local_buf(&b->data, &mine.u.buf);
	if (b->is_server) {
		ret = ctrl_recv(&b->ctrl, WIRE_BUF, &theirs);
		if (!ret)
			ret = ctrl_send(&b->ctrl, &mine);
	} else {
		ret = ctrl_send(&b->ctrl, &mine);
		if (!ret)
			ret = ctrl_recv(&b->ctrl, WIRE_BUF, &theirs);
	}
	if (!ret)
		b->data.remote = theirs.u.buf;
	return ret;
}

static void bench_print_header(struct bench_ctx *b)
{
	const struct measure_ops *ops = run_measure_ops(b->test.measure);
	char title[64];
	struct report_info ri = {
		.title = title, .role = b->is_server ? "server" : "client",
		.dev_name = b->dev.name, .fw_ver = b->dev.fw_ver,
		.transport = b->dev.transport, .port_state = b->dev.port_state,
		.port = b->dev.port, .mtu_bytes = b->dev.active_mtu_bytes,
		.numa_node = b->data.mem.numa_node, .local = b->local,
		.peer = b->peer, .tx_depth = b->test.tx_depth,
		.cq_mod = b->test.cq_mod, .max_inline = b->data.max_inline,
	};

	snprintf(title, sizeof(title), "%s %s Test",
		 bench_verb_title(b->test.verb),
		 b->test.measure == BENCH_MEASURE_BW ? "BW" : "Latency");
	if (b->test.measure == BENCH_MEASURE_LAT)
		ri.lat_note = bench_verb_lat_divisor(b->test.verb) == 2 ?
			"half of the ping-pong round trip" : "full round trip";
	cm_local_str(&b->data.ep, b->local, sizeof(b->local));
	cm_peer_str(&b->data.ep, b->peer, sizeof(b->peer));
	report_header(stdout, &ri);
	ops->head(b);
}

static int client_run(struct bench_ctx *b)
{
	const struct wire_connect req = { .kind = WIRE_CONN_DATA };
	const struct measure_ops *ops = run_measure_ops(b->test.measure);
	struct wire_msg msg = { .type = WIRE_HELLO, .u.hello = b->test };
	uint64_t size, first, last;
	int ret;

	ret = client_connect_ctrl(b);
	if (!ret)
		ret = ctrl_send(&b->ctrl, &msg);
	if (!ret)
		ret = ctrl_recv(&b->ctrl, WIRE_HELLO_ACK, &msg);
	if (!ret && msg.u.hello_ack.status) {
		bench_err("the server refused the test: %s",
			  msg.u.hello_ack.text);
		ret = msg.u.hello_ack.status;
	}
	if (!ret)
		ret = cm_resolve(b->cfg.server_addr, (uint16_t)b->cfg.tcp_port,
				 timer_deadline_ns(b->test.io_timeout_ms),
				 &b->data.ep);
	if (!ret)
		ret = bench_data_setup(b, b->data.ep.id);
	if (!ret)
		ret = cm_connect(&b->data.ep, &req,
				 timer_deadline_ns(b->test.io_timeout_ms));
	if (!ret)
		ret = bench_xchg_bufs(b);
	if (ret)
		return ret;
	bench_print_header(b);
	bench_sizes(&b->test, &first, &last);
	for (size = first; !ret && size <= last; size *= 2)
		ret = ops->client_size(b, size);
	report_rule(stdout);
	msg.type = WIRE_BYE;
	if (!ret)
		ret = ctrl_send(&b->ctrl, &msg);
	return ret;
}

/* Server: take the client's HELLO and answer it. */
static int server_hello(struct bench_ctx *b)
{
	struct wire_msg msg, ack = { .type = WIRE_HELLO_ACK };
	int ret;

	ret = ctrl_recv(&b->ctrl, WIRE_HELLO, &msg);
	if (ret)
		return ret;
	b->test = msg.u.hello;
	ack.u.hello_ack.status = bench_check_test(&b->test,
		ack.u.hello_ack.text, sizeof(ack.u.hello_ack.text));
	snprintf(ack.u.hello_ack.dev_name, sizeof(ack.u.hello_ack.dev_name),
		 "%s", ibv_get_device_name(b->ctrl.ep.id->verbs->device));
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

/* Server: wait for a connection request of the given kind. */
static int server_accept(struct bench_ctx *b, struct cm_ep *ep,
			 uint16_t kind, uint64_t deadline_ns)
{
	struct wire_connect req;
	int ret;

	ret = cm_get_request(&b->listener, deadline_ns, ep, &req);
	if (ret)
		return ret;
	if (req.kind != kind) {
		bench_err("expected a %s connection, got kind %u",
			  kind == WIRE_CONN_CTRL ? "control" : "data", req.kind);
		cm_reject(ep);
		return -EPROTO;
	}
	ret = bench_check_device(b, ep->id);
	if (ret)
		cm_reject(ep);
	return ret;
}

static int server_serve(struct bench_ctx *b)
{
	const struct measure_ops *ops;
	uint64_t timeout_ms = b->cfg.io_timeout_s * 1000;
	struct wire_msg msg;
	int ret;

	ret = server_accept(b, &b->ctrl.ep, WIRE_CONN_CTRL, 0);
	if (!ret)
		ret = ctrl_setup(&b->ctrl);
	if (!ret)
		ret = cm_accept(&b->ctrl.ep, timer_deadline_ns(timeout_ms));
	if (!ret) {
		cm_peer_str(&b->ctrl.ep, b->peer, sizeof(b->peer));
		ret = server_hello(b);
	}
	if (!ret)
		ret = server_accept(b, &b->data.ep, WIRE_CONN_DATA,
				    timer_deadline_ns(timeout_ms));
	if (!ret)
		ret = bench_data_setup(b, b->data.ep.id);
	if (!ret)
		ret = cm_accept(&b->data.ep, timer_deadline_ns(timeout_ms));
	if (!ret)
		ret = bench_xchg_bufs(b);
	if (ret)
		return ret;
	ops = run_measure_ops(b->test.measure);
	bench_print_header(b);
	while (!(ret = ctrl_recv(&b->ctrl, 0, &msg))) {
		if (msg.type == WIRE_BYE)
			return 0;
		if (msg.type != WIRE_SYNC) {
			bench_err("expected SYNC or BYE from the client, got %s",
				  wire_type_name(msg.type));
			return -EPROTO;
		}
		ret = ops->server_size(b, &msg.u.sync);
		if (ret)
			return ret;
	}
	return ret;
}

static int server_run(struct bench_ctx *b)
{
	int ret;

	ret = cm_listen((uint16_t)b->cfg.tcp_port, &b->listener);
	if (ret)
		return ret;
	bench_info("waiting for a client on port %llu (rdmabench %s)",
		   (unsigned long long)b->cfg.tcp_port, RDMABENCH_VERSION);
	ret = server_serve(b);
	cm_close(&b->listener);
	return ret;
}

static int bench_usage_error(const struct bench_desc *desc, const char *why)
{
	fprintf(stderr, "%s: %s\nTry '%s --help'.\n", desc->name, why,
		desc->name);
	return BENCH_EXIT_USAGE;
}

int bench_main(const struct bench_desc *desc, int argc, char **argv)
{
	struct bench_ctx b = { .desc = desc };
	char err[256];
	int ret;

	if (opts_parse(&b.cfg, desc, argc, argv, err, sizeof(err)))
		return bench_usage_error(desc, err);
	if (!b.cfg.show_help && !b.cfg.show_version &&
	    opts_check(&b.cfg, desc, err, sizeof(err)))
		return bench_usage_error(desc, err);
	if (b.cfg.show_help) {
		opts_usage(desc, stdout);
		return BENCH_EXIT_OK;
	}
	if (b.cfg.show_version) {
		printf("%s (rdmabench) %s\n", desc->name, RDMABENCH_VERSION);
		return BENCH_EXIT_OK;
	}
	setvbuf(stdout, NULL, _IOLBF, 0); /* rows appear as they are measured */
	bench_signals();
	b.is_server = opts_is_server(&b.cfg);
	b.ctrl.peer_role = b.is_server ? "client" : "server";
	b.ctrl.timeout_ms = b.cfg.io_timeout_s * 1000;
	bench_build_test(&b);
	ret = b.is_server ? server_run(&b) : client_run(&b);
	if (ret)
		ctrl_send_error(&b.ctrl, ret, ret == -EINTR ? "interrupted" :
				"failed; see its log for why");
	conn_destroy(&b.data);
	ctrl_destroy(&b.ctrl);
	free(b.lat_samples_ns);
	if (ret == -EINTR)
		bench_err("interrupted");
	return bench_exit_code(ret);
}
