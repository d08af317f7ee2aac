// SPDX-License-Identifier: BSD-2-Clause
/*
 * gate_budget - congestion budgets over a run's counters. See
 * gate_budget.h.
 */
#include "report/gate_budget.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* A counter of a group: its name starts with prefix and ends with suffix. */
struct ctr_match {
	const char *prefix;
	const char *suffix;
};

#define GROUPS_MAX 3

struct budget_def {
	const char *gate;	/* the gate's name in results */
	const char *what;	/* "pause frames" */
	const char *unit[2];	/* per s, per GB */
	const char *known;	/* the counters looked for, for messages */
	/* tried in order: the first the port has counts; {NULL} ends one */
	const struct ctr_match *groups[GROUPS_MAX];
};

static const struct ctr_match pause_totals[] = {
	{ "ethtool/rx_pause_ctrl_phy", "" }, { "ethtool/tx_pause_ctrl_phy", "" },
	{ NULL, NULL },
};
static const struct ctr_match pause_frames[] = {
	{ "ethtool/rx_pause_frames", "" }, { "ethtool/tx_pause_frames", "" },
	{ NULL, NULL },
};
static const struct ctr_match pause_prio[] = {
	{ "ethtool/rx_prio", "_pause" }, { "ethtool/tx_prio", "_pause" },
	{ NULL, NULL },
};
static const struct ctr_match cnp[] = {
	{ "hw_counters/np_cnp_sent", "" }, { "hw_counters/rp_cnp_handled", "" },
	{ NULL, NULL },
};
static const struct ctr_match ecn[] = {
	{ "hw_counters/np_ecn_marked_roce_packets", "" }, { NULL, NULL },
};
static const struct ctr_match oob[] = {
	{ "hw_counters/out_of_buffer", "" }, { NULL, NULL },
};

static const struct budget_def budget_defs[BUDGET_KINDS] = {
	[BUDGET_PAUSE] = {
		"pause_budget", "pause frames",
		{ "pause frames/s", "pause frames/GB" },
		"ethtool rx/tx_pause_ctrl_phy, rx/tx_pause_frames, "
		"rx/tx_prioN_pause",
		{ pause_totals, pause_frames, pause_prio },
	},
	[BUDGET_CNP] = {
		"cnp_budget", "CNPs",
		{ "CNPs/s", "CNPs/GB" },
		"hw_counters np_cnp_sent, rp_cnp_handled", { cnp },
	},
	[BUDGET_ECN] = {
		"ecn_budget", "ECN-marked packets",
		{ "ECN marks/s", "ECN marks/GB" },
		"hw_counters np_ecn_marked_roce_packets", { ecn },
	},
	[BUDGET_OOB] = {
		"out_of_buffer_budget", "out_of_buffer drops", { "drops/s", "drops/GB" },
		"hw_counters out_of_buffer", { oob },
	},
};

static bool ctr_matches(const struct ctr_match *m, const char *name)
{
	size_t n = strlen(name), p = strlen(m->prefix), s = strlen(m->suffix);

	if (strncmp(name, m->prefix, p))
		return false;
	if (!s)
		return n == p;
	return n >= p + s && !strcmp(name + n - s, m->suffix);
}

/* The sum of what one group moved; how many of its counters were found. */
struct group_sum {
	unsigned int found;
	uint64_t sum;
	char names[96];		/* "rx_pause_ctrl_phy+tx_pause_ctrl_phy" */
};

static void group_add(struct group_sum *g, const char *name, uint64_t moved)
{
	const char *base = strchr(name, '/');
	size_t used = strlen(g->names);

	g->sum += moved;
	snprintf(g->names + used, sizeof(g->names) - used, "%s%s",
		 g->found++ ? "+" : "", base ? base + 1 : name);
}

/* Every counter of after that a matcher of group names, moved since before. */
static void group_sum(const struct ctr_match *group,
		      const struct gate_budget_run *run, struct group_sum *g)
{
	const struct counters_value *c;
	const struct ctr_match *m;
	uint64_t was, moved;
	unsigned int i;

	*g = (struct group_sum){ .found = 0 };
	for (i = 0; i < run->after->n; i++) {
		c = &run->after->c[i];
		for (m = group; m->prefix; m++)
			if (ctr_matches(m, c->name))
				break;
		if (!m->prefix || counters_get(run->before, c->name, &was))
			continue;
		/* a counter reset in the window tells nothing: 0 */
		counters_moved(was, c->value, &moved);
		group_add(g, c->name, moved);
	}
}

__attribute__((format(printf, 2, 3)))
static void item_reason(struct gate_item *it, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(it->reason, sizeof(it->reason), fmt, ap);
	va_end(ap);
}

/* The rate, or NaN when the window is empty but the counters moved. */
static double budget_rate(const struct budget *b, uint64_t sum,
			  const struct gate_budget_run *run)
{
	double per = b->per == BUDGET_PER_S ? run->seconds :
		(double)run->bytes / 1e9;

	if (!sum)
		return 0.0;
	return per > 0.0 ? (double)sum / per : NAN;
}

static void budget_judge(enum budget_kind k, const struct budget *b,
			 const struct group_sum *g,
			 const struct gate_budget_run *run,
			 struct gate_item *it)
{
	const struct budget_def *d = &budget_defs[k];
	const char *u = budget_unit(b->per);
	double rate = budget_rate(b, g->sum, run);
	bool ok = rate <= b->max;	/* NaN fails */

	it->figure = rate;
	it->verdict = ok ? GATE_PASS : GATE_FAIL;
	if (isnan(rate)) {
		item_reason(it, "%s %g%s: %llu %s while the run moved %s",
			    budget_option(k), b->max, u, (unsigned long long)g->sum,
			    d->what, b->per == BUDGET_PER_S ? "for no time" :
			    "no payload");
		return;
	}
	item_reason(it, "%s %.2f%s %s budget %g%s (%.60s: %llu in %.2f s, "
		    "%.3f GB)", d->what, rate, u, ok ? "<=" : ">", b->max, u,
		    g->names, (unsigned long long)g->sum, run->seconds,
		    (double)run->bytes / 1e9);
}

int gate_budget_check(enum budget_kind k, const struct budget *b,
		      const struct gate_budget_run *run, struct gate_item *it)
{
	const struct budget_def *d;
	struct group_sum g = { .found = 0 };
	unsigned int i;

	if (k >= BUDGET_KINDS || !b || b->per == BUDGET_UNSET || !run || !it)
		return -EINVAL;
	d = &budget_defs[k];
	*it = (struct gate_item){ .name = d->gate, .figure = NAN,
				  .expected = b->max, .verdict = GATE_FAIL,
				  .unit = d->unit[b->per == BUDGET_PER_GB] };
	for (i = 0; run->before && run->after && i < GROUPS_MAX &&
		    d->groups[i] && !g.found; i++)
		group_sum(d->groups[i], run, &g);
	if (!g.found) {
		item_reason(it, "%s %g%s: unknown, cannot be judged: no %s "
			    "on this port", budget_option(k), b->max,
			    budget_unit(b->per), d->known);
		return 0;
	}
	budget_judge(k, b, &g, run, it);
	return 0;
}
