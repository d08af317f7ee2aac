/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opts - the benches' command line: their config (struct bench_cfg),
 * parsed by the one option engine (opts_prog.h: opts.c parses by the
 * benches' rows in opts_table.c; --help, man pages and completion in
 * opts_doc*.c). Pure: no verbs headers, never exits.
 *
 * Options are the client's: the server takes only where to listen
 * (-p, -d, -i) and adopts the rest from the client's HELLO message.
 */
#ifndef RDMABENCH_SPEC_OPTS_H
#define RDMABENCH_SPEC_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spec/bench.h"
#include "spec/opts_prog.h"

#define OPTS_ADDR_MAX 256
#define OPTS_NAME_MAX 64
#define OPTS_PATH_MAX 4096

/* Sizes of an -a sweep: 2 B .. 8 MiB, powers of two (perftest's range). */
#define OPTS_SWEEP_MIN_BYTES 2ULL
#define OPTS_SWEEP_MAX_BYTES (8ULL << 20)

/* Choices of enum options (the index is stored). */
/* DC, SRD and XRC: perftest's parser takes them; refused at run time
 * (opts_check_built), rdmabench builds no such QP. */
enum opts_conn_type { OPTS_CONN_RC, OPTS_CONN_UC, OPTS_CONN_UD, OPTS_CONN_DC,
		      OPTS_CONN_SRD, OPTS_CONN_XRC };
enum opts_atomic { OPTS_ATOMIC_FAA, OPTS_ATOMIC_CAS };
enum opts_oob { OPTS_OOB_CM, OPTS_OOB_TCP, OPTS_OOB_AUTO };
/* perftest's rate limiters (--rate_limit_type; OFF: none) and units. */
enum opts_rate { OPTS_RATE_HW, OPTS_RATE_SW, OPTS_RATE_PP, OPTS_RATE_OFF };
enum opts_rate_unit { OPTS_RATE_GBPS, OPTS_RATE_MIBPS, OPTS_RATE_PPS };
enum opts_output { OPTS_OUTPUT_TABLE, OPTS_OUTPUT_BW, OPTS_OUTPUT_MSGRATE,
		   OPTS_OUTPUT_LATENCY };
/* --use_cuda's two words; N >= 0 is a CUDA ordinal. "auto" (the GPU
 * nearest each rail's NIC, run/cuda_auto.h) is resolved to an ordinal and
 * a bus id before the device is opened. */
enum opts_cuda { OPTS_CUDA_HOST = -1, OPTS_CUDA_AUTO = -2 };

struct bench_cfg {
	char server_addr[OPTS_ADDR_MAX]; /* empty: we are the server */
	char dev_name[OPTS_NAME_MAX];    /* -d; empty: whichever the IP uses */
	char netdev[OPTS_NAME_MAX];      /* --netdev: the device behind it */
	char rails[OPTS_PATH_MAX];       /* --rails auto|LIST (spec/rails.h) */
	uint64_t oob;                    /* --oob: enum opts_oob */
	uint64_t ib_port;                /* -i */
	bool has_ib_port;
	uint64_t gid_index;              /* -x; accepted, see has_gid_index */
	bool has_gid_index;
	uint64_t tcp_port;               /* -p: the rdma_cm port */
	uint64_t size_bytes;             /* -s */
	bool all_sizes;                  /* -a */
	uint64_t iters;                  /* -n */
	bool has_iters;
	uint64_t duration_s;             /* -D: 0 = iteration mode */
	uint64_t margin_s;               /* -f: warm-up and cool-down */
	bool has_margin;
	bool run_infinitely;             /* --run_infinitely */
	double interval_s;               /* --interval: a row each; 0 none */
	uint64_t qps;                    /* -q */
	uint64_t tx_depth;               /* -t */
	uint64_t rx_depth;               /* -r */
	uint64_t post_list;              /* -l */
	bool has_post_list;
	uint64_t recv_post_list;         /* --recv_post_list; 0: not given */
	bool has_recv_post_list;
	uint64_t inline_bytes;           /* -I */
	bool has_inline;
	uint64_t cq_mod;                 /* -Q: signal one send in cq_mod */
	bool has_cq_mod;                 /* -Q given (else -l N sets it) */
	uint64_t outstanding;            /* -o: reads/atomics in flight */
	bool bidir;                      /* -b */
	bool reversed; /* --reversed: the server sends */
	uint64_t conn_type;              /* -c: enum opts_conn_type */
	uint64_t atomic_op;              /* -A: enum opts_atomic */
	uint64_t tos;                    /* -T / --tclass: traffic class */
	bool has_tos;
	uint64_t qp_timeout;             /* -u: 4.096 us * 2^T [14] */
	bool has_qp_timeout;
	uint64_t retry_count;            /* --retry_count [7] */
	uint64_t mtu;                    /* -m, bytes (--oob tcp) */
	bool has_mtu;
	uint64_t sl;                     /* -S (--oob tcp) */
	bool has_sl;
	uint64_t hop_limit;              /* -L (--oob tcp) */
	bool has_hop_limit;
	bool rdma_cm;                    /* -R: rdma_cm connects the QPs */
	char source_ip[OPTS_ADDR_MAX];   /* --source_ip: "" the route's */
	bool no_peak;                    /* -N: BW peak not measured */
	bool report_both;                /* --report-both (with -b) */
	bool warm_up;                    /* --perform_warm_up */
	bool events;                     /* -e: completion events */
	bool use_srq; /* --use-srq: one SRQ for the QPs */
	bool dualport;        /* -O: taken, refused at run time */
	bool mcg;             /* -g: taken, refused at run time */
	bool report_per_port; /* --report-per-port (needs -O and -D) */
	bool mr_per_qp;                  /* --mr_per_qp: a buffer, MR per QP */
	uint64_t latency_gap_us;         /* --latency_gap: client, between samples */
	uint64_t clock; /* --clock: index in tick_src_names */
	bool unsorted;                   /* -U: every sample, in order */
	bool cpu_util;                   /* --cpu_util: -D rows' CPU column */
	uint64_t wait_destroy_s;         /* --wait_destroy: before the release */
	bool validate;                   /* --validate */
	bool histogram;                  /* -H */
	bool report_cycles; /* -C: latency rows in CPU cycles */
	uint64_t output;                 /* --output: enum opts_output */
	uint64_t connect_timeout_s;      /* --connect-timeout */
	uint64_t io_timeout_s;           /* --timeout: no progress for this long */
	bool report_gbits;               /* --report_gbits */
	char report_counters[OPTS_PATH_MAX]; /* -W: counter names, ","s */
	/* results (see results.h) */
	char json_path[OPTS_PATH_MAX];   /* --json: our document */
	bool out_json;                   /* --out_json: perftest's file */
	char out_json_path[OPTS_PATH_MAX]; /* --out_json_file: its name */
	char junit_path[OPTS_PATH_MAX];  /* --junit */
	char prom_path[OPTS_PATH_MAX];   /* --prom */
	char summary_path[OPTS_PATH_MAX]; /* --summary: verdict summary */
	char push_url[OPTS_PATH_MAX];    /* --push: a Pushgateway's URL */
	char prom_textfile[OPTS_PATH_MAX]; /* --prom-textfile: a directory */
	/* gates */
	double expect_gbps;              /* --expect-gbps, 0 = none */
	double expect_node_gbps;         /* --expect-node-gbps: rails' sum */
	double expect_line_rate;         /* --expect-line-rate fraction */
	double expect_mpps;
	double expect_p50_us;
	double expect_p99_us;
	double limit_bw;                 /* perftest -w, in the report unit */
	double limit_msgrate;            /* perftest -y */
	bool strict;                     /* --strict: downtrained link fails */
	bool expect_no_errors;           /* --expect-no-errors */
	/* congestion budgets, "N/s" or "N/GB" (spec/budget.h); "": none */
	char expect_max_pause[OPTS_NAME_MAX];  /* --expect-max-pause */
	char expect_max_cnp[OPTS_NAME_MAX];    /* --expect-max-cnp */
	char expect_max_ecn[OPTS_NAME_MAX];    /* --expect-max-ecn */
	char expect_max_oob[OPTS_NAME_MAX];    /* --expect-max-out-of-buffer */
	/* placement */
	char numa[OPTS_NAME_MAX];        /* --numa auto|off|N */
	char cpu_list[OPTS_NAME_MAX];    /* --cpu / --pin_cores */
	uint64_t numa_node;              /* perftest --numa_node */
	bool has_numa_node;
	bool disable_numa;               /* perftest --disable_numa */
	int64_t use_cuda;                /* --use_cuda[=N|auto]: OPTS_CUDA_* */
	char cuda_bus_id[OPTS_NAME_MAX]; /* --use_cuda_bus_id */
	bool use_cuda_dmabuf;            /* --use_cuda_dmabuf */
	bool use_hugepages; /* --use_hugepages: this side's */
	char mmap_path[OPTS_PATH_MAX]; /* --mmap: this side's buffers' file */
	uint64_t mmap_offset;          /* --mmap-offset: where in it */
	bool has_mmap_offset;
	bool odp;                        /* --odp: this side's, on demand */
	uint64_t cuda_mem_type;          /* --cuda_mem_type: 0 = device */
	/* server */
	bool persistent;                 /* --persistent */
	uint64_t max_size_bytes;         /* caps on what a client may ask */
	uint64_t max_qps;
	uint64_t max_duration_s;
	uint64_t max_mem_bytes;          /* buffers + rings (spec/plan.h) */
	bool has_max_mem;
	char max_mem_from[OPTS_NAME_MAX]; /* a default's source (memlimit.h) */
	bool allow_foreign_gid;          /* --allow-foreign-gid (--oob tcp) */
	char bind_addr[OPTS_ADDR_MAX];   /* --bind: "" every address */
	/* both sides */
	char auth_key_file[OPTS_PATH_MAX]; /* --auth-key-file, "": none */
	/* perftest's, already what rdmabench does */
	bool noop_seen;
	bool noop_xchg;                  /* --dont_xchg_versions: a note */
	uint64_t inline_recv;            /* --inline_recv: a note */
	bool has_inline_recv;
	uint64_t flow_label; /* --flow_label: GRH, --oob tcp */
	bool has_flow_label;
	uint64_t pkey_index; /* --pkey_index: INIT, --oob tcp */
	bool has_pkey_index;
	uint64_t dlid;                   /* --dlid: the AV's, not the peer's */
	/* perftest's rate limiter (spec/opts_rate.c): its options as given,
	 * then what they resolve to (rate_limiter, rate_per_s) */
	char rate_limit[32];             /* --rate_limit, as typed */
	uint64_t rate_units;             /* --rate_units: enum opts_rate_unit */
	bool has_rate_units;
	uint64_t rate_limit_type;        /* --rate_limit_type: enum opts_rate */
	bool has_rate_limit_type;
	uint64_t burst_size;             /* --burst_size, 0: -t */
	uint64_t typical_pkt_size;       /* --typical_pkt_size (PP only) */
	bool comm_rdma_cm;               /* -z: perftest's rdma_cm channel */
	bool old_post_send;              /* --use_old_post_send (a noop) */
	uint64_t rate_limiter;           /* resolved: enum opts_rate */
	double rate_limit_v;             /* resolved: --rate_limit's number */
	/* perftest's options it takes and ignores on this tool (-t on a
	 * latency tool, --tcp, -P): their labels, ", " separated */
	char noop_ignored[512];
	/* what perftest takes and ignores in this run (-f without -D, -l 1
	 * on a latency tool, ...): "label (why)", "; " separated */
	char noop_notes[512];
	bool show_help;                  /* -h */
	bool show_version;               /* --version */
};

/*
 * The rendezvous in effect: --oob, where -R and --source_ip (rdma_cm's
 * own options) turn the default auto into cm; -R not with -c UD, whose
 * QPs' numbers and GIDs go over the TCP control channel either way (one
 * flow for UC and UD; perftest's -R uses rdma_cm's UDP port space).
 */
/* -c's word for conn (enum opts_conn_type): "RC", "UC", "UD". */
static inline const char *opts_conn_name(uint64_t conn)
{
	static const char *const names[] = { [OPTS_CONN_RC] = "RC",
					     [OPTS_CONN_UC] = "UC",
					     [OPTS_CONN_UD] = "UD",
					     [OPTS_CONN_DC] = "DC",
					     [OPTS_CONN_SRD] = "SRD",
					     [OPTS_CONN_XRC] = "XRC" };

	return conn < sizeof(names) / sizeof(names[0]) ? names[conn] : "RC";
}

static inline enum opts_oob opts_oob(const struct bench_cfg *cfg)
{
	/* -c UD: no QP is connected; -R changes nothing (the header says) */
	bool cm = cfg->rdma_cm && cfg->conn_type != OPTS_CONN_UD;

	if (cfg->oob == OPTS_OOB_AUTO && (cm || cfg->source_ip[0]))
		return OPTS_OOB_CM;
	return (enum opts_oob)cfg->oob;
}

/*
 * Parse argv into *cfg, defaults first (from the table and desc). Returns 0,
 * or -EINVAL/-ERANGE with a message naming the option and what to do in
 * err. Can be called repeatedly (tests do).
 */
int opts_parse(struct bench_cfg *cfg, const struct bench_desc *desc,
	       int argc, char **argv, char *err, size_t err_len);

/*
 * Cross-option rules after opts_parse() (opts_check.c): what the measure
 * and the verb can do, what needs --oob tcp, duration margins, perftest's
 * -w/-y into our gates, --numa spellings. Returns 0 or -EINVAL with a
 * message in err.
 */
int opts_check(struct bench_cfg *cfg, const struct bench_desc *desc,
	       char *err, size_t err_len);

/*
 * Part of opts_check(): the output files (--json, --junit, --prom,
 * --summary, --out_json_file) can be written: none a directory, no two
 * naming the same output (lib/afile.h). 0, or -EINVAL with why in err.
 */
int opts_check_outputs(const struct bench_cfg *cfg, char *err,
		       size_t err_len);

/*
 * What perftest's parser takes and rdmabench does not build: -c DC, SRD
 * or XRC (each where its --help lists it), -O (dual port), -g
 * (multicast): -EOPNOTSUPP with a sentence in why naming the alternative
 * (perftest's tool and the device it needs, or our way to the same
 * figure); 0 for everything else. Said at the run's start, exit 2.
 */
int opts_check_built(const struct bench_cfg *cfg,
			  const struct bench_desc *d, char *why, size_t len);

/* Add "what (why)" to the header's " Changes nothing" notes, once. */
void opts_note(struct bench_cfg *cfg, const char *what);

/* True when the buffers go on a GPU (--use_cuda N or --use_cuda_bus_id;
 * --use_cuda auto once it has picked one). */
static inline bool opts_wants_gpu(const struct bench_cfg *cfg)
{
	return cfg->use_cuda >= 0 || cfg->cuda_bus_id[0];
}

/* True when cfg describes the server side (no address given). */
static inline bool opts_is_server(const struct bench_cfg *cfg)
{
	return cfg->server_addr[0] == '\0';
}

#endif
