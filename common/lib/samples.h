/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * samples - raw latency samples in arrival order, bounded: -U prints them
 * as perftest does (unsorted). The first `cap` samples of a size are kept
 * (SAMPLES_MAX at most: 8 MiB); later ones are only counted (`seen`), the
 * histogram (lib/hist.h) still takes every one. Pure.
 */
#ifndef RDMABENCH_LIB_SAMPLES_H
#define RDMABENCH_LIB_SAMPLES_H

#include <stdint.h>

#define SAMPLES_MAX (1u << 20)

struct samples {
	uint64_t *ns;            /* cap entries; NULL: none kept */
	uint64_t cap;
	uint64_t n;              /* kept */
	uint64_t seen;           /* added */
};

/* Room for min(want, SAMPLES_MAX) samples. Returns 0 or -ENOMEM. */
int samples_init(struct samples *s, uint64_t want);
void samples_free(struct samples *s);

static inline void samples_reset(struct samples *s)
{
	s->n = s->seen = 0;
}

static inline void samples_add(struct samples *s, uint64_t ns)
{
	if (s->n < s->cap)
		s->ns[s->n++] = ns;
	s->seen++;
}

#endif
