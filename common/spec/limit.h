/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * limit - the hard limits of a server's session, from the test its HELLO
 * carries: how long each phase may last whatever the client sends
 * (heartbeats keep a connection alive, never a phase). Pure: no verbs
 * headers. docs/trust.md explains the numbers.
 */
#ifndef RDMABENCH_SPEC_LIMIT_H
#define RDMABENCH_SPEC_LIMIT_H

#include <stdint.h>

#include "spec/test.h"

/* From the connection to the HELLO (and --auth-key-file's exchange). */
#define LIMIT_HELLO_MS 5000ULL
/* From the server's buffers being ready to the client's data QPs and
 * buffers (the client registers its own meanwhile), and on to its first
 * size (--rails: a client starts when all its rails are up): this, and
 * LIMIT_SETUP_QP_MS for each QP (rdma_cm connects them one by one). */
#define LIMIT_SETUP_MS 15000ULL
#define LIMIT_SETUP_QP_MS 250ULL
/* Between sizes: the client prints a row and asks for the next. */
#define LIMIT_GAP_MS 10000ULL
/* Added to each size's own budget: the FIN, the RESULT, a slow start. */
#define LIMIT_MARGIN_MS 10000ULL
/* The floor rate a size's iterations are allowed: 1 ms an operation and
 * 1 MB/s (8 Mbit/s, below Soft-RoCE under emulation), whichever is
 * slower for that size. */
#define LIMIT_FLOOR_OP_NS 1000000ULL
#define LIMIT_FLOOR_BYTES_PER_S 1000000ULL

/* The set-up's phase: LIMIT_SETUP_MS and LIMIT_SETUP_QP_MS a QP. */
uint64_t limit_setup_ms(const struct test *t);

/* One size's phase: -D (with its margins) or its iterations on every QP
 * (both ways with -b) at the floor rate, plus LIMIT_MARGIN_MS. */
uint64_t limit_size_ms(const struct test *t, uint64_t size);

/* The whole test at those limits: set-up, then every size and the gap
 * after it (what a busy answer says is the most it may still last). */
uint64_t limit_test_ms(const struct test *t);

/* The whole session after the HELLO: --max-duration (max_duration_s),
 * which so covers -n and --run_infinitely too, plus the set-up's. */
uint64_t limit_session_ms(uint64_t max_duration_s);

#endif
