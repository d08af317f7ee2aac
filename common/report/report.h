/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report - the human-readable output, in perftest's exact layout: its
 * column header lines, and rows with perftest's field count (bandwidth 5:
 * #bytes #iterations peak average rate; latency 9, -D latency 4) and
 * precision (Gb/sec below 0.1: six decimals). Header facts that are sizes
 * carry "[B]" as perftest's do. Our own figures (the other side, the sum's
 * parts, percentiles beyond perftest's) go on note lines that begin with
 * " # ", which no row parser takes for a row. Pure: figures in, text out.
 */
#ifndef RDMABENCH_REPORT_REPORT_H
#define RDMABENCH_REPORT_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/stats.h"

struct report_info {
	const char *title;        /* "RDMA_Write BW Test" */
	const char *role;         /* "client" or "server" */
	const char *dev_name;
	const char *fw_ver;
	const char *transport;    /* "RoCE", "IB", "iWARP" */
	const char *port_state;
	unsigned int port;
	unsigned int mtu_bytes;
	int numa_node;            /* -1: not pinned */
	const char *memory;       /* "host", "cuda (dmabuf)"...; NULL: host */
	const char *placement;    /* "1, CPUs 1" or why unpinned; NULL: none */
	const char *local;        /* "198.18.0.1:18515" */
	const char *peer;
	uint64_t tx_depth;
	uint64_t cq_mod;
	uint32_t max_inline;
	uint64_t qps;
	const char *lat_note;     /* NULL for bandwidth tests */
	const char *conn_type;    /* "RC", "UC"; NULL: "RC" */
	const char *rendezvous;   /* "rdma_cm", "TCP (--oob tcp)"; NULL: rdma_cm */
	const char *qp_attr;      /* "traffic class 106, ..."; NULL: none */
	const char *ctrl_path;    /* "TCP to host:18515"; NULL: not said */
	const char *data_dev;     /* "rxe0 port 1, GID ... (why)"; NULL: not said */
	const char *warm_up;      /* --perform_warm_up's pass; NULL: none */
	const char *no_effect;    /* perftest flags given that change nothing */
};

/* The dashed rule perftest frames its tables with. */
void report_rule(FILE *out);

/* The framed block describing the run, perftest's labels where it has one. */
void report_header(FILE *out, const struct report_info *ri);

/* That block without its closing rule: the caller adds lines, then the
 * rule (report_rule), so that nothing but perftest's lines follows it. */
void report_header_body(FILE *out, const struct report_info *ri);

/* One " Label           : value" line of that block. */
void report_header_line(FILE *out, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A note line: " # " and the text; never taken for a row. */
void report_note(FILE *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Bandwidth: perftest's column header (MiB/sec or Gb/sec). */
void report_bw_head(FILE *out, bool gbits);
/* ... with perftest's "CPU_Util[%]" column last (--cpu_util, -D). */
void report_bw_head_cpu(FILE *out, bool gbits, bool cpu);

/* *sum = a + b, figure by figure: -b prints both directions together. */
void report_bw_add(const struct stats_bw *a, const struct stats_bw *b,
		   struct stats_bw *sum);

/*
 * One bandwidth row, perftest's 5 fields: iters is the count measured
 * (with -D too); below 0.1 Gb/sec the figures get six decimals.
 */
void report_bw_row(FILE *out, bool gbits, uint64_t size, uint64_t iters,
		   const struct stats_bw *bw, const struct stats_bw *peak);
/* ... with the CPU use in percent last (cpu_pct >= 0; < 0: none). */
void report_bw_row_cpu(FILE *out, bool gbits, uint64_t size, uint64_t iters,
		       const struct stats_bw *bw, const struct stats_bw *peak,
		       double cpu_pct);

/* The average in the unit asked for (--output=bandwidth prints it bare). */
double report_bw_value(bool gbits, const struct stats_bw *bw);

/* Decimals perftest shows a bandwidth with: 6 below 0.1 Gb/sec, else 2. */
int report_bw_decimals(bool gbits, const struct stats_bw *bw);

/* A note with one side's figures: " # WHO: BW average[U] X, MsgRate Y". */
void report_bw_note(FILE *out, bool gbits, const char *who,
		    const struct stats_bw *bw);

/* Latency: perftest's column header, by iterations or by -D duration. */
void report_lat_head(FILE *out, bool duration);
/* ... -D with perftest's "CPU_Util[%]" column last (cpu). */
void report_lat_head_cpu(FILE *out, bool duration, bool cpu);

/* One latency row, perftest's 9 fields (t_typical: the median). */
void report_lat_row(FILE *out, uint64_t size, uint64_t iters,
		    const struct stats_lat *lat);

/* -D: perftest's 4 fields, t_avg and transactions per second; the CPU
 * use in percent last (cpu_pct >= 0; < 0: none). */
void report_lat_dur_row(FILE *out, uint64_t size, uint64_t iters,
			double t_avg_us, double tps, double cpu_pct);

/* A note with the figures beyond a latency row (who: "" for this side). */
void report_lat_note(FILE *out, const char *who, const struct stats_lat *lat);

#endif
