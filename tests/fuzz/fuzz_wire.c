// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz_wire - libFuzzer target for the wire decoder (common/spec/wire.c), the
 * one piece of code that reads bytes a peer chose.
 *
 * For any input: wire_unpack() must return 0 or one of its documented
 * errors, never read outside the input (ASan), never hit undefined
 * behaviour (UBSan). When it accepts the input, every text field is
 * NUL-terminated printable ASCII (lib/sanitize.h) and every status is 0 or
 * -1..-4095; packing the result must give the input back: the same length,
 * the same bytes outside the fields the decoder cleans (text, statuses),
 * and packing is then a fixed point.
 * A HELLO's test (wire_hello_decode) encodes and decodes to itself, and
 * the server's checks of it (check_test) run on it as a server would.
 * Build and run: tests/fuzz/run.sh.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "spec/check.h"
#include "spec/wire.h"

/* A broken property: say which and stop (libFuzzer saves the input). */
static void fuzz_fail(const char *what, const uint8_t *data, size_t len)
{
	fuzz_abort("fuzz_wire", what, data, len);
}

static int fuzz_documented(int ret)
{
	return ret == 0 || ret == -EPROTO || ret == -EPROTONOSUPPORT ||
	       ret == -EBADMSG;
}

/* A text field is NUL-terminated printable ASCII (lib/sanitize.h). */
static int fuzz_clean(const char *text, size_t n)
{
	const char *end = memchr(text, 0, n);
	const char *p;

	if (!end)
		return 0;
	for (p = text; p < end; p++)
		if (*p < 0x20 || *p > 0x7e)
			return 0;
	return 1;
}

static int fuzz_status_ok(int32_t status)
{
	return status <= 0 && status >= -4095;
}

/* wire.h promises clean text fields and statuses after unpacking. */
static void fuzz_texts(const uint8_t *data, size_t len,
		       const struct wire_msg *m)
{
	int ok = 1;

	if (m->type == WIRE_HELLO)
		ok = fuzz_clean(m->u.hello.tool, sizeof(m->u.hello.tool));
	else if (m->type == WIRE_HELLO_ACK)
		ok = fuzz_clean(m->u.hello_ack.dev_name,
				sizeof(m->u.hello_ack.dev_name)) &&
		     fuzz_clean(m->u.hello_ack.text,
				sizeof(m->u.hello_ack.text)) &&
		     fuzz_status_ok(m->u.hello_ack.status);
	else if (m->type == WIRE_ERROR)
		ok = fuzz_clean(m->u.error.text, sizeof(m->u.error.text)) &&
		     fuzz_status_ok(m->u.error.status);
	else if (m->type == WIRE_RESULT)
		ok = fuzz_status_ok(m->u.result.status);
	else if (m->type == WIRE_LOCATE)
		ok = fuzz_clean(m->u.locate.dev_name,
				sizeof(m->u.locate.dev_name));
	else if (m->type == WIRE_LOCATE_ACK)
		ok = fuzz_clean(m->u.locate_ack.addr,
				sizeof(m->u.locate_ack.addr)) &&
		     fuzz_clean(m->u.locate_ack.dev_name,
				sizeof(m->u.locate_ack.dev_name)) &&
		     fuzz_clean(m->u.locate_ack.why,
				sizeof(m->u.locate_ack.why)) &&
		     fuzz_clean(m->u.locate_ack.text,
				sizeof(m->u.locate_ack.text)) &&
		     fuzz_status_ok(m->u.locate_ack.status);
	if (!ok)
		fuzz_fail("an unpacked text field is not clean or a status is "
			  "out of range", data, len);
}

/* Set the fields the decoder cleans to all-zero (v 0) or all-ones bits. */
static void fuzz_set_cleaned(struct wire_msg *m, int v)
{
	int byte = v ? 0xff : 0;

	if (m->type == WIRE_HELLO) {
		memset(m->u.hello.tool, byte, sizeof(m->u.hello.tool));
	} else if (m->type == WIRE_HELLO_ACK) {
		m->u.hello_ack.status = -v;
		memset(m->u.hello_ack.dev_name, byte,
		       sizeof(m->u.hello_ack.dev_name));
		memset(m->u.hello_ack.text, byte, sizeof(m->u.hello_ack.text));
	} else if (m->type == WIRE_ERROR) {
		m->u.error.status = -v;
		memset(m->u.error.text, byte, sizeof(m->u.error.text));
	} else if (m->type == WIRE_RESULT) {
		m->u.result.status = -v;
	} else if (m->type == WIRE_LOCATE) {
		memset(m->u.locate.dev_name, byte,
		       sizeof(m->u.locate.dev_name));
	} else if (m->type == WIRE_LOCATE_ACK) {
		struct wire_locate_ack *a = &m->u.locate_ack;

		a->status = -v;
		memset(a->addr, byte, sizeof(a->addr));
		memset(a->dev_name, byte, sizeof(a->dev_name));
		memset(a->why, byte, sizeof(a->why));
		memset(a->text, byte, sizeof(a->text));
	}
}

/* mask[i]: byte i of msg's packing belongs to a field the decoder cleans
 * (it packs differently with those fields set two ways). */
static void fuzz_cleaned_mask(const struct wire_msg *msg, uint8_t *mask,
			      size_t len)
{
	uint8_t a[WIRE_MSG_MAX + 1], b[WIRE_MSG_MAX + 1];
	struct wire_msg ma = *msg, mb = *msg;
	size_t i;

	fuzz_set_cleaned(&ma, 0);
	fuzz_set_cleaned(&mb, 1);
	if (wire_pack(&ma, a, sizeof(a)) < (int)len ||
	    wire_pack(&mb, b, sizeof(b)) < (int)len)
		abort();
	for (i = 0; i < len; i++)
		mask[i] = a[i] != b[i];
}

/* Accepted input: pack it again and compare with what came in. */
static void fuzz_round_trip(const uint8_t *data, size_t len,
			    const struct wire_msg *msg)
{
	uint8_t again[WIRE_MSG_MAX + 1], third[WIRE_MSG_MAX + 1];
	uint8_t mask[WIRE_MSG_MAX + 1];
	struct wire_msg back, back2;
	size_t i;
	int n, n2;

	if (msg->version != WIRE_VERSION)
		fuzz_fail("accepted a message of another version", data, len);
	n = wire_pack(msg, again, sizeof(again));
	if (n < 0)
		fuzz_fail("an accepted message does not pack again", data, len);
	if ((size_t)n != len)
		fuzz_fail("packing an accepted message changes its length",
			  data, len);
	fuzz_cleaned_mask(msg, mask, len);
	for (i = 0; i < len; i++)
		if (again[i] != data[i] && !mask[i])
			fuzz_fail("packing an accepted message changes its bytes",
				  data, len);
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
