/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench - what every executable hands to the shared driver, and the one
 * table of verbs. Pure: a column of the verb table costs nothing until it is
 * expanded, and only the verbs code (xfer.c) expands the opcode column.
 */
#ifndef RDMABENCH_BENCH_H
#define RDMABENCH_BENCH_H

#include <signal.h>

#define RDMABENCH_VERSION "0.1.0"

/* Set by SIGINT/SIGTERM; every wait loop checks it. The only mutable global. */
extern volatile sig_atomic_t bench_stop;

/*
 * X(ENUM, "name", "title", opcode, needs remote buffer, needs posted
 *   receives, latency divisor)
 *
 * latency divisor: 2 when a latency sample is a ping-pong round trip that
 * we report as half (write, send), 1 when one operation is itself a full
 * round trip (read, atomic).
 */
#define BENCH_VERBS(X)                                                       \
	X(WRITE, "write", "RDMA_Write", IBV_WR_RDMA_WRITE, 1, 0, 2)

enum bench_verb {
#define X(e, name, title, op, rbuf, rcv, div) BENCH_VERB_##e,
	BENCH_VERBS(X)
#undef X
	BENCH_VERB_COUNT
};

enum bench_measure { BENCH_MEASURE_BW, BENCH_MEASURE_LAT };

/*
 * Exit codes, documented in the README. They are part of the interface:
 * CI gates read them.
 */
enum bench_exit {
	BENCH_EXIT_OK = 0,       /* ran, every gate passed */
	BENCH_EXIT_RUNTIME = 1,  /* a verbs/rdma_cm/system call failed */
	BENCH_EXIT_USAGE = 2,    /* bad command line or configuration */
	BENCH_EXIT_GATE = 3,     /* below an expectation */
	BENCH_EXIT_CORRUPT = 4,  /* data validation found a wrong byte */
	BENCH_EXIT_PEER = 5,     /* peer unreachable, lost or timed out */
};

/* One executable: a descriptor handed to bench_main(). */
struct bench_desc {
	const char *name;       /* "ib_write_bw" */
	const char *summary;    /* one line for --help */
	enum bench_verb verb;
	enum bench_measure measure;
	unsigned long long default_size;   /* bytes */
	unsigned long long default_iters;
};

/* Name and title of a verb ("write", "RDMA_Write"). */
const char *bench_verb_name(enum bench_verb verb);
const char *bench_verb_title(enum bench_verb verb);
/* Latency divisor of a verb (see BENCH_VERBS). */
unsigned int bench_verb_lat_divisor(enum bench_verb verb);

/* The one orchestration: parse, rendezvous, run, report. Returns an exit code. */
int bench_main(const struct bench_desc *desc, int argc, char **argv);

#endif
