/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fabric_barrier - the rounds' barrier of ib_fabric, over our own TCP
 * control-channel sockets (rdma/ctrl_tcp.c), so a launcher (mpirun, srun,
 * an Indexed Job) is only a launcher. Rank 0 listens on the barrier port;
 * every other rank connects to it (retrying until the deadline: ranks
 * start in any order) and sends its rank and the address its peers are to
 * use for its links (found on the node itself:
 * fabric/live/fabric_addr.c); once all have joined, rank 0 sends every
 * rank the table of addresses (each checked as a numeric IP where it
 * arrives). At the end of a round each
 * rank sends one byte, and rank 0 answers every rank once all have.
 */
#ifndef RDMABENCH_FABRIC_LIVE_FABRIC_BARRIER_H
#define RDMABENCH_FABRIC_LIVE_FABRIC_BARRIER_H

#include <stdint.h>

#define FABRIC_ADDR_LEN 48 /* a numeric IP, NUL included */

struct fabric_barrier {
	unsigned int rank, nodes;
	int *fds; /* rank 0: one a peer rank; others: fds[0] */
	char (*addrs)[FABRIC_ADDR_LEN]; /* after open: each rank's address */
};

/*
 * Join the barrier: rank 0 at port on every address, the others at
 * addr0:port, until deadline_ns, each bringing mine (its numeric data
 * address). The join is itself the first barrier; then b->addrs holds
 * every rank's address. Returns 0 or -errno (logged, naming the ranks
 * that did not come).
 */
int fabric_barrier_open(struct fabric_barrier *b, unsigned int rank,
			unsigned int nodes, const char *addr0, uint16_t port,
			const char *mine, uint64_t deadline_ns);

/* Wait until every rank has reached this point, or deadline_ns. */
int fabric_barrier_wait(struct fabric_barrier *b, uint64_t deadline_ns);

void fabric_barrier_close(struct fabric_barrier *b);

#endif
