/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perftest_out - where perftest's output flags send a size's figures:
 * the table row (default), the bare number alone (--output=bandwidth,
 * message_rate, latency: "%f\n", nothing else on stdout), and perftest's
 * JSON file (--out_json: ./perftest_out.json, --out_json_file=F), rewritten
 * after every size as perftest does, so the last size stays.
 */
#ifndef RDMABENCH_RUN_PERFTEST_OUT_H
#define RDMABENCH_RUN_PERFTEST_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/stats.h"
#include "run/ctx.h"

/* Whether the text (header, column names, rows, notes) is printed. */
bool perftest_out_table(const struct bench_ctx *b);

/* --cpu_util with -D: the rows end with perftest's CPU_Util[%] column. */
bool perftest_out_cpu(const struct bench_ctx *b);

/* --cpu_util: mark the start of a size's run (start) or its end, which
 * sets the CPU use its row shows. Without the column, nothing. */
void perftest_out_cpu_mark(struct bench_ctx *b, bool start);

/*
 * Where our figures beyond perftest's rows go (the server's side, -D's
 * percentiles): stderr when the report is stdout, so that stdout from
 * the column head on is perftest's lines alone (a parser takes the line
 * before the last as the row); a rail's buffer keeps them. The JSON
 * documents keep them all.
 */
FILE *perftest_out_notes(const struct bench_ctx *b);

/* perftest's test title, words joined by sep: "RDMA_Write BW Test". */
void perftest_out_title(const struct bench_ctx *b, char sep, char *buf,
			size_t len);

/* A bandwidth size: the row or the bare figure, and the JSON file. */
int perftest_out_bw(const struct bench_ctx *b, uint64_t size, uint64_t iters,
		    const struct stats_bw *bw, const struct stats_bw *peak);

/* One direction of a -b size: what one side sent. */
struct perftest_out_dir {
	uint64_t iters;          /* all QPs, as perftest counts them */
	struct stats_bw bw;
	struct stats_bw peak;
};

/*
 * A -b size, the same on both sides as perftest's: the row (or the bare
 * figure, the JSON) is the sum of both directions, peaks and averages
 * added, with this side's iteration count; each direction on a note line;
 * with --report-both (one size, not -a) perftest's "Local results" and
 * "Remote results" tables after it.
 */
int perftest_out_bidir(const struct bench_ctx *b, uint64_t size,
		       const struct perftest_out_dir *own,
		       const struct perftest_out_dir *peer);

/* A latency size (tps > 0: -D, perftest's duration layout). */
int perftest_out_lat(const struct bench_ctx *b, uint64_t size, uint64_t iters,
		     const struct stats_lat *lat, double tps);

#endif
