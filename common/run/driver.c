// SPDX-License-Identifier: BSD-2-Clause
/*
 * driver - bench_main(), the one orchestration every executable shares:
 * parse, run the client or server session (session.c), tear down, and map
 * the outcome to an exit code. Also what both sessions share: the test
 * description, the data connections' set-up and the header.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma/device.h"
#include "run/driver.h"
#include "run/main.h"
#include "lib/log.h"
#include "lib/stop.h"
#include "report/report.h"
#include "run/session.h"
#include "lib/timer.h"

static int bench_exit_code(int err)
{
	switch (err) {
	case 0:
		return BENCH_EXIT_OK;
	case -EINVAL:
	case -EOPNOTSUPP:
		return BENCH_EXIT_USAGE;
	case -EILSEQ:
		return BENCH_EXIT_CORRUPT;
	case -EINTR:
		return BENCH_EXIT_STOPPED;
	case -ETIMEDOUT:
	case -ECONNRESET:
	case -ECONNREFUSED:
	case -ECONNABORTED:
	case -EHOSTUNREACH:
	case -ENETUNREACH:
	case -ENETDOWN:
	case -EPIPE:
		return BENCH_EXIT_PEER;
	default:
		return BENCH_EXIT_RUNTIME;
	}
}

int bench_check_device(const struct bench_ctx *b, struct rdma_cm_id *id)
{
	const char *dev = ibv_get_device_name(id->verbs->device);

	if (b->cfg.dev_name[0] && strcmp(dev, b->cfg.dev_name)) {
		bench_err("-d %s was given, but the connection runs over %s (the "
			  "device that owns the IP address in use): use that "
			  "device's IP, or drop -d", b->cfg.dev_name, dev);
		return -EINVAL;
	}
	if (b->cfg.has_ib_port && b->cfg.ib_port != id->port_num) {
		bench_err("-i %llu was given, but the IP in use is on port %u "
			  "of %s: use that port's IP, or drop -i",
			  (unsigned long long)b->cfg.ib_port, id->port_num, dev);
		return -EINVAL;
	}
	return 0;
}

void bench_sizes(const struct wire_hello *t, uint64_t *first, uint64_t *last)
{
	if (t->flags & WIRE_HELLO_ALL_SIZES) {
		*first = OPTS_SWEEP_MIN_BYTES;
		*last = OPTS_SWEEP_MAX_BYTES;
	} else {
		*first = *last = t->size_bytes;
	}
}

void bench_build_test(struct bench_ctx *b)
{
	const struct bench_cfg *c = &b->cfg;
	struct wire_hello *t = &b->test;
	uint64_t first, last;

	memset(t, 0, sizeof(*t));
	t->verb = (uint8_t)b->desc->verb;
	/* -A picks the atomic's row of the verb table */
	if (t->verb == BENCH_VERB_ATOMIC_FAA && c->atomic_op == OPTS_ATOMIC_CAS)
		t->verb = BENCH_VERB_ATOMIC_CAS;
	t->measure = (uint8_t)b->desc->measure;
	t->flags = (c->all_sizes ? WIRE_HELLO_ALL_SIZES : 0) |
		   (c->report_gbits ? WIRE_HELLO_GBITS : 0) |
		   (c->bidir ? WIRE_HELLO_BIDIR : 0) |
		   (c->validate ? WIRE_HELLO_VALIDATE : 0) |
		   (c->conn_type == OPTS_CONN_UC ? WIRE_HELLO_UC : 0);
	t->tx_depth = (uint32_t)c->tx_depth;
	t->cq_mod = (uint32_t)c->cq_mod;
	t->io_timeout_ms = (uint32_t)(c->io_timeout_s * 1000);
	t->size_bytes = c->size_bytes;
	t->iters = c->iters;
	t->qps = (uint32_t)c->qps;
	t->post_list = (uint32_t)c->post_list;
	t->outstanding = (uint32_t)c->outstanding;
	t->rx_depth = (uint32_t)c->rx_depth;
	t->inline_bytes = c->has_inline ? (uint32_t)c->inline_bytes : UINT32_MAX;
	t->duration_s = (uint32_t)c->duration_s;
	t->margin_s = (uint32_t)c->margin_s;
	snprintf(t->tool, sizeof(t->tool), "%s", b->desc->name);
	bench_sizes(t, &first, &last);
	t->max_size_bytes = last;
}

/*
 * Messages a region holds. Validation gives each operation in flight its
 * own slot (up to 64 MiB a region) so data is checked before its slot is
 * reused; otherwise every operation reuses one.
 */
static uint32_t bench_slots(const struct wire_hello *t)
{
	uint64_t slots = t->tx_depth > t->rx_depth ? t->tx_depth : t->rx_depth;

	if (!(t->flags & WIRE_HELLO_VALIDATE) || t->measure == BENCH_MEASURE_LAT)
		return 1;
	if (slots * t->max_size_bytes > (64ULL << 20))
		slots = (64ULL << 20) / t->max_size_bytes;
	if (slots % 255 == 0) /* keep consecutive markers apart */
		slots--;
	return slots ? (uint32_t)slots : 1;
}

/*
 * Server: is the client's configuration one we can run, within this
 * server's caps (--max-*)? Never trust a number from the wire.
 */
int bench_check_test(const struct bench_ctx *b, char *why, size_t len)
{
	const struct wire_hello *t = &b->test;
	const struct bench_cfg *c = &b->cfg;
	uint64_t mem;

	if (t->verb >= BENCH_VERB_COUNT || t->measure > BENCH_MEASURE_LAT) {
		snprintf(why, len, "unknown test (verb %u, measure %u): a newer "
			 "client?", t->verb, t->measure);
		return -EINVAL;
	}
	if (!t->iters || !t->tx_depth || !t->cq_mod || !t->size_bytes ||
	    !t->qps || !t->post_list || !t->rx_depth || !t->outstanding ||
	    t->max_size_bytes < t->size_bytes || t->tx_depth > 16384 ||
	    t->rx_depth > 16384) {
		snprintf(why, len, "invalid test parameters");
		return -EINVAL;
	}
	mem = 2ULL * t->qps * bench_slots(t) * t->max_size_bytes;
	if (t->max_size_bytes > c->max_size_bytes)
		snprintf(why, len, "messages of %llu bytes: this server allows "
			 "%llu (--max-size)", (unsigned long long)t->max_size_bytes,
			 (unsigned long long)c->max_size_bytes);
	else if (t->qps > c->max_qps)
		snprintf(why, len, "%u QPs: this server allows %llu (--max-qps)",
			 t->qps, (unsigned long long)c->max_qps);
	else if (t->duration_s > c->max_duration_s)
		snprintf(why, len, "-D %u: this server allows %llu s "
			 "(--max-duration)", t->duration_s,
			 (unsigned long long)c->max_duration_s);
	else if (mem > c->max_mem_bytes)
		snprintf(why, len, "%llu bytes of buffers: this server allows "
			 "%llu (--max-mem)", (unsigned long long)mem,
			 (unsigned long long)c->max_mem_bytes);
	else
		return 0;
	return -EINVAL;
}

/* Both sides, once the control channel is up: CQs, buffers, the xfer. */
int bench_data_init(struct bench_ctx *b)
{
	const struct measure_ops *ops = run_measure_ops(b->test.measure);
	struct ibv_context *verbs = b->ctrl.verbs;
	struct conn_params p = {
		.nqps = b->test.qps,
		.send_depth = ops->send_depth(&b->test),
		.recv_depth = b->test.measure == BENCH_MEASURE_LAT ?
			16 : b->test.rx_depth,
		.numa_node = b->dev.numa_node,
	};
	uint32_t slots = bench_slots(&b->test);
	int ret;

	ret = dev_query(verbs, b->port, &b->dev);
	if (ret)
		return ret;
	/* what the device cannot do is said before any traffic */
	if (bench_verb(b->test.verb)->fixed_size && !b->dev.has_atomics) {
		bench_err("%s (%s) has no atomic operations: run %s on a device "
			  "that has them", b->dev.name, b->dev.transport,
			  b->test.tool);
		return -EOPNOTSUPP;
	}
	ret = bench_place(b);
	if (ret)
		return ret;
	p.numa_node = b->place.mem_node;
	p.mem = (struct mem_spec){
		.kind = b->cfg.use_cuda < 0 && !b->cfg.cuda_bus_id[0] ?
			MEM_HOST : b->cfg.use_cuda_dmabuf ? MEM_CUDA_DMABUF
							  : MEM_CUDA,
		.numa_node = b->place.mem_node,
		.cuda_index = b->cfg.use_cuda > 0 ? (int)b->cfg.use_cuda : 0,
		.cuda_bus_id = b->cfg.cuda_bus_id[0] ? b->cfg.cuda_bus_id : NULL,
	};
	if (p.mem.kind != MEM_HOST && bench_verb(b->test.verb)->fixed_size) {
		bench_err("atomics on GPU memory are not supported: run %s "
			  "without --use_cuda", b->test.tool);
		return -EOPNOTSUPP;
	}
	p.region_bytes = slots * b->test.max_size_bytes;
	b->hist = hist_create();
	b->xfer.qs = calloc(b->test.qps, sizeof(*b->xfer.qs));
	if (!b->hist || !b->xfer.qs)
		return -ENOMEM;
	b->xfer.conn = &b->data;
	b->xfer.ctrl = &b->ctrl;
	b->xfer.verb = b->test.verb;
	b->xfer.io_timeout_ns = b->test.io_timeout_ms * NS_PER_MS;
	b->xfer.slots = slots;
	b->xfer.validate = b->test.flags & WIRE_HELLO_VALIDATE;
	return conn_init(&b->data, verbs, b->ctrl.pd, &p);
}

/* One data QP on its id (resolved by the client, requested at the server). */
int bench_data_qp(struct bench_ctx *b, unsigned int i)
{
	struct rdma_cm_id *id = b->data.qps[i].ep.id;

	if (id->verbs != b->ctrl.verbs) {
		bench_err("data connection %u reached another device than the "
			  "control connection", i);
		return -EINVAL;
	}
	return conn_qp_setup(&b->data, i, b->ctrl.pd, bench_inline_bytes(b));
}

/*
 * Inline data to ask for: -I, else 256 B (halved by conn.c until the
 * device takes it), but 16 B on rxe and siw: there inline pays up to
 * 16 B and costs beyond (docs/performance-notes.md, finding 2).
 */
uint32_t bench_inline_bytes(const struct bench_ctx *b)
{
	if (b->test.inline_bytes != UINT32_MAX)
		return b->test.inline_bytes;
	return b->dev.software ? 16 : 256;
}

int bench_xchg_bufs(struct bench_ctx *b)
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

void bench_print_header(struct bench_ctx *b)
{
	const struct measure_ops *ops = run_measure_ops(b->test.measure);
	char title[80];
	struct report_info ri = {
		.title = title, .role = b->is_server ? "server" : "client",
		.dev_name = b->dev.name, .fw_ver = b->dev.fw_ver,
		.transport = b->dev.transport, .port_state = b->dev.port_state,
		.port = b->dev.port, .mtu_bytes = b->dev.active_mtu_bytes,
		.numa_node = b->data.mem.numa_node, .local = b->local,
		.placement = b->place.summary,
		.memory = mem_path_name(&b->data.mem),
		.peer = b->peer, .tx_depth = b->test.tx_depth,
		.cq_mod = b->test.cq_mod, .max_inline = b->data.qps[0].max_inline,
		.qps = b->test.qps,
		.conn_type = b->test.flags & WIRE_HELLO_UC ? "UC" : "RC",
		.rendezvous = b->cfg.oob == OPTS_OOB_TCP ? "TCP (--oob tcp)" :
							   "rdma_cm",
	};

	snprintf(title, sizeof(title), "%s %s Test",
		 bench_verb_title(b->test.verb),
		 b->test.measure == BENCH_MEASURE_BW ? "BW" : "Latency");
	if (b->test.measure == BENCH_MEASURE_LAT)
		ri.lat_note = bench_verb_lat_divisor(b->test.verb) == 2 ?
			"half of the ping-pong round trip" : "full round trip";
	if (b->data.qps[0].ep.id) { /* rdma_cm; else set by the TCP session */
		cm_local_str(&b->data.qps[0].ep, b->local, sizeof(b->local));
		cm_peer_str(&b->data.qps[0].ep, b->peer, sizeof(b->peer));
	}
	report_header(stdout, &ri);
	record_device(b);
	if (b->is_server && b->test.measure == BENCH_MEASURE_BW &&
	    !(b->test.flags & WIRE_HELLO_BIDIR))
		printf(" (server figures: what arrived, from READY to the "
		       "last byte)\n");
	ops->head(b);
}

void bench_release(struct bench_ctx *b)
{
	const char *role = b->ctrl.peer_role;
	uint64_t timeout_ms = b->cfg.io_timeout_s * 1000;

	conn_destroy(&b->data);
	memset(&b->data, 0, sizeof(b->data));
	ctrl_destroy(&b->ctrl);
	ctrl_init(&b->ctrl);
	b->ctrl.peer_role = role;
	b->ctrl.timeout_ms = timeout_ms;
	hist_destroy(b->hist);
	b->hist = NULL;
	free(b->xfer.qs);
	b->xfer.qs = NULL;
}

static int bench_usage_error(const struct bench_desc *desc, const char *why)
{
	fprintf(stderr, "%s: %s\nTry '%s --help'.\n", desc->name, why,
		desc->name);
	return BENCH_EXIT_USAGE;
}

/* -d naming no device fails at once on either side, not after connecting. */
static int bench_check_dev_name(const struct bench_cfg *c)
{
	struct ibv_context *ctx;
	int ret;

	if (!c->dev_name[0])
		return 0;
	ret = dev_open(c->dev_name, NULL, &ctx, NULL);
	if (!ret)
		ibv_close_device(ctx);
	return ret;
}

/* The test-only hook --validate's tests use to prove a flip is caught. */
static int64_t bench_flip_iter(void)
{
	const char *v = getenv("RDMABENCH_TEST_FLIP_ITER");

	return v && *v ? strtoll(v, NULL, 10) : -1;
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
	stop_signals_init();
	b.is_server = opts_is_server(&b.cfg);
	ctrl_init(&b.ctrl);
	b.ctrl.peer_role = b.is_server ? "client" : "server";
	b.ctrl.timeout_ms = b.cfg.io_timeout_s * 1000;
	b.xfer.flip_iter = bench_flip_iter();
	bench_build_test(&b);
	b.argc = argc;
	b.argv = argv;
	ret = record_begin(&b);
	if (!ret)
		ret = bench_check_dev_name(&b.cfg);
	if (!ret)
		ret = bench_preflight(&b);
	if (!ret && b.cfg.oob == OPTS_OOB_TCP)
		ret = b.is_server ? session_server_tcp(&b) : session_client_tcp(&b);
	else if (!ret)
		ret = b.is_server ? session_server(&b) : session_client(&b);
	if (ret)
		ctrl_send_error(&b.ctrl, ret, ret == -EINTR ? "interrupted" :
				"failed; see its log for why");
	bench_release(&b);
	if (ret == -EINTR)
		bench_err("interrupted");
	return record_end(&b, ret, ret ? bench_exit_code(ret) : b.exit_code);
}
