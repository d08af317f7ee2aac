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

bool pace_take(struct pace *r, const char *host, uint64_t now_ns)
{
	struct pace_src *s = pace_find(r, host);
	uint64_t tat = s->tat_ns > now_ns ? s->tat_ns : now_ns;

	if (tat + PACE_STEP_NS > now_ns + PACE_BURST * PACE_STEP_NS)
		return false;
	s->tat_ns = tat + PACE_STEP_NS;
	return true;
}
