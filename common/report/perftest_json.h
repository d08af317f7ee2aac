/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perftest_json - the file perftest's --out_json writes (perftest_out.json
 * in the current folder, or --out_json_file), in perftest's key layout:
 * "test_info" (the header's facts under perftest's names) and "results"
 * (one size: the last one, as perftest keeps it), as valid JSON. Our own
 * document stays with --json (results.h). Pure: figures in, JSON out.
 */
#ifndef RDMABENCH_REPORT_PERFTEST_JSON_H
#define RDMABENCH_REPORT_PERFTEST_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/stats.h"
#include "spec/opts.h"

#define PERFTEST_JSON_DEFAULT "perftest_out.json"

/* What perftest's "results" object holds. */
enum perftest_json_kind {
	PERFTEST_JSON_BW,      /* MsgSize n_iterations BW_peak ... MsgRate */
	PERFTEST_JSON_LAT,     /* MsgSize n_iterations t_min ... 99.9 */
	PERFTEST_JSON_LAT_DUR, /* MsgSize n_iterations t_avg tps_average */
};

/* The header's facts, perftest's names in the comments. */
struct perftest_json_info {
	const char *test;        /* test: "RDMA_Write_BW_Test" */
	const char *device;      /* Device */
	uint64_t qps;            /* Number_of_qps */
	const char *transport;   /* Transport_type: "IB" or "IW" */
	const char *conn_type;   /* Connection_type: "RC", "UC" */
	bool srq; /* Using_SRQ: ON (--use-srq) */
	bool tx_side;            /* TX_depth printed: client or -b */
	uint64_t tx_depth;
	bool rx_side;            /* RX_depth printed: send verb, server or -b */
	uint64_t rx_depth;
	bool bw;                 /* CQ_Moderation printed */
	uint64_t cq_mod;
	uint64_t post_list;      /* Post_List when > 1 */
	uint64_t recv_post_list; /* Recv_Post_List when > 1 */
	unsigned int mtu_bytes;  /* Mtu */
	const char *link_type;   /* Link_type: "IB", "Ethernet" */
	int gid_index;           /* GID_index, -1: none chosen (rdma_cm) */
	bool reads;              /* Outstand_reads instead of Max_inline_data */
	uint64_t inline_or_reads;
	bool rdma_cm;            /* rdma_cm_QPs, Data_ex_method */
	int cuda_device;         /* cuda_device, -1: host memory */
};

/* One size's figures; the unit of bw/peak follows gbits as in the text. */
struct perftest_json_row {
	enum perftest_json_kind kind;
	enum opts_output output; /* not TABLE: the bare figure only */
	bool gbits;
	uint64_t size, iters;
	const struct stats_bw *bw, *peak;
	const struct stats_lat *lat;
	double tps;              /* -D latency */
};

/* Write the whole document to out. Returns 0 or -errno (json_finish). */
int perftest_json_write(FILE *out, const struct perftest_json_info *in,
			const struct perftest_json_row *row);

#endif
