/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * measure - one size of one test, on each side: the SYNC/READY handshake,
 * the hot loop, the peer's RESULT, the checks and the report row. What
 * differs between bandwidth and latency runs is a table of ops.
 */
#ifndef RDMABENCH_RUN_MEASURE_H
#define RDMABENCH_RUN_MEASURE_H

#include <stdint.h>

#include "run/ctx.h"

struct measure_ops {
	/* send queue slots the data QP needs */
	uint32_t (*send_depth)(const struct test *test);
	/* the table's head */
	void (*head)(const struct bench_ctx *b);
	/* one size, each side; 0 or -errno (logged) */
	int (*client_size)(struct bench_ctx *b, uint64_t size);
	int (*server_size)(struct bench_ctx *b, const struct wire_sync *sync);
};

/* The ops of a measure (enum bench_measure, checked by the caller). */
const struct measure_ops *measure_ops_get(enum bench_measure measure);

#endif
