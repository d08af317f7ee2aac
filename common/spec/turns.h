/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * turns - whose turn it is at a server between sessions: the server
 * keeps the connections waiting for a turn in a line of its own (not the
 * kernel's backlog order), and a connection is served only once its
 * first message is whole; the first in line among those is served first.
 * A connection that ends without one (or without a valid HELLO, or the
 * key's proof) loses its place, and its source is slowed: it is served
 * after everyone else while its back-off lasts (doubling, capped). Pure:
 * the caller owns the sockets, indexed as the slots here. docs/trust.md.
 */
#ifndef RDMABENCH_SPEC_TURNS_H
#define RDMABENCH_SPEC_TURNS_H

#include <stdbool.h>
#include <stdint.h>

#define TURNS_WAIT_MAX 16          /* connections waiting at once */
#define TURNS_SRC_MAX 32           /* sources remembered as slowed */
#define TURNS_HOST_MAX 64          /* an address, without its port */
#define TURNS_BACKOFF_MIN_MS 250ULL
#define TURNS_BACKOFF_MAX_MS 8000ULL

struct turns_wait {
	bool used;
	bool ready;                 /* its first message is whole */
	uint64_t since_ns;          /* connected (its hard limit runs) */
	uint64_t queued_ns;         /* its place: since, or told busy first */
	char host[TURNS_HOST_MAX];
};

struct turns_src {
	char host[TURNS_HOST_MAX];  /* "": free */
	unsigned int strikes;
	uint64_t until_ns;          /* slowed until */
};

struct turns {
	struct turns_wait wait[TURNS_WAIT_MAX];
	struct turns_src src[TURNS_SRC_MAX];
};

void turns_init(struct turns *t);

/*
 * A connection from host joins the line (queued_ns: when its source was
 * told busy first, if before now; else 0). Its slot; *evict: a slot the
 * caller must close first (the line was full: a connection that has
 * not sent a whole message, from a slowed source first, then the
 * oldest; its source is slowed), or -1.
 */
int turns_add(struct turns *t, const char *host, uint64_t now_ns,
	      uint64_t queued_ns, int *evict);

void turns_free(struct turns *t, int slot);

/* Its source ended a connection without a turn's worth: slowed for
 * TURNS_BACKOFF_MIN_MS, doubling each time, at most TURNS_BACKOFF_MAX_MS. */
void turns_strike(struct turns *t, const char *host, uint64_t now_ns);

/* Its source sent a valid HELLO: no longer slowed. */
void turns_pardon(struct turns *t, const char *host);

bool turns_slowed(const struct turns *t, const char *host, uint64_t now_ns);

/* The slot to serve now: ready, from a source not slowed if any, first
 * in line (queued, then connected); -1: none ready. */
int turns_pick(const struct turns *t, uint64_t now_ns);

/* A used slot past its hard limit (hello_ms from connecting), or -1. */
int turns_expired(const struct turns *t, uint64_t now_ns, uint64_t hello_ms);

/* The soonest hard limit of a waiting connection; 0: none waits. */
uint64_t turns_next_ns(const struct turns *t, uint64_t hello_ms);

#endif
