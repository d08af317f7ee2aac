/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ctrl - the control channel: wire messages between client and server,
 * before and between the test traffic. Two transports behind one API:
 * SEND/RECV on a small RC QP connected through rdma_cm (the default), or a
 * TCP socket (--oob tcp: fabrics whose RDMA interface has no IP, or a
 * server reached by a name on another network). Every send and receive has
 * a deadline; a peer that goes away is noticed at once.
 */
#ifndef RDMABENCH_RDMA_CTRL_H
#define RDMABENCH_RDMA_CTRL_H

#include <stdbool.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#include "rdma/cm.h"
#include "rdma/mem.h"
#include "spec/wire.h"

#define CTRL_RECV_SLOTS 8

struct ctrl;

/*
 * A transport of the control channel: whole messages with deadlines. The
 * RC QP of rdma_cm (ctrl.c) and TCP (ctrl_tcp.c, --oob tcp); framing,
 * errors and heartbeats are ctrl.c's, over either.
 */
struct ctrl_transport {
	/* Whole message out by deadline_ns. 0 or -errno, not logged
	 * unless the transport itself failed. */
	int (*send)(struct ctrl *c, const uint8_t *buf, size_t len,
		    uint64_t deadline_ns);
	/* The next whole message; deadline_ns 0: -EAGAIN if none yet. */
	int (*recv)(struct ctrl *c, uint8_t *buf, size_t *len,
		    uint64_t deadline_ns);
	/* The peer is known to have left (cheap: ctrl_poll asks it). */
	bool (*gone)(struct ctrl *c);
	/* Look now whether the peer has hung up (ctrl_send_error's wait). */
	bool (*closed)(struct ctrl *c);
	/* A connection is there to carry a message. */
	bool (*up)(const struct ctrl *c);
	/* The peer's "ADDR:PORT", for messages. */
	const char *(*peer)(const struct ctrl *c, char *buf, size_t len);
};

struct ctrl {
	const struct ctrl_transport *tr; /* QP until ctrl_setup_tcp() */
	struct cm_ep ep;            /* QP transport: its rdma_cm connection */
	int fd;                     /* TCP transport: the socket; -1: none */
	struct ibv_context *verbs;  /* the device of the run */
	bool own_verbs;             /* opened here (TCP transport): close it */
	struct ibv_pd *pd;          /* the run's PD: the data path uses it */
	struct ibv_cq *send_cq;
	struct ibv_cq *recv_cq;
	struct mem_buf mem;         /* CTRL_RECV_SLOTS + 1 slots */
	uint64_t timeout_ms;        /* for each send and receive */
	const char *peer_role;      /* "server" or "client", for messages */
	bool tcp_gone;              /* TCP transport: the peer closed */
	bool quiet_timeout;         /* ctrl_recv: a timeout is the caller's */
	bool has_pending;           /* a message put back by ctrl_unread() */
	bool error_sent;            /* ctrl_send_error() told the peer once */
	uint64_t peer_check_ns;     /* ctrl_poll: next look for a disconnect */
	/* Server: the hard limit of the phase the peer is in (0: none),
	 * which no message of the peer moves: ctrl_recv ends there, and so
	 * does the data path's watch (xfer_watch). hard_what names it. */
	uint64_t hard_ns;
	const char *hard_what;
	/* The text of the peer's last ERROR (a "busy" answer: the caller
	 * says it). */
	char peer_text[WIRE_TEXT_MAX];
	struct wire_msg pending;
};

/* The end of a wait that starts now: c->timeout_ms from now, or the hard
 * limit c->hard_ns where that is sooner. */
uint64_t ctrl_deadline_ns(const struct ctrl *c);

/* Before anything: no connection yet; the QP transport. */
void ctrl_init(struct ctrl *c);

/* QP transport: PD, CQs, QP and receive slots on c->ep.id. 0 or -errno. */
int ctrl_setup(struct ctrl *c);

/* TCP transport on c->fd (ctrl_tcp_transport): the PD on verbs (which
 * c now owns); verbs NULL: the transport only, no device yet. */
int ctrl_setup_tcp(struct ctrl *c, struct ibv_context *verbs);

/* Undo the setup and close the connection; accepts a partly built one. */
void ctrl_destroy(struct ctrl *c);

/* Send msg; wait until it is out. Returns 0 or -errno (logged; but
 * -EINTR, a stop, which the driver says). */
int ctrl_send(struct ctrl *c, const struct wire_msg *msg);

/* Tell a peer that is still there why we stop; failures are ignored. */
void ctrl_send_error(struct ctrl *c, int status, const char *text);

/* An ERROR (status, text) out by c->timeout_ms, without waiting for the
 * peer to read it (the caller lingers its own way). 0 or -errno, not
 * logged. */
int ctrl_tell(struct ctrl *c, int status, const char *text);

/*
 * Receive the next message, which must be of type `type` (0: any but
 * ERROR), by c->timeout_ms from now or c->hard_ns, whichever is first:
 * heartbeats and repeats are skipped but move neither. An ERROR from the
 * peer is logged (but -EBUSY: kept in peer_text) and returned as its status;
 * another type is -EPROTO; perftest's first bytes are -WIRE_EPERFTEST
 * (the peer is sent no ERROR then). Returns 0 or -errno (logged; but
 * -EINTR, a stop, which the driver says).
 */
int ctrl_recv(struct ctrl *c, uint16_t type, struct wire_msg *msg);

/*
 * Send msg, again every resend_ms, until the answer of type comes (into
 * *reply) or c->timeout_ms passes: on iWARP (siw) a message sent as the
 * connection is established can be lost. The peer ignores repeats
 * (ctrl_recv skips a HELLO or AUTH it did not ask for). 0 or -errno
 * (logged; an ERROR answer is the peer's status, as ctrl_recv).
 */
int ctrl_ask(struct ctrl *c, const struct wire_msg *msg, uint16_t type,
	     struct wire_msg *reply, unsigned int resend_ms);

/*
 * Non-blocking: 0 with a message, -EAGAIN when none is waiting,
 * -ECONNRESET when the peer has gone, or -errno.
 */
int ctrl_poll(struct ctrl *c, struct wire_msg *msg);

/*
 * After something failed: wait up to timeout_ms for the peer's ERROR (its
 * reason; other messages are dropped). Returns what it means here
 * (ctrl_peer_status, logged), -ECONNRESET when the peer went without one,
 * 0 when neither came.
 */
int ctrl_await_error(struct ctrl *c, unsigned int timeout_ms);

/*
 * The error a peer's ERROR message means here: corrupt data and another
 * protocol version are the same on both sides (its status); any other
 * failure of the peer (stopped, out of memory, a device it lacks) is, for
 * us, a lost peer (-ECONNABORTED), whichever rendezvous carried it.
 */
int ctrl_peer_status(const struct wire_msg *msg);

/*
 * Put msg back: the next ctrl_recv()/ctrl_poll() returns it. For a loop
 * that polls for heartbeats and meets the answer that follows the run.
 */
void ctrl_unread(struct ctrl *c, const struct wire_msg *msg);

/* Non-blocking: has the peer disconnected (or its process ended)? */
bool ctrl_peer_gone(struct ctrl *c);

#endif
