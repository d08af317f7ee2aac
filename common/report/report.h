/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report - the human-readable result tables, in perftest's column layout
 * (so scripts that pick "BW average" as the 4th column keep working), with
 * units in every header. Pure: takes figures, writes to a FILE *.
 */
#ifndef RDMABENCH_REPORT_H
#define RDMABENCH_REPORT_H

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
};

/* The dashed rule perftest frames its tables with. */
void report_rule(FILE *out);

/* The framed block describing the run. */
void report_header(FILE *out, const struct report_info *ri);

/* Bandwidth: column header, then one row per size. peer may be NULL. */
/* bidir adds the sum of both sides' figures as the last column. */
void report_bw_head(FILE *out, bool gbits, bool with_peer, bool bidir);
void report_bw_row(FILE *out, bool gbits, uint64_t size, uint64_t iters,
		   const struct stats_bw *bw, const struct stats_bw *peak,
		   const struct stats_bw *peer, bool bidir);

/*
 * Latency: column header, then one row per size. peer may be NULL; a peer
 * without samples (the passive side of read/atomic) prints "-".
 */
void report_lat_head(FILE *out, bool with_peer);
void report_lat_row(FILE *out, uint64_t size, uint64_t iters,
		    const struct stats_lat *lat, const struct stats_lat *peer);

#endif
