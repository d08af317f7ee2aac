// SPDX-License-Identifier: BSD-2-Clause
/*
 * turns - a server's own line of connections waiting for a turn, and the
 * back-off of sources that waste one (turns.h).
 */
#include <stdio.h>
#include <string.h>

#include "spec/turns.h"

#define NS_PER_MS 1000000ULL

void turns_init(struct turns *t)
{
	memset(t, 0, sizeof(*t));
}

/* a before b in line: placed earlier, then connected earlier. */
static bool turns_before(const struct turns_wait *a,
			 const struct turns_wait *b)
{
	uint64_t qa = a->queued_ns ? a->queued_ns : a->since_ns;
	uint64_t qb = b->queued_ns ? b->queued_ns : b->since_ns;

	return qa != qb ? qa < qb : a->since_ns < b->since_ns;
}

/* The slot to give up when the line is full. */
static int turns_victim(const struct turns *t, uint64_t now_ns)
{
	int i, best = -1, rank, best_rank = 3;

	for (i = 0; i < TURNS_WAIT_MAX; i++) {
		const struct turns_wait *w = &t->wait[i];

		rank = w->ready ? 2 : turns_slowed(t, w->host, now_ns) ? 0 : 1;
		if (rank < best_rank || (rank == best_rank &&
					 w->since_ns < t->wait[best].since_ns)) {
			best = i;
			best_rank = rank;
		}
	}
	return best;
}

int turns_add(struct turns *t, const char *host, uint64_t now_ns,
	      uint64_t queued_ns, int *evict)
{
	int i;

	*evict = -1;
	for (i = 0; i < TURNS_WAIT_MAX && t->wait[i].used; i++)
		;
	if (i == TURNS_WAIT_MAX) {
		i = *evict = turns_victim(t, now_ns);
		if (!t->wait[i].ready) /* it wasted its place */
			turns_strike(t, t->wait[i].host, now_ns);
	}
	t->wait[i] = (struct turns_wait){ .used = true, .since_ns = now_ns,
		.queued_ns = queued_ns && queued_ns < now_ns ? queued_ns : 0 };
	snprintf(t->wait[i].host, sizeof(t->wait[i].host), "%s", host);
	return i;
}

void turns_free(struct turns *t, int slot)
{
	if (slot >= 0 && slot < TURNS_WAIT_MAX)
		t->wait[slot] = (struct turns_wait){ 0 };
}

static struct turns_src *turns_find(const struct turns *t, const char *host)
{
	for (int i = 0; i < TURNS_SRC_MAX; i++)
		if (t->src[i].host[0] && !strcmp(t->src[i].host, host))
			return (struct turns_src *)&t->src[i];
	return NULL;
}

void turns_strike(struct turns *t, const char *host, uint64_t now_ns)
{
	struct turns_src *s = turns_find(t, host), *oldest = &t->src[0];
	uint64_t ms = TURNS_BACKOFF_MIN_MS;
	unsigned int i;

	if (!s) { /* a free entry, else the one whose back-off ends first */
		for (i = 0; i < TURNS_SRC_MAX; i++)
			if (!t->src[i].host[0] ||
			    t->src[i].until_ns < oldest->until_ns)
				oldest = &t->src[i];
		s = oldest;
		*s = (struct turns_src){ 0 };
		snprintf(s->host, sizeof(s->host), "%s", host);
	} else if (now_ns >= s->until_ns + TURNS_BACKOFF_MAX_MS * NS_PER_MS) {
		s->strikes = 0; /* quiet long enough: forgiven */
	}
	for (i = 0; i < s->strikes && ms < TURNS_BACKOFF_MAX_MS; i++)
		ms *= 2;
	if (ms > TURNS_BACKOFF_MAX_MS)
		ms = TURNS_BACKOFF_MAX_MS;
	s->strikes++;
	s->until_ns = now_ns + ms * NS_PER_MS;
}

void turns_pardon(struct turns *t, const char *host)
{
	struct turns_src *s = turns_find(t, host);

	if (s)
		*s = (struct turns_src){ 0 };
}

bool turns_slowed(const struct turns *t, const char *host, uint64_t now_ns)
{
	const struct turns_src *s = turns_find(t, host);

	return s && now_ns < s->until_ns;
}

int turns_pick(const struct turns *t, uint64_t now_ns)
{
	int i, best = -1;
	bool slow, best_slow = true;

	for (i = 0; i < TURNS_WAIT_MAX; i++) {
		const struct turns_wait *w = &t->wait[i];

		if (!w->used || !w->ready)
			continue;
		slow = turns_slowed(t, w->host, now_ns);
		if (best < 0 || (best_slow && !slow) ||
		    (slow == best_slow && turns_before(w, &t->wait[best]))) {
			best = i;
			best_slow = slow;
		}
	}
	return best;
}

int turns_expired(const struct turns *t, uint64_t now_ns, uint64_t hello_ms)
{
	for (int i = 0; i < TURNS_WAIT_MAX; i++)
		if (t->wait[i].used &&
		    now_ns >= t->wait[i].since_ns + hello_ms * NS_PER_MS)
			return i;
	return -1;
}

uint64_t turns_next_ns(const struct turns *t, uint64_t hello_ms)
{
	uint64_t next = 0, end;

	for (int i = 0; i < TURNS_WAIT_MAX; i++) {
		if (!t->wait[i].used)
			continue;
		end = t->wait[i].since_ns + hello_ms * NS_PER_MS;
		if (!next || end < next)
			next = end;
	}
	return next;
}
