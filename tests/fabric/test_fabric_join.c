// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for fabric/join.c: the decisions of ib_fabric's barrier join
 * (issue 25: a stranger could claim a rank, evict the real one and be
 * sent every rank's address). A JOIN's wire form, its MAC (bound to rank
 * 0's challenge, the rank and the address), the table's MAC, the source
 * check, and every verdict.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fabric/join.h"
#include "tests/test.h"

static const uint8_t key_bytes[] = "0123456789abcdef-the-jobs-key";
static const struct join_key key = { key_bytes, sizeof(key_bytes) - 1 };

static struct join_msg msg_for(uint32_t rank, const char *addr)
{
	struct join_msg m = { .rank = rank };

	snprintf(m.addr, sizeof(m.addr), "%s", addr);
	memset(m.nonce, 0x5a, sizeof(m.nonce));
	return m;
}

static void test_wire(void)
{
	struct join_msg m = msg_for(7, "10.0.0.7"), back;
	uint8_t wire[JOIN_WIRE_LEN];

	memset(m.mac, 0xc3, sizeof(m.mac));
	join_encode(&m, wire);
	EXPECT_EQ_INT(wire[3], 7); /* network order */
	join_decode(wire, &back);
	EXPECT_EQ_INT(back.rank, 7);
	EXPECT_STREQ(back.addr, "10.0.0.7");
	EXPECT_TRUE(!memcmp(back.nonce, m.nonce, JOIN_NONCE_LEN));
	EXPECT_TRUE(!memcmp(back.mac, m.mac, JOIN_MAC_LEN));
}

static void test_mac_binds(void)
{
	uint8_t n0[JOIN_NONCE_LEN] = { 1 }, n1[JOIN_NONCE_LEN] = { 2 };
	uint8_t a[JOIN_MAC_LEN], b[JOIN_MAC_LEN];
	struct join_msg m = msg_for(1, "10.0.0.1"), o;
	static const uint8_t other_bytes[] = "another-key-of-16-bytes";
	struct join_key other = { other_bytes, sizeof(other_bytes) - 1 };

	join_mac(&key, n0, &m, a);
	join_mac(&key, n0, &m, b);
	EXPECT_TRUE(!memcmp(a, b, sizeof(a)));
	join_mac(&key, n1, &m, b); /* a replay against a new challenge */
	EXPECT_TRUE(memcmp(a, b, sizeof(a)) != 0);
	o = msg_for(2, "10.0.0.1"); /* another rank */
	join_mac(&key, n0, &o, b);
	EXPECT_TRUE(memcmp(a, b, sizeof(a)) != 0);
	o = msg_for(1, "10.6.6.6"); /* another address */
	join_mac(&key, n0, &o, b);
	EXPECT_TRUE(memcmp(a, b, sizeof(a)) != 0);
	join_mac(&other, n0, &m, b);
	EXPECT_TRUE(memcmp(a, b, sizeof(a)) != 0);
	/* the table's MAC: per rank (its nonce) and over the table */
	join_table_mac(&key, n0, "table", 5, a);
	join_table_mac(&key, n1, "table", 5, b);
	EXPECT_TRUE(memcmp(a, b, sizeof(a)) != 0);
	join_table_mac(&key, n0, "tablf", 5, b);
	EXPECT_TRUE(memcmp(a, b, sizeof(a)) != 0);
}

static enum join_verdict judge(uint32_t rank, const char *addr, bool taken,
			       bool from_node, bool keyed, bool mac_ok)
{
	struct join_msg m = msg_for(rank, addr);
	struct join_claim c = { &m, 4, taken, from_node, keyed, mac_ok };

	return join_judge(&c);
}

static void test_verdicts(void)
{
	/* without a key: the source decides */
	EXPECT_EQ_INT(judge(1, "10.0.0.1", false, true, false, false), JOIN_OK);
	EXPECT_EQ_INT(judge(1, "10.0.0.1", false, false, false, false),
		      JOIN_WRONG_SOURCE);
	/* a second claim never evicts the first */
	EXPECT_EQ_INT(judge(1, "10.0.0.1", true, true, false, false),
		      JOIN_TAKEN);
	EXPECT_EQ_INT(judge(0, "10.0.0.1", false, true, false, false),
		      JOIN_BAD_RANK);
	EXPECT_EQ_INT(judge(4, "10.0.0.1", false, true, false, false),
		      JOIN_BAD_RANK);
	EXPECT_EQ_INT(judge(0xffffffffu, "10.0.0.1", false, true, false, false),
		      JOIN_BAD_RANK);
	EXPECT_EQ_INT(judge(2, "node-b", false, true, false, false),
		      JOIN_BAD_ADDR);
	/* with a key: the proof first, even from the right node */
	EXPECT_EQ_INT(judge(1, "10.0.0.1", false, true, true, false),
		      JOIN_BAD_PROOF);
	EXPECT_EQ_INT(judge(1, "10.0.0.1", true, true, true, false),
		      JOIN_BAD_PROOF);
	EXPECT_EQ_INT(judge(1, "10.0.0.1", false, true, true, true), JOIN_OK);
	EXPECT_EQ_INT(judge(1, "10.0.0.1", false, false, true, true),
		      JOIN_OK_OTHER_SOURCE);
	EXPECT_EQ_INT(judge(1, "10.0.0.1", true, true, true, true),
		      JOIN_TAKEN);
	EXPECT_TRUE(join_admits(JOIN_OK) && join_admits(JOIN_OK_OTHER_SOURCE));
	EXPECT_TRUE(!join_admits(JOIN_TAKEN) && !join_admits(JOIN_BAD_PROOF) &&
		    !join_admits(JOIN_WRONG_SOURCE));
	EXPECT_STREQ(join_verdict_text(JOIN_TAKEN),
		     "claims a rank that has joined already");
}

static void test_source(void)
{
	const char *node[] = { "10.0.0.2", "fd00::2", "not-an-ip" };

	EXPECT_TRUE(join_source_in("10.0.0.2", node, 3));
	EXPECT_TRUE(join_source_in("::ffff:10.0.0.2", node, 3));
	EXPECT_TRUE(join_source_in("fd00:0::2", node, 3));
	EXPECT_TRUE(!join_source_in("10.0.0.3", node, 3));
	EXPECT_TRUE(!join_source_in("not-an-ip", node, 3));
	EXPECT_TRUE(!join_source_in("10.0.0.2", node, 0));
}

int main(void)
{
	test_wire();
	test_mac_binds();
	test_verdicts();
	test_source();
	return test_finish("test_fabric_join");
}
