/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fabric_barrier - the rounds' barrier of ib_fabric, over our own TCP
 * control-channel sockets (rdma/ctrl_tcp.c), so a launcher (mpirun, srun,
 * an Indexed Job) is only a launcher. Rank 0 listens on the barrier port;
 * every other rank connects to it (retrying until the deadline: ranks
 * start in any order) and sends its rank. At the end of a round each rank
 * sends one byte, and rank 0 answers every rank once all have.
 */
#ifndef RDMABENCH_RUN_FABRIC_BARRIER_H
#define RDMABENCH_RUN_FABRIC_BARRIER_H

#include <stdint.h>

struct fabric_barrier {
	unsigned int rank, nodes;
	int *fds; /* rank 0: one a peer rank; others: fds[0] */
};

/*
 * Join the barrier: rank 0 at port on every address, the others at
 * addr0:port, until deadline_ns. The join is itself the first barrier.
 * Returns 0 or -errno (logged, naming the ranks that did not come).
 */
int fabric_barrier_open(struct fabric_barrier *b, unsigned int rank,
			unsigned int nodes, const char *addr0, uint16_t port,
			uint64_t deadline_ns);

/* Wait until every rank has reached this point, or deadline_ns. */
int fabric_barrier_wait(struct fabric_barrier *b, uint64_t deadline_ns);

void fabric_barrier_close(struct fabric_barrier *b);

#endif
