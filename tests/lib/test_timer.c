// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/lib/timer.c. Bounds are one-sided where scheduling could
 * delay us: a loaded machine may make things late, never early.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/test.h"
#include "lib/stop.h"
#include "lib/timer.h"

static void test_monotonic(void)
{
	uint64_t prev = timer_now_ns(), now;
	unsigned int i, backwards = 0;

	for (i = 0; i < 100000; i++) {
		now = timer_now_ns();
		backwards += now < prev;
		prev = now;
	}
	EXPECT_EQ_INT(backwards, 0);
	EXPECT_TRUE(prev > 0);
}

static void test_deadline(void)
{
	uint64_t before = timer_now_ns();
	uint64_t d = timer_deadline_ns(1000);
	uint64_t after = timer_now_ns();

	EXPECT_TRUE(d >= before + NS_PER_S && d <= after + NS_PER_S);
	EXPECT_TRUE(!timer_expired(timer_deadline_ns(60000)));
	EXPECT_TRUE(timer_expired(timer_deadline_ns(0)));
	EXPECT_TRUE(timer_expired(0));
	EXPECT_EQ_U64(timer_deadline_ns(UINT64_MAX), UINT64_MAX);
}

static void test_remaining(void)
{
	uint64_t before, after, d;
	int r;

	EXPECT_EQ_INT(timer_remaining_ms(0), 0);
	EXPECT_EQ_INT(timer_remaining_ms(timer_now_ns()), 0);
	EXPECT_EQ_INT(timer_remaining_ms(UINT64_MAX), INT_MAX);

	/* 1.5 ms ahead: rounded up, never below what is actually left. */
	before = timer_now_ns();
	d = before + 3 * NS_PER_MS / 2;
	r = timer_remaining_ms(d);
	after = timer_now_ns();
	EXPECT_TRUE(r >= 0 && r <= 2);
	if (after < d)
		EXPECT_TRUE((uint64_t)r * NS_PER_MS >= d - after);

	/* Sub-ms left must be 1, not 0, or poll(2) loops would spin. */
	d = timer_now_ns() + 200 * NS_PER_US;
	r = timer_remaining_ms(d);
	if (timer_now_ns() < d)
		EXPECT_EQ_INT(r, 1);

	d = timer_deadline_ns(5);
	timer_sleep_ms(6);
	EXPECT_EQ_INT(timer_remaining_ms(d), 0);
	EXPECT_TRUE(timer_expired(d));
}

static void test_sleep(void)
{
	uint64_t start = timer_now_ns();

	timer_sleep_ms(20);
	EXPECT_TRUE(timer_now_ns() - start >= 20 * NS_PER_MS);
	start = timer_now_ns();
	timer_sleep_ms(0);
	EXPECT_TRUE(timer_now_ns() - start < NS_PER_S);
}

/* timer_poll_until: ready at once, the deadline, and stop_flag. */
static void test_poll_until(void)
{
	uint64_t before;
	int fds[2];

	if (pipe(fds)) {
		EXPECT_TRUE(0);
		return;
	}
	EXPECT_EQ_INT(timer_poll_until(fds[1], POLLOUT, 0), 0);
	before = timer_now_ns();
	EXPECT_EQ_INT(timer_poll_until(fds[0], POLLIN, timer_deadline_ns(30)),
		      -ETIMEDOUT);
	EXPECT_TRUE(timer_now_ns() - before >= 29 * NS_PER_MS);
	EXPECT_EQ_INT(write(fds[1], "x", 1), 1);
	EXPECT_EQ_INT(timer_poll_until(fds[0], POLLIN, timer_deadline_ns(30)),
		      0);
	stop_flag = 1;
	EXPECT_EQ_INT(timer_poll_until(fds[0], POLLIN, 0), -EINTR);
	stop_flag = 0;
	close(fds[0]);
	close(fds[1]);
}

/*
 * timer_wait_ms: the full wait, none once stopped, and a SIGTERM that
 * arrives meanwhile (from a child: the handler of stop_signals_init) cuts
 * a 5 s wait short.
 */
static void test_wait(void)
{
	uint64_t before = timer_now_ns();
	pid_t child;

	EXPECT_EQ_INT(timer_wait_ms(30), 0);
	EXPECT_TRUE(timer_now_ns() - before >= 29 * NS_PER_MS);
	stop_flag = 1;
	before = timer_now_ns();
	EXPECT_EQ_INT(timer_wait_ms(5000), -EINTR);
	EXPECT_TRUE(timer_now_ns() - before < NS_PER_S / 10);
	stop_flag = 0;

	stop_signals_init();
	child = fork();
	if (child == 0) {
		usleep(50000);
		kill(getppid(), SIGTERM);
		_exit(0);
	}
	EXPECT_TRUE(child > 0);
	before = timer_now_ns();
	EXPECT_EQ_INT(timer_wait_ms(5000), -EINTR);
	EXPECT_TRUE(timer_now_ns() - before < 2 * NS_PER_S);
	waitpid(child, NULL, 0);
	stop_flag = 0;
	signal(SIGTERM, SIG_DFL);
}

int main(void)
{
	test_monotonic();
	test_deadline();
	test_remaining();
	test_sleep();
	test_poll_until();
	test_wait();
	return test_finish("test_timer");
}
