/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * busy - a server that serves one client at a time answers every other
 * at once: while a session runs, a thread of its own takes each new
 * connection on the listeners (TCP and rdma_cm) and refuses it with
 * "busy", the current session's latest end and the newcomer's place in
 * line; the client retries within its --connect-timeout. Nobody waits in
 * a backlog behind a client that holds the server. docs/trust.md.
 */
#ifndef RDMABENCH_RUN_SESSION_BUSY_H
#define RDMABENCH_RUN_SESSION_BUSY_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "spec/pace.h"
#include "spec/wire.h"

struct cm_ep;
struct session;

#define BUSY_LINE_MAX 16   /* addresses remembered for their place */
#define BUSY_LINGER_MAX 16 /* answered sockets waiting to be closed */

struct busy_waiter {
	char addr[64];      /* its IP, without the port */
	uint64_t first_ns;  /* told busy first */
	uint64_t last_ns;   /* told busy last */
};

struct busy_linger {
	int fd;
	uint64_t close_ns;
};

struct busy {
	pthread_t thread;
	bool running;
	bool quit;                  /* the thread's own stop (atomics) */
	pthread_mutex_t cm_lock;    /* cm_off, and each rdma_cm refusal */
	bool cm_off;                /* rdma_cm's listener is the session's */
	pthread_mutex_t lock;       /* end_ns */
	uint64_t end_ns;            /* the session's latest end */
	struct session *s;          /* the session it guards; read-only */
	int tcp_fd;                 /* the TCP listener; -1: none */
	struct cm_ep *cm;           /* the rdma_cm listener; NULL: none */
	unsigned int told;          /* clients told busy this session */
	unsigned int strays;        /* data requests refused this session */
	unsigned int paced;         /* closed unanswered this session */
	struct pace pace;           /* answers a host may have (z->lock) */
	char handed[64];            /* a host sent on to rdma_cm (z->lock) */
	uint64_t handed_until_ns;   /* its turn waits for it until then */
	struct busy_waiter line[BUSY_LINE_MAX];
	struct busy_linger linger[BUSY_LINGER_MAX];
};

/* Server: once, before it listens (s->busy then points to z). */
void busy_init(struct busy *z, struct session *s);

/* The listeners whose newcomers are answered, set as each backend
 * listens (-1, NULL: none; as it stops). No-op without s->busy. */
void busy_watch_tcp(struct session *s, int fd);
void busy_watch_cm(struct session *s, struct cm_ep *listener);

/*
 * A client's control connection is in (b->peer names it): its session
 * starts, with LIMIT_HELLO_MS for the HELLO (b->ctrl's hard limit), its
 * host leaves the line, and every other client is told busy from now on
 * (not without s->busy).
 */
void busy_begin(struct session *s);

/* The session's latest end moved (the HELLO set it). */
void busy_expect(struct session *s, uint64_t end_ns);

/*
 * rdma_cm's data connections come on the listener: from before the
 * HELLO's answer until they are in, the session takes the rdma_cm
 * listener's requests itself (busy_cm(s, false)); then it hands it back
 * (busy_cm(s, true)). Once busy_cm(s, false) returns, the thread takes
 * no more of them.
 */
void busy_cm(struct session *s, bool on);

/* The answer for a client that is not this session's (the thread's, and
 * session_cm's for a control request among the data ones); false: its
 * host is over its rate (spec/pace.h): refuse it without an answer
 * (*answer's kind 0), which costs the server next to nothing. Its place
 * in line is kept either way. */
bool busy_answer(struct session *s, const char *addr,
		 struct wire_connect *answer);

/* Between sessions (the thread paused): tell a client waiting in the
 * server's line (spec/turns.h) busy on fd, which this then owns. */
void busy_turn_away(struct session *s, int fd, const char *peer);

/*
 * Between sessions: may addr's host ("ADDR:PORT") take the turn now?
 * No while another host told busy before it still asks (its place was
 * first: it is asking again within the second) and is not slowed, nor
 * while its own source is slowed (spec/turns.h) and any other host still
 * asks. rdma_cm's
 * requests cannot wait in a line of the server's, so this orders them:
 * the rest are told busy, with their place. Hosts are the identity: two
 * clients of one host share one place.
 */
bool busy_first(struct session *s, const char *addr);

/* The client on addr has the turn but comes again over rdma_cm (--oob
 * auto's iWARP client): its request there is first for LIMIT_HELLO_MS. */
void busy_hand_off(struct session *s, const char *addr);

/* When addr's host ("ADDR:PORT") was first told busy, if it still asks;
 * 0: not in line. Its place in the server's line. */
uint64_t busy_since(struct session *s, const char *addr);

/* The session is over: stop answering; say how many were told. */
void busy_end(struct session *s);

#endif
