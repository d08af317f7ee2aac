/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * session_ops - a rendezvous backend: how the control channel and the
 * data QPs come up. session.c holds the one flow (HELLO, data set-up,
 * connect data QPs, exchange buffers, sizes, goodbye, --persistent) and
 * picks a backend from a table by --oob; the backends (session_cm.c,
 * session_tcp.c, and session_auto.c, which reaches the peer by TCP and
 * then hands the session to one of the other two) know nothing of the
 * flow.
 *
 * A backend's state is a struct of its own that embeds struct
 * session_be (the flow's handle on it): session_be_new() allocates it
 * (size and be_off, SESSION_BE_OF), and each op recovers the backend's
 * struct with container_of, as rdma-core's providers do (rxe.h). An op
 * a backend leaves NULL gets the default of session_be.c, the one place
 * defaults live (rdma-core's dummy_ops.c). Every op returns 0 or -errno,
 * logged, unless said otherwise.
 */
#ifndef RDMABENCH_RUN_SESSION_SESSION_OPS_H
#define RDMABENCH_RUN_SESSION_SESSION_OPS_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

struct bench_ctx;
struct session;
struct session_be;

struct session_ops {
	const char *name;        /* the header's rendezvous line */
	const char *port_what;   /* "port" or "TCP port", for messages */
	const char *listen_note; /* after the version in "waiting for..." */
	const char *retry_hint;  /* what to check when no server answers */
	bool log_any;            /* the flow logs every failure of attempt */
	size_t size;             /* the backend's struct (SESSION_BE_OF) */
	size_t be_off;           /* where its struct session_be lies in it */

	/* The state just allocated, zeroed (be->s set). NULL: nothing. */
	int (*init)(struct session_be *be);
	/* Before the state is freed. NULL: nothing. */
	void (*fini)(struct session_be *be);

	/*
	 * The device, before the control channel: opened here, or taken
	 * from the connection later (NULL: nothing to do). Server: again
	 * for each client, as the last one's is released.
	 */
	int (*open)(struct session_be *be);

	/* Client: one attempt at the control channel, until deadline_ns.
	 * A retryable failure is not logged; others are unless log_any. */
	int (*attempt)(struct session_be *be, uint64_t deadline_ns);
	/* Client: the data QPs, connected to the server's. */
	int (*connect_data)(struct session_be *be);

	/* Server: listen on --port; unlisten undoes it. */
	int (*listen)(struct session_be *be);
	void (*unlisten)(struct session_be *be);
	/* Server: the next client's control channel until deadline_ns
	 * (0: until stop_flag; -ETIMEDOUT, not logged); b->peer names it. */
	int (*accept_ctrl)(struct session_be *be, uint64_t deadline_ns);
	/* Server: the client's data QPs, connected to ours. */
	int (*accept_data)(struct session_be *be);

	/*
	 * Once the control channel is up, either side: the backend that
	 * carries the session on (--oob auto: tcp's or cm's, by what the
	 * peer is). NULL: this one. Never fails.
	 */
	struct session_be *(*handoff)(struct session_be *be);
};

/* In a backend's ops: its state is type, whose member is the handle. */
#define SESSION_BE_OF(type, member) \
	.size = sizeof(type), .be_off = offsetof(type, member)

/* The flow's handle on a backend's state. */
struct session_be {
	struct session_ops ops;  /* the backend's, every NULL filled */
	struct session *s;       /* the session it serves */
};

/*
 * A backend's state for session s: allocated, its ops' NULLs filled with
 * the defaults, init run. *out: its handle. 0 or -errno (logged).
 */
int session_be_new(struct session *s, const struct session_ops *ops,
		   struct session_be **out);

/* fini, then free the state; be may be NULL. */
void session_be_free(struct session_be *be);

/*
 * For every server listener: --bind as an address (*out points into
 * *sa), or NULL without --bind (every address). 0, or -EINVAL (logged:
 * not an IP address).
 */
int session_bind_addr(const struct bench_ctx *b, struct sockaddr_storage *sa,
		      const struct sockaddr **out);

/*
 * A port clash in the kernel's TCP stack, where iWARP over it (siw) binds
 * the port rdma_cm drew for a connection: EADDRINUSE when a socket holds
 * it, EADDRNOTAVAIL when the port pair is still taken (an earlier
 * connection's TIME_WAIT on the same pair) or no ephemeral port is left.
 * Another attempt draws another port.
 */
static inline bool session_port_clash(int err)
{
	return err == -EADDRINUSE || err == -EADDRNOTAVAIL;
}

/* A listener's err as the run's: with --bind, an address that is not
 * this host's (or no RDMA device's) is the user's (-EINVAL, exit 2); else
 * err. Not logged. */
int session_bind_err(const struct bench_ctx *b, int err);

#endif
