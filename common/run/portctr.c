// SPDX-License-Identifier: BSD-2-Clause
/*
 * portctr - perftest's -W/--report-counters. See portctr.h.
 */
#include "run/portctr.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "host/counters.h"

struct portctr {
	char list[OPTS_PATH_MAX]; /* -W's, cut at the commas */
	const char *names[PORTCTR_MAX];
	unsigned int n;
	struct counters_snap last; /* at set-up, then each row */
	struct counters_delta total[PORTCTR_MAX]; /* since set-up */
};

/* perftest's names: every comma separates two, none may be empty. */
static int pc_split(struct bench_ctx *b, struct portctr *p)
{
	char *s = p->list, *comma;

	snprintf(p->list, sizeof(p->list), "%s", b->cfg.report_counters);
	for (p->n = 0; s; s = comma ? comma + 1 : NULL) {
		comma = strchr(s, ',');
		if (comma)
			*comma = '\0';
		if (p->n == PORTCTR_MAX) {
			bench_err_why(&b->why,
				      "-W names more than %d counters: "
				      "name at most %d",
				      PORTCTR_MAX, PORTCTR_MAX);
			return -EINVAL;
		}
		p->names[p->n++] = s;
	}
	return 0;
}

/* A few of the names the port has, for the message: "a, b, c, ...". */
static void pc_some(const struct counters_snap *s, char *buf, size_t len)
{
	unsigned int i;
	size_t at = 0;

	buf[0] = '\0';
	for (i = 0; i < s->n && i < 3 && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       i ? ", " : "", s->c[i].name);
	if (s->n > 3 && at < len)
		snprintf(buf + at, len - at, ", ...");
}

/* Each name must be one of the port's counters, read at set-up. */
static int pc_check(struct bench_ctx *b, struct portctr *p)
{
	char some[200];
	unsigned int i;
	uint64_t v;

	for (i = 0; i < p->n; i++) {
		if (!counters_find(&p->last, p->names[i], &v)) {
			snprintf(p->total[i].name, sizeof(p->total[i].name),
				 "%s", p->names[i]);
			continue;
		}
		pc_some(&p->last, some, sizeof(some));
		bench_err_why(&b->why,
			      "-W: %s port %u has no counter '%s': "
			      "the names are the files under /sys/class/"
			      "infiniband/%s/ports/%u/counters/ and "
			      "hw_counters/, comma separated (this port's: %s)",
			      b->dev.name, b->dev.port, p->names[i],
			      b->dev.name, b->dev.port, some);
		return -EINVAL;
	}
	return 0;
}

int portctr_open(struct bench_ctx *b)
{
	struct portctr *p;
	int ret;

	if (!b->cfg.report_counters[0] || b->wctr)
		return 0;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	b->wctr = p;
	ret = pc_split(b, p);
	if (ret)
		return ret;
	if (counters_read(NULL, b->dev.name, b->dev.port, &p->last)) {
		bench_err_why(&b->why,
			      "-W: %s port %u has no counters/ nor "
			      "hw_counters/ under /sys/class/infiniband/%s/"
			      "ports/%u: drop -W",
			      b->dev.name, b->dev.port, b->dev.name,
			      b->dev.port);
		return -ENOENT;
	}
	return pc_check(b, p);
}

void portctr_print(const struct bench_ctx *b)
{
	struct portctr *p = b->wctr;
	struct counters_snap *now;
	uint64_t was, is;
	unsigned int i;

	if (!p)
		return;
	now = malloc(sizeof(*now));
	/* a read that fails shows no change, as perftest's does */
	if (now && counters_read(NULL, b->dev.name, b->dev.port, now))
		*now = p->last;
	for (i = 0; now && i < p->n; i++) {
		was = is = 0;
		counters_find(&p->last, p->names[i], &was);
		if (counters_find(now, p->names[i], &is))
			is = was;
		fprintf(b->out, "\t%s=%" PRIu64 "\n", p->names[i], is - was);
		p->total[i].delta += (int64_t)(is - was);
	}
	fprintf(b->out, "\n");
	if (now)
		p->last = *now;
	free(now);
}

unsigned int portctr_totals(const struct bench_ctx *b,
			    struct counters_delta *out, unsigned int max)
{
	const struct portctr *p = b->wctr;
	unsigned int n = p ? (p->n < max ? p->n : max) : 0;

	if (n)
		memcpy(out, p->total, n * sizeof(*out));
	return n;
}

void portctr_close(struct bench_ctx *b)
{
	free(b->wctr);
	b->wctr = NULL;
}
