// SPDX-License-Identifier: BSD-2-Clause
/*
 * busy - every client but the one being served is answered "busy" at
 * once (busy.h). The thread touches only the listeners, the sockets it
 * answered and struct busy; the session never touches the listeners
 * while it runs, but rdma_cm's for its data QPs (busy_cm).
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/log.h"
#include "lib/stop.h"
#include "lib/timer.h"
#include "rdma/cm.h"
#include "rdma/ctrl_tcp.h"
#include "run/session/busy.h"
#include "run/session/session_ctx.h"
#include "spec/limit.h"
#include "spec/turns.h"

#define BUSY_POLL_MS 100
#define BUSY_LINGER_MS 2000       /* an answered socket: then closed */
#define BUSY_FORGET_NS (3 * NS_PER_S) /* a waiter that stopped asking */

void busy_init(struct busy *z, struct session *s)
{
	memset(z, 0, sizeof(*z));
	pthread_mutex_init(&z->lock, NULL);
	pthread_mutex_init(&z->cm_lock, NULL);
	z->s = s;
	z->tcp_fd = -1;
	pace_init(&z->pace);
	s->busy = z;
	for (unsigned int i = 0; i < BUSY_LINGER_MAX; i++)
		z->linger[i].fd = -1;
}

/* "ADDR:PORT" (or "[v6]:PORT") without the port: a client's identity. */
static void busy_host(const char *addr, char *host, size_t len)
{
	const char *colon = strrchr(addr, ':');
	size_t n = colon ? (size_t)(colon - addr) : strlen(addr);

	snprintf(host, len, "%.*s", (int)n, addr);
}

/* addr's place in line: 1 + those told busy before it and still asking.
 * Under z->lock. */
static unsigned int busy_place(struct busy *z, const char *addr,
			       uint64_t now_ns)
{
	struct busy_waiter *me = NULL, *oldest = &z->line[0];
	unsigned int i, place = 1;
	char host[64];

	busy_host(addr, host, sizeof(host));
	for (i = 0; i < BUSY_LINE_MAX; i++) {
		struct busy_waiter *w = &z->line[i];

		if (w->addr[0] && now_ns - w->last_ns > BUSY_FORGET_NS)
			w->addr[0] = '\0';
		if (w->addr[0] && !strcmp(w->addr, host))
			me = w;
		if (!w->addr[0] || w->last_ns < oldest->last_ns)
			oldest = w;
	}
	if (!me) {
		me = oldest; /* a free entry, else the one quiet longest */
		snprintf(me->addr, sizeof(me->addr), "%s", host);
		me->first_ns = now_ns;
	}
	me->last_ns = now_ns;
	for (i = 0; i < BUSY_LINE_MAX; i++)
		if (z->line[i].addr[0] && z->line[i].first_ns < me->first_ns)
			place++;
	return place;
}

/* A waiter still asking at now_ns (under z->lock). */
static bool busy_live(const struct busy_waiter *w, uint64_t now_ns)
{
	return w->addr[0] && now_ns - w->last_ns <= BUSY_FORGET_NS;
}

bool busy_first(struct session *s, const char *addr)
{
	struct busy *z = s->busy;
	uint64_t now_ns = timer_now_ns(), mine = UINT64_MAX;
	bool others = false, ahead = false, slowed;
	char host[64];
	unsigned int i;

	if (!z)
		return true;
	busy_host(addr, host, sizeof(host));
	slowed = turns_slowed(&s->turns, host, now_ns);
	pthread_mutex_lock(&z->lock);
	if (now_ns < z->handed_until_ns && !strcmp(z->handed, host)) {
		pthread_mutex_unlock(&z->lock);
		return true;
	}
	for (i = 0; i < BUSY_LINE_MAX; i++)
		if (busy_live(&z->line[i], now_ns) &&
		    !strcmp(z->line[i].addr, host))
			mine = z->line[i].first_ns;
	for (i = 0; i < BUSY_LINE_MAX; i++) {
		const struct busy_waiter *w = &z->line[i];

		if (!busy_live(w, now_ns) || !strcmp(w->addr, host))
			continue;
		others = true;
		/* a slowed host (one that wastes its turns) holds no place */
		ahead |= w->first_ns < mine &&
			 !turns_slowed(&s->turns, w->addr, now_ns);
	}
	pthread_mutex_unlock(&z->lock);
	return !ahead && !(slowed && others);
}

void busy_hand_off(struct session *s, const char *addr)
{
	struct busy *z = s->busy;

	if (!z)
		return;
	pthread_mutex_lock(&z->lock);
	busy_host(addr, z->handed, sizeof(z->handed));
	z->handed_until_ns = timer_deadline_ns(LIMIT_HELLO_MS);
	pthread_mutex_unlock(&z->lock);
}

/* The host served now leaves the line: its place was this turn. */
static void busy_served(struct busy *z, const char *addr)
{
	char host[64];

	busy_host(addr, host, sizeof(host));
	pthread_mutex_lock(&z->lock);
	z->handed_until_ns = 0;
	for (unsigned int i = 0; i < BUSY_LINE_MAX; i++)
		if (!strcmp(z->line[i].addr, host))
			z->line[i].addr[0] = '\0';
	pthread_mutex_unlock(&z->lock);
}

void busy_watch_tcp(struct session *s, int fd)
{
	if (s->busy)
		s->busy->tcp_fd = fd;
}

void busy_watch_cm(struct session *s, struct cm_ep *listener)
{
	if (s->busy)
		s->busy->cm = listener;
}

bool busy_answer(struct session *s, const char *addr,
		 struct wire_connect *answer)
{
	struct busy *z = s->busy;
	uint64_t now_ns = timer_now_ns(), end_ns = 0;
	unsigned int place = 1;
	bool answered = true;
	char host[64];

	if (z) {
		busy_host(addr, host, sizeof(host));
		pthread_mutex_lock(&z->lock);
		end_ns = z->end_ns;
		place = busy_place(z, addr, now_ns);
		answered = pace_take(&z->pace, host, now_ns);
		if (answered)
			z->told++;
		else
			z->paced++;
		pthread_mutex_unlock(&z->lock);
	}
	*answer = (struct wire_connect){ .kind = answered ? WIRE_CONN_BUSY : 0,
		.qp_index = (uint16_t)place,
		.token = end_ns > now_ns ?
			 (end_ns - now_ns + NS_PER_S - 1) / NS_PER_S : 0 };
	return answered;
}

/* Close an answered socket now. */
static void busy_unlinger(struct busy_linger *l)
{
	close(l->fd);
	l->fd = -1;
}

/* Keep fd until its client has read the answer and hung up, or
 * BUSY_LINGER_MS: closing at once could reset the answer away. */
static void busy_linger_add(struct busy *z, int fd)
{
	struct busy_linger *slot = &z->linger[0];

	for (unsigned int i = 0; i < BUSY_LINGER_MAX; i++) {
		if (z->linger[i].fd < 0) {
			slot = &z->linger[i];
			break;
		}
		if (z->linger[i].close_ns < slot->close_ns)
			slot = &z->linger[i];
	}
	if (slot->fd >= 0)
		busy_unlinger(slot);
	slot->fd = fd;
	slot->close_ns = timer_deadline_ns(BUSY_LINGER_MS);
}

/* Over its host's rate: fd closed at once with a reset (no answer, no
 * linger, no TIME_WAIT left here); its client retries as after any
 * reset. */
static void busy_drop(int fd)
{
	struct linger hard = { .l_onoff = 1, .l_linger = 0 };

	(void)setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, sizeof(hard));
	close(fd);
}

/* A TCP client (--oob tcp, --oob auto) on fd: an ERROR -EBUSY with the
 * text, unless its host is over its rate; fd is z's to close. */
static void busy_tell(struct busy *z, int fd, const char *peer)
{
	char text[WIRE_TEXT_MAX];
	struct wire_connect answer;
	struct ctrl c;

	if (!busy_answer(z->s, peer, &answer)) {
		busy_drop(fd);
		return;
	}
	wire_busy_text(&answer, text, sizeof(text));
	ctrl_init(&c);
	c.fd = fd;
	c.timeout_ms = BUSY_POLL_MS;
	if (!ctrl_setup_tcp(&c, NULL))
		(void)ctrl_tell(&c, -EBUSY, text);
	c.fd = -1; /* kept: lingers below */
	ctrl_destroy(&c);
	shutdown(fd, SHUT_WR);
	busy_linger_add(z, fd);
}

static void busy_tcp(struct busy *z)
{
	char peer[80];
	int fd;

	if (!ctrl_tcp_accept(z->tcp_fd, timer_deadline_ns(1), &fd, peer,
			     sizeof(peer)))
		busy_tell(z, fd, peer);
}

void busy_turn_away(struct session *s, int fd, const char *peer)
{
	if (s->busy && !s->busy->running)
		busy_tell(s->busy, fd, peer);
	else
		close(fd);
}

uint64_t busy_since(struct session *s, const char *addr)
{
	struct busy *z = s->busy;
	uint64_t first_ns = 0, now_ns = timer_now_ns();
	char host[64];

	if (!z)
		return 0;
	busy_host(addr, host, sizeof(host));
	pthread_mutex_lock(&z->lock);
	for (unsigned int i = 0; i < BUSY_LINE_MAX; i++) {
		const struct busy_waiter *w = &z->line[i];

		if (w->addr[0] && !strcmp(w->addr, host) &&
		    now_ns - w->last_ns <= BUSY_FORGET_NS)
			first_ns = w->first_ns;
	}
	pthread_mutex_unlock(&z->lock);
	return first_ns;
}

/* cm_turn_away's answer: ours; a data request (a stranger's: the
 * session takes its own, busy_cm) is said once a session. */
static void busy_cm_answer(void *arg, const char *peer,
			   const struct wire_connect *req,
			   struct wire_connect *answer)
{
	struct busy *z = arg;
	const char *ours = z->s->b->peer;

	if (req->kind == WIRE_CONN_DATA && !z->strays++)
		bench_warn("refused a data connection request from %s: it is "
			   "not one of %s's data connections; %s's session "
			   "goes on", peer, ours, ours);
	(void)busy_answer(z->s, peer, answer); /* kind 0: no answer */
}

/* Answered sockets: read what they send; close on hang-up or time. */
static void busy_linger_tick(struct busy *z, const struct pollfd *fds)
{
	uint64_t now_ns = timer_now_ns();
	char sink[256];

	for (unsigned int i = 0; i < BUSY_LINGER_MAX; i++) {
		struct busy_linger *l = &z->linger[i];

		if (l->fd < 0)
			continue;
		if (fds[i].revents &&
		    recv(l->fd, sink, sizeof(sink), MSG_DONTWAIT) <= 0 &&
		    errno != EAGAIN && errno != EWOULDBLOCK)
			busy_unlinger(l);
		else if (fds[i].revents & (POLLHUP | POLLERR))
			busy_unlinger(l);
		else if (now_ns >= l->close_ns)
			busy_unlinger(l);
	}
}

/* Every rdma_cm request waiting, unless the session took the listener. */
static void busy_cm_requests(struct busy *z, char *peer, size_t len)
{
	pthread_mutex_lock(&z->cm_lock);
	while (!z->cm_off && !cm_turn_away(z->cm, busy_cm_answer, z, peer, len))
		;
	pthread_mutex_unlock(&z->cm_lock);
}

void busy_cm(struct session *s, bool on)
{
	struct busy *z = s->busy;

	if (!z)
		return;
	pthread_mutex_lock(&z->cm_lock);
	z->cm_off = !on;
	pthread_mutex_unlock(&z->cm_lock);
}

/* The rdma_cm listener's channel to watch; -1 while the session owns it
 * (its events are the session's to take: polling them would spin). */
static int busy_cm_fd(struct busy *z)
{
	bool off;

	pthread_mutex_lock(&z->cm_lock);
	off = z->cm_off;
	pthread_mutex_unlock(&z->cm_lock);
	return !off && z->cm && z->cm->ch ? z->cm->ch->fd : -1;
}

static void *busy_main(void *arg)
{
	struct busy *z = arg;
	struct pollfd fds[2 + BUSY_LINGER_MAX];
	char peer[80];
	unsigned int i;

	while (!__atomic_load_n(&z->quit, __ATOMIC_ACQUIRE) && !stop_flag) {
		fds[0] = (struct pollfd){ .fd = z->tcp_fd, .events = POLLIN };
		fds[1] = (struct pollfd){ .fd = busy_cm_fd(z),
					  .events = POLLIN };
		for (i = 0; i < BUSY_LINGER_MAX; i++)
			fds[2 + i] = (struct pollfd){ .fd = z->linger[i].fd,
						      .events = POLLIN };
		if (poll(fds, 2 + BUSY_LINGER_MAX, BUSY_POLL_MS) < 0 &&
		    errno != EINTR)
			break;
		if (fds[0].revents & POLLIN)
			busy_tcp(z);
		if (fds[1].revents & POLLIN)
			busy_cm_requests(z, peer, sizeof(peer));
		busy_linger_tick(z, fds + 2);
	}
	return NULL;
}

static void busy_resume(struct busy *z)
{
	int ret;

	if (!z || z->running)
		return;
	__atomic_store_n(&z->quit, false, __ATOMIC_RELEASE);
	ret = pthread_create(&z->thread, NULL, busy_main, z);
	if (ret)
		bench_warn("cannot start the thread that answers other clients "
			   "\"busy\" (%s): they wait in the backlog instead",
			   strerror(ret));
	z->running = !ret;
}

static void busy_pause(struct busy *z)
{
	if (!z || !z->running)
		return;
	__atomic_store_n(&z->quit, true, __ATOMIC_RELEASE);
	pthread_join(z->thread, NULL);
	z->running = false;
}

void busy_expect(struct session *s, uint64_t end_ns)
{
	struct busy *z = s->busy;

	if (!z)
		return;
	pthread_mutex_lock(&z->lock);
	z->end_ns = end_ns;
	pthread_mutex_unlock(&z->lock);
}

void busy_begin(struct session *s)
{
	struct ctrl *c = &s->b->ctrl;

	c->hard_ns = timer_deadline_ns(LIMIT_HELLO_MS);
	c->hard_what = "its HELLO (5 s from connecting)";
	if (!s->busy)
		return;
	busy_served(s->busy, s->b->peer);
	s->busy->told = 0;
	s->busy->paced = 0;
	s->busy->strays = 0;
	busy_cm(s, true);
	busy_expect(s, c->hard_ns);
	busy_resume(s->busy);
}

void busy_end(struct session *s)
{
	struct busy *z = s->busy;
	const char *peer = s->b->peer;
	unsigned int i;

	if (!z)
		return;
	busy_pause(z);
	for (i = 0; i < BUSY_LINGER_MAX; i++)
		if (z->linger[i].fd >= 0)
			busy_unlinger(&z->linger[i]);
	if (z->told)
		bench_info("told %u connection(s) \"busy\" while %s was "
			   "served", z->told, peer[0] ? peer :
			   "a client");
	if (z->paced)
		bench_info("closed %u more connection(s) without an answer: "
			   "their hosts asked more than %llu times a second",
			   z->paced, PACE_PER_S);
	z->told = 0;
	z->paced = 0;
}
