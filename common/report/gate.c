// SPDX-License-Identifier: BSD-2-Clause
/*
 * gate - expectations and verdicts. See gate.h.
 */
#include "report/gate.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* What one gate needs besides its two numbers. */
struct gate_def {
	const char *name;
	const char *option;	/* for messages: what the user typed */
	const char *label;	/* before the figure: "p99 " or "" */
	const char *unit;
	bool is_lat;		/* a latency figure: lower is better */
};

static const struct gate_def def_gbps = {
	"bw_gbps", "--expect-gbps", "", "Gb/s", false,
};
static const struct gate_def def_line = {
	"line_rate", "--expect-line-rate", "", "Gb/s", false,
};
static const struct gate_def def_mpps = {
	"msg_rate_mpps", "--expect-mpps", "", "Mpps", false,
};
static const struct gate_def def_p50 = {
	"p50_us", "--expect-p50-us", "p50 ", "us", true,
};
static const struct gate_def def_p99 = {
	"p99_us", "--expect-p99-us", "p99 ", "us", true,
};

/* Unset (0) or a finite positive bound; negative, NaN or inf are errors. */
static bool is_bad_bound(double v)
{
	return !isfinite(v) || v < 0.0;
}

/*
 * Reject bounds that would make a gate meaningless rather than strict:
 * a share above 1 can never pass, and a line-rate gate without its
 * achievable rate would compare against 0 and always pass.
 */
static int check_values(const struct gate_expect *e)
{
	if (is_bad_bound(e->gbps) || is_bad_bound(e->line_rate_frac) ||
	    is_bad_bound(e->achievable_gbps) || is_bad_bound(e->mpps) ||
	    is_bad_bound(e->p50_us) || is_bad_bound(e->p99_us))
		return -EINVAL;
	if (e->line_rate_frac > 1.0)
		return -ERANGE;
	if (e->line_rate_frac > 0.0 && !(e->achievable_gbps > 0.0))
		return -EINVAL;
	return 0;
}

__attribute__((format(printf, 2, 3)))
static void reason_printf(struct gate_item *it, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(it->reason, sizeof(it->reason), fmt, ap);
	va_end(ap);
}

/*
 * Two decimals, unless they would print a failing figure equal to its
 * bound ("200.00 < expected 200.00"): then six, so the reason shows why.
 */
static void format_pair(double a, double b, char *sa, char *sb, size_t len)
{
	snprintf(sa, len, "%.2f", a);
	snprintf(sb, len, "%.2f", b);
	if (!strcmp(sa, sb) && a != b) {
		snprintf(sa, len, "%.6f", a);
		snprintf(sb, len, "%.6f", b);
	}
}

/*
 * Compare one figure with its bound. `!(x >= y)` rather than `x < y`:
 * a NaN figure must fail, not pass.
 */
static void gate_eval(struct gate_outcome *o, const struct gate_def *d,
		      double figure, double expected, bool has_figure)
{
	struct gate_item *it = &o->items[o->n_items++];
	bool ok = d->is_lat ? figure <= expected : figure >= expected;
	char sf[32], se[32];

	it->name = d->name;
	it->unit = d->unit;
	it->figure = figure;
	it->expected = expected;
	if (!has_figure) {
		it->verdict = GATE_FAIL;
		reason_printf(it,
			      "size %" PRIu64 ": %s set, but this run measures no %s",
			      o->size_bytes, d->option,
			      d->is_lat ? "latency" : "bandwidth");
		return;
	}
	it->verdict = ok ? GATE_PASS : GATE_FAIL;
	format_pair(figure, expected, sf, se, sizeof(sf));
	reason_printf(it, "size %" PRIu64 ": %s%s %s %s expected %s %s",
		      o->size_bytes, d->label, sf, d->unit,
		      d->is_lat ? (ok ? "<=" : ">") : (ok ? ">=" : "<"), se,
		      d->unit);
}

/* The line-rate gate's reason also says where its bound came from. */
static void line_rate_note(struct gate_item *it, const struct gate_expect *e)
{
	size_t used = strlen(it->reason);

	snprintf(it->reason + used, sizeof(it->reason) - used,
		 " (%g of %.2f Gb/s achievable)", e->line_rate_frac,
		 e->achievable_gbps);
}

int gate_check(const struct gate_expect *e, const struct gate_figures *f,
	       struct gate_outcome *out)
{
	struct gate_outcome o = { .verdict = GATE_UNCHECKED };
	unsigned i;
	int ret;

	if (!e || !f || !out)
		return -EINVAL;
	ret = check_values(e);
	if (ret)
		return ret;
	o.size_bytes = f->size_bytes;
	if (e->gbps > 0.0)
		gate_eval(&o, &def_gbps, f->gbps, e->gbps, f->has_bw);
	if (e->line_rate_frac > 0.0) {
		gate_eval(&o, &def_line, f->gbps,
			  e->line_rate_frac * e->achievable_gbps, f->has_bw);
		if (f->has_bw)
			line_rate_note(&o.items[o.n_items - 1], e);
	}
	if (e->mpps > 0.0)
		gate_eval(&o, &def_mpps, f->mpps, e->mpps, f->has_bw);
	if (e->p50_us > 0.0)
		gate_eval(&o, &def_p50, f->p50_us, e->p50_us, f->has_lat);
	if (e->p99_us > 0.0)
		gate_eval(&o, &def_p99, f->p99_us, e->p99_us, f->has_lat);
	for (i = 0; i < o.n_items; i++) {
		if (o.items[i].verdict == GATE_FAIL)
			o.verdict = GATE_FAIL;
		else if (o.verdict == GATE_UNCHECKED)
			o.verdict = GATE_PASS;
	}
	*out = o;
	return 0;
}

/*
 * Meant for option time (exit code 2, "usage"), so that a CI job with a
 * mistyped gate stops before the run instead of failing every size of it.
 */
int gate_validate(const struct gate_expect *e, bool has_bw, bool has_lat,
		  char *why, size_t len)
{
	const char *bad = NULL;
	int ret;

	if (!e || (!why && len))
		return -EINVAL;
	ret = check_values(e);
	if (ret == -ERANGE)
		bad = "--expect-line-rate is a share of the achievable rate: it must be in (0, 1]";
	else if (ret && e->line_rate_frac > 0.0 && !(e->achievable_gbps > 0.0))
		bad = "--expect-line-rate needs the achievable rate, which is unknown for this port; use --expect-gbps";
	else if (ret)
		bad = "an --expect-* value is negative or not a finite number";
	else if (!has_bw && (e->gbps > 0.0 || e->line_rate_frac > 0.0 ||
			     e->mpps > 0.0))
		bad = "--expect-gbps, --expect-line-rate and --expect-mpps need a bandwidth test (ib_*_bw)";
	else if (!has_lat && (e->p50_us > 0.0 || e->p99_us > 0.0))
		bad = "--expect-p50-us and --expect-p99-us need a latency test (ib_*_lat)";
	if (!bad)
		return 0;
	if (len)
		snprintf(why, len, "%s", bad);
	return ret ? ret : -EINVAL;
}

void gate_run_init(struct gate_run *run)
{
	if (run)
		memset(run, 0, sizeof(*run));	/* GATE_UNCHECKED is 0 */
}

int gate_run_add(struct gate_run *run, const struct gate_outcome *o)
{
	unsigned i, failed = 0;

	if (!run || !o || o->n_items > GATE_MAX_ITEMS)
		return -EINVAL;
	run->sizes++;
	/* Count from the items, so an outcome's verdict cannot hide one. */
	for (i = 0; i < o->n_items; i++) {
		if (o->items[i].verdict != GATE_FAIL)
			continue;
		if (!failed++ && !run->first_failure[0])
			snprintf(run->first_failure,
				 sizeof(run->first_failure), "%s",
				 o->items[i].reason);
	}
	/* A size with no gate neither passes nor fails the run. */
	if (!o->n_items && o->verdict != GATE_FAIL)
		return 0;
	run->sizes_checked++;
	/* FAIL is sticky: later passing sizes cannot undo it (AND). */
	if (failed || o->verdict == GATE_FAIL) {
		run->sizes_failed++;
		run->gates_failed += failed;
		run->verdict = GATE_FAIL;
	} else if (run->verdict == GATE_UNCHECKED) {
		run->verdict = GATE_PASS;
	}
	return 0;
}

enum gate_verdict gate_run_verdict(const struct gate_run *run)
{
	return run ? run->verdict : GATE_UNCHECKED;
}

const char *gate_verdict_name(enum gate_verdict v)
{
	switch (v) {
	case GATE_UNCHECKED:
		return "UNCHECKED";
	case GATE_PASS:
		return "PASS";
	case GATE_FAIL:
		return "FAIL";
	}
	return "?";
}
