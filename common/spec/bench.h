/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench - what every executable hands to the shared driver, and the one
 * table of verbs. Pure: a column of the verb table costs nothing until it is
 * expanded, and only the verbs code (xfer.c) expands the opcode column.
 */
#ifndef RDMABENCH_SPEC_BENCH_H
#define RDMABENCH_SPEC_BENCH_H

/* The build passes the version (mk/install.mk, scripts/version.sh). */
#ifndef RDMABENCH_VERSION
#define RDMABENCH_VERSION "0.0.0-unknown"
#endif

/*
 * The one table of verbs. Every difference between verbs is a column here;
 * code asks a column, never "which verb is this".
 *
 * X(ENUM, "name", "title", opcode, remote region, bw end, latency mode,
 *   latency divisor, UC allowed, fixed size in bytes (0: -s))
 *
 * remote region: the peer's region the operation targets (RECV: where the
 *   peer receives; SEND: the peer's source buffer, read by us).
 * bw end: how the receiving side learns a bandwidth run ended (FIN: a SEND
 *   after the data on the same QP; RECV: it counts its own receives).
 * latency mode: PING_MEM (each side writes into the other's memory and
 *   polls it), PING_RECV (send/receive ping-pong), ROUND_TRIP (one
 *   operation is itself the round trip; the peer is passive).
 * latency divisor: 2 when the figure is half a ping-pong round trip.
 */
#define BENCH_VERBS(X)                                                       \
	X(WRITE, "write", "RDMA_Write", IBV_WR_RDMA_WRITE, RECV, FIN,        \
	  PING_MEM, 2, 1, 0)                                                 \
	X(READ, "read", "RDMA_Read", IBV_WR_RDMA_READ, SEND, FIN,            \
	  ROUND_TRIP, 1, 0, 0)                                               \
	X(SEND, "send", "Send", IBV_WR_SEND, RECV, RECV, PING_RECV, 2, 1, 0) \
	X(ATOMIC_FAA, "atomic", "Atomic FETCH_AND_ADD",                      \
	  IBV_WR_ATOMIC_FETCH_AND_ADD, RECV, FIN, ROUND_TRIP, 1, 0, 8)       \
	X(ATOMIC_CAS, "atomic", "Atomic CMP_AND_SWAP", IBV_WR_ATOMIC_CMP_AND_SWP,\
	  RECV, FIN, ROUND_TRIP, 1, 0, 8)

enum bench_verb {
#define X(e, name, title, op, region, end, lat, div, uc, fixed) BENCH_VERB_##e,
	BENCH_VERBS(X)
#undef X
	BENCH_VERB_COUNT
};

enum bench_region { BENCH_REGION_RECV, BENCH_REGION_SEND };
enum bench_bw_end { BENCH_END_FIN, BENCH_END_RECV };
enum bench_lat_mode { BENCH_LAT_PING_MEM, BENCH_LAT_PING_RECV,
		      BENCH_LAT_ROUND_TRIP };

/* A row of the verb table, minus the opcode (verbs code expands that). */
struct bench_verb_info {
	const char *name;
	const char *title;
	enum bench_region region;
	enum bench_bw_end bw_end;
	enum bench_lat_mode lat_mode;
	unsigned int lat_divisor;
	int uc_ok;
	unsigned int fixed_size;
};

/* The verb table's rows (bench.c); read them through bench_verb(). */
extern const struct bench_verb_info bench_verb_rows[BENCH_VERB_COUNT];

/* The row of verb: inline, the hot loops ask it on every post. */
static inline const struct bench_verb_info *bench_verb(enum bench_verb verb)
{
	return &bench_verb_rows[verb];
}

enum bench_measure { BENCH_MEASURE_BW, BENCH_MEASURE_LAT };

/*
 * Exit codes, documented in docs/usage.md. They are part of the interface:
 * CI gates read them.
 */
enum bench_exit {
	BENCH_EXIT_OK = 0,       /* ran, every gate passed */
	BENCH_EXIT_RUNTIME = 1,  /* a verbs/rdma_cm/system call failed */
	BENCH_EXIT_USAGE = 2,    /* bad command line or configuration */
	BENCH_EXIT_GATE = 3,     /* below an expectation */
	BENCH_EXIT_CORRUPT = 4,  /* data validation found a wrong byte */
	BENCH_EXIT_PEER = 5,     /* peer unreachable, lost or timed out */
	BENCH_EXIT_STOPPED = 130, /* SIGINT/SIGTERM: stopped, torn down */
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

/* The eight tools, bench/ib_*.c: one descriptor each (bench.c), so that
 * the man pages and the completion (spec/opts_doc.c) know them all. */
enum bench_tool {
	BENCH_TOOL_WRITE_BW, BENCH_TOOL_WRITE_LAT, BENCH_TOOL_READ_BW,
	BENCH_TOOL_READ_LAT, BENCH_TOOL_SEND_BW, BENCH_TOOL_SEND_LAT,
	BENCH_TOOL_ATOMIC_BW, BENCH_TOOL_ATOMIC_LAT, BENCH_TOOL_COUNT
};

/* The descriptor of tool. */
const struct bench_desc *bench_tool(enum bench_tool tool);

/* Shorthands for bench_verb(v)->name / ->title / ->lat_divisor. */
const char *bench_verb_name(enum bench_verb verb);
const char *bench_verb_title(enum bench_verb verb);
unsigned int bench_verb_lat_divisor(enum bench_verb verb);

#endif
