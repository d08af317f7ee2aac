// SPDX-License-Identifier: BSD-2-Clause
/*
 * pace - a token bucket per source host (pace.h), kept as the generic
 * cell rate algorithm: one time a host, the "theoretical arrival time"
 * tat at which its bucket would be full again; an answer costs one
 * interval (1 s / PACE_PER_S) and is allowed while tat stays within
 * PACE_BURST intervals of now.
 */
#include <stdio.h>
#include <string.h>

#include "lib/timer.h"
#include "spec/pace.h"

#define PACE_STEP_NS (NS_PER_S / PACE_PER_S)

void pace_init(struct pace *r)
{
	memset(r, 0, sizeof(*r));
}

/* host's entry; else a free one, else the fullest bucket's, made host's
 * (a fresh, full bucket). */
static struct pace_src *pace_find(struct pace *r, const char *host)
{
	struct pace_src *free_src = NULL, *fullest = &r->src[0];

	for (unsigned int i = 0; i < PACE_SRC_MAX; i++) {
		struct pace_src *s = &r->src[i];

		if (s->host[0] && !strcmp(s->host, host))
			return s;
		if (!s->host[0] && !free_src)
			free_src = s;
		if (s->tat_ns < fullest->tat_ns)
			fullest = s;
	}
	if (!free_src)
		free_src = fullest;
	*free_src = (struct pace_src){ .tat_ns = 0 };
	snprintf(free_src->host, sizeof(free_src->host), "%s", host);
	return free_src;
}

/* GCRA: how many steps fit between tat (at least now) and now + burst
 * steps. */
static uint64_t pace_room(uint64_t tat, uint64_t now, uint64_t step,
			  uint64_t burst)
{
	uint64_t limit = now + burst * step;

	if (tat < now)
		tat = now;
	return tat >= limit ? 0 : (limit - tat) / step;
}

bool pace_take(struct pace *r, const char *host, uint64_t now_ns)
{
	struct pace_src *s = pace_find(r, host);

	if (!pace_room(s->tat_ns, now_ns, PACE_STEP_NS, PACE_BURST))
		return false;
	s->tat_ns = (s->tat_ns > now_ns ? s->tat_ns : now_ns) + PACE_STEP_NS;
	return true;
}

void pace_flow_init(struct pace_flow *f, double per_s, uint64_t burst,
		    uint64_t now_ns)
{
	/* burst steps must fit in 64 bits, with room for the clock */
	double most = (double)(UINT64_MAX / 4 / (burst ? burst : 1));
	double step = per_s > 0 ? 1e12 / per_s : 0;

	*f = (struct pace_flow){ .start_ns = now_ns, .burst = burst ? burst : 1 };
	if (per_s > 0)
		f->step_ps = step >= most ? (uint64_t)most :
			     step < 1 ? 1 : (uint64_t)step;
}

static uint64_t pace_flow_now(const struct pace_flow *f, uint64_t now_ns)
{
	return (now_ns - f->start_ns) * 1000;
}

uint64_t pace_flow_room(const struct pace_flow *f, uint64_t now_ns)
{
	if (!f->step_ps)
		return UINT64_MAX;
	return pace_room(f->tat_ps, pace_flow_now(f, now_ns), f->step_ps,
			 f->burst);
}

void pace_flow_take(struct pace_flow *f, uint64_t now_ns, uint64_t n)
{
	uint64_t now = pace_flow_now(f, now_ns);

	if (f->step_ps)
		f->tat_ps = (f->tat_ps > now ? f->tat_ps : now) + n * f->step_ps;
}
