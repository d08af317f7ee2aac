/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test - what one run is: the client's configuration, which it sends in
 * its HELLO (spec/wire.c maps this to and from the message) and which the
 * server adopts, so the two sides cannot disagree. Pure: no verbs headers.
 */
#ifndef RDMABENCH_SPEC_TEST_H
#define RDMABENCH_SPEC_TEST_H

#include <stdbool.h>
#include <stdint.h>

#include "spec/bench.h"

#define TEST_TOOL_MAX 64

struct test {
	enum bench_verb verb;       /* the row of the verb table */
	enum bench_measure measure;
	bool all_sizes;             /* -a: every power of two */
	bool gbits;                 /* print Gb/sec on both sides */
	bool bidir;                 /* -b: both sides send */
	bool reversed; /* --reversed: the server sends (bw) */
	bool validate;              /* --validate */
	bool uc;                    /* -c UC (with --oob tcp) */
	bool ud;                    /* -c UD (with --oob tcp; sends) */
	bool warm_up;               /* --perform_warm_up */
	bool events;                /* -e: completions through a channel */
	bool srq; /* --use-srq: one SRQ for the QPs */
	bool mr_per_qp;             /* --mr_per_qp: a buffer and MR per QP */
	uint32_t tx_depth;
	uint32_t cq_mod;
	uint32_t io_timeout_ms;
	uint64_t size_bytes;
	uint64_t max_size_bytes;    /* the buffers are sized for it */
	uint64_t iters;
	uint32_t qps;
	uint32_t post_list;
	uint32_t outstanding;       /* reads/atomics in flight */
	uint32_t rx_depth;
	uint32_t inline_bytes;      /* UINT32_MAX: the device's default */
	uint32_t duration_s;        /* 0: iterations */
	uint32_t margin_s;
	uint32_t recv_post_list;    /* --recv_post_list: receives go in lists
				     * of this many; 0: as many a post as the
				     * refill finds (up to 16) */
	char tool[TEST_TOOL_MAX];   /* "ib_write_bw", for the server's log */
};

/* "RC", "UC" or "UD": the test's connection type, perftest's word. */
const char *test_conn_name(const struct test *t);

/*
 * -c UD: a message is at most one packet, mtu_bytes (the port's, or -m).
 * A larger -s becomes the MTU and -a stops at it, as in perftest (which
 * says so on stderr for -a only; *note set then). Nothing without UD.
 */
void test_clamp_ud(struct test *t, uint64_t mtu_bytes, bool *note);

/* The largest message a UD test may ask for: the largest MTU. */
#define TEST_UD_MAX_BYTES 4096

/* The message sizes the run measures: first..last, doubling (-a: up to
 * max_size_bytes, the sweep's top unless UD lowered it). */
void test_sizes(const struct test *t, uint64_t *first, uint64_t *last);

/*
 * Messages a region holds. Validation gives each operation in flight its
 * own slot (up to 64 MiB a region) so data is checked before its slot is
 * reused; otherwise every operation reuses one. At least 1.
 */
uint32_t test_slots(const struct test *t);

/*
 * --perform_warm_up: the iterations of the pass each size runs first,
 * on both sides, neither shown nor recorded (perftest posts one send
 * queue's worth: tx_depth, here at least TEST_WARM_UP_MIN, at most -n);
 * 0 without it.
 */
#define TEST_WARM_UP_MIN 128
uint64_t test_warm_up_iters(const struct test *t);

#endif
