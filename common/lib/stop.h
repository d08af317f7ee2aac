/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stop - the stop flag: set by SIGINT/SIGTERM, read by every wait loop. The
 * only mutable global of the project. Pure.
 */
#ifndef RDMABENCH_LIB_STOP_H
#define RDMABENCH_LIB_STOP_H

#include <signal.h>

/* Non-zero once SIGINT or SIGTERM arrived: that signal's number. */
extern volatile sig_atomic_t stop_flag;

/*
 * Install the handlers: SIGINT/SIGTERM set stop_flag (a second signal
 * takes the default action at once); SIGPIPE is ignored so that a dead
 * peer gives -EPIPE, never kills the process.
 */
void stop_signals_init(void);

#endif
