/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opts_table - the one option table: a row per long option, from which
 * opts.c parses (getopt_long, defaults, ranges) and opts_doc.c writes
 * --help, the man pages and the shell completion. Pure data and the
 * questions about a row; internal to spec/opts*.c.
 *
 * A row names its fields (fio's options.c style): .name, .code (a short
 * char or a new LONG_* below), .kind, .off (and .has_off when "given"
 * matters), .min/.max, .def (and .def_lat where the latency tools' differs),
 * .arg, .help (none: a hidden alias), .choices (OPT_ENUM), .group (where
 * --help and the man page list it; test_opts_doc fails on a row without)
 * and .only (the tools it applies to; none: all eight). A field left out
 * is 0 or NULL.
 */
#ifndef RDMABENCH_OPTS_TABLE_H
#define RDMABENCH_OPTS_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spec/bench.h"

enum opt_kind {
	OPT_FLAG,     /* bool, set to true */
	OPT_U64,      /* decimal in [min, max] */
	OPT_SIZE,     /* bytes, K/M/G suffixes, in [min, max] */
	OPT_STR,      /* char array of max bytes */
	OPT_DOUBLE,   /* decimal number >= 0 */
	OPT_ENUM,     /* one of choices[], its index stored as uint64_t */
	OPT_OPT_INT,  /* int64_t, optional argument: absent value = 0,
		       * "auto" = OPTS_CUDA_AUTO (--use_cuda only) */
	OPT_NOOP,     /* perftest's, already what we do; help says why */
};

/* Which tools an option applies to (perftest's --help of each); 0: all. */
enum opt_only {
	ONLY_BW = 1 << 0, ONLY_LAT = 1 << 1, /* the measure */
	ONLY_WRITE = 1 << 2, ONLY_READ = 1 << 3, ONLY_SEND = 1 << 4,
	ONLY_ATOMIC = 1 << 5,                /* the verb */
	/* the mask is what --help, man and completion list; parsing takes
	 * the option in every tool and a later check refuses it with its
	 * own words (a gate: the run's document records the refusal) */
	ONLY_LISTED = 1 << 6,
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
	LONG_ALLOW_FOREIGN_GID, LONG_AUTH_KEY_FILE, LONG_BIND,
	/* opts_refuse_rows[i] gets LONG_REFUSED + i */
	LONG_REFUSED,
};

struct opt_def {
	const char *name;       /* the long option, without "--" */
	int code;               /* short option char or LONG_* */
	enum opt_kind kind;
	size_t off;             /* where the value goes, in struct bench_cfg */
	size_t has_off;         /* a bool set when given; 0: none */
	uint64_t min, max;      /* OPT_U64/OPT_SIZE range; OPT_STR: max bytes */
	const char *def;        /* the default, NULL: none */
	const char *def_lat;    /* the latency tools' default, NULL: .def */
	const char *arg;        /* argument name in --help, NULL: no argument */
	const char *help;       /* NULL: a hidden alias */
	const char *const *choices; /* OPT_ENUM, NULL-terminated */
	unsigned int only;      /* enum opt_only bits; 0: every tool */
	enum opt_group group;   /* its --help section */
};
/* At most this many rows (opts.c sizes its getopt table by it). */
#define OPTS_TABLE_MAX 160

extern const struct opt_def opts_table_rows[];
extern const size_t opts_table_count;

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
