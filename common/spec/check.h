/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check - what a server accepts from a client: the checks of the test a
 * HELLO carries, against the server's caps. Pure: no verbs headers.
 * Never trust a number from the wire.
 */
#ifndef RDMABENCH_SPEC_CHECK_H
#define RDMABENCH_SPEC_CHECK_H

#include <stddef.h>

#include "spec/opts.h"
#include "spec/test.h"

/*
 * Is t a test this server can run, within its caps (UC only when
 * caps->conn_type is UC: -c UC on the server; caps->max_size_bytes,
 * max_qps, max_duration_s: --max-*; max_mem_bytes against plan_test()'s
 * total of buffers and rings, the refusal naming caps->max_mem_from when
 * set)? Returns 0, or -EINVAL with the reason (for the client and the
 * log) in why.
 */
int check_test(const struct test *t, const struct bench_cfg *caps,
	       char *why, size_t len);

#endif
