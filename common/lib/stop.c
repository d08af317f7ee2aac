/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stop - the stop flag and the signal handlers that set it.
 */
#include <signal.h>
#include <stddef.h>

#include "lib/stop.h"

volatile sig_atomic_t stop_flag;

static void stop_on_signal(int sig)
{
	stop_flag = sig; /* which one: the driver says it */
}

void stop_signals_init(void)
{
	/* SA_RESETHAND: a second signal takes the default action, at once */
	struct sigaction sa = { .sa_handler = stop_on_signal,
				.sa_flags = SA_RESETHAND };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a dead peer must give -EPIPE/-ECONNRESET, never kill us */
	signal(SIGPIPE, SIG_IGN);
}
