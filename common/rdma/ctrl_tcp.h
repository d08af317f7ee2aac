/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ctrl_tcp - the TCP transport of the control channel (--oob tcp): the
 * socket's set-up with deadlines, and whole-message I/O on it.
 */
#ifndef RDMABENCH_RDMA_CTRL_TCP_H
#define RDMABENCH_RDMA_CTRL_TCP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "rdma/ctrl.h"

/*
 * Server: listen on TCP port, at addr (its port ignored; --bind) or, addr
 * NULL, at every address. Returns 0 or -errno (logged; an address not of
 * this host is -EADDRNOTAVAIL).
 */
int ctrl_tcp_listen(const struct sockaddr *addr, uint16_t port, int *fd_out);

/* The local port of socket fd (the one -p 0 got); 0 when unknown. */
uint16_t ctrl_tcp_port_of(int fd);

/*
 * Server: accept one client until deadline_ns (0: until stop_flag).
 * Returns 0 with *fd_out and the peer's "ADDR:PORT" in peer.
 */
int ctrl_tcp_accept(int listen_fd, uint64_t deadline_ns, int *fd_out,
		    char *peer, size_t peer_len);

/*
 * Server, without waiting: is the first message on fd whole (peeked, not
 * read)? 1: yes (or not ours: reading it says who it is), 0: not yet
 * (*partial: a part of it is there: fd stays readable, so poll it for
 * the hang-up only and look again), -ENOTCONN: it closed (or hung up,
 * hup) before sending it whole.
 */
int ctrl_tcp_first_whole(int fd, bool hup, bool *partial);

/* Has the peer closed fd (nothing left to read but the end)? */
bool ctrl_tcp_peer_closed(int fd);

/*
 * Client: one attempt to connect to host (a name or an IP), bounded by
 * deadline_ns. Returns 0 with *fd_out, or -ECONNREFUSED, -ETIMEDOUT,
 * -EHOSTUNREACH ... (not logged: the caller retries).
 */
int ctrl_tcp_connect(const char *host, uint16_t port, uint64_t deadline_ns,
		     int *fd_out);

/*
 * The control channel's TCP transport: whole messages on c->fd
 * (MSG_NOSIGNAL: a dead peer is -EPIPE); a receive without a deadline is
 * -EAGAIN unless a message has started to arrive.
 */
extern const struct ctrl_transport ctrl_tcp_transport;

#endif
