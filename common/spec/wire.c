// SPDX-License-Identifier: BSD-2-Clause
/*
 * wire - each message's layout is written once, as a walk over its fields
 * that either packs or unpacks: the two directions cannot drift apart.
 */
#include <ctype.h>
#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "lib/sanitize.h"
#include "spec/wire.h"

/* The largest errno a status carries (Linux: MAX_ERRNO). */
#define WIRE_ERRNO_MAX 4095

/* The bits of wire_hello.flags: the test's booleans. */
#define WIRE_HELLO_ALL_SIZES 0x1u
#define WIRE_HELLO_GBITS 0x2u
#define WIRE_HELLO_BIDIR 0x4u
#define WIRE_HELLO_VALIDATE 0x8u
#define WIRE_HELLO_UC 0x10u
#define WIRE_HELLO_WARM_UP 0x20u
#define WIRE_HELLO_EVENTS 0x40u
#define WIRE_HELLO_UD 0x80u
#define WIRE_HELLO_SRQ 0x100u
#define WIRE_HELLO_MR_PER_QP 0x200u
#define WIRE_HELLO_REVERSED 0x400u

static const struct {
	size_t off; /* of a bool in struct test */
	uint16_t bit;
} hello_bits[] = {
	{ offsetof(struct test, all_sizes), WIRE_HELLO_ALL_SIZES },
	{ offsetof(struct test, gbits), WIRE_HELLO_GBITS },
	{ offsetof(struct test, bidir), WIRE_HELLO_BIDIR },
	{ offsetof(struct test, validate), WIRE_HELLO_VALIDATE },
	{ offsetof(struct test, uc), WIRE_HELLO_UC },
	{ offsetof(struct test, warm_up), WIRE_HELLO_WARM_UP },
	{ offsetof(struct test, events), WIRE_HELLO_EVENTS },
	{ offsetof(struct test, ud), WIRE_HELLO_UD },
	{ offsetof(struct test, srq), WIRE_HELLO_SRQ },
	{ offsetof(struct test, mr_per_qp), WIRE_HELLO_MR_PER_QP },
	{ offsetof(struct test, reversed), WIRE_HELLO_REVERSED },
};

_Static_assert(sizeof(((struct test *)0)->tool) ==
	       sizeof(((struct wire_hello *)0)->tool), "tool fits the HELLO");

/* The fields a test and its HELLO share by name and meaning. */
#define HELLO_FIELDS(X)                                                  \
	X(tx_depth) X(cq_mod) X(io_timeout_ms) X(size_bytes)             \
	X(max_size_bytes) X(iters) X(qps) X(post_list) X(outstanding)    \
	X(rx_depth) X(inline_bytes) X(duration_s) X(margin_s)            \
	X(recv_post_list)

void wire_hello_encode(const struct test *t, struct wire_hello *h)
{
	size_t i;

	memset(h, 0, sizeof(*h));
	h->verb = (uint8_t)t->verb;
	h->measure = (uint8_t)t->measure;
	for (i = 0; i < sizeof(hello_bits) / sizeof(hello_bits[0]); i++)
		if (*(const bool *)((const char *)t + hello_bits[i].off))
			h->flags |= hello_bits[i].bit;
#define TO_WIRE(f) h->f = t->f;
	HELLO_FIELDS(TO_WIRE)
#undef TO_WIRE
	snprintf(h->tool, sizeof(h->tool), "%s", t->tool);
}

void wire_hello_decode(const struct wire_hello *h, struct test *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	t->verb = (enum bench_verb)h->verb;
	t->measure = (enum bench_measure)h->measure;
	for (i = 0; i < sizeof(hello_bits) / sizeof(hello_bits[0]); i++)
		*(bool *)((char *)t + hello_bits[i].off) =
			h->flags & hello_bits[i].bit;
#define FROM_WIRE(f) t->f = h->f;
	HELLO_FIELDS(FROM_WIRE)
#undef FROM_WIRE
	snprintf(t->tool, sizeof(t->tool), "%s", h->tool);
}

struct cursor {
	uint8_t *buf;
	size_t len;
	size_t pos;
	int packing; /* 1: struct -> bytes, 0: bytes -> struct */
	int overflow;
};

static void io_bytes(struct cursor *c, void *field, size_t n)
{
	if (c->pos + n > c->len) {
		c->overflow = 1;
		return;
	}
	if (c->packing)
		memcpy(c->buf + c->pos, field, n);
	else
		memcpy(field, c->buf + c->pos, n);
	c->pos += n;
}

static void io_u8(struct cursor *c, uint8_t *v)
{
	io_bytes(c, v, 1);
}

static void io_u16(struct cursor *c, uint16_t *v)
{
	uint16_t be = htobe16(*v);

	io_bytes(c, &be, sizeof(be));
	if (!c->packing)
		*v = be16toh(be);
}

static void io_u32(struct cursor *c, uint32_t *v)
{
	uint32_t be = htobe32(*v);

	io_bytes(c, &be, sizeof(be));
	if (!c->packing)
		*v = be32toh(be);
}

static void io_i32(struct cursor *c, int32_t *v)
{
	io_u32(c, (uint32_t *)v);
}

static void io_u64(struct cursor *c, uint64_t *v)
{
	uint64_t be = htobe64(*v);

	io_bytes(c, &be, sizeof(be));
	if (!c->packing)
		*v = be64toh(be);
}

static void io_f64(struct cursor *c, double *v)
{
	uint64_t bits;

	memcpy(&bits, v, sizeof(bits));
	io_u64(c, &bits);
	if (!c->packing)
		memcpy(v, &bits, sizeof(bits));
}

/* Fixed-width text; unpacked, always NUL-terminated and printable ASCII
 * (lib/sanitize.h): a peer's text reaches logs and terminals. */
static void io_text(struct cursor *c, char *text, size_t n)
{
	io_bytes(c, text, n);
	if (!c->packing)
		sanitize_text(text, n, text, n - 1);
}

/* A status: 0 or -errno; anything else unpacks as -EPROTO (INT32_MIN
 * would overflow the -status of whoever prints it). */
static void io_status(struct cursor *c, int32_t *v)
{
	io_i32(c, v);
	if (!c->packing && (*v > 0 || *v < -WIRE_ERRNO_MAX))
		*v = -EPROTO;
}

static void io_hello(struct cursor *c, struct wire_hello *h)
{
	io_u8(c, &h->verb);
	io_u8(c, &h->measure);
	io_u16(c, &h->flags);
	io_u32(c, &h->tx_depth);
	io_u32(c, &h->cq_mod);
	io_u32(c, &h->io_timeout_ms);
	io_u64(c, &h->size_bytes);
	io_u64(c, &h->max_size_bytes);
	io_u64(c, &h->iters);
	io_u32(c, &h->qps);
	io_u32(c, &h->post_list);
	io_u32(c, &h->outstanding);
	io_u32(c, &h->rx_depth);
	io_u32(c, &h->inline_bytes);
	io_u32(c, &h->duration_s);
	io_u32(c, &h->margin_s);
	io_u32(c, &h->recv_post_list);
	io_text(c, h->tool, sizeof(h->tool));
}

static void io_result(struct cursor *c, struct wire_result *r)
{
	size_t i;

	io_status(c, &r->status);
	io_u64(c, &r->bytes);
	io_u64(c, &r->msgs);
	io_u64(c, &r->elapsed_ns);
	io_u64(c, &r->lat_samples);
	for (i = 0; i < sizeof(r->lat_us) / sizeof(r->lat_us[0]); i++)
		io_f64(c, &r->lat_us[i]);
	io_u64(c, &r->peak_bytes);
	io_u64(c, &r->peak_ns);
}

static void io_locate_ack(struct cursor *c, struct wire_locate_ack *a)
{
	io_status(c, &a->status);
	io_u16(c, &a->cm_port);
	io_text(c, a->addr, sizeof(a->addr));
	io_text(c, a->dev_name, sizeof(a->dev_name));
	io_text(c, a->why, sizeof(a->why));
	io_text(c, a->text, sizeof(a->text));
}

static int io_body(struct cursor *c, uint16_t type, struct wire_msg *m)
{
	switch (type) {
	case WIRE_CONNECT:
		io_u16(c, &m->u.connect.kind);
		io_u16(c, &m->u.connect.qp_index);
		io_u64(c, &m->u.connect.token);
		break;
	case WIRE_HELLO:
		io_hello(c, &m->u.hello);
		break;
	case WIRE_HELLO_ACK:
		io_status(c, &m->u.hello_ack.status);
		io_u64(c, &m->u.hello_ack.token);
		io_text(c, m->u.hello_ack.dev_name,
			sizeof(m->u.hello_ack.dev_name));
		io_text(c, m->u.hello_ack.text, sizeof(m->u.hello_ack.text));
		break;
	case WIRE_BUF:
		io_u64(c, &m->u.buf.addr);
		io_u64(c, &m->u.buf.length);
		io_u32(c, &m->u.buf.rkey);
		break;
	case WIRE_SYNC:
		io_u64(c, &m->u.sync.size_bytes);
		io_u64(c, &m->u.sync.iters);
		break;
	case WIRE_RESULT:
		io_result(c, &m->u.result);
		break;
	case WIRE_FIN:
		io_u64(c, &m->u.fin.msgs);
		io_u64(c, &m->u.fin.bytes);
		break;
	case WIRE_QP_INFO:
		io_u16(c, &m->u.qp_info.qp_index);
		io_u16(c, &m->u.qp_info.lid);
		io_u32(c, &m->u.qp_info.qpn);
		io_u32(c, &m->u.qp_info.psn);
		io_u8(c, &m->u.qp_info.mtu);
		io_bytes(c, m->u.qp_info.gid, sizeof(m->u.qp_info.gid));
		break;
	case WIRE_ERROR:
		io_status(c, &m->u.error.status);
		io_text(c, m->u.error.text, sizeof(m->u.error.text));
		break;
	case WIRE_LOCATE:
		io_u8(c, &m->u.locate.kind);
		io_text(c, m->u.locate.dev_name, sizeof(m->u.locate.dev_name));
		break;
	case WIRE_LOCATE_ACK:
		io_locate_ack(c, &m->u.locate_ack);
		break;
	case WIRE_AUTH:
		io_bytes(c, m->u.auth.nonce, sizeof(m->u.auth.nonce));
		io_bytes(c, m->u.auth.mac, sizeof(m->u.auth.mac));
		break;
	case WIRE_READY:
	case WIRE_BYE:
	case WIRE_ALIVE:
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

/* The header: magic, version, type, body length. */
static void io_header(struct cursor *c, uint32_t *magic, uint16_t *version,
		      uint16_t *type, uint32_t *body_len)
{
	io_u32(c, magic);
	io_u16(c, version);
	io_u16(c, type);
	io_u32(c, body_len);
}

int wire_pack(const struct wire_msg *msg, uint8_t *buf, size_t len)
{
	struct wire_msg copy = *msg; /* the walk takes non-const fields */
	struct cursor c = { .buf = buf, .len = len, .packing = 1 };
	uint32_t magic = WIRE_MAGIC, body_len = 0;
	uint16_t version = WIRE_VERSION, type = msg->type;
	int ret;

	io_header(&c, &magic, &version, &type, &body_len); /* len: below */
	ret = io_body(&c, type, &copy);
	if (ret)
		return ret;
	if (c.overflow)
		return -ENOSPC;
	body_len = htobe32((uint32_t)(c.pos - WIRE_HEADER_BYTES));
	memcpy(buf + 8, &body_len, sizeof(body_len));
	return (int)c.pos;
}

int wire_unpack(const uint8_t *buf, size_t len, struct wire_msg *msg)
{
	struct cursor c = { .buf = (uint8_t *)buf, .len = len };
	uint32_t magic = 0, body_len = 0;

	memset(msg, 0, sizeof(*msg));
	io_header(&c, &magic, &msg->version, &msg->type, &body_len);
	if (c.overflow)
		return magic == WIRE_MAGIC || len < 4 ? -EBADMSG : -EPROTO;
	if (magic != WIRE_MAGIC)
		return -EPROTO;
	if (msg->version != WIRE_VERSION)
		return -EPROTONOSUPPORT;
	if (body_len != len - WIRE_HEADER_BYTES)
		return -EBADMSG;
	if (io_body(&c, msg->type, msg))
		return -EBADMSG;
	if (c.overflow || c.pos != len)
		return -EBADMSG;
	return 0;
}

const char *wire_type_name(uint16_t type)
{
	static const char *const names[] = {
		[WIRE_CONNECT] = "CONNECT", [WIRE_HELLO] = "HELLO",
		[WIRE_HELLO_ACK] = "HELLO_ACK", [WIRE_BUF] = "BUF",
		[WIRE_SYNC] = "SYNC", [WIRE_READY] = "READY",
		[WIRE_RESULT] = "RESULT", [WIRE_BYE] = "BYE",
		[WIRE_ERROR] = "ERROR", [WIRE_FIN] = "FIN", [WIRE_ALIVE] = "ALIVE", [WIRE_QP_INFO] = "QP_INFO",
		[WIRE_LOCATE] = "LOCATE", [WIRE_LOCATE_ACK] = "LOCATE_ACK",
		[WIRE_AUTH] = "AUTH",
	};

	if (type < sizeof(names) / sizeof(names[0]) && names[type])
		return names[type];
	return "UNKNOWN";
}

/* Bytes of perftest's version string (char version[16]) we look at. */
#define PERFTEST_VERSION_BYTES 16

/* "6.06\0...": a digit, then digits and at least one dot, then a NUL. */
static bool peer_perftest_version(const uint8_t *buf, size_t len)
{
	size_t i, n = len > PERFTEST_VERSION_BYTES ? PERFTEST_VERSION_BYTES : len;
	bool dot = false;

	if (!n || !isdigit(buf[0]))
		return false;
	for (i = 1; i < n && buf[i]; i++) {
		if (buf[i] == '.')
			dot = true;
		else if (!isdigit(buf[i]))
			return false;
	}
	return dot && i < n;
}

/* "%04x:%04x:": the start of perftest's KEY_PRINT_FMT address text. */
static bool peer_perftest_keys(const uint8_t *buf, size_t len)
{
	static const char shape[] = "xxxx:xxxx:";
	size_t i;

	if (len < sizeof(shape) - 1)
		return false;
	for (i = 0; i < sizeof(shape) - 1; i++)
		if (shape[i] == ':' ? buf[i] != ':' : !isxdigit(buf[i]))
			return false;
	return true;
}

static bool peer_ours(const uint8_t *buf, size_t len)
{
	uint32_t magic_be;

	if (len < sizeof(magic_be))
		return false;
	memcpy(&magic_be, buf, sizeof(magic_be));
	return be32toh(magic_be) == WIRE_MAGIC;
}

enum wire_peer wire_peer_kind(const uint8_t *buf, size_t len)
{
	if (peer_ours(buf, len))
		return WIRE_PEER_RDMABENCH;
	if (peer_perftest_version(buf, len) || peer_perftest_keys(buf, len))
		return WIRE_PEER_PERFTEST;
	return WIRE_PEER_OTHER;
}

enum wire_peer wire_peer_cm_kind(const uint8_t *pd, size_t len)
{
	size_t i;

	if (pd && peer_ours(pd, len))
		return WIRE_PEER_RDMABENCH;
	for (i = 0; pd && i < len; i++)
		if (pd[i])
			return WIRE_PEER_OTHER;
	return WIRE_PEER_PERFTEST;
}

void wire_busy_text(const struct wire_connect *busy, char *buf, size_t len)
{
	snprintf(buf, len, "busy: it serves another client, whose session "
		 "ends within %llu s at the latest; you are number %u in "
		 "line", (unsigned long long)busy->token,
		 busy->qp_index);
}
