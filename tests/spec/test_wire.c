// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/spec/wire.c: round trips, the exact big-endian layout, and
 * every way a received message can be wrong. Truncated input is unpacked
 * from a heap copy of exactly that length, so ASan catches any over-read.
 */
#include <errno.h>
#include <stdlib.h>

#include "tests/test.h"
#include "spec/wire.h"

/* Body bytes of each type, as the layout in wire.c defines them. */
static size_t body_bytes(uint16_t type)
{
	switch (type) {
	case WIRE_CONNECT: return 4 + 8;
	case WIRE_HELLO: return 1 + 1 + 2 + 4 * 3 + 8 * 3 + 4 * 8 + WIRE_NAME_MAX;
	case WIRE_HELLO_ACK: return 4 + 8 + WIRE_NAME_MAX + WIRE_TEXT_MAX;
	case WIRE_BUF: return 8 + 8 + 4;
	case WIRE_SYNC: return 16;
	case WIRE_RESULT: return 4 + 8 * 4 + 8 * 9 + 8 * 2;
	case WIRE_FIN: return 16;
	case WIRE_QP_INFO: return 2 + 2 + 4 + 4 + 1 + 16;
	case WIRE_ERROR: return 4 + WIRE_TEXT_MAX;
	case WIRE_LOCATE: return 1 + WIRE_NAME_MAX;
	case WIRE_LOCATE_ACK: return 4 + 2 + 3 * WIRE_NAME_MAX + WIRE_TEXT_MAX;
	case WIRE_AUTH: return WIRE_NONCE_BYTES + WIRE_MAC_BYTES;
	default: return 0;
	}
}

/* Pack m, check the size, unpack into *back. Returns the packed length. */
static int round_trip(const struct wire_msg *m, struct wire_msg *back)
{
	uint8_t buf[WIRE_MSG_MAX];
	int n = wire_pack(m, buf, sizeof(buf));

	EXPECT_EQ_INT(n, (int)(WIRE_HEADER_BYTES + body_bytes(m->type)));
	memset(back, 0xa5, sizeof(*back));
	if (n < 0)
		return n;
	EXPECT_EQ_INT(wire_unpack(buf, (size_t)n, back), 0);
	EXPECT_EQ_INT(back->version, WIRE_VERSION);
	EXPECT_EQ_INT(back->type, m->type);
	return n;
}

static void test_round_trips(void)
{
	struct wire_msg m, b;
	uint16_t t;

	memset(&m, 0, sizeof(m));
	m.type = WIRE_CONNECT;
	m.u.connect.kind = WIRE_CONN_DATA;
	m.u.connect.qp_index = 0xbeef;
	m.u.connect.token = 0x0123456789abcdefULL;
	round_trip(&m, &b);
	EXPECT_EQ_INT(b.u.connect.kind, WIRE_CONN_DATA);
	EXPECT_EQ_INT(b.u.connect.qp_index, 0xbeef);
	EXPECT_EQ_INT(b.u.connect.token == 0x0123456789abcdefULL, 1);

	memset(&m, 0, sizeof(m));
	m.type = WIRE_AUTH;
	memset(m.u.auth.nonce, 0x5a, sizeof(m.u.auth.nonce));
	memset(m.u.auth.mac, 0xc3, sizeof(m.u.auth.mac));
	round_trip(&m, &b);
	EXPECT_EQ_INT(memcmp(&b.u.auth, &m.u.auth, sizeof(m.u.auth)), 0);

	memset(&m, 0, sizeof(m));
	m.type = WIRE_LOCATE_ACK;
	m.u.locate_ack.status = -ENODEV;
	m.u.locate_ack.cm_port = 18516;
	snprintf(m.u.locate_ack.addr, sizeof(m.u.locate_ack.addr), "198.18.1.1");
	round_trip(&m, &b);
	EXPECT_EQ_INT(b.u.locate_ack.status, -ENODEV);
	EXPECT_EQ_INT(b.u.locate_ack.cm_port, 18516);
	EXPECT_STREQ(b.u.locate_ack.addr, "198.18.1.1");

	memset(&m, 0, sizeof(m));
	m.type = WIRE_HELLO;
	m.u.hello.verb = 0xfe;
	m.u.hello.measure = 1;
	m.u.hello.flags = 0x8001; /* unknown bits travel too */
	m.u.hello.tx_depth = 0x01020304;
	m.u.hello.cq_mod = 100;
	m.u.hello.io_timeout_ms = 0xfffffffe;
	m.u.hello.size_bytes = 65536;
	m.u.hello.max_size_bytes = 0x0102030405060708ULL;
	m.u.hello.iters = UINT64_MAX;
	m.u.hello.recv_post_list = 0x0a0b0c0d;
	strcpy(m.u.hello.tool, "ib_write_bw");
	round_trip(&m, &b);
	EXPECT_EQ_INT(b.u.hello.verb, 0xfe);
	EXPECT_EQ_INT(b.u.hello.measure, 1);
	EXPECT_EQ_INT(b.u.hello.flags, 0x8001);
	EXPECT_EQ_U64(b.u.hello.tx_depth, 0x01020304);
	EXPECT_EQ_U64(b.u.hello.cq_mod, 100);
	EXPECT_EQ_U64(b.u.hello.io_timeout_ms, 0xfffffffe);
	EXPECT_EQ_U64(b.u.hello.size_bytes, 65536);
	EXPECT_EQ_U64(b.u.hello.max_size_bytes, 0x0102030405060708ULL);
	EXPECT_EQ_U64(b.u.hello.iters, UINT64_MAX);
	EXPECT_EQ_U64(b.u.hello.recv_post_list, 0x0a0b0c0d);
	EXPECT_STREQ(b.u.hello.tool, "ib_write_bw");

	memset(&m, 0, sizeof(m));
	m.type = WIRE_HELLO_ACK;
	m.u.hello_ack.status = -EOPNOTSUPP;
	strcpy(m.u.hello_ack.dev_name, "rxe0");
	strcpy(m.u.hello_ack.text, "tool mismatch: ib_read_bw");
	round_trip(&m, &b);
	EXPECT_EQ_INT(b.u.hello_ack.status, -EOPNOTSUPP);
	EXPECT_STREQ(b.u.hello_ack.dev_name, "rxe0");
	EXPECT_STREQ(b.u.hello_ack.text, "tool mismatch: ib_read_bw");

	memset(&m, 0, sizeof(m));
	m.type = WIRE_BUF;
	m.u.buf.addr = 0x00007f1234567000ULL;
	m.u.buf.length = 8ULL << 20;
	m.u.buf.rkey = 0xdeadbeef;
	round_trip(&m, &b);
	EXPECT_EQ_U64(b.u.buf.addr, 0x00007f1234567000ULL);
	EXPECT_EQ_U64(b.u.buf.length, 8ULL << 20);
	EXPECT_EQ_U64(b.u.buf.rkey, 0xdeadbeef);

	memset(&m, 0, sizeof(m));
	m.type = WIRE_SYNC;
	m.u.sync.size_bytes = 2;
	m.u.sync.iters = 1ULL << 40;
	round_trip(&m, &b);
	EXPECT_EQ_U64(b.u.sync.size_bytes, 2);
	EXPECT_EQ_U64(b.u.sync.iters, 1ULL << 40);

	memset(&m, 0, sizeof(m));
	m.type = WIRE_RESULT;
	m.u.result.status = -ETIMEDOUT;
	m.u.result.bytes = 327680000;
	m.u.result.msgs = 5000;
	m.u.result.elapsed_ns = 123456789;
	m.u.result.lat_samples = 999;
	m.u.result.lat_us[0] = 0.0;
	m.u.result.lat_us[1] = 0.0015;
	m.u.result.lat_us[2] = 1e9;
	m.u.result.lat_us[3] = -2.5;
	m.u.result.lat_us[4] = 1.0 / 3.0;
	m.u.result.lat_us[5] = 5e-324; /* smallest subnormal */
	m.u.result.lat_us[6] = 1.7976931348623157e308;
	m.u.result.lat_us[7] = 3.25;
	m.u.result.peak_bytes = 1ULL << 33;
	m.u.result.peak_ns = 77;
	round_trip(&m, &b);
	EXPECT_EQ_U64(b.u.result.peak_bytes, 1ULL << 33);
	EXPECT_EQ_U64(b.u.result.peak_ns, 77);
	EXPECT_EQ_INT(b.u.result.status, -ETIMEDOUT);
	EXPECT_EQ_U64(b.u.result.bytes, 327680000);
	EXPECT_EQ_U64(b.u.result.msgs, 5000);
	EXPECT_EQ_U64(b.u.result.elapsed_ns, 123456789);
	EXPECT_EQ_U64(b.u.result.lat_samples, 999);
	/* Bit-exact: no tolerance. */
	EXPECT_TRUE(!memcmp(b.u.result.lat_us, m.u.result.lat_us,
			    sizeof(m.u.result.lat_us)));
	EXPECT_TRUE(b.u.result.lat_us[1] == 0.0015);
	EXPECT_TRUE(b.u.result.lat_us[2] == 1e9);
	EXPECT_TRUE(b.u.result.lat_us[0] == 0.0);

	memset(&m, 0, sizeof(m));
	m.type = WIRE_FIN;
	m.u.fin.msgs = 5000;
	m.u.fin.bytes = 0x8000000000000001ULL;
	round_trip(&m, &b);
	EXPECT_EQ_U64(b.u.fin.msgs, 5000);
	EXPECT_EQ_U64(b.u.fin.bytes, 0x8000000000000001ULL);

	memset(&m, 0, sizeof(m));
	m.type = WIRE_ERROR;
	m.u.error.status = -ENOMEM;
	strcpy(m.u.error.text, "server: cannot register 8 MiB");
	round_trip(&m, &b);
	EXPECT_EQ_INT(b.u.error.status, -ENOMEM);
	EXPECT_STREQ(b.u.error.text, "server: cannot register 8 MiB");

	/* Types without a body: 12 bytes, header only. */
	for (t = WIRE_READY; t <= WIRE_ALIVE; t++) {
		if (t != WIRE_READY && t != WIRE_BYE && t != WIRE_ALIVE)
			continue;
		memset(&m, 0x5a, sizeof(m)); /* the union is not looked at */
		m.type = t;
		EXPECT_EQ_INT(round_trip(&m, &b), WIRE_HEADER_BYTES);
	}
}

static void test_layout(void)
{
	static const uint8_t want[WIRE_HEADER_BYTES + 20] = {
		0x52, 0x44, 0x4d, 0x42, /* magic "RDMB" */
		0x00, WIRE_VERSION,      /* version */
		0x00, WIRE_BUF,         /* type */
		0x00, 0x00, 0x00, 20,   /* body bytes */
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, /* addr */
		0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, /* length */
		0xde, 0xad, 0xbe, 0xef, /* rkey */
	};
	uint8_t buf[WIRE_MSG_MAX];
	struct wire_msg m;
	size_t i;
	int n;

	memset(&m, 0, sizeof(m));
	m.version = 7; /* ignored: pack always writes WIRE_VERSION */
	m.type = WIRE_BUF;
	m.u.buf.addr = 0x0102030405060708ULL;
	m.u.buf.length = 1ULL << 20;
	m.u.buf.rkey = 0xdeadbeef;
	memset(buf, 0xcc, sizeof(buf));
	n = wire_pack(&m, buf, sizeof(buf));
	EXPECT_EQ_INT(n, (int)sizeof(want));
	for (i = 0; i < sizeof(want); i++) {
		if (buf[i] != want[i])
			fprintf(stderr, "  byte %zu: %02x, want %02x\n", i,
				buf[i], want[i]);
		EXPECT_EQ_INT(buf[i], want[i]);
	}
	/* Nothing written past the message. */
	EXPECT_EQ_INT(buf[sizeof(want)], 0xcc);

	/* Exactly enough room is enough. */
	EXPECT_EQ_INT(wire_pack(&m, buf, sizeof(want)), (int)sizeof(want));

	/* Doubles travel as their IEEE-754 bits, big-endian. */
	memset(&m, 0, sizeof(m));
	m.type = WIRE_RESULT;
	m.u.result.lat_us[0] = 1.0; /* 0x3ff0000000000000 */
	n = wire_pack(&m, buf, sizeof(buf));
	EXPECT_EQ_INT(n, WIRE_HEADER_BYTES + 124);
	EXPECT_EQ_INT(buf[WIRE_HEADER_BYTES + 36], 0x3f);
	EXPECT_EQ_INT(buf[WIRE_HEADER_BYTES + 37], 0xf0);
	EXPECT_EQ_INT(buf[WIRE_HEADER_BYTES + 38], 0x00);
	EXPECT_EQ_INT(buf[WIRE_HEADER_BYTES + 43], 0x00);
}

/* Unpack a heap copy of exactly len bytes: ASan sees any over-read. */
static int unpack_exact(const uint8_t *src, size_t len, struct wire_msg *m)
{
	uint8_t *copy = malloc(len ? len : 1);
	int ret;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, src, len);
	ret = wire_unpack(copy, len, m);
	free(copy);
	return ret;
}

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void test_bad_input(void)
{
	static const uint16_t types[] = {
		WIRE_CONNECT, WIRE_HELLO, WIRE_HELLO_ACK, WIRE_BUF, WIRE_SYNC,
		WIRE_READY, WIRE_RESULT, WIRE_BYE, WIRE_ERROR, WIRE_FIN,
		WIRE_ALIVE,
	};
	uint8_t buf[WIRE_MSG_MAX], bad[WIRE_MSG_MAX];
	struct wire_msg m, b;
	size_t i, len;
	int n, ret;

	memset(&m, 0, sizeof(m));
	m.type = WIRE_SYNC;
	m.u.sync.size_bytes = 64;
	m.u.sync.iters = 10;
	n = wire_pack(&m, buf, sizeof(buf));
	EXPECT_EQ_INT(n, WIRE_HEADER_BYTES + 16);
	if (n < 0)
		return;

	/* Wrong magic, whatever else follows. */
	memcpy(bad, buf, (size_t)n);
	bad[0] = 'X';
	EXPECT_EQ_INT(unpack_exact(bad, (size_t)n, &b), -EPROTO);
	memcpy(bad, buf, (size_t)n);
	bad[3] ^= 0x01;
	EXPECT_EQ_INT(unpack_exact(bad, (size_t)n, &b), -EPROTO);
	/* Not ours even when short of a header. */
	EXPECT_EQ_INT(unpack_exact((const uint8_t *)"GET / HTTP", 10, &b),
		      -EPROTO);

	/* Another version: refused, and the peer's version is reported. */
	memcpy(bad, buf, (size_t)n);
	put_be16(bad + 4, WIRE_VERSION + 1);
	EXPECT_EQ_INT(unpack_exact(bad, (size_t)n, &b), -EPROTONOSUPPORT);
	EXPECT_EQ_INT(b.version, WIRE_VERSION + 1);
	put_be16(bad + 4, 0x0100);
	EXPECT_EQ_INT(unpack_exact(bad, (size_t)n, &b), -EPROTONOSUPPORT);
	EXPECT_EQ_INT(b.version, 0x0100);
	put_be16(bad + 4, 0);
	EXPECT_EQ_INT(unpack_exact(bad, (size_t)n, &b), -EPROTONOSUPPORT);
	EXPECT_EQ_INT(b.version, 0);

	/* Body length that disagrees with the bytes received. */
	memcpy(bad, buf, (size_t)n);
	put_be32(bad + 8, 15);
	EXPECT_EQ_INT(unpack_exact(bad, (size_t)n, &b), -EBADMSG);
	put_be32(bad + 8, 17);
	EXPECT_EQ_INT(unpack_exact(bad, (size_t)n, &b), -EBADMSG);
	put_be32(bad + 8, UINT32_MAX);
	EXPECT_EQ_INT(unpack_exact(bad, (size_t)n, &b), -EBADMSG);
	/* Header and length agree, but the body is too short for SYNC. */
	put_be32(bad + 8, 8);
	EXPECT_EQ_INT(unpack_exact(bad, WIRE_HEADER_BYTES + 8, &b), -EBADMSG);
	/* ... or too long for it (trailing bytes). */
	memcpy(bad, buf, (size_t)n);
	bad[n] = 0;
	put_be32(bad + 8, 17);
	EXPECT_EQ_INT(unpack_exact(bad, (size_t)n + 1, &b), -EBADMSG);
	/* A body on a type that has none. */
	memcpy(bad, buf, (size_t)n);
	put_be16(bad + 6, WIRE_BYE);
	EXPECT_EQ_INT(unpack_exact(bad, (size_t)n, &b), -EBADMSG);

	/* Unknown types, with and without a body. */
	memcpy(bad, buf, (size_t)n);
	put_be16(bad + 6, 0);
	EXPECT_EQ_INT(unpack_exact(bad, (size_t)n, &b), -EBADMSG);
	put_be16(bad + 6, WIRE_TYPE_END);
	EXPECT_EQ_INT(unpack_exact(bad, (size_t)n, &b), -EBADMSG);
	put_be16(bad + 6, 0xffff);
	put_be32(bad + 8, 0);
	EXPECT_EQ_INT(unpack_exact(bad, WIRE_HEADER_BYTES, &b), -EBADMSG);

	/* Every truncation of every type: an error, never 0, never a read
	 * past the end (ASan). */
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		unsigned int wrong = 0;

		memset(&m, 0x11, sizeof(m));
		m.type = types[i];
		n = wire_pack(&m, buf, sizeof(buf));
		EXPECT_EQ_INT(n, (int)(WIRE_HEADER_BYTES +
				       body_bytes(types[i])));
		if (n < 0)
			continue;
		for (len = 0; len < (size_t)n; len++) {
			ret = unpack_exact(buf, len, &b);
			if (ret != -EBADMSG && ret != -EPROTO) {
				fprintf(stderr, "  %s truncated to %zu: %d\n",
					wire_type_name(types[i]), len, ret);
				wrong++;
			}
		}
		EXPECT_EQ_INT(wrong, 0);
		/* Our magic, cut short: a broken message, not a stranger. */
		EXPECT_EQ_INT(unpack_exact(buf, 4, &b), -EBADMSG);
		EXPECT_EQ_INT(unpack_exact(buf, WIRE_HEADER_BYTES - 1, &b),
			      -EBADMSG);
		EXPECT_EQ_INT(unpack_exact(buf, (size_t)n, &b), 0);
	}
	EXPECT_EQ_INT(wire_unpack(NULL, 0, &b), -EBADMSG);
}

static void test_pack_errors(void)
{
	uint8_t buf[WIRE_MSG_MAX];
	struct wire_msg m;
	size_t len;
	unsigned int wrong = 0;

	memset(&m, 0, sizeof(m));
	m.type = WIRE_HELLO_ACK;
	strcpy(m.u.hello_ack.text, "x");
	for (len = 0; len < WIRE_HEADER_BYTES + body_bytes(WIRE_HELLO_ACK);
	     len++) {
		/* Exactly len bytes on the heap: ASan sees any over-write. */
		uint8_t *small = malloc(len ? len : 1);

		if (!small)
			break;
		if (wire_pack(&m, small, len) != -ENOSPC) {
			fprintf(stderr, "  pack into %zu bytes\n", len);
			wrong++;
		}
		free(small);
	}
	EXPECT_EQ_INT(wrong, 0);

	m.type = WIRE_BYE;
	EXPECT_EQ_INT(wire_pack(&m, buf, WIRE_HEADER_BYTES - 1), -ENOSPC);
	EXPECT_EQ_INT(wire_pack(&m, buf, WIRE_HEADER_BYTES), WIRE_HEADER_BYTES);

	m.type = 0;
	EXPECT_EQ_INT(wire_pack(&m, buf, sizeof(buf)), -EINVAL);
	m.type = WIRE_TYPE_END;
	EXPECT_EQ_INT(wire_pack(&m, buf, sizeof(buf)), -EINVAL);
	m.type = 0xffff;
	EXPECT_EQ_INT(wire_pack(&m, buf, sizeof(buf)), -EINVAL);
}

/* Pack m and unpack it into *b (filled with junk first); the length. */
static int repack(const struct wire_msg *m, uint8_t *buf, struct wire_msg *b)
{
	int n = wire_pack(m, buf, WIRE_MSG_MAX);

	EXPECT_EQ_INT(n, (int)(WIRE_HEADER_BYTES + body_bytes(m->type)));
	memset(b, 'z', sizeof(*b));
	EXPECT_EQ_INT(wire_unpack(buf, n > 0 ? (size_t)n : 0, b), 0);
	return n;
}

/* A sender that fills a text field completely, no NUL: we still end it. */
static void test_text_termination(void)
{
	uint8_t buf[WIRE_MSG_MAX];
	struct wire_msg m, b;
	int n;

	memset(&m, 0, sizeof(m));
	m.type = WIRE_HELLO;
	memset(m.u.hello.tool, 'T', sizeof(m.u.hello.tool));
	n = repack(&m, buf, &b);
	/* The last tool byte is the last byte of the message. */
	EXPECT_EQ_INT(n > 0 ? buf[n - 1] : 0, 'T');
	EXPECT_EQ_U64(strlen(b.u.hello.tool), WIRE_NAME_MAX - 1);

	memset(&m, 0, sizeof(m));
	m.type = WIRE_HELLO_ACK;
	memset(m.u.hello_ack.dev_name, 'D', sizeof(m.u.hello_ack.dev_name));
	memset(m.u.hello_ack.text, 'X', sizeof(m.u.hello_ack.text));
	repack(&m, buf, &b);
	EXPECT_EQ_U64(strlen(b.u.hello_ack.dev_name), WIRE_NAME_MAX - 1);
	EXPECT_EQ_U64(strlen(b.u.hello_ack.text), WIRE_TEXT_MAX - 1);
	EXPECT_EQ_INT(b.u.hello_ack.dev_name[0], 'D');

	memset(&m, 0, sizeof(m));
	m.type = WIRE_ERROR;
	memset(m.u.error.text, 'E', sizeof(m.u.error.text));
	repack(&m, buf, &b);
	EXPECT_EQ_U64(strlen(b.u.error.text), WIRE_TEXT_MAX - 1);
}

/* Peer text unpacks printable; a status outside 0..-4095 as -EPROTO. */
static void test_peer_text(void)
{
	uint8_t buf[WIRE_MSG_MAX];
	struct wire_msg m, b;

	memset(&m, 0, sizeof(m));
	m.type = WIRE_HELLO;
	strcpy(m.u.hello.tool, "\x1b[2J\x1b[31mib_write_bw\nverdict: pass");
	repack(&m, buf, &b);
	EXPECT_STREQ(b.u.hello.tool, "\\x1b[2J\\x1b[31mib_write_bw\\x0a"
		     "verdict: pass");
	memset(&m, 0, sizeof(m));
	m.type = WIRE_HELLO_ACK;
	m.u.hello_ack.status = INT32_MIN;
	strcpy(m.u.hello_ack.dev_name, "rxe\r0");
	strcpy(m.u.hello_ack.text, "caf\xc3\xa9");
	repack(&m, buf, &b);
	EXPECT_EQ_INT(b.u.hello_ack.status, -EPROTO);
	EXPECT_STREQ(b.u.hello_ack.dev_name, "rxe\\x0d0");
	EXPECT_STREQ(b.u.hello_ack.text, "caf\\xc3\\xa9");
	memset(&m, 0, sizeof(m));
	m.type = WIRE_ERROR;
	m.u.error.status = INT32_MIN; /* -status would overflow */
	memset(m.u.error.text, '\a', sizeof(m.u.error.text) - 1);
	repack(&m, buf, &b);
	EXPECT_EQ_INT(b.u.error.status, -EPROTO);
	/* 49 escapes and "..." in 199 bytes, no escape cut */
	EXPECT_EQ_U64(strlen(b.u.error.text), 49 * 4 + 3);
	EXPECT_TRUE(!strcmp(b.u.error.text + 49 * 4, "..."));
	m.u.error.status = 1;
	repack(&m, buf, &b);
	EXPECT_EQ_INT(b.u.error.status, -EPROTO);
	m.u.error.status = -4095;
	repack(&m, buf, &b);
	EXPECT_EQ_INT(b.u.error.status, -4095);
	m.type = WIRE_RESULT;
	m.u.result.status = INT32_MIN;
	repack(&m, buf, &b);
	EXPECT_EQ_INT(b.u.result.status, -EPROTO);
}

static void test_type_names(void)
{
	EXPECT_STREQ(wire_type_name(WIRE_CONNECT), "CONNECT");
	EXPECT_STREQ(wire_type_name(WIRE_HELLO), "HELLO");
	EXPECT_STREQ(wire_type_name(WIRE_HELLO_ACK), "HELLO_ACK");
	EXPECT_STREQ(wire_type_name(WIRE_BUF), "BUF");
	EXPECT_STREQ(wire_type_name(WIRE_SYNC), "SYNC");
	EXPECT_STREQ(wire_type_name(WIRE_READY), "READY");
	EXPECT_STREQ(wire_type_name(WIRE_RESULT), "RESULT");
	EXPECT_STREQ(wire_type_name(WIRE_BYE), "BYE");
	EXPECT_STREQ(wire_type_name(WIRE_ERROR), "ERROR");
	EXPECT_STREQ(wire_type_name(WIRE_FIN), "FIN");
	EXPECT_STREQ(wire_type_name(WIRE_ALIVE), "ALIVE");
	EXPECT_STREQ(wire_type_name(0), "UNKNOWN");
	EXPECT_STREQ(wire_type_name(WIRE_TYPE_END), "UNKNOWN");
	EXPECT_STREQ(wire_type_name(0xffff), "UNKNOWN");
}

/* A test with every field set, none to its default. */
static void full_test(struct test *t)
{
	memset(t, 0, sizeof(*t));
	t->verb = BENCH_VERB_ATOMIC_CAS;
	t->measure = BENCH_MEASURE_LAT;
	t->all_sizes = t->gbits = t->bidir = t->validate = t->uc = true;
	t->warm_up = true;
	t->tx_depth = 1, t->cq_mod = 2, t->io_timeout_ms = 3;
	t->size_bytes = 4, t->max_size_bytes = 5, t->iters = 6;
	t->qps = 7, t->post_list = 8, t->outstanding = 9, t->rx_depth = 10;
	t->inline_bytes = UINT32_MAX, t->duration_s = 11, t->margin_s = 12;
	t->recv_post_list = 13;
	strcpy(t->tool, "ib_atomic_lat");
}

/* struct test <-> HELLO: every field survives, through the bytes too. */
static void test_hello_codec(void)
{
	struct wire_msg m = { .type = WIRE_HELLO }, b;
	struct test t, back;

	full_test(&t);
	wire_hello_encode(&t, &m.u.hello);
	EXPECT_EQ_INT(m.u.hello.flags, 0x3f);
	EXPECT_EQ_INT(m.u.hello.verb, BENCH_VERB_ATOMIC_CAS);
	round_trip(&m, &b);
	wire_hello_decode(&b.u.hello, &back);
	EXPECT_TRUE(!memcmp(&t, &back, sizeof(t)));
	EXPECT_STREQ(back.tool, "ib_atomic_lat");
	EXPECT_EQ_U64(back.inline_bytes, UINT32_MAX);
}

/* Each boolean is its own bit; bits the codec does not know are ignored. */
static void test_hello_flags(void)
{
	static const uint16_t bits[] = { 0x1,  0x2,  0x4,   0x8,   0x10, 0x20,
					 0x40, 0x80, 0x100, 0x200, 0x400 };
	struct wire_hello h = { .flags = 0xf800 };
	struct test t;
	bool *flag[11];
	size_t i;

	wire_hello_decode(&h, &t);
	EXPECT_TRUE(!t.all_sizes && !t.gbits && !t.bidir && !t.validate &&
		    !t.uc && !t.warm_up && !t.events && !t.ud && !t.srq &&
		    !t.mr_per_qp && !t.reversed);
	flag[0] = &t.all_sizes, flag[1] = &t.gbits, flag[2] = &t.bidir;
	flag[3] = &t.validate, flag[4] = &t.uc, flag[5] = &t.warm_up;
	flag[6] = &t.events, flag[7] = &t.ud, flag[8] = &t.srq;
	flag[9] = &t.mr_per_qp, flag[10] = &t.reversed;
	for (i = 0; i < 11; i++) {
		memset(&t, 0, sizeof(t));
		*flag[i] = true;
		wire_hello_encode(&t, &h);
		EXPECT_EQ_INT(h.flags, bits[i]);
	}
}

/*
 * perftest's first bytes, built as perftest builds them
 * (perftest_communication.c): exchange_versions() writes its char[16]
 * version, NUL-padded; with --dont_xchg_versions the first write is the
 * KEY_PRINT_FMT text of its QP; over rdma_cm it sends no private data.
 */
static void test_peer_kind(void)
{
	uint8_t ver[16] = "6.06", old[16] = "5.70", key[64];
	uint8_t zeros[56] = { 0 }, http[] = "GET / HTTP/1.1\r\n", ours[24];
	uint8_t nodot[16] = "606", noterm[4] = { '6', '.', '0', '6' };
	struct wire_msg m = { .type = WIRE_CONNECT };
	int n;

	snprintf((char *)key, sizeof(key),
		 "%04x:%04x:%06x:%06x:%08x:%016llx:%08x", 0, 0x11, 0x1234,
		 0xabcdef, 0x10000, 0x7f0012345678ull, 0x2000);
	n = wire_pack(&m, ours, sizeof(ours));
	EXPECT_EQ_INT(n, WIRE_CONNECT_BYTES);
	/* the TCP transport hands over the 12 bytes of a header */
	EXPECT_EQ_INT(wire_peer_kind(ver, WIRE_HEADER_BYTES),
		      WIRE_PEER_PERFTEST);
	EXPECT_EQ_INT(wire_peer_kind(ver, sizeof(ver)), WIRE_PEER_PERFTEST);
	EXPECT_EQ_INT(wire_peer_kind(old, WIRE_HEADER_BYTES),
		      WIRE_PEER_PERFTEST);
	EXPECT_EQ_INT(wire_peer_kind(key, WIRE_HEADER_BYTES),
		      WIRE_PEER_PERFTEST);
	EXPECT_EQ_INT(wire_peer_kind(ours, (size_t)n), WIRE_PEER_RDMABENCH);
	EXPECT_EQ_INT(wire_peer_kind(http, WIRE_HEADER_BYTES), WIRE_PEER_OTHER);
	EXPECT_EQ_INT(wire_peer_kind(nodot, sizeof(nodot)), WIRE_PEER_OTHER);
	EXPECT_EQ_INT(wire_peer_kind(noterm, sizeof(noterm)), WIRE_PEER_OTHER);
	EXPECT_EQ_INT(wire_peer_kind(zeros, WIRE_HEADER_BYTES),
		      WIRE_PEER_OTHER);
	EXPECT_EQ_INT(wire_peer_kind(ver, 0), WIRE_PEER_OTHER);

	EXPECT_EQ_INT(wire_peer_cm_kind(ours, (size_t)n), WIRE_PEER_RDMABENCH);
	EXPECT_EQ_INT(wire_peer_cm_kind(zeros, sizeof(zeros)),
		      WIRE_PEER_PERFTEST);
	EXPECT_EQ_INT(wire_peer_cm_kind(NULL, 0), WIRE_PEER_PERFTEST);
	EXPECT_EQ_INT(wire_peer_cm_kind(http, sizeof(http)), WIRE_PEER_OTHER);
}

int main(void)
{
	test_peer_kind();
	test_hello_codec();
	test_hello_flags();
	test_round_trips();
	test_layout();
	test_bad_input();
	test_pack_errors();
	test_text_termination();
	test_peer_text();
	test_type_names();
	return test_finish("test_wire");
}
