/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * wire - the rendezvous messages, packed and unpacked by pure functions.
 *
 * Every message is fixed-layout and big-endian:
 *   u32 magic 'RDMB' | u16 version | u16 type | u32 body bytes | body
 * A peer with another WIRE_VERSION is refused with -EPROTONOSUPPORT (both
 * sides say which versions met); a wrong magic is -EPROTO (not our peer).
 * Doubles travel as their IEEE-754 bits in a u64.
 *
 * The sequence (client -> server unless marked <-):
 *   CONNECT(ctrl) [AUTH <-AUTH AUTH <-AUTH] HELLO  <-HELLO_ACK  CONNECT(data)
 *   BUF  <-BUF          (--mr_per_qp: a BUF per QP, in QP order)
 *   per size: SYNC  <-READY  (traffic)  <-RESULT  [RESULT: -b]
 *   BYE
 * Either side may send ERROR instead of what it owes; the other prints it.
 */
#ifndef RDMABENCH_SPEC_WIRE_H
#define RDMABENCH_SPEC_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "spec/test.h"

#define WIRE_MAGIC 0x52444d42u /* "RDMB" */
#define WIRE_VERSION \
	8 /* 2: CONNECT and HELLO_ACK carry a token, AUTH;
			* 3: AUTH in 4 steps, the client proves first;
			* 4: HELLO flags -e (0x40) and -c UD (0x80), which
			* a version 3 server would ignore;
			* 5: HELLO flag --use-srq (0x100);
			* 6: HELLO field recv_post_list, which a version 5
			* server could not read;
			* 7: HELLO flag --mr_per_qp (0x200): a BUF per QP;
			* 8: HELLO flag --reversed (0x400) */
#define WIRE_HEADER_BYTES 12
#define WIRE_MSG_MAX 512
#define WIRE_TEXT_MAX 200
#define WIRE_NAME_MAX 64

enum wire_type {
	WIRE_CONNECT = 1, /* rdma_cm private data */
	WIRE_HELLO,
	WIRE_HELLO_ACK,
	WIRE_BUF,
	WIRE_SYNC,
	WIRE_READY,
	WIRE_RESULT,
	WIRE_BYE,
	WIRE_ERROR,
	WIRE_FIN,         /* data path: the sender's count after a bw run */
	WIRE_ALIVE,       /* ctrl: the client is still sending (bw runs) */
	WIRE_QP_INFO,     /* --oob tcp: a QP's number, PSN, LID and GID */
	WIRE_LOCATE,      /* --oob auto, before HELLO: the client's data kind */
	WIRE_LOCATE_ACK,  /* the server's data device, or where to go */
	WIRE_AUTH,        /* --auth-key-file: a nonce and an HMAC, 3 steps */
	WIRE_TYPE_END,    /* one past the last type */
};

/* The kind of data device a side has (LOCATE): QPs of one kind connect. */
enum wire_data_kind {
	WIRE_DATA_ANY = 0, /* not said (a --oob tcp client's HELLO) */
	WIRE_DATA_IB,
	WIRE_DATA_ROCE,
	WIRE_DATA_IWARP,
};

/* WIRE_CONN_BUSY: a server's reject while it serves another client:
 * qp_index is the client's place in line (1: next), token the seconds
 * the session in progress may still last at most. */
enum wire_conn_kind { WIRE_CONN_CTRL = 1, WIRE_CONN_DATA = 2,
		      WIRE_CONN_BUSY = 3 };

struct wire_connect {
	uint16_t kind;      /* enum wire_conn_kind */
	uint16_t qp_index;
	uint64_t token;     /* data: the session's, from HELLO_ACK; ctrl: 0 */
};

/* A packed CONNECT (rdma_cm private data: at most 56 bytes on IB). */
#define WIRE_CONNECT_BYTES (WIRE_HEADER_BYTES + 12)

/*
 * The whole test configuration (struct test, spec/test.h) as it travels:
 * wire_hello_encode() and wire_hello_decode() map one to the other; only
 * wire.c names the bits of flags.
 */
struct wire_hello {
	uint8_t verb;       /* enum bench_verb */
	uint8_t measure;    /* enum bench_measure */
	uint16_t flags;     /* the test's booleans, one bit each */
	uint32_t tx_depth;
	uint32_t cq_mod;
	uint32_t io_timeout_ms;
	uint64_t size_bytes;
	uint64_t max_size_bytes; /* buffer to allocate */
	uint64_t iters;
	uint32_t qps;
	uint32_t post_list;
	uint32_t outstanding;      /* reads/atomics in flight */
	uint32_t rx_depth;
	uint32_t inline_bytes;     /* UINT32_MAX: as large as allowed */
	uint32_t duration_s;       /* 0: iterations */
	uint32_t margin_s;
	uint32_t recv_post_list;   /* 0: not given */
	char tool[WIRE_NAME_MAX];  /* "ib_write_bw", for the server's log */
};

struct wire_hello_ack {
	int32_t status;            /* 0 or -errno */
	uint64_t token;            /* rdma_cm: every data CONNECT carries it */
	char dev_name[WIRE_NAME_MAX];
	char text[WIRE_TEXT_MAX];  /* why, when status != 0 */
};

struct wire_buf {
	uint64_t addr;
	uint64_t length;
	uint32_t rkey;
};

struct wire_sync {
	uint64_t size_bytes;
	uint64_t iters;
};

/* One side's measured figures for one size. */
struct wire_result {
	int32_t status;
	uint64_t bytes;
	uint64_t msgs;
	uint64_t elapsed_ns;
	uint64_t lat_samples;
	double lat_us[9]; /* min p50 avg stdev p90 p99 p99.9 max p99.99 */
	/* -b: the sender's peak; the client answers the server's RESULT
	 * with its own, so that each side prints the sum (perftest's) */
	uint64_t peak_bytes;
	uint64_t peak_ns;
};

struct wire_fin {
	uint64_t msgs;
	uint64_t bytes;
};

struct wire_qp_info {
	uint16_t qp_index;
	uint16_t lid;
	uint32_t qpn;
	uint32_t psn;
	uint8_t mtu;       /* enum ibv_mtu of the sender's port */
	uint8_t gid[16];
};

/*
 * --oob auto, the first message on the TCP control channel: the kind of
 * the client's data device. The server answers LOCATE_ACK with its own
 * device of that kind; for iWARP, whose QPs connect through rdma_cm only,
 * with the address and rdma_cm port to connect the whole session to
 * instead (the TCP connection then ends).
 */
struct wire_locate {
	uint8_t kind;                 /* enum wire_data_kind */
	char dev_name[WIRE_NAME_MAX]; /* the client's, for the server's log */
};

struct wire_locate_ack {
	int32_t status;               /* 0 or -errno (text says why) */
	uint16_t cm_port;             /* with addr: rdma_cm port */
	char addr[WIRE_NAME_MAX];     /* "": go on here; else rdma_cm there */
	char dev_name[WIRE_NAME_MAX]; /* the server's data device */
	char why[WIRE_NAME_MAX];      /* how the server chose it */
	char text[WIRE_TEXT_MAX];     /* why, when status != 0 */
};

/*
 * --auth-key-file, before LOCATE or HELLO (spec/wire_auth.h): the client
 * sends its nonce (mac zero), the server its nonce (mac zero), the client
 * its proof (nonce zero), and only then the server its proof. A proof is
 * an HMAC-SHA256 over both nonces and the direction, so neither side's
 * answer can be replayed.
 */
#define WIRE_NONCE_BYTES 32
#define WIRE_MAC_BYTES 32

struct wire_auth {
	uint8_t nonce[WIRE_NONCE_BYTES];
	uint8_t mac[WIRE_MAC_BYTES];
};

struct wire_error {
	int32_t status;
	char text[WIRE_TEXT_MAX];
};

struct wire_msg {
	uint16_t version;
	uint16_t type;
	union {
		struct wire_connect connect;
		struct wire_hello hello;
		struct wire_hello_ack hello_ack;
		struct wire_buf buf;
		struct wire_sync sync;
		struct wire_result result;
		struct wire_fin fin;
		struct wire_error error;
		struct wire_qp_info qp_info;
		struct wire_locate locate;
		struct wire_locate_ack locate_ack;
		struct wire_auth auth;
	} u;
};

/*
 * Pack msg (its type; the version is always WIRE_VERSION) into buf.
 * Returns the number of bytes, or -ENOSPC / -EINVAL (unknown type).
 */
int wire_pack(const struct wire_msg *msg, uint8_t *buf, size_t len);

/*
 * Unpack len bytes into *msg. Returns 0; -EPROTO: not our magic;
 * -EPROTONOSUPPORT: another version (msg->version holds the peer's);
 * -EBADMSG: truncated, unknown type or a body of the wrong size.
 * Peer text comes out printable (lib/sanitize.h: \xNN escapes, "..." when
 * cut), ready for any log; a status outside 0..-4095 comes out -EPROTO.
 */
int wire_unpack(const uint8_t *buf, size_t len, struct wire_msg *msg);

/* The HELLO that carries t. */
void wire_hello_encode(const struct test *t, struct wire_hello *h);

/* The test a HELLO carries (flag bits it does not know are ignored). */
void wire_hello_decode(const struct wire_hello *h, struct test *t);

/* "HELLO", "RESULT", ... for messages. */
const char *wire_type_name(uint16_t type);

/* What a busy answer (WIRE_CONN_BUSY) says, for the client: one text for
 * rdma_cm's reject and --oob tcp's ERROR. */
void wire_busy_text(const struct wire_connect *busy, char *buf, size_t len);

/*
 * Who is at the other end, from the first bytes it sent. perftest (the
 * tool rdmabench stands in for) is told apart so that a mixed pair ends at
 * once with WIRE_PERFTEST_FMT instead of a protocol error later.
 */
enum wire_peer {
	WIRE_PEER_RDMABENCH, /* our magic */
	WIRE_PEER_PERFTEST,
	WIRE_PEER_OTHER, /* neither: not ours, cause unknown */
};

/* The error a perftest peer is: exit 2, the user ran the wrong pair. */
#define WIRE_EPERFTEST EPROTOTYPE
#define WIRE_PERFTEST_FMT                                                  \
	"the peer at %s is perftest, not rdmabench: run the same tool on " \
	"both ends"

/*
 * The first len bytes of a control channel (TCP, or the first message on
 * the rdma_cm control QP). perftest's are its version string ("6.06",
 * NUL-padded to 16 bytes: exchange_versions), or, with
 * --dont_xchg_versions, its QP address text ("0000:0000:...").
 */
enum wire_peer wire_peer_kind(const uint8_t *buf, size_t len);

/*
 * The private data of an rdma_cm connect request or accept. Ours always
 * starts with a WIRE_CONNECT; perftest sends none, which arrives empty
 * (iWARP) or as zeros (IB/RoCE pad the CM message).
 */
enum wire_peer wire_peer_cm_kind(const uint8_t *pd, size_t len);

#endif
