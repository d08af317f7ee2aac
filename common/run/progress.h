/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * progress - what a size shows while it runs: a row every --interval
 * seconds (on stdout, or stderr when --output asks stdout for bare
 * figures) and, when stderr is a terminal, a live status line on stderr,
 * redrawn about three times a second and erased before anything else is
 * printed. Never a live line in a pipe, with --output or with a results
 * document on stdout (--json -).
 *
 * The hot loops are not slowed: xfer calls progress_tick() through
 * struct xfer's tick hook from its coarse check (every XFER_CHECK_NS, on
 * the clock it read anyway), on the measuring thread; a tick compares
 * two numbers unless a row or a redraw is due.
 */
#ifndef RDMABENCH_RUN_PROGRESS_H
#define RDMABENCH_RUN_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct bench_ctx;
struct hist;

struct progress {
	struct bench_ctx *b;
	bool live;               /* the status line: a terminal */
	bool shown;              /* the line is on the screen now */
	bool ticked;             /* a tick came in this size */
	bool is_lat;
	uint64_t interval_ns;    /* --interval; 0: no rows */
	uint64_t size;
	uint64_t start_ns;
	uint64_t total_ops;      /* iteration mode: all of them; 0: -D */
	uint64_t now_ns, done;   /* the last tick's */
	uint64_t row_ns, row_done;   /* the interval's start */
	uint64_t next_row_ns, next_live_ns;
	struct hist *prev;       /* latency: the histogram at row_ns */
};

/*
 * Before a size's traffic on this side: arm the tick hook of b->xfer with
 * p (the caller's, until progress_end) when there is anything to show.
 * Never fails: without memory for the interval's latency copy, the rows
 * show no p50.
 */
void progress_begin(struct progress *p, struct bench_ctx *b, uint64_t size);

/*
 * After it (also after an error): the last, partial interval's row (with
 * -D when it began before the planned end, with -n when it is at least
 * half an interval long), the live line erased, the hook disarmed.
 */
void progress_end(struct progress *p, struct bench_ctx *b);

#endif
