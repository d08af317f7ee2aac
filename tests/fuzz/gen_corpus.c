// SPDX-License-Identifier: BSD-2-Clause
/*
 * gen_corpus DIR - write the seed corpus of tests/fuzz/fuzz_wire.c into
 * DIR: one valid message of every type (packed by common/spec/wire.c, so the
 * seeds follow the layout), and the broken shapes a peer could send:
 * truncated, one byte too long, wrong magic, versions 0 and 99, a body
 * length that lies, an unknown type, and plain garbage. Deterministic, so
 * regenerating gives the same files (tests/fuzz/run.sh --regen).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "spec/wire.h"

static int gen_write(const char *dir, const char *name, const uint8_t *buf,
		     size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f) {
		perror(path);
		return -errno;
	}
	if (len && fwrite(buf, 1, len, f) != len) {
		perror(path);
		fclose(f);
		return -EIO;
	}
	return fclose(f) ? -errno : 0;
}

/* One valid message of type t with plausible, non-zero fields. */
static void gen_msg(uint16_t t, struct wire_msg *m)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->type = t;
	switch (t) {
	case WIRE_CONNECT:
		m->u.connect.kind = WIRE_CONN_CTRL;
		m->u.connect.token = 0x1122334455667788ULL;
		break;
	case WIRE_HELLO:
		wire_hello_encode(&(const struct test){
			.verb = 0, .measure = 0, .gbits = true,
			.tx_depth = 128, .cq_mod = 100, .io_timeout_ms = 30000,
			.size_bytes = 65536, .max_size_bytes = 65536,
			.iters = 5000, .qps = 1, .post_list = 1,
			.outstanding = 16, .rx_depth = 512,
			.inline_bytes = UINT32_MAX, .duration_s = 0,
			.margin_s = 0, .tool = "ib_write_bw" }, &m->u.hello);
		break;
	case WIRE_HELLO_ACK:
		strcpy(m->u.hello_ack.dev_name, "rxe0");
		break;
	case WIRE_BUF:
		m->u.buf.addr = 0x7f0000001000ULL;
		m->u.buf.length = 65536;
		m->u.buf.rkey = 0x1234;
		break;
	case WIRE_SYNC:
		m->u.sync.size_bytes = 65536;
		m->u.sync.iters = 5000;
		break;
	case WIRE_RESULT:
		m->u.result.bytes = 327680000;
		m->u.result.msgs = 5000;
		m->u.result.elapsed_ns = 1000000;
		m->u.result.lat_samples = 1000;
		for (i = 0; i < 9; i++)
			m->u.result.lat_us[i] = 1.5 * (i + 1);
		break;
	case WIRE_FIN:
		m->u.fin.msgs = 5000;
		m->u.fin.bytes = 327680000;
		break;
	case WIRE_ERROR:
		m->u.error.status = -EINVAL;
		strcpy(m->u.error.text, "invalid test parameters");
		break;
	}
}

static void gen_lower(const char *s, char *out, size_t len)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		out[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
	out[i] = '\0';
}

/* The bytes of gen_msg(t): their length, or -errno. */
static int gen_packed(uint16_t t, uint8_t *buf)
{
	struct wire_msg m;

	gen_msg(t, &m);
	return wire_pack(&m, buf, WIRE_MSG_MAX);
}

/* Every valid type, and a truncated and an over-long copy of each. */
static int gen_types(const char *dir)
{
	uint8_t buf[WIRE_MSG_MAX + 1];
	char name[64], base[32];
	uint16_t t;
	int n, ret = 0;

	/* every type wire.c names: new types get their seeds without an edit */
	for (t = WIRE_CONNECT; strcmp(wire_type_name(t), "UNKNOWN") && !ret;
	     t++) {
		n = gen_packed(t, buf);
		if (n < 0)
			return n;
		gen_lower(wire_type_name(t), base, sizeof(base));
		ret = gen_write(dir, base, buf, (size_t)n);
		snprintf(name, sizeof(name), "%s.truncated", base);
		if (!ret)
			ret = gen_write(dir, name, buf, (size_t)n - 1);
		snprintf(name, sizeof(name), "%s.long", base);
		buf[n] = 0x41;
		if (!ret)
			ret = gen_write(dir, name, buf, (size_t)n + 1);
	}
	return ret;
}

/* Valid HELLO bytes with one header field changed. */
static int gen_header(const char *dir, const char *name, size_t off,
		      uint8_t hi, uint8_t lo)
{
	uint8_t buf[WIRE_MSG_MAX];
	int n;

	n = gen_packed(WIRE_HELLO, buf);
	if (n < 0)
		return n;
	buf[off] = hi;
	buf[off + 1] = lo;
	return gen_write(dir, name, buf, (size_t)n);
}

/* HELLO whose body length agrees with a body cut short. */
static int gen_short_body(const char *dir)
{
	uint8_t buf[WIRE_MSG_MAX];
	int n;

	n = gen_packed(WIRE_HELLO, buf);
	if (n < 0)
		return n;
	n -= 40;
	buf[10] = (uint8_t)((n - WIRE_HEADER_BYTES) >> 8);
	buf[11] = (uint8_t)(n - WIRE_HEADER_BYTES);
	return gen_write(dir, "hello.short_body", buf, (size_t)n);
}

/* Valid ERROR whose text fills its field with no NUL (accepted, cut). */
static int gen_unterminated(const char *dir)
{
	uint8_t buf[WIRE_MSG_MAX];
	int n;

	n = gen_packed(WIRE_ERROR, buf);
	if (n < 0)
		return n;
	memset(buf + WIRE_HEADER_BYTES + 4, 'A', WIRE_TEXT_MAX);
	return gen_write(dir, "error.unterminated", buf, (size_t)n);
}

static int gen_broken(const char *dir)
{
	static const uint8_t garbage[] = {
		0xde, 0xad, 0xbe, 0xef, 0x00, 0x01, 0x00, 0x02, 0xff, 0xff,
		0xff, 0xff, 0x13, 0x37, 0x00, 0x00, 0x80, 0x00, 0x00, 0x01,
	};
	static const uint8_t http[] = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
	int ret;

	ret = gen_header(dir, "hello.version0", 4, 0, 0);
	if (!ret)
		ret = gen_header(dir, "hello.version99", 4, 0, 99);
	if (!ret)
		ret = gen_header(dir, "hello.badmagic", 0, 'R', 'X');
	if (!ret)
		ret = gen_header(dir, "hello.type_unknown", 6, 0, 0x63);
	if (!ret)
		ret = gen_header(dir, "hello.bodylen_lies", 8, 0xff, 0xff);
	if (!ret)
		ret = gen_short_body(dir);
	if (!ret)
		ret = gen_unterminated(dir);
	if (!ret)
		ret = gen_write(dir, "empty", NULL, 0);
	if (!ret)
		ret = gen_write(dir, "magic_only", (const uint8_t *)"RDMB", 4);
	if (!ret)
		ret = gen_write(dir, "garbage", garbage, sizeof(garbage));
	if (!ret)
		ret = gen_write(dir, "http", http, sizeof(http) - 1);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	if (gen_types(argv[1]) || gen_broken(argv[1]))
		return 1;
	return 0;
}
