// SPDX-License-Identifier: BSD-2-Clause
/* join - the barrier join's decisions (see join.h). */
#include "fabric/join.h"

#include <arpa/inet.h>
#include <string.h>

#include "lib/hmac.h"

void join_encode(const struct join_msg *m, uint8_t out[JOIN_WIRE_LEN])
{
	uint32_t r = htonl(m->rank);

	memcpy(out, &r, 4);
	memcpy(out + 4, m->addr, JOIN_ADDR_LEN);
	memcpy(out + 4 + JOIN_ADDR_LEN, m->nonce, JOIN_NONCE_LEN);
	memcpy(out + 4 + JOIN_ADDR_LEN + JOIN_NONCE_LEN, m->mac,
	       JOIN_MAC_LEN);
}

void join_decode(const uint8_t in[JOIN_WIRE_LEN], struct join_msg *m)
{
	uint32_t r;

	memcpy(&r, in, 4);
	m->rank = ntohl(r);
	memcpy(m->addr, in + 4, JOIN_ADDR_LEN);
	memcpy(m->nonce, in + 4 + JOIN_ADDR_LEN, JOIN_NONCE_LEN);
	memcpy(m->mac, in + 4 + JOIN_ADDR_LEN + JOIN_NONCE_LEN,
	       JOIN_MAC_LEN);
}

void join_mac(const struct join_key *k, const uint8_t nonce0[JOIN_NONCE_LEN],
	      const struct join_msg *m, uint8_t out[JOIN_MAC_LEN])
{
	uint32_t r = htonl(m->rank);
	const struct hmac_part parts[] = {
		{ "rdmabench fabric join", 21 },
		{ nonce0, JOIN_NONCE_LEN },
		{ &r, sizeof(r) },
		{ m->addr, JOIN_ADDR_LEN },
		{ m->nonce, JOIN_NONCE_LEN },
	};

	hmac_sha256(k->key, k->len, parts, sizeof(parts) / sizeof(parts[0]),
		    out);
}

void join_table_mac(const struct join_key *k,
		    const uint8_t nonce[JOIN_NONCE_LEN], const void *table,
		    size_t len, uint8_t out[JOIN_MAC_LEN])
{
	const struct hmac_part parts[] = {
		{ "rdmabench fabric table", 22 },
		{ nonce, JOIN_NONCE_LEN },
		{ table, len },
	};

	hmac_sha256(k->key, k->len, parts, sizeof(parts) / sizeof(parts[0]),
		    out);
}

static bool addr_numeric(const char *a)
{
	unsigned char any[sizeof(struct in6_addr)];

	return memchr(a, '\0', JOIN_ADDR_LEN) &&
	       (inet_pton(AF_INET, a, any) == 1 ||
		inet_pton(AF_INET6, a, any) == 1);
}

enum join_verdict join_judge(const struct join_claim *c)
{
	if (c->m->rank == 0 || c->m->rank >= c->nodes)
		return JOIN_BAD_RANK;
	if (c->keyed && !c->mac_ok)
		return JOIN_BAD_PROOF; /* before anything else it claims */
	if (!addr_numeric(c->m->addr))
		return JOIN_BAD_ADDR;
	if (!c->keyed && !c->from_node)
		return JOIN_WRONG_SOURCE;
	if (c->taken)
		return JOIN_TAKEN;
	return c->from_node ? JOIN_OK : JOIN_OK_OTHER_SOURCE;
}

bool join_admits(enum join_verdict v)
{
	return v == JOIN_OK || v == JOIN_OK_OTHER_SOURCE;
}

const char *join_verdict_text(enum join_verdict v)
{
	switch (v) {
	case JOIN_OK:
		return "joined";
	case JOIN_OK_OTHER_SOURCE:
		return "joined with the key, from an address that is not its node's";
	case JOIN_BAD_RANK:
		return "claims a rank out of range";
	case JOIN_BAD_ADDR:
		return "sent a data address that is not a numeric IP";
	case JOIN_TAKEN:
		return "claims a rank that has joined already";
	case JOIN_BAD_PROOF:
		return "did not prove the job's key";
	case JOIN_WRONG_SOURCE:
		return "is not at an address of the node it claims";
	}
	return "?";
}

/* a as 16 bytes (IPv4 as ::ffff:a.b.c.d), or false. */
static bool addr_bytes(const char *a, unsigned char out[16])
{
	unsigned char v4[4];

	if (inet_pton(AF_INET6, a, out) == 1)
		return true;
	if (inet_pton(AF_INET, a, v4) != 1)
		return false;
	memset(out, 0, 10);
	out[10] = out[11] = 0xff;
	memcpy(out + 12, v4, 4);
	return true;
}

bool join_source_in(const char *a, const char *const *addrs, size_t n)
{
	unsigned char x[16], y[16];

	if (!addr_bytes(a, x))
		return false;
	for (size_t i = 0; i < n; i++)
		if (addr_bytes(addrs[i], y) && !memcmp(x, y, 16))
			return true;
	return false;
}
