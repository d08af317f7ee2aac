/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tick - the latency loop's clock: one read per iteration, as cheap as the
 * CPU allows. Pure: no verbs headers.
 *
 * Two sources, in a table: the CPU's time-stamp counter where it is
 * invariant (x86-64 with CPUID's invariant-TSC bit: it ticks at one rate
 * in every P- and C-state, on every core), else CLOCK_MONOTONIC_RAW (one
 * tick = 1 ns). Ticks become ns only through a calibration against
 * CLOCK_MONOTONIC_RAW over the very window they were taken in (begin and
 * end read both clocks), so no CPU-MHz table and no nominal frequency is
 * ever trusted: the figure is as exact as the two clocks' reads at the
 * window's edges (~100 ns over a window of seconds).
 */
#ifndef RDMABENCH_LIB_TICK_H
#define RDMABENCH_LIB_TICK_H

#include <stdbool.h>
#include <stdint.h>

struct tick_src {
	const char *name;        /* "tsc", "monotonic": --clock's words */
	const char *what;        /* for the header */
	uint64_t (*now)(void);
	bool (*usable)(void);
	bool tsc;                /* now() is the time-stamp counter */
};

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/* A read of src, the loop's one per iteration: the TSC inline (no call
 * through the table, which costs as much as the read), else now(). */
static inline uint64_t tick_now(const struct tick_src *src)
{
#if defined(__x86_64__)
	if (src->tsc)
		return __rdtsc();
#endif
	return src->now();
}

/* The source called name (NULL or "auto": the TSC where usable, else
 * CLOCK_MONOTONIC_RAW). NULL when name is unknown or its source is not
 * usable on this CPU. */
const struct tick_src *tick_src_pick(const char *name);

/* The words --clock takes, NULL-terminated: "auto", then each source. */
extern const char *const tick_src_names[];

/* A calibration: both clocks read together at a window's start. */
struct tick_cal {
	const struct tick_src *src;
	uint64_t tick0, ns0;
};

void tick_cal_begin(struct tick_cal *c, const struct tick_src *src);

/* ns per tick over [begin, now]: 1.0 for CLOCK_MONOTONIC_RAW; for the
 * TSC the two clocks' ratio (1.0 when no tick passed yet). */
double tick_cal_ns_per_tick(const struct tick_cal *c);

/* A first guess of ns per tick (spins ~ms milliseconds), for figures
 * shown while a window is still open (progress lines). */
double tick_guess_ns_per_tick(const struct tick_src *src, unsigned int ms);

#endif
