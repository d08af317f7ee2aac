/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * plan - the memory one test makes a side allocate, from the test alone
 * (what a HELLO asks for): the data buffers and the rings (send and
 * receive queues, completion queues), so that a server can hold a client
 * to --max-mem before it allocates anything. Pure: no verbs headers.
 *
 * Rings are counted at an upper bound: the depths setup.c may pick at most
 * (the receive budget of a bandwidth run, 16 on a latency run) times the
 * entry sizes of the largest provider we know (rxe, which keeps WQEs and
 * CQEs in pinned host memory as every provider does).
 */
#ifndef RDMABENCH_SPEC_PLAN_H
#define RDMABENCH_SPEC_PLAN_H

#include <stdint.h>

#include "spec/test.h"

/* Receives a bandwidth run may keep posted, over all its QPs (one CQ
 * entry each: below every device's max_cqe, about 1 MiB of WQEs). */
#define PLAN_RECV_BUDGET 16384
/* Send and receives kept by a latency run, per QP. */
#define PLAN_LAT_DEPTH 16
/* Bytes per entry, at most (rxe: a send WQE with its inline data). */
#define PLAN_SEND_WQE_BYTES 512
#define PLAN_RECV_WQE_BYTES 128
#define PLAN_CQE_BYTES 64

struct plan {
	uint64_t buffer_bytes; /* both regions of every QP, times its slots */
	uint64_t ring_bytes;   /* send + receive queues and their CQs */
	uint64_t total_bytes;  /* the sum; UINT64_MAX when it overflows */
	uint64_t send_wr;      /* per QP, at most */
	uint64_t recv_wr;
};

/*
 * The plan of test t (any values, as decoded from the wire: sums saturate
 * at UINT64_MAX instead of wrapping).
 */
void plan_test(const struct test *t, struct plan *out);

#endif
