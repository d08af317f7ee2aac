/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * join - the decisions of ib_fabric's barrier join, apart from its
 * sockets (fabric/live/fabric_barrier.c). Pure.
 *
 * Rank 0 greets every connection with a fresh challenge (nonce0); a rank
 * answers with a JOIN: its rank, its data address, its own nonce and,
 * when the job has a key (--auth-key-file, or the launcher's
 * RDMABENCH_FABRIC_TOKEN), an HMAC-SHA256 over both nonces, the rank and
 * the address. Rank 0 answers each joined rank with the table of
 * addresses and an HMAC over that rank's nonce and the table, so a rank
 * knows the table came from a holder of the key. Every JOIN is judged
 * (join_judge) before it takes a rank: a rank out of range, a rank
 * already taken (the first genuine claim stays), a wrong proof, or,
 * without a key, a source address that is not the claimed node's.
 */
#ifndef RDMABENCH_FABRIC_JOIN_H
#define RDMABENCH_FABRIC_JOIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/sha256.h"

#define JOIN_ADDR_LEN 48   /* a numeric IP, NUL included */
#define JOIN_NONCE_LEN 16
#define JOIN_MAC_LEN SHA256_BYTES
/* rank (4, network order), address, nonce, MAC */
#define JOIN_WIRE_LEN (4 + JOIN_ADDR_LEN + JOIN_NONCE_LEN + JOIN_MAC_LEN)
/* The most a joiner may take to answer the challenge, however long the
 * barrier itself waits (--timeout). */
#define JOIN_ANSWER_MS 5000
/* A launcher's per-job secret, for jobs without --auth-key-file. */
#define JOIN_TOKEN_ENV "RDMABENCH_FABRIC_TOKEN"

struct join_key {
	const uint8_t *key; /* NULL: no key (the source check stands alone) */
	size_t len;
};

struct join_msg {
	uint32_t rank;
	char addr[JOIN_ADDR_LEN];
	uint8_t nonce[JOIN_NONCE_LEN];
	uint8_t mac[JOIN_MAC_LEN];
};

void join_encode(const struct join_msg *m, uint8_t out[JOIN_WIRE_LEN]);
void join_decode(const uint8_t in[JOIN_WIRE_LEN], struct join_msg *m);

/* The JOIN's MAC: over nonce0, the rank, the address and m->nonce. */
void join_mac(const struct join_key *k, const uint8_t nonce0[JOIN_NONCE_LEN],
	      const struct join_msg *m, uint8_t out[JOIN_MAC_LEN]);

/* The table's MAC for one rank: over its nonce and the table. */
void join_table_mac(const struct join_key *k,
		    const uint8_t nonce[JOIN_NONCE_LEN], const void *table,
		    size_t len, uint8_t out[JOIN_MAC_LEN]);

enum join_verdict {
	JOIN_OK,
	JOIN_OK_OTHER_SOURCE, /* keyed, from an unexpected source: warned */
	JOIN_BAD_RANK,        /* 0, or not below the number of nodes */
	JOIN_BAD_ADDR,        /* not a numeric IP */
	JOIN_TAKEN,           /* the rank has joined already */
	JOIN_BAD_PROOF,       /* keyed: the MAC is wrong */
	JOIN_WRONG_SOURCE,    /* no key: not from the claimed node */
};

/* What rank 0 knows when a JOIN is complete. */
struct join_claim {
	const struct join_msg *m;
	unsigned int nodes;
	bool taken;       /* m->rank's slot is filled */
	bool from_node;   /* its source is one of the node's addresses */
	bool keyed;       /* the job has a key */
	bool mac_ok;      /* keyed: the MAC matched */
};

enum join_verdict join_judge(const struct join_claim *c);

/* The verdict in words, for the log. */
const char *join_verdict_text(enum join_verdict v);

/* Is the verdict a join? */
bool join_admits(enum join_verdict v);

/* Is a (numeric IPv4/IPv6) among addrs[0..n)? Equal as addresses, so
 * "::ffff:10.0.0.1" is 10.0.0.1. */
bool join_source_in(const char *a, const char *const *addrs, size_t n);

#endif
