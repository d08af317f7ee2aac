// SPDX-License-Identifier: BSD-2-Clause
/* Tests for common/spec/pace.c: answers a source host is allowed. */
#include <stdio.h>

#include "tests/test.h"
#include "spec/pace.h"

#define MS 1000000ULL
#define S (1000ULL * MS)

/* How many of n tries, step_ns apart from t0, host is allowed. */
static unsigned int pace_allowed(struct pace *r, const char *host,
				 uint64_t t0, uint64_t step_ns, unsigned int n)
{
	unsigned int ok = 0;

	for (unsigned int i = 0; i < n; i++)
		ok += pace_take(r, host, t0 + i * step_ns);
	return ok;
}

/* A burst of PACE_BURST at once, then PACE_PER_S a second. */
static void test_burst_then_rate(void)
{
	struct pace r;

	pace_init(&r);
	EXPECT_EQ_INT(pace_allowed(&r, "10.0.0.9", 100 * S, 0, 50),
		      (int)PACE_BURST);
	EXPECT_TRUE(!pace_take(&r, "10.0.0.9", 100 * S + 199 * MS));
	EXPECT_TRUE(pace_take(&r, "10.0.0.9", 100 * S + 200 * MS));
	EXPECT_TRUE(!pace_take(&r, "10.0.0.9", 100 * S + 201 * MS));
	/* a spinner at ~70 a second for 10 s: 5 a second after its burst */
	pace_init(&r);
	EXPECT_EQ_INT(pace_allowed(&r, "10.0.0.9", 100 * S, 14 * MS, 715),
		      (int)(PACE_BURST + 10 * PACE_PER_S - 1));
	/* quiet for 2 s: a whole burst again, never more */
	EXPECT_EQ_INT(pace_allowed(&r, "10.0.0.9", 120 * S, 0, 50),
		      (int)PACE_BURST);
}

/* A client that asks once a second is always answered; one spinning
 * host does not cost another its answers. */
static void test_sources_apart(void)
{
	struct pace r;
	unsigned int good = 0;

	pace_init(&r);
	for (unsigned int i = 0; i < 700; i++) {
		(void)pace_take(&r, "10.0.0.66", 100 * S + i * 14 * MS);
		if (i % 70 == 0)
			good += pace_take(&r, "10.0.0.5",
					  100 * S + i * 14 * MS);
	}
	EXPECT_EQ_INT(good, 10);
}

/* A full table gives up the fullest bucket; the spinner keeps its own
 * (empty) one while new hosts come and go. */
static void test_table_full(void)
{
	struct pace r;
	char host[32];
	unsigned int i;

	pace_init(&r);
	EXPECT_EQ_INT(pace_allowed(&r, "10.0.0.66", 100 * S, 0, 20),
		      (int)PACE_BURST);
	for (i = 0; i < 3 * PACE_SRC_MAX; i++) {
		snprintf(host, sizeof(host), "10.1.0.%u", i);
		EXPECT_TRUE(pace_take(&r, host, 100 * S + i * MS));
	}
	EXPECT_TRUE(!pace_take(&r, "10.0.0.66", 100 * S + i * MS));
}

/* --rate_limit SW: a stream of 1000 messages a second, bursts of 10:
 * the burst at once, then one a ms; 10 s of posting as fast as allowed
 * (a look every 100 us) sends 10 s' worth, plus the first burst. */
static void test_flow_rate(void)
{
	struct pace_flow f;
	uint64_t t, room, sent = 0;

	pace_flow_init(&f, 1000, 10, 5 * S);
	EXPECT_EQ_INT((int)pace_flow_room(&f, 5 * S), 10);
	for (t = 5 * S; t < 15 * S; t += MS / 10) {
		room = pace_flow_room(&f, t);
		pace_flow_take(&f, t, room);
		sent += room;
	}
	EXPECT_TRUE(sent >= 10000 && sent <= 10010);
	pace_flow_init(&f, 0, 10, 5 * S); /* no rate: no limit */
	EXPECT_TRUE(pace_flow_room(&f, 5 * S) == UINT64_MAX);
	pace_flow_init(&f, 1e-9, 1u << 30, 5 * S); /* no overflow */
	EXPECT_TRUE(pace_flow_room(&f, 6 * S) == 1u << 30);
}

int main(void)
{
	test_flow_rate();
	test_burst_then_rate();
	test_sources_apart();
	test_table_full();
	return test_finish("pace");
}
