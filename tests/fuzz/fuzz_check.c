// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz_check - libFuzzer target for the server's acceptance of a client's
 * test: the input is a HELLO, whole or only its body (padded or cut to its
 * size, behind a good header), so every input reaches wire_unpack(), wire_hello_decode(),
 * check_test() and plan_test() as a server would run them, under a table
 * of caps from tiny to the largest the options allow.
 *
 * For every input: check_test returns 0 or -EINVAL, a refusal carries a
 * printable reason, and a test it accepts stays within every cap: message
 * size, QPs, duration, and the plan of buffers and rings (which must not
 * have saturated) within --max-mem; the plan's parts add up; its hard
 * limits (spec/limit.c) never wrap below their margins. The tool name
 * comes out printable. Build and run: tests/fuzz/run.sh --target check.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "spec/check.h"
#include "spec/limit.h"
#include "spec/plan.h"
#include "spec/wire.h"

/* Caps a server may run with: tiny, a pod's, the defaults, the maxima. */
static const struct bench_cfg fuzz_caps[] = {
	{ .max_size_bytes = 1, .max_qps = 1, .max_duration_s = 1,
	  .max_mem_bytes = 1 },
	{ .max_size_bytes = 8ULL << 20, .max_qps = 64, .max_duration_s = 3600,
	  .max_mem_bytes = 256ULL << 20,
	  .max_mem_from = "half the cgroup limit 512.0 MiB (memory.max)" },
	{ .max_size_bytes = 2ULL << 30, .max_qps = 256,
	  .max_duration_s = 86400, .max_mem_bytes = 8ULL << 30 },
	{ .max_size_bytes = 1ULL << 31, .max_qps = 256,
	  .max_duration_s = 31536000, .max_mem_bytes = 1ULL << 40 },
};

static void fuzz_fail(const char *what, const uint8_t *data, size_t len)
{
	fuzz_abort("fuzz_check", what, data, len);
}

static int fuzz_printable(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && s[i]; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return 0;
	return i < n;
}

/* The properties of one verdict of check_test on t under caps c. */
static void fuzz_verdict(const struct test *t, const struct bench_cfg *c,
			 const uint8_t *data, size_t len)
{
	char why[WIRE_TEXT_MAX];
	struct plan p;
	int ret;

	why[0] = '\0';
	ret = check_test(t, c, why, sizeof(why));
	if (ret) {
		if (ret != -EINVAL || !why[0] || !fuzz_printable(why, sizeof(why)))
			fuzz_fail("a refusal without a printable reason", data,
				  len);
		return;
	}
	plan_test(t, &p);
	if (t->max_size_bytes > c->max_size_bytes || t->qps > c->max_qps ||
	    t->duration_s > c->max_duration_s || t->size_bytes > t->max_size_bytes)
		fuzz_fail("accepted a test above a cap", data, len);
	if (p.total_bytes == UINT64_MAX || p.total_bytes > c->max_mem_bytes)
		fuzz_fail("accepted a plan above --max-mem", data, len);
	if (p.buffer_bytes + p.ring_bytes != p.total_bytes ||
	    p.buffer_bytes < 2ULL * t->qps * t->max_size_bytes)
		fuzz_fail("the plan's parts do not add up", data, len);
	if (limit_size_ms(t, t->max_size_bytes) < LIMIT_MARGIN_MS ||
	    limit_test_ms(t) < LIMIT_SETUP_MS + LIMIT_MARGIN_MS ||
	    limit_session_ms(c->max_duration_s) <
		    c->max_duration_s * 1000 + LIMIT_SETUP_MS)
		fuzz_fail("a hard limit wrapped below its margin", data, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a HELLO: a whole one (the seeds of tests/fuzz/corpus/wire),
 * else a body behind a good header, padded with zeros or cut. */
static void fuzz_hello(const uint8_t *data, size_t size, struct wire_msg *msg)
{
	uint8_t buf[WIRE_MSG_MAX];
	size_t body;
	int n;

	if (!wire_unpack(data, size, msg) && msg->type == WIRE_HELLO)
		return;
	memset(msg, 0, sizeof(*msg));
	msg->type = WIRE_HELLO;
	n = wire_pack(msg, buf, sizeof(buf));
	if (n <= WIRE_HEADER_BYTES)
		abort();
	body = (size_t)n - WIRE_HEADER_BYTES;
	memset(buf + WIRE_HEADER_BYTES, 0, body);
	memcpy(buf + WIRE_HEADER_BYTES, data, size < body ? size : body);
	if (wire_unpack(buf, (size_t)n, msg))
		fuzz_fail("a HELLO of the right size does not unpack", data,
			  size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wire_msg msg;
	struct test t;
	size_t i;

	fuzz_hello(data, size, &msg);
	if (!fuzz_printable(msg.u.hello.tool, sizeof(msg.u.hello.tool)))
		fuzz_fail("the tool name is not printable", data, size);
	wire_hello_decode(&msg.u.hello, &t);
	for (i = 0; i < sizeof(fuzz_caps) / sizeof(fuzz_caps[0]); i++)
		fuzz_verdict(&t, &fuzz_caps[i], data, size);
	return 0;
}
