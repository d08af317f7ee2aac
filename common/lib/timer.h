/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timer - monotonic time in nanoseconds and deadlines. Pure: no verbs headers.
 *
 * All times come from clock_gettime(CLOCK_MONOTONIC_RAW): no TSC, no CPU-MHz
 * tables, nothing to calibrate, so start-up is instant and frequency scaling
 * cannot skew a figure.
 */
#ifndef RDMABENCH_LIB_TIMER_H
#define RDMABENCH_LIB_TIMER_H

#include <stdbool.h>
#include <stdint.h>

#define NS_PER_US 1000ULL
#define NS_PER_MS 1000000ULL
#define NS_PER_S 1000000000ULL

/* Now, in ns since an arbitrary fixed point (CLOCK_MONOTONIC_RAW). */
uint64_t timer_now_ns(void);

/* The absolute deadline timeout_ms from now, in ns. */
uint64_t timer_deadline_ns(uint64_t timeout_ms);

/* True once now >= deadline_ns. */
bool timer_expired(uint64_t deadline_ns);

/*
 * Milliseconds left until deadline_ns, rounded up, clamped to [0, INT_MAX],
 * ready to hand to poll(2). 0 once the deadline has passed.
 */
int timer_remaining_ms(uint64_t deadline_ns);

/*
 * Wait until fd has one of events (poll(2): POLLIN, POLLOUT; an error or
 * hang-up counts as ready) or deadline_ns passes (0: no deadline), in
 * slices of at most 100 ms so that stop_flag is seen promptly. Returns 0
 * (ready), -ETIMEDOUT, -EINTR (stop_flag set), or poll's -errno.
 */
int timer_poll_until(int fd, short events, uint64_t deadline_ns);

/* Sleep for ms milliseconds (restarted on EINTR). */
void timer_sleep_ms(unsigned int ms);

/*
 * Sleep for ms milliseconds between the tries of a retry loop, cut short
 * by stop_flag (seen within 100 ms). Returns 0, or -EINTR once stopped.
 */
int timer_wait_ms(unsigned int ms);

#endif
