/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xfer - the hot loops: bandwidth (a window of tx_depth operations, one
 * completion requested every cq_mod) and latency (ping-pong). The verb's
 * opcode comes from the verb table in bench.h; nothing here asks which verb
 * it runs.
 *
 * Nothing waits forever: a loop that sees no progress for io_timeout_ns
 * returns -ETIMEDOUT; a bench_stop returns -EINTR.
 */
#ifndef RDMABENCH_XFER_H
#define RDMABENCH_XFER_H

#include <stdbool.h>
#include <stdint.h>

#include "bench.h"
#include "conn.h"
#include "ctrl.h"

struct xfer {
	struct conn *conn;
	struct ctrl *ctrl;       /* heartbeats and the peer's liveness */
	enum bench_verb verb;
	uint64_t io_timeout_ns;
};

struct xfer_bw_out {
	uint64_t msgs;
	uint64_t bytes;
	uint64_t elapsed_ns;     /* first post -> last completion */
	uint64_t peak_bytes;     /* the fastest of up to 16 equal slices */
	uint64_t peak_ns;
};

/* Client: run iters operations of size bytes. Returns 0 or -errno. */
int xfer_bw_run(const struct xfer *x, uint64_t size, uint64_t iters,
		uint32_t tx_depth, uint32_t cq_mod, struct xfer_bw_out *out);

/* Server: post the receive for the FIN that ends a bandwidth run. */
int xfer_fin_arm(const struct xfer *x);

/* Client: send the FIN (after the run's last completion). */
int xfer_fin_send(const struct xfer *x, const struct wire_fin *fin);

/*
 * Server: wait for the FIN while the client's heartbeats keep coming.
 * Returns 0 with *fin, or -errno.
 */
int xfer_fin_wait(const struct xfer *x, struct wire_fin *fin);

/*
 * Ping-pong iters times. The initiator (client) sends first and records
 * iters round trips; the responder records iters - 1 (from each answer to
 * the next ping). samples_ns must hold iters entries; *n_out is set.
 */
int xfer_lat_run(const struct xfer *x, bool initiator, uint64_t size,
		 uint64_t iters, uint64_t *samples_ns, uint64_t *n_out);

#endif
