/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opts_table - the benches' program of the one option engine
 * (spec/opts_prog.h): a row per long option, each tagged with the tools
 * it applies to (.only) and its --help section (.group), the text of
 * their --help and man pages, and the questions asked of a row (also by
 * the engine, of any program's rows: d NULL there). Pure data.
 */
#ifndef RDMABENCH_SPEC_OPTS_TABLE_H
#define RDMABENCH_SPEC_OPTS_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "spec/bench.h"
#include "spec/opts_prog.h"

/* Which tools an option applies to (perftest's --help of each); 0: all. */
enum opt_only {
	ONLY_BW = 1 << 0, ONLY_LAT = 1 << 1, /* the measure */
	ONLY_WRITE = 1 << 2, ONLY_READ = 1 << 3, ONLY_SEND = 1 << 4,
	ONLY_ATOMIC = 1 << 5,                /* the verb */
	/* the mask is what --help, man and completion list; parsing takes
	 * the option in every tool and a later check refuses it with its
	 * own words (a gate: the run's document records the refusal) */
	ONLY_LISTED = 1 << 6,
	/* perftest parses it on the tools it does not apply to, and ignores
	 * it there: there the value is checked and not used, and the
	 * option named in the config's list of what changes nothing (the
	 * header's " Changes nothing" line), never refused */
	IGNORED_ELSEWHERE = 1 << 7,
	/* an option of perftest's other tools (raw_ethernet_*, the role
	 * flags, multicast without -g): no bench tool's own; with
	 * IGNORED_ELSEWHERE, taken and ignored by every one */
	ONLY_NO_TOOL = 1 << 8,
};
#define ONLY_MEASURES (ONLY_BW | ONLY_LAT)
#define ONLY_VERBS (ONLY_WRITE | ONLY_READ | ONLY_SEND | ONLY_ATOMIC)

/* Where --help and the man page list an option, in this order. */
enum opt_group {
	OPT_G_NONE,     /* a row must name its group */
	OPT_G_CONN,     /* connection: device, port, transport */
	OPT_G_TEST,     /* what is measured */
	OPT_G_GATES,    /* expectations: exit 3 when missed */
	OPT_G_OUTPUTS,  /* what is printed and written */
	OPT_G_PLACE,    /* NUMA and CPU placement */
	OPT_G_GPU,      /* GPU memory */
	OPT_G_SERVER,   /* the server's limits */
	OPT_G_HELP,     /* -h, -V */
	OPT_G_PERFTEST, /* perftest's, what rdmabench does anyway */
	OPT_G_COUNT,
};

/* Long-only options get codes above any char. */
enum {
	LONG_FIRST = 256,
	LONG_REPORT_GBITS = LONG_FIRST, LONG_CONNECT_TIMEOUT, LONG_TIMEOUT,
	LONG_VERSION, LONG_RUN_INF, LONG_VALIDATE, LONG_OUTPUT, LONG_RETRY,
	LONG_JSON, LONG_OUT_JSON, LONG_OUT_JSON_FILE, LONG_JUNIT, LONG_PROM,
	LONG_EXP_GBPS, LONG_EXP_LINE, LONG_EXP_MPPS, LONG_EXP_P50,
	LONG_EXP_P99, LONG_STRICT, LONG_EXP_NOERR, LONG_NUMA, LONG_CPU,
	LONG_PIN_CORES, LONG_NUMA_NODE, LONG_DISABLE_NUMA, LONG_CUDA,
	LONG_CUDA_BUS, LONG_CUDA_DMABUF, LONG_PERSISTENT, LONG_REPORT_BOTH,
	LONG_IPV6, LONG_WARMUP, LONG_CUDA_MEM_TYPE, LONG_OOB, LONG_NETDEV,
	LONG_MAX_SIZE, LONG_MAX_QPS, LONG_MAX_DURATION, LONG_MAX_MEM,
	LONG_TCLASS, LONG_HISTOGRM, LONG_COM_RDMA_CM, LONG_DATA_VALIDATION,
	LONG_IPV6_ADDR, LONG_OLD_POST_SEND, LONG_NO_RELAXED,
	LONG_BIND_SOURCE_IP, LONG_INTERVAL, LONG_RAILS, LONG_EXP_NODE,
	LONG_ALLOW_FOREIGN_GID, LONG_AUTH_KEY_FILE, LONG_BIND, LONG_SUMMARY,
	LONG_NO_XCHG_VERSIONS, LONG_FLOWS, LONG_FLOWS_BURST, LONG_LOCAL_PORT,
	LONG_REMOTE_PORT, LONG_TCP, LONG_PROMISCUOUS, LONG_SNIFFER,
	LONG_RAW_MCAST, LONG_REPLY_EVERY, LONG_VLAN_EN, LONG_VLAN_PCP,
	LONG_RAW_IPV6, LONG_AES_BLOCK_SIZE, LONG_DATA_ENC_KEYS,
	LONG_LATENCY_GAP, LONG_PUSH, LONG_PROM_TEXTFILE,
	LONG_WAIT_DESTROY,
	LONG_CPU_UTIL,
	LONG_CLOCK,
	LONG_USE_SRQ,
	LONG_INLINE_RECV,
	LONG_FLOW_LABEL,
	LONG_PKEY_INDEX,
	LONG_RATE_LIMIT,
	LONG_RATE_UNITS,
	LONG_RATE_LIMIT_TYPE,
	LONG_BURST_SIZE,
	LONG_TYPICAL_PKT_SIZE,
	LONG_DLID,
	LONG_REPORT_PER_PORT,
	LONG_RECV_POST_LIST,
	LONG_MR_PER_QP,
	LONG_USE_HUGEPAGES,
	LONG_MMAP,
	LONG_MMAP_OFFSET,
	LONG_ODP,
	LONG_REVERSED,
	LONG_EXP_MAX_PAUSE,
	LONG_EXP_MAX_CNP,
	LONG_EXP_MAX_ECN,
	LONG_EXP_MAX_OOB,
};

extern const struct opt_def opts_table_rows[];
extern const size_t opts_table_count;

/* The benches' program: those rows, perftest's refused options, the
 * server address as the one operand, the text of --help and man. */
extern const struct opt_prog opts_table_prog;

/* The ONLY_* bits of tool d: its measure and its verb. */
unsigned int opts_table_mine(const struct bench_desc *d);

/* The tools of an ONLY_* mask, for messages: "ib_read_*, ib_atomic_*". */
void opts_table_tools(unsigned int only, char *buf, size_t len);

/* Does an ONLY_* mask (0: all) take in tool d? */
bool opts_table_only_ok(unsigned int only, const struct bench_desc *d);

/* Does row o apply to tool d? */
bool opts_table_applies(const struct opt_def *o, const struct bench_desc *d);

/* Does the choice i of enum row o apply to tool d (UC: its verb's say)? */
bool opts_table_choice_ok(const struct opt_def *o, size_t i,
			  const struct bench_desc *d);

/* Is row o in tool d's --help, man page and completion? Not aliases (no
 * help), other tools' options, -s/-a of a fixed size. */
bool opts_table_listed(const struct opt_def *o, const struct bench_desc *d);

/* Row o's default in tool d, NULL: none (-s and -n: d's, written into
 * buf; else .def_lat for a latency tool that has one, else .def). */
const char *opts_table_default(const struct opt_def *o,
			       const struct bench_desc *d, char *buf,
			       size_t len);

/* "-s/--size" or "--json" into buf. */
const char *opts_table_label(const struct opt_def *o, char *buf, size_t len);

#endif
