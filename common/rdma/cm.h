/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cm - rdma_cm rendezvous: listen, accept, connect, each bounded by a
 * deadline. The path, the device and (on RoCE) the GID follow from the IP
 * in use, so no -x is needed. Every connection carries a WIRE_CONNECT in its
 * private data, so a peer of another protocol version is refused with a
 * message on both sides before any QP moves.
 */
#ifndef RDMABENCH_RDMA_CM_H
#define RDMABENCH_RDMA_CM_H

#include <stdbool.h>
#include <stdint.h>
#include <rdma/rdma_cma.h>

#include "spec/wire.h"

/*
 * QP attributes perftest's options ask rdma_cm for: -T (the TOS, set
 * before the route is resolved), -u (the ack timeout) and --retry_count
 * (a connection parameter). Zeroed: rdma_cm's defaults and 7 retries.
 */
struct cm_attr {
	bool has_tos;
	uint8_t tos;
	bool has_timeout;
	uint8_t timeout;
	bool has_retry;
	uint8_t retry_count;
	/* -o: reads/atomics this side's QPs keep on the wire as initiator
	 * (capped by the device); 0: the device's most */
	uint8_t out_reads;
	const char *src;    /* --source_ip: connect from it; NULL/"": route's */
};

/* One rdma_cm id with its own event channel (so its events never mix). */
struct cm_ep {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	bool peer_gone;     /* a DISCONNECTED event was seen */
	struct wire_connect busy; /* cm_connect's -EBUSY: the server's answer */
	struct cm_attr attr; /* set by the caller before resolve or accept */
};

/*
 * Server: listen on port tcp_port (listener->attr: TOS), at addr (its
 * port ignored; --bind) or, addr NULL, at every IPv4 address. An address
 * not of this host, or of no RDMA device, is refused (logged).
 */
int cm_listen(const struct sockaddr *addr, uint16_t tcp_port,
	      struct cm_ep *listener);

/* The port a listener took (-p 0: the one rdma_cm picked). */
uint16_t cm_listen_port(const struct cm_ep *listener);

/*
 * Server: wait for a connection request until deadline_ns (0: until
 * stop_flag). Requests that are not ours, or of another protocol version,
 * are rejected with a log line and waiting goes on. On success *ep holds the
 * new id (on its own channel) and *req its CONNECT message.
 */
int cm_get_request(struct cm_ep *listener, uint64_t deadline_ns,
		   struct cm_ep *ep, struct wire_connect *req);

/*
 * Server, busy with another client: the next connection request waiting
 * on the listener, if any, refused at once with the CONNECT that
 * answer(arg, its address, its CONNECT: kind 0 if it had none) fills (a
 * WIRE_CONN_BUSY one; kind 0: no answer at all); its address in peer. Non-blocking: 0 with one
 * refused, -EAGAIN with none, or -errno. Not logged.
 */
int cm_turn_away(struct cm_ep *listener,
		 void (*answer)(void *arg, const char *peer,
				const struct wire_connect *req,
				struct wire_connect *answer),
		 void *arg, char *peer, size_t len);

/* Server: refuse ep's request with answer as the reason (kind 0: none);
 * ep is destroyed. */
void cm_reject_with(struct cm_ep *ep, const struct wire_connect *answer);

/* Server: accept ep (its QP already created) and wait for ESTABLISHED. */
int cm_accept(struct cm_ep *ep, uint64_t deadline_ns);

/* Server: refuse a request; ep is destroyed. */
void cm_reject(struct cm_ep *ep);

/*
 * Client: resolve addr:tcp_port (a name or an IP) into ep->id, which then
 * has its device (ep->id->verbs). One attempt, bounded by deadline_ns.
 * A name that does not resolve (yet: resolve_retryable) is -EHOSTUNREACH,
 * not logged: the caller retries it.
 */
int cm_resolve(const char *addr, uint16_t tcp_port, uint64_t deadline_ns,
	       struct cm_ep *ep);

/*
 * Client: connect the resolved ep (its QP already created), sending req.
 * Returns 0 once ESTABLISHED; -ECONNREFUSED when nobody listens or the
 * server refused; -EBUSY when it serves another client (ep->busy: its
 * answer); -EPROTONOSUPPORT on a version mismatch (logged).
 */
int cm_connect(struct cm_ep *ep, const struct wire_connect *req,
	       uint64_t deadline_ns);

/*
 * Non-blocking: -ECONNRESET when the peer disconnected (its process ended
 * or it closed), 0 otherwise.
 */
int cm_check_peer(struct cm_ep *ep);

/* Disconnect (when connected) and destroy the id, its QP and channel. */
void cm_close(struct cm_ep *ep);

/* The "ADDR:PORT" text of the peer, for messages. */
const char *cm_peer_str(const struct cm_ep *ep, char *buf, size_t len);

/* The local IP text. */
const char *cm_local_str(const struct cm_ep *ep, char *buf, size_t len);

#endif
