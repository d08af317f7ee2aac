// SPDX-License-Identifier: BSD-2-Clause
/*
 * results_prom - the Prometheus text-format rendering of a results
 * document (see results_prom.h), for node_exporter's textfile collector.
 * Base units (byte/s, s, bytes: bytes, not bits, as Prometheus naming
 * asks and promtool's lint enforces); one family per
 * metric name, HELP and TYPE once, families contiguous; NaN figures are
 * left out rather than exported, so an alert never fires on "not measured".
 */
#include "host/counters.h"
#include "lib/json.h"
#include "report/results_prom.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The labels every series carries, escaped once. */
struct prom_ctx {
	FILE *out;
	const struct results_doc *d;
	char base[4 * RESULTS_NAME_LEN * 2 + 64];   /* device="",test="",.. */
	const char *header_done;                    /* last family headed */
};

/* A label value: backslash, quote and newline escaped, valid UTF-8. */
static void prom_escape(char *dst, size_t len, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s), n, used = 0;

	for (; left && used + 7 < len; p += n, left -= n) {
		n = json_utf8_len(p, left);
		if (!n) {
			memcpy(dst + used, "\xef\xbf\xbd", 3);
			used += 3;
			n = 1;
		} else if (*p == '\\' || *p == '"' || *p == '\n') {
			dst[used++] = '\\';
			dst[used++] = *p == '\n' ? 'n' : *p;
		} else {
			memcpy(dst + used, p, n);
			used += n;
		}
	}
	dst[used] = '\0';
}

/*
 * Append name="value" (escaped) to the labels in buf, with a comma after
 * any before it. An empty value is left out: Prometheus reads a missing
 * label and an empty one alike, and "" on an error run is only noise.
 */
static void prom_label(char *buf, size_t len, const char *name,
		       const char *value)
{
	char esc[RESULTS_TEXT_LEN * 2];
	size_t used = strlen(buf);

	if (!value[0] || used >= len)
		return;
	prom_escape(esc, sizeof(esc), value);
	snprintf(buf + used, len - used, "%s%s=\"%s\"", used ? "," : "", name,
		 esc);
}

static void prom_init(struct prom_ctx *c, FILE *out,
		      const struct results_doc *d)
{
	char peer[RESULTS_NAME_LEN];

	c->out = out;
	c->d = d;
	c->header_done = NULL;
	c->base[0] = '\0';
	results_peer_host(peer, sizeof(peer), d->device.peer_addr);
	prom_label(c->base, sizeof(c->base), "device", d->device.name);
	prom_label(c->base, sizeof(c->base), "test", d->tool);
	/* both sides of a link on one node (loopback, a bidirectional ring)
	 * write the same rows: the role keeps their series apart */
	prom_label(c->base, sizeof(c->base), "role",
		   results_role_name(d->role));
	prom_label(c->base, sizeof(c->base), "peer", peer);
}

/*
 * HELP and TYPE before a family's first sample, once: the text format
 * refuses a second TYPE line, and a family without samples is noise.
 * Names are compared by pointer: every family passes its one literal.
 */
static void prom_head(struct prom_ctx *c, const char *name, const char *type,
		      const char *help)
{
	if (c->header_done == name)
		return;
	fprintf(c->out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name,
		type);
	c->header_done = name;
}

/* One sample; extra labels (already escaped) may be "". Skips NaN. */
static void prom_sample(struct prom_ctx *c, const char *name,
			const char *extra, double v)
{
	char num[32];

	if (json_format_double(v, num, sizeof(num)))
		return;
	fprintf(c->out, "%s{%s%s%s} %s\n", name, c->base,
		c->base[0] && extra[0] ? "," : "", extra, num);
}

/* Per size and side: the figure in base units, NaN when not measured. */
struct prom_side_metric {
	const char *name;
	const char *help;
	double (*value)(const struct results_side *s);
};

/* Gb/s to byte/s: Prometheus wants bytes even where bits are usual */
static double prom_bw_bytes_ps(const struct results_side *s)
{
	return s->elapsed_ns ? s->bw_gbps * 1e9 / 8 : NAN;
}

static double prom_peak_bytes_ps(const struct results_side *s)
{
	return s->elapsed_ns ? s->peak_gbps * 1e9 / 8 : NAN;
}

static double prom_msg_rate(const struct results_side *s)
{
	return s->elapsed_ns ? s->msg_rate_mpps * 1e6 : NAN;
}

static double prom_bytes(const struct results_side *s)
{
	return s->elapsed_ns ? (double)s->bytes : NAN;
}

static double prom_elapsed_s(const struct results_side *s)
{
	return s->elapsed_ns ? (double)s->elapsed_ns / 1e9 : NAN;
}

/* stdev is no quantile, so it cannot live in the summary: own gauge */
static double prom_stdev_s(const struct results_side *s)
{
	return s->has_lat ? s->lat.stdev_us / 1e6 : NAN;
}

static const struct prom_side_metric prom_side_metrics[] = {
	{ "rdmabench_bandwidth_bytes_per_second", "Average payload bandwidth, "
	  "payload bytes / elapsed seconds (x 8 / 1e9 = Gb/s).",
	  prom_bw_bytes_ps },
	{ "rdmabench_peak_bandwidth_bytes_per_second", "Fastest of up to 16 "
	  "equal slices of the run, payload bytes per second.",
	  prom_peak_bytes_ps },
	{ "rdmabench_message_rate_per_second", "Messages per second.",
	  prom_msg_rate },
	{ "rdmabench_payload_bytes", "Payload bytes moved at this size.",
	  prom_bytes },
	{ "rdmabench_elapsed_seconds", "Measured window at this size, "
	  "seconds.", prom_elapsed_s },
	{ "rdmabench_latency_stdev_seconds", "Population standard deviation "
	  "of the latency samples, seconds.", prom_stdev_s },
};

/* size_bytes="N",side="client" */
static void prom_row_labels(char *buf, size_t len, const struct results_row *r,
			    const char *side)
{
	snprintf(buf, len, "size_bytes=\"%llu\",side=\"%s\"",
		 (unsigned long long)r->size_bytes, side);
}

static void prom_side_family(struct prom_ctx *c,
			     const struct prom_side_metric *m)
{
	char labels[64];
	unsigned int i, k;

	for (i = 0; i < c->d->n_rows; i++) {
		const struct results_row *r = &c->d->rows[i];
		const struct results_side *sides[] = { &r->client, &r->server };

		for (k = 0; k < 2; k++) {
			double v = sides[k]->present ? m->value(sides[k]) : NAN;

			if (!isfinite(v))
				continue;
			prom_head(c, m->name, "gauge", m->help);
			prom_row_labels(labels, sizeof(labels), r,
					k ? "server" : "client");
			prom_sample(c, m->name, labels, v);
		}
	}
}

/* size_bytes="N",side="client",lat_kind="half_round_trip" */
static void prom_lat_labels(char *buf, size_t len, const struct results_row *r,
			    const struct results_side *s, const char *side)
{
	prom_row_labels(buf, len, r, side);
	snprintf(buf + strlen(buf), len - strlen(buf), ",lat_kind=\"%s\"",
		 results_lat_kind_name(s->lat.kind));
}

static void prom_latency_side(struct prom_ctx *c, const struct results_row *r,
			      const struct results_side *s, const char *side)
{
	static const char name[] = "rdmabench_latency_seconds";
	const double q[] = { 0, 0.5, 0.9, 0.99, 0.999, 0.9999, 1 };
	const double us[] = { s->lat.min_us, s->lat.p50_us, s->lat.p90_us,
			      s->lat.p99_us, s->lat.p999_us, s->lat.p9999_us,
			      s->lat.max_us };
	char labels[128], ql[sizeof(labels) + 48], num[32];
	size_t i;

	prom_head(c, name, "summary", "Latency samples in seconds, nearest-"
		  "rank quantiles (0 = min, 1 = max); lat_kind says whether a "
		  "sample is half a round trip or a full one.");
	prom_lat_labels(labels, sizeof(labels), r, s, side);
	for (i = 0; i < ARRAY_SIZE(q); i++) {
		json_format_double(q[i], num, sizeof(num));
		snprintf(ql, sizeof(ql), "%s,quantile=\"%s\"", labels, num);
		prom_sample(c, name, ql, us[i] / 1e6);
	}
	/* _sum and _count make it a proper summary: rate() and avg work */
	prom_sample(c, "rdmabench_latency_seconds_sum", labels,
		    results_lat_sum_us(&s->lat) / 1e6);
	prom_sample(c, "rdmabench_latency_seconds_count", labels,
		    (double)s->lat.samples);
}

/*
 * -H: the same samples as a histogram on fixed bounds (cumulative, +Inf,
 * _sum, _count), which sums across nodes where a summary cannot.
 */
static void prom_hist_side(struct prom_ctx *c, const struct results_row *r,
			   const struct results_side *s, const char *side)
{
	static const char name[] = "rdmabench_latency_distribution_seconds";
	char labels[128], le[192], num[32];
	unsigned int i;

	prom_head(c, name, "histogram",
		  "The -H latency samples in seconds, "
		  "cumulative counts at fixed bounds (100 ns .. 100 ms, ten a "
		  "decade); lat_kind as in rdmabench_latency_seconds.");
	prom_lat_labels(labels, sizeof(labels), r, s, side);
	for (i = 0; i < RESULTS_HIST_BOUNDS; i++) {
		json_format_double((double)results_hist_le_ns[i] / 1e9, num,
				   sizeof(num));
		snprintf(le, sizeof(le), "%s,le=\"%s\"", labels, num);
		prom_sample(c, "rdmabench_latency_distribution_seconds_bucket",
			    le, (double)s->hist.le[i]);
	}
	snprintf(le, sizeof(le), "%s,le=\"+Inf\"", labels);
	prom_sample(c, "rdmabench_latency_distribution_seconds_bucket", le,
		    (double)s->lat.samples);
	prom_sample(c, "rdmabench_latency_distribution_seconds_sum", labels,
		    results_lat_sum_us(&s->lat) / 1e6);
	prom_sample(c, "rdmabench_latency_distribution_seconds_count", labels,
		    (double)s->lat.samples);
}

typedef void (*prom_side_fn)(struct prom_ctx *c, const struct results_row *r,
			     const struct results_side *s, const char *side);

/* fn for every side with latency samples (and, want_hist, a histogram) */
static void prom_lat_sides(struct prom_ctx *c, prom_side_fn fn, bool want_hist)
{
	unsigned int i, k;

	for (i = 0; i < c->d->n_rows; i++) {
		const struct results_row *r = &c->d->rows[i];
		const struct results_side *sides[] = { &r->client, &r->server };

		for (k = 0; k < 2; k++)
			if (sides[k]->present && sides[k]->has_lat &&
			    (!want_hist || sides[k]->hist.present))
				fn(c, r, sides[k], k ? "server" : "client");
	}
}

/* One unlabelled-beyond-base gauge with its header. */
static void prom_gauge(struct prom_ctx *c, const char *name, const char *help,
		       double v)
{
	if (!isfinite(v))
		return;
	prom_head(c, name, "gauge", help);
	prom_sample(c, name, "", v);
}

static void prom_info(struct prom_ctx *c)
{
	const struct results_doc *d = c->d;
	const char *const names[] = { "host", "version", "firmware",
				      "transport", "memory_type" };
	const char *const values[] = { d->host,
				       d->tool_version,
				       d->device.firmware,
				       d->device.transport,
				       results_mem_name(d->memory.type) };
	char labels[RESULTS_NAME_LEN * 12 + 128] = "";
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		prom_label(labels, sizeof(labels), names[i], values[i]);
	prom_head(c, "rdmabench_info", "gauge", "Always 1; the labels describe "
		  "the run.");
	prom_sample(c, "rdmabench_info", labels, 1);
}

static void prom_gates(struct prom_ctx *c)
{
	char name[RESULTS_NAME_LEN * 2], labels[RESULTS_NAME_LEN * 2 + 64];
	unsigned int i;

	for (i = 0; i < c->d->n_gates; i++) {
		const struct results_gate *g = &c->d->gates[i];

		prom_head(c, "rdmabench_gate_passed", "gauge", "1 when the "
			  "expectation on this figure held at this size, "
			  "else 0.");
		prom_escape(name, sizeof(name), g->name);
		snprintf(labels, sizeof(labels), "size_bytes=\"%llu\","
			 "gate=\"%s\"", (unsigned long long)g->size_bytes,
			 name);
		prom_sample(c, "rdmabench_gate_passed", labels, g->passed);
	}
}

/* A gate's bound in base units, one family per unit of the gate table. */
struct prom_bound {
	const char *unit;                   /* results_gate.unit */
	const char *name;
	const char *help;
	double factor;                      /* to the base unit */
};

static const struct prom_bound prom_bounds[] = {
	{ "Gb/s", "rdmabench_gate_expected_bytes_per_second", "The bound a "
	  "bandwidth gate held the figure to (--expect-gbps, "
	  "--expect-line-rate), bytes per second.", 1e9 / 8 },
	{ "Mpps", "rdmabench_gate_expected_per_second", "The bound a message "
	  "rate gate held the figure to (--expect-mpps), messages per second.",
	  1e6 },
	{ "us", "rdmabench_gate_expected_seconds", "The bound a latency gate "
	  "held the figure to (--expect-p50-us, --expect-p99-us), seconds.",
	  1e-6 },
};

static void prom_gate_bounds(struct prom_ctx *c, const struct prom_bound *b)
{
	char name[RESULTS_NAME_LEN * 2], labels[RESULTS_NAME_LEN * 2 + 64];
	unsigned int i;

	for (i = 0; i < c->d->n_gates; i++) {
		const struct results_gate *g = &c->d->gates[i];

		if (strcmp(g->unit, b->unit))
			continue;
		prom_head(c, b->name, "gauge", b->help);
		prom_escape(name, sizeof(name), g->name);
		snprintf(labels, sizeof(labels), "size_bytes=\"%llu\","
			 "gate=\"%s\"", (unsigned long long)g->size_bytes,
			 name);
		prom_sample(c, b->name, labels, g->expected * b->factor);
	}
}

static void prom_counters(struct prom_ctx *c)
{
	char labels[RESULTS_NAME_LEN * 2 + 48];
	const struct counters_unit *u;
	unsigned int i;

	for (i = 0; c->d->has_counters && i < c->d->n_counters; i++) {
		/* promtool: a name must not say "counter" (a type) */
		prom_head(c, "rdmabench_port_stat_delta", "gauge",
			  "Change of "
			  "a port counter over the run (end - start), in the "
			  "unit the unit label names: bytes (the 4-byte data "
			  "words of port_xmit_data and port_rcv_data times 4), "
			  "packets or events.");
		u = counters_unit_of(c->d->counters[i].name);
		labels[0] = '\0';
		prom_label(labels, sizeof(labels), "stat",
			   c->d->counters[i].name);
		prom_label(labels, sizeof(labels), "unit", u->unit);
		prom_sample(c, "rdmabench_port_stat_delta", labels,
			    (double)c->d->counters[i].delta * u->factor);
	}
}

/*
 * 1 for a pass, 0 otherwise, as before; the verdict label says which of
 * fail, error and corrupt it was.
 */
static void prom_verdict(struct prom_ctx *c)
{
	char labels[48];

	snprintf(labels, sizeof(labels), "verdict=\"%s\"",
		 results_verdict_name(c->d->verdict));
	prom_head(c, "rdmabench_verdict", "gauge",
		  "1 when the run passed "
		  "every check, 0 when it did not; the verdict label is pass, "
		  "fail (a gate), error (did not finish) or corrupt.");
	prom_sample(c, "rdmabench_verdict", labels,
		    c->d->verdict == RESULTS_PASS);
}

int results_prom_write(const struct results_doc *d, FILE *out)
{
	uint64_t when_ns = d->end_unix_ns ? d->end_unix_ns : d->start_unix_ns;
	struct prom_ctx c;
	size_t i;
	int ret = results_check(d);

	if (ret)
		return ret;
	prom_init(&c, out, d);
	prom_info(&c);
	for (i = 0; i < ARRAY_SIZE(prom_side_metrics); i++)
		prom_side_family(&c, &prom_side_metrics[i]);
	prom_lat_sides(&c, prom_latency_side, false);
	prom_lat_sides(&c, prom_hist_side, true);
	prom_gauge(&c, "rdmabench_line_rate_bytes_per_second", "Achievable "
		   "payload rate of the link, bytes per second (see the JSON's "
		   "line_rate.formula).",
		   d->line_rate.achievable_gbps * 1e9 / 8);
	prom_gates(&c);
	for (i = 0; i < ARRAY_SIZE(prom_bounds); i++)
		prom_gate_bounds(&c, &prom_bounds[i]);
	prom_counters(&c);
	prom_verdict(&c);
	prom_gauge(&c, "rdmabench_exit_code", "The program's exit status (0 "
		   "ok, 1 runtime, 2 usage, 3 gate, 4 corrupt, 5 peer).",
		   d->exit_code);
	prom_gauge(&c, "rdmabench_run_timestamp_seconds", "When the run ended "
		   "(started, if it never ended), Unix time in seconds.",
		   when_ns ? (double)when_ns / 1e9 : NAN);
	prom_gauge(&c, "rdmabench_run_duration_seconds", "Wall time of the "
		   "run, seconds.", results_run_s(d));
	return fflush(out) || ferror(out) ? -EIO : 0;
}
