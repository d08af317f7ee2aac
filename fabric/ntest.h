/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ntest - one rank's nccl-tests output (all_reduce_perf, all_gather_perf,
 * reduce_scatter_perf, alltoall_perf, sendrecv_perf ...) read line by line:
 * its table (size, count, type, redop, root, then time, algbw, busbw and
 * #wrong out of place and in place), its summary ("# Out of bounds
 * values", "# Avg bus bandwidth"), its version and devices, and through
 * doctor/nccl_log.c the NCCL_DEBUG=INFO lines among them (the transport).
 * Then the judgement: busbw at the large sizes against an expectation,
 * #wrong > 0 corrupt, a Socket transport a failure whatever the bandwidth.
 * Pure: no CUDA or verbs header.
 *
 * The format is nccl-tests' src/util.cu (writeResultHeader,
 * writeBenchmarkLinePreamble/Body, writeResultFooter; common.cu before
 * 2.14): columns are found by the header's names, so the per-iteration
 * columns (-I 1), timestamps (-S 1), "N/A" for #wrong (-c 0), the
 * in-place-only rows and the "error" column of nccl-tests before 2021 all
 * read. NCCL's own lines share stdout with the table, so a row may be
 * split by them ("      -1host:12:12 [0] NCCL INFO ..."): the pieces are
 * joined (docs/fabric.md, "nccl-tests").
 */
#ifndef RDMABENCH_FABRIC_NTEST_H
#define RDMABENCH_FABRIC_NTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "doctor/nccl_log.h"

#define NTEST_ROWS_MAX 128
#define NTEST_COLS 48
#define NTEST_TEXT 64
#define NTEST_LINE 1024
#define NTEST_REASON 512

enum ntest_place {
	NTEST_OOP,
	NTEST_IP,
	NTEST_PLACES
};

/* One half of a row: out of place or in place. */
struct ntest_half {
	bool have;
	double time_us, algbw, busbw; /* us, GB/s, GB/s */
	double wrong; /* #wrong; -1: "N/A" (no check) */
};

struct ntest_row {
	uint64_t size, count; /* bytes, elements */
	char type[16], redop[16];
	long root;
	struct ntest_half h[NTEST_PLACES];
};

/* What the header says each column is. */
enum ntest_col {
	NTEST_C_OTHER,
	NTEST_C_SIZE,
	NTEST_C_COUNT,
	NTEST_C_TYPE,
	NTEST_C_REDOP,
	NTEST_C_ROOT,
	NTEST_C_TIME,
	NTEST_C_ALGBW,
	NTEST_C_BUSBW,
	NTEST_C_WRONG,
};

struct ntest_out {
	char version[NTEST_TEXT]; /* "2.19.6" ("" before 2.17.4) */
	char test[NTEST_TEXT]; /* "all_reduce_perf" */
	unsigned int ranks; /* "#  Rank N Group G Pid ..." lines */
	unsigned int ngpus; /* "nGpus N": GPUs of one process */
	/* the header's columns: kind, place and end offset of each */
	unsigned int ncol;
	unsigned char col[NTEST_COLS], place[NTEST_COLS];
	unsigned int col_end[NTEST_COLS];
	struct ntest_row rows[NTEST_ROWS_MAX];
	size_t nrows;
	unsigned long dropped; /* rows past NTEST_ROWS_MAX or unread */
	bool have_oob, have_avg, concluded;
	long oob; /* "# Out of bounds values : N" */
	double avg_busbw; /* "# Avg bus bandwidth : X" */
	char pending[NTEST_LINE]; /* a row split by NCCL's lines */
	struct nccl_log nccl; /* the NCCL_DEBUG lines among it */
};

/* An empty output. */
void ntest_init(struct ntest_out *o);

/* Take one line (without or with its newline). */
void ntest_line(struct ntest_out *o, const char *line);

/* Every line of f, then the end. 0, or -EIO on a read error. */
int ntest_read(struct ntest_out *o, FILE *f);

/* The end of the output: a row still pending is read. */
void ntest_end(struct ntest_out *o);

/* The network NCCL used, as the gate sees it. */
enum ntest_net {
	NTEST_NET_UNKNOWN, /* no NCCL_DEBUG=INFO lines: not judged */
	NTEST_NET_NONE, /* NCCL lines, but no network chosen */
	NTEST_NET_IB, /* IB, GPUDirect RDMA where a path says */
	NTEST_NET_IB_NO_GDR, /* IB, some path without GDRDMA: a note */
	NTEST_NET_PLUGIN, /* a net plugin (OFI, IBext) */
	NTEST_NET_INTRA, /* every channel via P2P or SHM: no network */
	NTEST_NET_SOCKET, /* the silent fallback: a failure */
};

/* "IB", "Socket", ... */
const char *ntest_net_name(enum ntest_net n);

/*
 * The transport from NCCL's own lines: doctor/nccl_log.c's facts, the
 * channels first. Any channel via NET/Socket is Socket; every channel via
 * P2P or SHM (nccl_log_intra_node) is intra-node, whatever network NCCL
 * set up for other nodes; else "Using network Socket" is Socket, as
 * ib_doctor --nccl-log has it without the host (docs/doctor.md).
 */
enum ntest_net ntest_transport(const struct nccl_log *l);

/* How the collective's busbw is bounded by the network (docs/fabric.md). */
enum ntest_bound {
	NTEST_BOUND_NODE, /* ring collectives: the node's NICs, summed */
	NTEST_BOUND_NIC, /* sendrecv: one GPU's NIC */
	NTEST_BOUND_ALLTOALL, /* alltoall: the NICs x (GN-1)/(G^2 (N-1)) */
	NTEST_BOUND_NONE, /* unknown test: no derived expectation */
};

/* The bound of a test by its program's name ("all_reduce_perf"). */
enum ntest_bound ntest_bound_of(const char *test);

/* A node's network, for the derived expectation. */
struct ntest_nics {
	double sum_gbps; /* the active RDMA ports' data rates, summed */
	double max_gbps; /* the fastest one */
	unsigned int ports;
};

/*
 * The derived expectation in GB/s: fraction x the bound of this test for
 * nodes nodes of gpus ranks each, from the node's NICs; 0 when there is
 * none (one node: the network is not crossed; no NICs; unknown test).
 * The formula text goes to why.
 */
double ntest_derive(enum ntest_bound b, const struct ntest_nics *n,
		    unsigned int nodes, unsigned int gpus, double fraction,
		    char *why, size_t why_len);

enum ntest_verdict {
	NTEST_PASS,
	NTEST_BELOW, /* busbw below the expectation: exit 3 */
	NTEST_SOCKET, /* NCCL used sockets: exit 3 */
	NTEST_ERROR, /* no table where one was due, or it failed */
	NTEST_CORRUPT, /* #wrong > 0 or out of bounds values: 4 */
};

const char *ntest_verdict_name(enum ntest_verdict v);

/* What the gate is given. */
struct ntest_expect {
	double busbw; /* GB/s; 0: none */
	const char *from; /* "--expect-busbw", or the formula */
	bool table_due; /* this rank prints the table (MPI rank 0) */
	int exit_status; /* the program's; 0 when it succeeded */
};

struct ntest_judgement {
	enum ntest_verdict verdict;
	enum ntest_net net;
	double busbw; /* the figure: best busbw at the large sizes */
	uint64_t at_size; /* the row it came from */
	uint64_t large_from; /* the large sizes: this size and up */
	double wrong; /* #wrong summed over rows and places */
	char reason[NTEST_REASON];
	int exit_code; /* the project's table: 0, 1, 3, 4 */
};

/*
 * Judge o: "large sizes" are the rows of at least 1/8 of the largest
 * size (the top four of a -f 2 sweep); the figure is their best busbw,
 * out of place or in place. Worst first: corrupt, error, Socket, below.
 */
void ntest_judge(const struct ntest_out *o, const struct ntest_expect *e,
		 struct ntest_judgement *j);

#endif
