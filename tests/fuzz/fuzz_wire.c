// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz_wire - libFuzzer target for the wire decoder (common/spec/wire.c), the
 * one piece of code that reads bytes a peer chose.
 *
 * For any input: wire_unpack() must return 0 or one of its documented
 * errors, never read outside the input (ASan), never hit undefined
 * behaviour (UBSan). When it accepts the input, packing the result must
 * give the input back: the same length, the same bytes except the last
 * byte of a text field (unpacking NUL-terminates text, so it may become 0),
 * and packing is then a fixed point; every text field is NUL-terminated.
 * A HELLO's test (wire_hello_decode) encodes and decodes to itself, and
 * the server's checks of it (check_test) run on it as a server would.
 * Build and run: tests/fuzz/run.sh.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/check.h"
#include "spec/wire.h"

/* Text fields a message may carry: tool; dev_name + text. */
#define FUZZ_MAX_TEXT_FIELDS 2

/* A broken property: say which and stop (libFuzzer saves the input). */
static void fuzz_fail(const char *what, const uint8_t *data, size_t len)
{
	size_t i;

	fprintf(stderr, "fuzz_wire: %s (input %zu bytes:", what, len);
	for (i = 0; i < len && i < 64; i++)
		fprintf(stderr, " %02x", data[i]);
	fprintf(stderr, "%s)\n", len > 64 ? " ..." : "");
	abort();
}

static int fuzz_documented(int ret)
{
	return ret == 0 || ret == -EPROTO || ret == -EPROTONOSUPPORT ||
	       ret == -EBADMSG;
}

/* wire.h promises text fields are NUL-terminated after unpacking. */
static void fuzz_texts(const uint8_t *data, size_t len,
		       const struct wire_msg *m)
{
	int ok = 1;

	if (m->type == WIRE_HELLO)
		ok = memchr(m->u.hello.tool, 0, sizeof(m->u.hello.tool)) != NULL;
	else if (m->type == WIRE_HELLO_ACK)
		ok = memchr(m->u.hello_ack.dev_name, 0,
			    sizeof(m->u.hello_ack.dev_name)) &&
		     memchr(m->u.hello_ack.text, 0,
			    sizeof(m->u.hello_ack.text));
	else if (m->type == WIRE_ERROR)
		ok = memchr(m->u.error.text, 0, sizeof(m->u.error.text)) != NULL;
	if (!ok)
		fuzz_fail("an unpacked text field is not NUL-terminated", data,
			  len);
}

/* Accepted input: pack it again and compare with what came in. */
static void fuzz_round_trip(const uint8_t *data, size_t len,
			    const struct wire_msg *msg)
{
	uint8_t again[WIRE_MSG_MAX + 1], third[WIRE_MSG_MAX + 1];
	struct wire_msg back, back2;
	size_t i, diffs = 0;
	int n, n2;

	if (msg->version != WIRE_VERSION)
		fuzz_fail("accepted a message of another version", data, len);
	n = wire_pack(msg, again, sizeof(again));
	if (n < 0)
		fuzz_fail("an accepted message does not pack again", data, len);
	if ((size_t)n != len)
		fuzz_fail("packing an accepted message changes its length",
			  data, len);
	for (i = 0; i < len; i++) {
		if (again[i] == data[i])
			continue;
		/* only a text field's last byte, forced to NUL, may differ */
		if (again[i] != 0 || ++diffs > FUZZ_MAX_TEXT_FIELDS)
			fuzz_fail("packing an accepted message changes its bytes",
				  data, len);
	}
	if (wire_unpack(again, (size_t)n, &back))
		fuzz_fail("a packed message does not unpack", data, len);
	/* unpack zeroes the whole struct first: memcmp sees no padding junk */
	if (memcmp(&back, msg, sizeof(back)))
		fuzz_fail("unpack(pack(msg)) != msg", data, len);
	n2 = wire_pack(&back, third, sizeof(third));
	if (n2 != n || memcmp(third, again, (size_t)n))
		fuzz_fail("pack is not a fixed point", data, len);
	if (wire_unpack(third, (size_t)n2, &back2) ||
	    memcmp(&back2, &back, sizeof(back)))
		fuzz_fail("unpack is not a fixed point", data, len);
}

/* A HELLO, as the server takes it: its test, then the checks on it. */
static void fuzz_hello(const uint8_t *data, size_t len,
		       const struct wire_msg *m)
{
	const struct bench_cfg caps = { .max_size_bytes = 8ULL << 20,
					.max_qps = 64, .max_duration_s = 3600,
					.max_mem_bytes = 1ULL << 30 };
	struct test t, again;
	struct wire_hello h;
	char why[WIRE_TEXT_MAX];
	int ret;

	wire_hello_decode(&m->u.hello, &t);
	wire_hello_encode(&t, &h);
	wire_hello_decode(&h, &again);
	if (memcmp(&t, &again, sizeof(t)))
		fuzz_fail("decode(encode(test)) != test", data, len);
	ret = check_test(&t, &caps, why, sizeof(why));
	if (ret && (ret != -EINVAL || !memchr(why, 0, sizeof(why)) || !why[0]))
		fuzz_fail("check_test refused without a reason", data, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wire_msg msg;
	uint8_t *copy;
	int ret;

	/* an exact-size heap copy: ASan sees any read past the end */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	ret = wire_unpack(copy, size, &msg);
	if (!fuzz_documented(ret))
		fuzz_fail("wire_unpack returned an undocumented error", data,
			  size);
	/* the name of any type a peer sends must be printable */
	if (!wire_type_name(msg.type))
		fuzz_fail("wire_type_name returned NULL", data, size);
	if (ret == 0) {
		fuzz_texts(copy, size, &msg);
		fuzz_round_trip(copy, size, &msg);
		if (msg.type == WIRE_HELLO)
			fuzz_hello(copy, size, &msg);
	}
	free(copy);
	return 0;
}
