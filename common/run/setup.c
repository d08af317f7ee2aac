// SPDX-License-Identifier: BSD-2-Clause
/*
 * setup - what both sides of a session do around the measured sizes, the
 * same for either rendezvous: set up the data path (CQs, buffers, the
 * xfer), exchange the buffers, print the header, and free one client's
 * resources. What only rdma_cm's QPs need is session_cm.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "lib/stop.h"
#include "lib/tick.h"
#include "lib/timer.h"
#include "report/report.h"
#include "run/cycles.h"
#include "run/measure.h"
#include "run/perftest_out.h"
#include "run/place_glue.h"
#include "run/portctr.h"
#include "run/record_dev.h"
#include "run/setup.h"
#include "spec/opts_rate.h"
#include "spec/plan.h"
#include "spec/test.h"

/* A data region's size is a multiple of this (a page). */
#define SETUP_REGION_ALIGN 4096u

/*
 * Receives kept posted per QP: a ping-pong needs few. A bandwidth run: at
 * least the sender's window (-t). Without --validate (which checks each
 * slot before it is used again) as many as the budget and the device
 * allow, up to the run's iterations: the sender's window reopens as soon
 * as a receive is taken, before the receiver gives it back, so a receiver
 * that loses the CPU for a while (a loaded host) ran dry and the sender got
 * RNR NAKs even with -r 512 (issue 13, lab rnr.sh).
 */
static uint32_t setup_recv_depth(const struct test *t,
				 const struct dev_info *d)
{
	uint32_t depth = t->rx_depth > t->tx_depth ? t->rx_depth : t->tx_depth;
	uint64_t more = PLAN_RECV_BUDGET / t->qps - 1; /* +1: the FIN's */

	if (t->measure == BENCH_MEASURE_LAT)
		return 16;
	if (t->validate)
		return depth;
	if (d->max_qp_wr && more >= d->max_qp_wr)
		more = d->max_qp_wr - 1;
	if (t->iters && more > t->iters)
		more = t->iters;
	return more > depth ? (uint32_t)more : depth;
}

/* --clock: the latency loop's clock (lib/tick.h) and its first guess. */
static int setup_clock(struct bench_ctx *b)
{
	const char *want = tick_src_names[b->cfg.clock];

	b->xfer.clock = tick_src_pick(want);
	if (!b->xfer.clock) {
		bench_err("--clock %s: this CPU has no invariant TSC (CPUID "
			  "0x80000007, EDX bit 8), so its ticks cannot time a "
			  "sample: use --clock monotonic or --clock auto",
			  want);
		return -EINVAL;
	}
	b->xfer.ns_per_tick_guess = 1.0;
	if (b->test.measure == BENCH_MEASURE_LAT)
		b->xfer.ns_per_tick_guess =
			tick_guess_ns_per_tick(b->xfer.clock, 5);
	return 0;
}

/* The buffers' kind: this side's own options, as perftest's (none of
 * them travels in the HELLO). */
static enum mem_kind setup_mem_kind(const struct bench_cfg *c)
{
	if (opts_wants_gpu(c))
		return c->use_cuda_dmabuf ? MEM_CUDA_DMABUF : MEM_CUDA;
	if (c->mmap_path[0])
		return MEM_MMAP;
	return c->use_hugepages ? MEM_HUGEPAGES : MEM_HOST;
}

/* The data QPs' transport. */
static enum ibv_qp_type setup_qp_type(const struct test *t)
{
	if (t->ud)
		return IBV_QPT_UD;
	return t->uc ? IBV_QPT_UC : IBV_QPT_RC;
}

/*
 * --odp (this side's): can the device page the data buffer on demand for
 * what the verb does with it on the test's transport? Atomics never get
 * here (perftest refuses --odp there, and so do we).
 */
static int setup_odp(struct bench_ctx *b, struct ibv_context *verbs)
{
	static const uint32_t need[BENCH_VERB_COUNT] = {
		[BENCH_VERB_WRITE] = IBV_ODP_SUPPORT_SEND |
				     IBV_ODP_SUPPORT_WRITE,
		[BENCH_VERB_READ] = IBV_ODP_SUPPORT_READ,
		[BENCH_VERB_SEND] = IBV_ODP_SUPPORT_SEND | IBV_ODP_SUPPORT_RECV,
	};
	uint32_t n;

	if (!b->cfg.odp || (unsigned int)b->test.verb >= BENCH_VERB_COUNT)
		return 0;
	n = need[b->test.verb];
	if (b->test.srq) /* receives come from the SRQ */
		n = (n & ~IBV_ODP_SUPPORT_RECV) | IBV_ODP_SUPPORT_SRQ_RECV;
	return dev_odp_check(verbs, setup_qp_type(&b->test), n, &b->why);
}

/* Both sides, once the control channel is up: CQs, buffers, the xfer. */
int setup_data_init(struct bench_ctx *b)
{
	const struct measure_ops *ops = measure_ops_get(b->test.measure);
	struct ibv_context *verbs = b->ctrl.verbs;
	struct conn_params p = {
		.nqps = b->test.qps,
		.send_depth = ops->send_depth(&b->test),
		.numa_node = b->dev.numa_node,
		.events = b->test.events,
		.srq = b->test.srq,
		.mr_per_qp = b->test.mr_per_qp,
	};
	uint32_t slots = test_slots(&b->test);
	int ret;

	ret = dev_query(verbs, b->port, &b->dev);
	if (ret)
		return ret;
	p.recv_depth = setup_recv_depth(&b->test, &b->dev);
	/* what the device cannot do is said before any traffic */
	if (bench_verb(b->test.verb)->fixed_size && !b->dev.has_atomics) {
		bench_err_why(&b->why, "%s (%s) has no atomic operations: run "
			      "%s on a device that has them", b->dev.name,
			      b->dev.transport, b->test.tool);
		return -EOPNOTSUPP;
	}
	ret = setup_odp(b, verbs);
	if (!ret)
		ret = place_glue_apply(b);
	if (ret)
		return ret;
	p.numa_node = b->place.mem_node;
	p.mem = (struct mem_spec){
		.kind = setup_mem_kind(&b->cfg),
		.numa_node = b->place.mem_node,
		.cuda_index = b->cfg.use_cuda > 0 ? (int)b->cfg.use_cuda : 0,
		.cuda_bus_id = b->cfg.cuda_bus_id[0] ? b->cfg.cuda_bus_id : NULL,
		.why = &b->why,
		.mmap_path = b->cfg.mmap_path,
		.mmap_offset = b->cfg.mmap_offset,
		.odp = b->cfg.odp,
	};
	if (!mem_kind_cpu(p.mem.kind) && bench_verb(b->test.verb)->fixed_size) {
		bench_err_why(&b->why, "atomics on GPU memory are not "
			      "supported: run %s without --use_cuda",
			      b->test.tool);
		return -EOPNOTSUPP;
	}
	/* each region starts on its own page, as perftest's buffers do: a
	 * 2-byte latency test's receive and send bytes in one cache line
	 * put the peer's writes and our marker on one line (false sharing
	 * on every round trip); the peer learns the padded length */
	p.region_bytes = (slots * b->test.max_size_bytes + SETUP_REGION_ALIGN -
			  1) / SETUP_REGION_ALIGN * SETUP_REGION_ALIGN;
	b->hist = hist_create();
	b->xfer.qs = calloc(b->test.qps, sizeof(*b->xfer.qs));
	if (!b->hist || !b->xfer.qs ||
	    xfer_room(&b->xfer, b->test.qps, b->test.post_list,
		      b->test.recv_post_list))
		return -ENOMEM;
	b->xfer.conn = &b->data;
	b->xfer.ctrl = &b->ctrl;
	b->xfer.verb = b->test.verb;
	b->xfer.io_timeout_ns = b->test.io_timeout_ms * NS_PER_MS;
	b->xfer.spin_ns = (b->test.duration_s + 2) * NS_PER_S;
	b->xfer.slots = slots;
	b->xfer.validate = b->test.validate;
	b->xfer.gap_ns = b->cfg.latency_gap_us * 1000;
	if (setup_clock(b))
		return -EINVAL;
	ret = portctr_open(b);
	if (!ret)
		ret = cycles_setup(b);
	if (ret)
		return ret;
	if (b->cfg.unsorted && !b->test.duration_s &&
	    b->test.measure == BENCH_MEASURE_LAT) {
		if (samples_init(&b->raw, b->test.iters))
			return -ENOMEM;
		b->xfer.raw = &b->raw;
	}
	return conn_init(&b->data, verbs, b->ctrl.pd, &p);
}

/*
 * Inline data to ask for: -I, else 256 B (halved by conn.c until the
 * device takes it), but 16 B on rxe and siw: there inline pays up to
 * 16 B and costs beyond (docs/performance-notes.md, finding 2).
 */
void setup_clamp_ud(struct bench_ctx *b)
{
	struct ibv_port_attr pa = { .active_mtu = IBV_MTU_1024 };
	uint64_t mtu;
	bool note;

	if (!b->test.ud || !b->ctrl.verbs)
		return;
	ibv_query_port(b->ctrl.verbs, b->port, &pa);
	mtu = b->cfg.has_mtu ? b->cfg.mtu : dev_mtu_bytes(pa.active_mtu);
	test_clamp_ud(&b->test, mtu, &note);
	if (note)
		fprintf(stderr, " Max msg size in UD is MTU %llu\n Changing to "
			"this MTU\n", (unsigned long long)mtu);
}

uint32_t setup_inline_bytes(const struct bench_ctx *b)
{
	if (b->test.inline_bytes != UINT32_MAX)
		return b->test.inline_bytes;
	return b->dev.software ? 16 : 256;
}

/* Our buffer messages: one for all QPs, or one a QP (--mr_per_qp). */
static int setup_send_bufs(struct bench_ctx *b)
{
	struct wire_msg mine = { .type = WIRE_BUF };
	unsigned int i;
	int ret = 0;

	for (i = 0; i < conn_bufs(&b->data) && !ret; i++) {
		conn_local_buf(&b->data, i, &mine.u.buf);
		ret = ctrl_send(&b->ctrl, &mine);
	}
	return ret;
}

/* The peer's, as many as ours (its --mr_per_qp is ours: it travels). */
static int setup_recv_bufs(struct bench_ctx *b)
{
	struct wire_msg theirs;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < conn_bufs(&b->data) && !ret; i++) {
		ret = ctrl_recv(&b->ctrl, WIRE_BUF, &theirs);
		if (!ret)
			conn_remote_buf(&b->data, i, &theirs.u.buf);
	}
	return ret;
}

int setup_xchg_bufs(struct bench_ctx *b)
{
	int ret;

	if (b->is_server) {
		ret = setup_recv_bufs(b);
		return ret ? ret : setup_send_bufs(b);
	}
	ret = setup_send_bufs(b);
	return ret ? ret : setup_recv_bufs(b);
}

/*
 * The data QPs' attributes as the device reads them back (QP 0): what -T,
 * -S, -u and --retry_count became. NULL when it cannot say.
 */
static const char *setup_qp_attr(const struct bench_ctx *b, char *buf,
				 size_t len)
{
	struct dev_qp_path p;

	if (!b->data.qps || !b->data.qps[0].qp ||
	    dev_qp_path(b->data.qps[0].qp, &b->dev, &p) || !p.has_attr)
		return NULL;
	snprintf(buf, len, "traffic class %u, SL %u, timeout %u (%.1f ms), "
		 "retry count %u, RNR retry %u", p.traffic_class, p.sl,
		 p.timeout, p.timeout ? 4.096e-3 * (1ULL << p.timeout) : 0.0,
		 p.retry_cnt, p.rnr_retry);
	return buf;
}

/* The header's "Data device": which, its GID, and why it was chosen. */
static const char *setup_data_dev(const struct bench_ctx *b, char *buf,
				  size_t len)
{
	struct dev_qp_path p;

	if (!b->dev_note[0])
		return NULL;
	if (!b->data.qps || !b->data.qps[0].qp ||
	    dev_qp_path(b->data.qps[0].qp, &b->dev, &p) || !p.gid[0])
		p.gid[0] = '\0';
	snprintf(buf, len, "%s port %u%s%.64s (%s)", b->dev.name, b->dev.port,
		 p.gid[0] ? ", GID " : "", p.gid, b->dev_note);
	return buf;
}

/* The header's "Memory": host or GPU, and --mr_per_qp's MRs. */
static const char *setup_memory(const struct bench_ctx *b, char *buf,
				size_t len)
{
	size_t n;

	mem_describe(b->data.qps[0].mem, buf, len);
	n = strlen(buf);
	if (b->test.mr_per_qp && n < len)
		snprintf(buf + n, len - n, ", a buffer and MR per QP "
			 "(--mr_per_qp)");
	return buf;
}

/* The header's "Warm-up": --perform_warm_up's pass, on either side. */
static const char *setup_warm_up(const struct bench_ctx *b, char *buf,
				 size_t len)
{
	uint64_t n = test_warm_up_iters(&b->test);

	if (!n)
		return NULL;
	snprintf(buf, len, "%llu iterations of each size first, not "
		 "measured (--perform_warm_up)", (unsigned long long)n);
	return buf;
}

/* The header's "Changes nothing": perftest flags given that do not
 * apply to rdmabench (this side's command line): what perftest takes and
 * ignores on this tool, then opts_check's notes, each with why. */
static const char *setup_no_effect(const struct bench_ctx *b, char *buf,
				   size_t len)
{
	char ignored[sizeof(b->cfg.noop_ignored) + 64];
	const struct { bool given; const char *text; } flags[] = {
		{ b->cfg.rdma_cm && b->test.ud && opts_oob(&b->cfg) !=
		  OPTS_OOB_CM, "-R with -c UD (UD QPs connect to no one: "
		  "their numbers and GIDs go over the TCP control channel)" },
		{ b->cfg.noop_ignored[0], ignored },
		{ b->cfg.noop_notes[0], b->cfg.noop_notes },
	};
	size_t i, at = 0;

	snprintf(ignored, sizeof(ignored), "%s (perftest takes and ignores "
		 "them on this tool too)", b->cfg.noop_ignored);
	buf[0] = '\0';
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (flags[i].given && at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s",
					       at ? "; " : "", flags[i].text);
	return buf[0] ? buf : NULL;
}

void setup_print_header(struct bench_ctx *b)
{
	const struct measure_ops *ops = measure_ops_get(b->test.measure);
	char title[80], qp_attr[128], data_dev[320], warm[96], no_eff[768];
	char rate[128];
	char memory[OPTS_PATH_MAX + 112];
	struct report_info ri = {
		.title = title, .role = b->is_server ? "server" : "client",
		.dev_name = b->dev.name, .fw_ver = b->dev.fw_ver,
		.transport = b->dev.transport, .port_state = b->dev.port_state,
		.port = b->dev.port, .mtu_bytes = b->dev.active_mtu_bytes,
		.numa_node = b->data.qps[0].mem->numa_node, .local = b->local,
		.placement = b->place.summary,
		.memory = setup_memory(b, memory, sizeof(memory)),
		.peer = b->peer, .tx_depth = b->test.tx_depth,
		.cq_mod = b->test.cq_mod, .max_inline = b->data.qps[0].max_inline,
		.qps = b->test.qps,
		.conn_type = test_conn_name(&b->test),
		.rendezvous = b->rendezvous,
		.qp_attr = setup_qp_attr(b, qp_attr, sizeof(qp_attr)),
		.ctrl_path = b->ctrl_note[0] ? b->ctrl_note : NULL,
		.data_dev = setup_data_dev(b, data_dev, sizeof(data_dev)),
		.warm_up = setup_warm_up(b, warm, sizeof(warm)),
		.no_effect = setup_no_effect(b, no_eff, sizeof(no_eff)),
	};

	perftest_out_title(b, ' ', title, sizeof(title));
	if (b->test.measure == BENCH_MEASURE_LAT)
		ri.lat_note = bench_verb_lat_divisor(b->test.verb) == 2 ?
			"half of the ping-pong round trip" : "full round trip";
	if (perftest_out_table(b))
		report_header_body(b->out, &ri);
	record_dev_collect(b); /* its " Line rate" line */
	if (perftest_out_table(b) && b->xfer.clock &&
	    b->test.measure == BENCH_MEASURE_LAT)
		report_header_line(b->out, "Clock", "%s", b->xfer.clock->what);
	if (perftest_out_table(b) &&
	    opts_rate_text(&b->cfg, rate, sizeof(rate)))
		report_header_line(b->out, "Rate limit", "%s", rate);
	if (perftest_out_table(b) && b->cycle_note[0])
		report_header_line(b->out, "Cycles",
				   "-C: figures in CPU "
				   "cycles (the column names keep perftest's "
				   "[usec]) at %s",
				   b->cycle_note);
	if (perftest_out_table(b) && b->cfg.latency_gap_us)
		report_header_line(b->out, "Latency gap", "%llu usec before each "
				   "post, not in the samples (--latency_gap)",
				   (unsigned long long)b->cfg.latency_gap_us);
	if (perftest_out_table(b) && b->test.events)
		report_header_line(b->out, "Completions", "events: a completion "
				   "channel (vector 0), both sides (-e)");
	if (perftest_out_table(b) && b->test.srq)
		report_header_line(b->out, "Using SRQ",
				   "ON: one shared receive "
				   "queue for the %u QP(s), both sides "
				   "(--use-srq)",
				   b->test.qps);
	if (perftest_out_table(b) && b->test.recv_post_list > 1)
		report_header_line(b->out, "Recv Post List", "%u",
				   b->test.recv_post_list);
	if (perftest_out_table(b) && b->test.reversed)
		report_header_line(b->out, "Direction",
				   "--reversed: the "
				   "server sends, the client receives; the "
				   "client's rows: what arrived");
	if (perftest_out_table(b) && b->is_server &&
	    b->test.measure == BENCH_MEASURE_BW && !b->test.reversed)
		report_header_line(b->out, "Server rows", "%s", b->test.bidir ?
				   "this side's sending only; the client's "
				   "rows carry the sum of both directions" :
				   "what arrived, from READY to the last "
				   "byte");
	if (perftest_out_table(b))
		report_rule(b->out);
	ops->head(b);
}

/* perftest's closing rule under the table; the passive side of a round
 * trip has no table, so its header's rule ends it, as perftest's does. */
void setup_print_footer(const struct bench_ctx *b)
{
	bool passive = b->is_server &&
		       b->test.measure == BENCH_MEASURE_LAT &&
		       bench_verb(b->test.verb)->lat_mode ==
			       BENCH_LAT_ROUND_TRIP;

	if (perftest_out_table(b) && !passive)
		report_rule(b->out);
}

/*
 * --wait_destroy: hold the QPs, CQs and buffers this long after the run,
 * saying so as perftest does (on stdout, after its table); a stop ends
 * the wait.
 */
static void setup_wait_destroy(const struct bench_ctx *b)
{
	uint64_t end_ns;

	if (!b->cfg.wait_destroy_s || !b->data.qps)
		return;
	fprintf(perftest_out_table(b) ? b->out : stderr, " Waiting %llu "
		"seconds before releasing resources...\n",
		(unsigned long long)b->cfg.wait_destroy_s);
	fflush(b->out);
	end_ns = timer_now_ns() + b->cfg.wait_destroy_s * NS_PER_S;
	while (!stop_flag && !timer_expired(end_ns))
		timer_sleep_ms(100);
}

void setup_release(struct bench_ctx *b)
{
	const char *role = b->ctrl.peer_role;
	uint64_t timeout_ms = b->cfg.io_timeout_s * 1000;

	setup_wait_destroy(b);
	conn_destroy(&b->data);
	memset(&b->data, 0, sizeof(b->data));
	ctrl_destroy(&b->ctrl);
	ctrl_init(&b->ctrl);
	b->ctrl.peer_role = role;
	b->ctrl.timeout_ms = timeout_ms;
	hist_destroy(b->hist);
	b->hist = NULL;
	samples_free(&b->raw);
	b->xfer.raw = NULL;
	portctr_close(b);
	free(b->xfer.qs);
	b->xfer.qs = NULL;
	xfer_room_free(&b->xfer);
}
