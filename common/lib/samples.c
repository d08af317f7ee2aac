// SPDX-License-Identifier: BSD-2-Clause
/*
 * samples - raw latency samples, bounded (samples.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/samples.h"

int samples_init(struct samples *s, uint64_t want)
{
	*s = (struct samples){ .cap = want < SAMPLES_MAX ? want : SAMPLES_MAX };
	if (!s->cap)
		s->cap = 1;
	s->ns = calloc(s->cap, sizeof(*s->ns));
	if (!s->ns) {
		s->cap = 0;
		return -ENOMEM;
	}
	return 0;
}

void samples_free(struct samples *s)
{
	free(s->ns);
	*s = (struct samples){ 0 };
}
