// SPDX-License-Identifier: BSD-2-Clause
/* Tests for common/spec/turns.c: a server's line and its back-off. */
#include "tests/test.h"
#include "spec/turns.h"

#define MS 1000000ULL
#define S (1000ULL * MS)

/* Only a whole first message earns a turn; the first in line goes first,
 * not the last to connect. */
static void test_pick_order(void)
{
	struct turns t;
	int a, b, c, ev;

	turns_init(&t);
	a = turns_add(&t, "10.0.0.1", 1 * S, 0, &ev);
	b = turns_add(&t, "10.0.0.2", 2 * S, 0, &ev);
	c = turns_add(&t, "10.0.0.3", 3 * S, 0, &ev);
	EXPECT_EQ_INT(ev, -1);
	EXPECT_EQ_INT(turns_pick(&t, 3 * S), -1); /* nobody spoke yet */
	t.wait[c].ready = true;
	EXPECT_EQ_INT(turns_pick(&t, 3 * S), c);
	t.wait[b].ready = true;
	EXPECT_EQ_INT(turns_pick(&t, 3 * S), b);
	(void)a;
	/* a client told busy earlier keeps its place in line */
	turns_free(&t, b);
	b = turns_add(&t, "10.0.0.4", 4 * S, S / 2, &ev);
	t.wait[b].ready = true;
	EXPECT_EQ_INT(turns_pick(&t, 4 * S), b);
	/* a "told busy" time in the future is no place */
	turns_free(&t, b);
	b = turns_add(&t, "10.0.0.4", 4 * S, 9 * S, &ev);
	t.wait[b].ready = true;
	EXPECT_EQ_INT(turns_pick(&t, 4 * S), c);
}

/* A source that wasted a turn is served after everyone else, with a
 * back-off that doubles to its cap; a valid HELLO pardons it. */
static void test_backoff(void)
{
	struct turns t;
	uint64_t now = 100 * S;
	int spin, good, ev, i;

	turns_init(&t);
	EXPECT_TRUE(!turns_slowed(&t, "10.0.0.9", now));
	turns_strike(&t, "10.0.0.9", now);
	EXPECT_TRUE(turns_slowed(&t, "10.0.0.9", now + 249 * MS));
	EXPECT_TRUE(!turns_slowed(&t, "10.0.0.9", now + 250 * MS));
	turns_strike(&t, "10.0.0.9", now);
	EXPECT_TRUE(turns_slowed(&t, "10.0.0.9", now + 499 * MS));
	for (i = 0; i < 40; i++)
		turns_strike(&t, "10.0.0.9", now);
	EXPECT_TRUE(turns_slowed(&t, "10.0.0.9", now + 7999 * MS));
	EXPECT_TRUE(!turns_slowed(&t, "10.0.0.9", now + 8000 * MS));
	spin = turns_add(&t, "10.0.0.9", now, 0, &ev);
	good = turns_add(&t, "10.0.0.5", now + S, 0, &ev);
	t.wait[spin].ready = t.wait[good].ready = true;
	EXPECT_EQ_INT(turns_pick(&t, now + S), good);
	turns_free(&t, good);
	EXPECT_EQ_INT(turns_pick(&t, now + S), spin); /* slowed, not barred */
	turns_pardon(&t, "10.0.0.9");
	EXPECT_TRUE(!turns_slowed(&t, "10.0.0.9", now));
	/* quiet past the cap: the count starts again */
	for (i = 0; i < 10; i++)
		turns_strike(&t, "10.0.0.8", now);
	turns_strike(&t, "10.0.0.8", now + 60 * S);
	EXPECT_TRUE(!turns_slowed(&t, "10.0.0.8", now + 60 * S + 250 * MS));
}

/* A full line gives up a silent connection from a slowed source first,
 * then the oldest silent one, never one that spoke while another is
 * silent. */
static void test_full(void)
{
	struct turns t;
	int i, ev, slot, quiet;

	turns_init(&t);
	for (i = 0; i < TURNS_WAIT_MAX; i++) {
		slot = turns_add(&t, i == 5 ? "10.0.0.66" : "10.0.0.1",
				 (uint64_t)(i + 1) * S, 0, &ev);
		t.wait[slot].ready = i == 0;
	}
	turns_strike(&t, "10.0.0.66", 20 * S);
	slot = turns_add(&t, "10.0.0.2", 20 * S, 0, &ev);
	EXPECT_EQ_INT(ev, 5);
	EXPECT_EQ_INT(slot, 5);
	quiet = turns_add(&t, "10.0.0.2", 21 * S, 0, &ev);
	EXPECT_EQ_INT(ev, 1); /* the oldest silent one: slot 0 spoke */
	EXPECT_EQ_INT(quiet, 1);
	/* the one given up wasted its place: its source is slowed */
	EXPECT_TRUE(turns_slowed(&t, "10.0.0.1", 21 * S));
	EXPECT_TRUE(!turns_slowed(&t, "10.0.0.2", 21 * S));
}

/* Each waiting connection's hard limit, from its own connect. */
static void test_expiry(void)
{
	struct turns t;
	int a, b, ev;

	turns_init(&t);
	EXPECT_EQ_U64(turns_next_ns(&t, 5000), 0);
	EXPECT_EQ_INT(turns_expired(&t, 100 * S, 5000), -1);
	a = turns_add(&t, "10.0.0.1", 10 * S, 0, &ev);
	b = turns_add(&t, "10.0.0.1", 12 * S, 0, &ev);
	EXPECT_EQ_U64(turns_next_ns(&t, 5000), 15 * S);
	EXPECT_EQ_INT(turns_expired(&t, 15 * S - 1, 5000), -1);
	EXPECT_EQ_INT(turns_expired(&t, 15 * S, 5000), a);
	turns_free(&t, a);
	EXPECT_EQ_INT(turns_expired(&t, 16 * S, 5000), -1);
	EXPECT_EQ_INT(turns_expired(&t, 17 * S, 5000), b);
}

int main(void)
{
	test_pick_order();
	test_backoff();
	test_full();
	test_expiry();
	return test_finish("turns");
}
