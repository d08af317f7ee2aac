/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * session_ops - a rendezvous backend: how the control channel and the
 * data QPs come up. session.c holds the one flow (HELLO, data set-up,
 * connect data QPs, exchange buffers, sizes, goodbye, --persistent) and
 * picks a backend from a table by --oob; the backends (session_cm.c,
 * session_tcp.c, and session_auto.c, which reaches the peer by TCP and
 * then hands the session to one of the other two: b->via) know nothing
 * of the flow. Every op returns 0 or -errno, logged, unless said
 * otherwise.
 */
#ifndef RDMABENCH_RUN_SESSION_OPS_H
#define RDMABENCH_RUN_SESSION_OPS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "run/ctx.h"

struct session_ops {
	const char *name;        /* the header's rendezvous line */
	const char *port_what;   /* "port" or "TCP port", for messages */
	const char *listen_note; /* after the version in "waiting for..." */
	const char *retry_hint;  /* what to check when no server answers */
	bool log_any;            /* the flow logs every failure of attempt */

	/*
	 * The device, before the control channel: opened here, or taken
	 * from the connection later (then nothing to do). Server: again
	 * for each client, as the last one's is released.
	 */
	int (*open)(struct bench_ctx *b);

	/* Client: one attempt at the control channel, until deadline_ns.
	 * A retryable failure is not logged; others are unless log_any. */
	int (*attempt)(struct bench_ctx *b, uint64_t deadline_ns);
	/* Client: the data QPs, connected to the server's. */
	int (*connect_data)(struct bench_ctx *b);

	/* Server: listen on --port; unlisten undoes it. */
	int (*listen)(struct bench_ctx *b);
	void (*unlisten)(struct bench_ctx *b);
	/* Server: the next client's control channel until deadline_ns
	 * (0: until stop_flag; -ETIMEDOUT, not logged); b->peer names it. */
	int (*accept_ctrl)(struct bench_ctx *b, uint64_t deadline_ns);
	/* Server: the client's data QPs, connected to ours. */
	int (*accept_data)(struct bench_ctx *b);
};

extern const struct session_ops session_cm_ops;   /* session_cm.c */
extern const struct session_ops session_tcp_ops;  /* session_tcp.c */
extern const struct session_ops session_auto_ops; /* session_auto.c */

/*
 * session_tcp.c, for --oob auto too: open the device dev (or netdev's;
 * both empty: the first one) for the TCP control channel, which then owns
 * it; b->port is the port to use (netdev: its own). 0 or -errno, logged.
 */
int session_tcp_open(struct bench_ctx *b, const char *dev,
		     const char *netdev);

/*
 * session_tcp.c, server: the next TCP client until deadline_ns (probes
 * skipped) and its first message: a LOCATE (--oob auto: *located, its
 * kind in *want) or a HELLO (--oob tcp: *want any), which stays to be
 * read. 0 or -errno (a timeout -ETIMEDOUT, not logged).
 */
int session_tcp_accept(struct bench_ctx *b, uint64_t deadline_ns,
		       enum wire_data_kind *want, bool *located);

/* session_tcp.c: the GID of b->port for the raw QPs (-x, else the best
 * RoCEv2 one), said in a "data path:" line. 0 or -errno, logged. */
int session_tcp_gid(struct bench_ctx *b);

/*
 * session_tcp.c, for every server listener: --bind as an address (*out
 * points into *sa), or NULL without --bind (every address). 0, or
 * -EINVAL (logged: not an IP address).
 */
int session_bind_addr(const struct bench_ctx *b, struct sockaddr_storage *sa,
		      const struct sockaddr **out);

/* session_tcp.c: a listener's err as the run's: with --bind, an address
 * that is not this host's (or no RDMA device's) is the user's (-EINVAL,
 * exit 2); else err. */
int session_bind_err(const struct bench_ctx *b, int err);

#endif
