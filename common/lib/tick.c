// SPDX-License-Identifier: BSD-2-Clause
/*
 * tick - the latency loop's clock. See tick.h.
 */
#include "lib/tick.h"

#include <stddef.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

#include "lib/timer.h"

#if defined(__x86_64__)
static uint64_t tsc_now(void)
{
	return __rdtsc();
}

/* CPUID 0x80000007, EDX bit 8: the invariant TSC (Linux: nonstop_tsc). */
static bool tsc_usable(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u)
		return false;
	if (!__get_cpuid(0x80000007u, &a, &b, &c, &d))
		return false;
	return d & (1u << 8);
}
#else
static uint64_t tsc_now(void)
{
	return timer_now_ns();
}

static bool tsc_usable(void)
{
	return false;
}
#endif

static bool always(void)
{
	return true;
}

static const struct tick_src tick_srcs[] = {
	{ .name = "tsc", .now = tsc_now, .usable = tsc_usable, .tsc = true,
	  .what = "the CPU's invariant TSC, calibrated against "
		  "CLOCK_MONOTONIC_RAW over each size's window" },
	{ .name = "monotonic", .now = timer_now_ns, .usable = always,
	  .what = "CLOCK_MONOTONIC_RAW" },
};

const char *const tick_src_names[] = { "auto", "tsc", "monotonic", NULL };

const struct tick_src *tick_src_pick(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(tick_srcs) / sizeof(tick_srcs[0]); i++) {
		const struct tick_src *s = &tick_srcs[i];

		if (name && strcmp(name, "auto") && strcmp(name, s->name))
			continue;
		if (s->usable())
			return s;
		if (name && strcmp(name, "auto"))
			return NULL;
	}
	return NULL;
}

void tick_cal_begin(struct tick_cal *c, const struct tick_src *src)
{
	c->src = src;
	c->ns0 = timer_now_ns();
	c->tick0 = src->now();
}

double tick_cal_ns_per_tick(const struct tick_cal *c)
{
	uint64_t tick1, ns1;

	if (c->src->now == timer_now_ns)
		return 1.0;
	tick1 = c->src->now();
	ns1 = timer_now_ns();
	if (tick1 <= c->tick0)
		return 1.0;
	return (double)(ns1 - c->ns0) / (double)(tick1 - c->tick0);
}

double tick_guess_ns_per_tick(const struct tick_src *src, unsigned int ms)
{
	struct tick_cal c;
	uint64_t end_ns;

	tick_cal_begin(&c, src);
	end_ns = c.ns0 + (uint64_t)ms * NS_PER_MS;
	while (timer_now_ns() < end_ns)
		;
	return tick_cal_ns_per_tick(&c);
}
