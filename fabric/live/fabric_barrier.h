/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fabric_barrier - the rounds' barrier of ib_fabric, over our own TCP
 * sockets, so a launcher (mpirun, srun, an Indexed Job) is only a
 * launcher. Rank 0 listens on the barrier port; every other rank connects
 * to it (retrying until the deadline: ranks start in any order) and joins
 * (fabric/join.h): rank 0 greets each connection with a challenge, the
 * rank answers with its rank, the address its peers are to use for its
 * links (found on the node itself: fabric/live/fabric_addr.c) and, when
 * the job has a key, its proof. Rank 0 reads every connection at once,
 * each with its own JOIN_ANSWER_MS (5 s) to answer: a silent or slow one
 * is dropped then and never holds up the others; each JOIN is judged
 * (join_judge): a wrong rank, proof or source, or a rank taken already,
 * is dropped and logged, and never evicts a rank that joined. Once all
 * have joined, rank 0 sends every rank the table of addresses (with a MAC
 * that rank checks when keyed). At the end of a round each rank sends one
 * byte, and rank 0 answers every rank once all have.
 */
#ifndef RDMABENCH_FABRIC_LIVE_FABRIC_BARRIER_H
#define RDMABENCH_FABRIC_LIVE_FABRIC_BARRIER_H

#include <stdint.h>

#include "fabric/hostlist.h"
#include "fabric/join.h"

#define FABRIC_ADDR_LEN JOIN_ADDR_LEN

struct fabric_barrier {
	unsigned int rank, nodes;
	int *fds; /* rank 0: one a peer rank; others: fds[0] */
	char (*addrs)[FABRIC_ADDR_LEN]; /* after open: each rank's address */
	uint8_t (*nonces)[JOIN_NONCE_LEN]; /* rank 0: each rank's nonce */
};

/* How to join. */
struct fabric_join_cfg {
	unsigned int rank;
	const struct hostlist *hl;   /* the nodes, in rank order */
	uint16_t port;               /* rank 0's barrier port */
	const char *mine;            /* this node's numeric data address */
	struct join_key key;         /* the job's key; .key NULL: none */
	uint64_t deadline_ns;        /* --timeout's end */
};

/*
 * Join the barrier: rank 0 at the port on every address, the others at
 * rank 0's address. The join is itself the first barrier; then b->addrs
 * holds every rank's address. Returns 0 or -errno (logged, naming the
 * ranks that did not come).
 */
int fabric_barrier_open(struct fabric_barrier *b,
			const struct fabric_join_cfg *c);

/* Wait until every rank has reached this point, or deadline_ns. */
int fabric_barrier_wait(struct fabric_barrier *b, uint64_t deadline_ns);

void fabric_barrier_close(struct fabric_barrier *b);

#endif
