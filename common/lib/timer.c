// SPDX-License-Identifier: BSD-2-Clause
/*
 * timer - monotonic time in nanoseconds and deadlines. See timer.h.
 */
#include "lib/timer.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <time.h>

#include "lib/stop.h"

/* Upper bound of one poll() in timer_poll_until(): stop_flag is seen. */
#define TIMER_POLL_SLICE_MS 100

uint64_t timer_now_ns(void)
{
	struct timespec ts;

	/*
	 * MONOTONIC_RAW is immune to NTP slewing, so intervals are true
	 * oscillator time. It exists on every Linux since 2.6.28; should it
	 * ever fail, plain MONOTONIC is still monotonic and good enough for
	 * deadlines, and there is no error channel in this interface.
	 */
	if (clock_gettime(CLOCK_MONOTONIC_RAW, &ts) != 0)
		clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

uint64_t timer_deadline_ns(uint64_t timeout_ms)
{
	uint64_t now_ns = timer_now_ns();

	/* Saturate instead of wrapping: a huge timeout means "never". */
	if (timeout_ms > (UINT64_MAX - now_ns) / NS_PER_MS)
		return UINT64_MAX;
	return now_ns + timeout_ms * NS_PER_MS;
}

bool timer_expired(uint64_t deadline_ns)
{
	return timer_now_ns() >= deadline_ns;
}

int timer_remaining_ms(uint64_t deadline_ns)
{
	uint64_t now_ns = timer_now_ns();
	uint64_t left_ns, left_ms;

	if (now_ns >= deadline_ns)
		return 0;
	left_ns = deadline_ns - now_ns;
	/*
	 * Round up: rounding down would hand poll(2) a 0 while time is still
	 * left, turning the caller's wait loop into a busy spin.
	 */
	left_ms = left_ns / NS_PER_MS + (left_ns % NS_PER_MS != 0);
	return left_ms > INT_MAX ? INT_MAX : (int)left_ms;
}

void timer_sleep_ms(unsigned int ms)
{
	uint64_t deadline_ns = timer_deadline_ns(ms);
	uint64_t now_ns;

	/*
	 * Sleep against our own clock's deadline and re-arm with what is
	 * left: this restarts cleanly after EINTR and guarantees the full
	 * duration as measured by timer_now_ns(), whatever the sleep clock.
	 */
	while ((now_ns = timer_now_ns()) < deadline_ns) {
		uint64_t left_ns = deadline_ns - now_ns;
		struct timespec ts = {
			.tv_sec = (time_t)(left_ns / NS_PER_S),
			.tv_nsec = (long)(left_ns % NS_PER_S),
		};

		nanosleep(&ts, NULL);
	}
}

int timer_wait_ms(unsigned int ms)
{
	uint64_t deadline_ns = timer_deadline_ns(ms);

	/* in slices: a signal that lands just before a sleep is still seen */
	while (!stop_flag && !timer_expired(deadline_ns)) {
		int left_ms = timer_remaining_ms(deadline_ns);

		timer_sleep_ms(left_ms < TIMER_POLL_SLICE_MS ?
				       (unsigned int)left_ms :
				       TIMER_POLL_SLICE_MS);
	}
	return stop_flag ? -EINTR : 0;
}

int timer_poll_until(int fd, short events, uint64_t deadline_ns)
{
	struct pollfd pfd = { .fd = fd, .events = events };

	for (;;) {
		int slice = TIMER_POLL_SLICE_MS, n;

		if (stop_flag)
			return -EINTR;
		if (deadline_ns) {
			if (timer_expired(deadline_ns))
				return -ETIMEDOUT;
			if (timer_remaining_ms(deadline_ns) < slice)
				slice = timer_remaining_ms(deadline_ns);
		}
		n = poll(&pfd, 1, slice);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}
