/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * setup - what both sides of a session do around the measured sizes, the
 * same for either rendezvous. Each returns 0 or -errno (logged).
 */
#ifndef RDMABENCH_RUN_SETUP_H
#define RDMABENCH_RUN_SETUP_H

#include <stddef.h>
#include <stdint.h>

#include "run/ctx.h"

/*
 * Both sides, once the control channel is up: the device's facts, the
 * placement, CQs, buffers and the xfer for b->test.
 */
int setup_data_init(struct bench_ctx *b);

/*
 * Client, -c UD, once the device is open and before the HELLO: a message
 * is one packet, so -s and -a stop at the MTU (-m, else the port's active
 * MTU), as perftest's do (with -a it says so on stderr, in its words).
 */
void setup_clamp_ud(struct bench_ctx *b);

/* The inline size to ask the data QPs for (-I, or the device default). */
uint32_t setup_inline_bytes(const struct bench_ctx *b);

/* Send this side's buffer (rkey, address) and take the peer's. */
int setup_xchg_bufs(struct bench_ctx *b);

/* The run's header (device, placement, peer) and the table's head. */
void setup_print_header(struct bench_ctx *b);

/* The rule that closes the table (nothing under --output). */
void setup_print_footer(const struct bench_ctx *b);

/* Free one client's resources (connections, buffers); ready for another. */
void setup_release(struct bench_ctx *b);

#endif
