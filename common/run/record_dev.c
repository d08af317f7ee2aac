// SPDX-License-Identifier: BSD-2-Clause
/*
 * record_dev - the parts of the results document that come from the
 * device, once the data connections are up: the device and the path (GID,
 * path MTU), the placement, the expected line rate (printed with its
 * formula), downtrained links, and the port counters before and after.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/ethstats.h"
#include "host/link.h"
#include "host/sysver.h"
#include "lib/log.h"
#include "lib/timer.h"
#include "report/gate_budget.h"
#include "host/rate.h"
#include "run/perftest_out.h"
#include "run/record_dev.h"
#include "run/record_int.h"

#define RECORD_FINDINGS 4

/*
 * results_copy() for text that may hold UTF-8 ("×" in formulas): a cut
 * never splits a character.
 */
static void record_copy_utf8(char *dst, size_t len, const char *src)
{
	size_t n;

	if (!results_copy(dst, len, src))
		return;
	n = strlen(dst);
	while (n && ((unsigned char)dst[n - 1] & 0xc0) == 0x80)
		n--;
	if (n && ((unsigned char)dst[n - 1] & 0xc0) == 0xc0)
		n--;	/* the lead byte of the character cut short */
	dst[n] = '\0';
}

/* A line-rate finding: on stderr and in the document. */
static void record_warn(struct record *r, const char *text)
{
	struct results_line_rate *lr = &r->doc.line_rate;

	bench_warn("%s", text);
	if (lr->n_warnings < RESULTS_MAX_WARNINGS)
		record_copy_utf8(lr->warnings[lr->n_warnings++],
				 sizeof(lr->warnings[0]), text);
}

/* "4X HDR" from verbs, else from the sysfs rate text. */
static void record_speed_width(const struct dev_info *dev,
			       const struct link_facts *f, char *buf,
			       size_t len)
{
	struct rate_link l;

	if (!rate_from_port(dev->active_speed, dev->active_speed_ex,
			    dev->active_width, &l) ||
	    !rate_parse_sysfs(f->rate_text, &l))
		snprintf(buf, len, "%s %s", l.width_name, l.speed_name);
}

static void record_fill_device(struct record *r, const struct bench_ctx *b,
			       const struct link_facts *f,
			       const struct dev_qp_path *path)
{
	struct results_device *d = &r->doc.device;
	const struct dev_info *dev = &b->dev;

	results_copy(d->name, sizeof(d->name), dev->name);
	results_copy(d->firmware, sizeof(d->firmware), dev->fw_ver);
	results_copy(d->pci_addr, sizeof(d->pci_addr), f->pci_addr);
	results_copy(d->link_layer, sizeof(d->link_layer), dev->link_layer);
	results_copy(d->transport, sizeof(d->transport), dev->transport);
	d->port = dev->port;
	results_copy(d->port_state, sizeof(d->port_state), dev->port_state);
	d->active_mtu_bytes = dev->active_mtu_bytes;
	record_speed_width(dev, f, d->speed_width, sizeof(d->speed_width));
	results_copy(d->rate, sizeof(d->rate), f->rate_text);
	results_copy(d->gid, sizeof(d->gid), path->gid);
	results_copy(d->gid_type, sizeof(d->gid_type), path->gid_type);
	results_copy(d->local_addr, sizeof(d->local_addr), b->local);
	results_copy(d->peer_addr, sizeof(d->peer_addr), b->peer);
	if (!sysver_driver(NULL, dev->name, d->driver, sizeof(d->driver)))
		sysver_module(NULL, d->driver, d->driver_version,
			      sizeof(d->driver_version));
	r->doc.qp_attr = (struct results_qp_attr){
		.known = path->has_attr, .traffic_class = path->traffic_class,
		.sl = path->sl, .timeout = path->timeout,
		.retry_count = path->retry_cnt, .rnr_retry = path->rnr_retry,
	};
}

/* What rate_achievable() needs, from verbs and sysfs. */
static void record_rate_inputs(const struct bench_ctx *b,
			       const struct link_facts *f,
			       const struct dev_qp_path *path,
			       struct rate_inputs *in)
{
	const struct dev_info *dev = &b->dev;

	*in = (struct rate_inputs){
		.active_speed = dev->active_speed,
		.active_speed_ex = dev->active_speed_ex,
		.active_width = dev->active_width,
		.sysfs_rate = f->rate_text,
		.netdev_speed_mbps = f->netdev_speed_mbps,
		.pcie_gts = f->pcie.cur_gts,
		.pcie_width = f->pcie.cur_width,
		/* the QP's path MTU is what packets carry */
		.mtu_bytes = path->path_mtu_bytes ? path->path_mtu_bytes :
			dev->active_mtu_bytes,
		.transport = strcmp(dev->transport, "IB") ? RATE_ROCE_V2 :
			RATE_IB,
	};
}

/*
 * The achievable rate, or -errno with why in r->line_rate_unknown. A speed
 * this build's verbs does not know (XDR without active_speed_ex) is taken
 * from the sysfs rate text instead.
 */
static int record_achievable(struct record *r, struct rate_inputs *in,
			     const struct bench_ctx *b, struct rate_result *res)
{
	char *why = r->line_rate_unknown;
	size_t len = sizeof(r->line_rate_unknown);
	int ret;

	if (!strcmp(b->dev.transport, "iWARP")) {
		snprintf(why, len, "iWARP runs over TCP/IP, whose framing "
			 "rdmabench does not model");
		return -EOPNOTSUPP;
	}
	ret = rate_achievable(in, res);
	if (ret == -EINVAL && in->sysfs_rate[0]) {
		in->active_speed = in->active_speed_ex = in->active_width = 0;
		ret = rate_achievable(in, res);
	}
	if (ret)
		snprintf(why, len, "%s reports no link speed rdmabench knows "
			 "(verbs speed %u, width %u; sysfs rate \"%s\")",
			 b->dev.name, b->dev.active_speed, b->dev.active_width,
			 in->sysfs_rate);
	return ret;
}

/*
 * The expected line rate: one line on stdout under the header, the
 * formula and any finding in the document, and the bound of
 * --expect-line-rate. A virtual device (rxe, siw: no PCI function) gets
 * its nominal figure, marked as such.
 */
static void record_line_rate(struct record *r, const struct bench_ctx *b,
			     const struct link_facts *f,
			     const struct dev_qp_path *path)
{
	struct results_line_rate *lr = &r->doc.line_rate;
	char note[RESULTS_TEXT_LEN] = "";
	struct rate_inputs in;
	struct rate_result res;

	if (!f->pci_addr[0])
		snprintf(note, sizeof(note), "%s is virtual (no PCI device%s%s"
			 "): its rate is nominal, software sets the real "
			 "speed", b->dev.name, f->netdev[0] ? "; netdev " : "",
			 f->netdev);
	record_rate_inputs(b, f, path, &in);
	if (record_achievable(r, &in, b, &res)) {
		if (perftest_out_table(b))
			fprintf(b->out, " Line rate       : unknown: "
				"%s%s%s%s%s\n", r->line_rate_unknown,
				f->rate_text[0] ? "; the port reports " : "",
				f->rate_text, note[0] ? "; " : "", note);
		record_copy_utf8(lr->formula, sizeof(lr->formula),
				 r->line_rate_unknown);
	} else {
		r->line_rate_unknown[0] = '\0';
		lr->achievable_gbps = res.achievable_gbps;
		r->expect.achievable_gbps = res.achievable_gbps;
		if (perftest_out_table(b))
			fprintf(b->out, " Line rate       : %s%s%s%s\n",
				res.formula, note[0] ? " (nominal: " : "",
				note[0] ? b->dev.name : "",
				note[0] ? " is virtual)" : "");
		record_copy_utf8(lr->formula, sizeof(lr->formula),
				 res.formula);
		if (res.warning[0])
			record_warn(r, res.warning);
	}
	if (note[0] && lr->n_warnings < RESULTS_MAX_WARNINGS)
		results_copy(lr->warnings[lr->n_warnings++],
			     sizeof(lr->warnings[0]), note);
}

/*
 * Width, speed or PCIe below capability: warnings; with --strict also a
 * gate, "link_downtrain", of the run (size 0), that fails on any finding.
 */
static void record_downtrain(struct record *r, const struct bench_ctx *b,
			     const struct link_facts *f)
{
	char findings[RECORD_FINDINGS][LINK_FINDING_LEN];
	struct gate_outcome o = { .n_items = 1 };
	struct gate_item *it = &o.items[0];
	unsigned int speed = b->dev.active_speed_ex ? b->dev.active_speed_ex :
		b->dev.active_speed;
	int i, n;

	/* verbs knows no port maximum: only PCIe and the port's own rate */
	n = link_downtrain(f, speed, b->dev.active_width, 0, 0, findings,
			   RECORD_FINDINGS);
	for (i = 0; i < n && i < RECORD_FINDINGS; i++)
		record_warn(r, findings[i]);
	if (!b->cfg.strict || n < 0)
		return;
	*it = (struct gate_item){ .name = "link_downtrain", .figure = n,
				  .expected = 0, .unit = "findings",
				  .verdict = n ? GATE_FAIL : GATE_PASS };
	if (n)
		snprintf(it->reason, sizeof(it->reason),
			 "--strict: downtrained link: %.110s%s", findings[0],
			 n > 1 ? " (and more)" : "");
	o.verdict = it->verdict;
	record_doc_outcome(r, &o);
}

void record_dev_collect(struct bench_ctx *b)
{
	struct record *r = b->rec;
	struct dev_qp_path path = { .gid_index = -1 };
	struct link_facts f = { .netdev_speed_mbps = -1, .netdev_mtu = -1,
				.numa_node = -1 };
	struct ibv_qp *qp = b->data.qps ? b->data.qps[0].qp : NULL;

	if (!r)
		return;
	r->has_device = true;
	/* the server has the client's test by now */
	record_doc_fill_test(r, b);
	if (qp)
		dev_qp_path(qp, &b->dev, &path);
	if (link_read(NULL, b->dev.name, b->dev.port, &f))
		f = (struct link_facts){ .netdev_speed_mbps = -1,
					 .netdev_mtu = -1, .numa_node = -1 };
	record_fill_device(r, b, &f, &path);
	results_set_placement(&r->doc.placement, &b->place, &b->allowed);
	record_line_rate(r, b, &f, &path);
	record_downtrain(r, b, &f);
	r->has_ctr_start = !counters_read(NULL, b->dev.name, b->dev.port,
					  &r->ctr_start);
	results_copy(r->netdev, sizeof(r->netdev), f.netdev);
	/* no pause counters (rxe's netdev, lo): the budget says unknown */
	if (r->has_ctr_start && r->netdev[0])
		ethstats_pause_read(r->netdev, &r->ctr_start);
	r->ctr_start_ns = timer_now_ns();
}

void record_dev_software(struct record *r)
{
	struct results_software *s = &r->doc.software;
	char lib[RESULTS_TEXT_LEN];

	sysver_kernel(NULL, s->kernel, sizeof(s->kernel));
	sysver_nvidia(NULL, s->nvidia_driver, sizeof(s->nvidia_driver));
	if (!dev_libibverbs_path(lib, sizeof(lib)))
		sysver_rdma_core(lib, s->rdma_core, sizeof(s->rdma_core));
}

/* --expect-no-errors: one gate of the run, "port_errors". */
static void record_no_errors(struct record *r, const struct bench_ctx *b)
{
	struct gate_outcome o = { .n_items = 1 };
	struct gate_item *it = &o.items[0];
	char moved[RESULTS_TEXT_LEN];
	int64_t sum = 0;
	unsigned int n = 0;

	if (r->has_ctr_start)
		n = counters_errors(r->doc.counters, r->doc.n_counters, moved,
				    sizeof(moved), &sum);
	*it = (struct gate_item){ .name = "port_errors", .figure = (double)sum,
				  .expected = 0, .unit = "count",
				  .verdict = GATE_PASS };
	if (!r->has_ctr_start) {
		it->figure = NAN;
		it->verdict = GATE_FAIL;
		snprintf(it->reason, sizeof(it->reason), "--expect-no-errors: "
			 "no port counters could be read for %s port %u",
			 b->dev.name[0] ? b->dev.name : "the device",
			 b->dev.port);
	} else if (n) {
		it->verdict = GATE_FAIL;
		snprintf(it->reason, sizeof(it->reason), "--expect-no-errors: "
			 "port error counters moved: %.110s", moved);
	}
	o.verdict = it->verdict;
	record_doc_outcome(r, &o);
}

/* The counters' changes into the document: it has room for some. */
static void record_dev_counters_diff(struct results_doc *d,
				     const struct counters_snap *before,
				     const struct counters_snap *after)
{
	d->has_counters = true;
	counters_diff(before, after, d->counters, RESULTS_MAX_COUNTERS,
		      &d->n_counters);
}

/* The payload the run moved: each size's larger side. */
static uint64_t record_bytes(const struct results_doc *d)
{
	uint64_t sum = 0, c, s;
	unsigned int i;

	for (i = 0; i < d->n_rows; i++) {
		c = d->rows[i].client.present ? d->rows[i].client.bytes : 0;
		s = d->rows[i].server.present ? d->rows[i].server.bytes : 0;
		sum += c > s ? c : s;
	}
	return sum;
}

/* --expect-max-*: a gate of the run each, over the counters' window. */
static void record_budgets(struct record *r, const struct counters_snap *after,
			   uint64_t end_ns)
{
	struct gate_budget_run run = {
		.before = after ? &r->ctr_start : NULL, .after = after,
		.seconds = (double)(end_ns - r->ctr_start_ns) / 1e9,
		.bytes = record_bytes(&r->doc),
	};
	struct gate_outcome o;
	unsigned int k;

	for (k = 0; k < BUDGET_KINDS; k++) {
		o = (struct gate_outcome){ .n_items = 1 };
		if (gate_budget_check(k, &r->budgets[k], &run, &o.items[0]))
			continue;	/* not set */
		o.verdict = o.items[0].verdict;
		record_doc_outcome(r, &o);
	}
}

/* The second snapshot, the port's and its netdev's: 0 or -errno. */
static int record_dev_after(const struct bench_ctx *b,
			    struct counters_snap *after)
{
	int ret = counters_read(NULL, b->dev.name, b->dev.port, after);

	if (!ret && b->rec->netdev[0])
		ethstats_pause_read(b->rec->netdev, after);
	return ret;
}

void record_dev_counters_end(struct bench_ctx *b)
{
	struct record *r = b->rec;
	struct counters_snap *after = NULL;
	uint64_t end_ns = timer_now_ns();

	if (r->has_ctr_start) {
		/* the second snapshot is large: on the heap, briefly */
		after = malloc(sizeof(*after));
		if (after && !record_dev_after(b, after)) {
			record_dev_counters_diff(&r->doc, &r->ctr_start, after);
		} else {
			r->has_ctr_start = false;
			free(after);
			after = NULL;
		}
	}
	/* a run that never reached its device has no counters to judge */
	if (b->cfg.expect_no_errors && r->has_device)
		record_no_errors(r, b);
	if (r->has_device)
		record_budgets(r, after, end_ns);
	free(after);
}
