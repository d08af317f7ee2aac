/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rails_report - the node's view of a --rails run: each rail's row, the
 * aggregate (the sum of the rails' Gb/s), the --expect-node-gbps gate on
 * that sum, and the one exit code of the process (report/verdict.h's
 * precedence over the rails' codes: corrupt, then error, then a failed
 * gate, then pass). Pure: no verbs headers, prints only to the FILE given.
 */
#ifndef RDMABENCH_REPORT_RAILS_REPORT_H
#define RDMABENCH_REPORT_RAILS_REPORT_H

#include <stddef.h>
#include <stdio.h>

#define RAILS_REPORT_NAME_MAX 64
#define RAILS_REPORT_PLACE_MAX 64

struct rails_report_row {
	char name[RAILS_REPORT_NAME_MAX]; /* "rxe0" or "mlx5_0:2" */
	char place[RAILS_REPORT_PLACE_MAX]; /* "1, CPUs 1"; "unknown" */
	double gbps;                      /* last size's average; NaN: none */
	int exit_code;                    /* the rail's own (BENCH_EXIT_*) */
};

/* The sum of the rails' Gb/s; a rail without a figure adds nothing. */
double rails_report_sum(const struct rails_report_row *rows, size_t n);

/*
 * The process's exit code: the rails' codes by precedence, and GATE when
 * expect_node_gbps > 0 and the sum is below it (why then says so; else
 * why is ""). why_len > 0.
 */
int rails_report_exit(const struct rails_report_row *rows, size_t n,
		      double sum, double expect_node_gbps, char *why,
		      size_t why_len);

/*
 * The table: a row per rail, then "node" with the sum and the verdict.
 *
 *  rail  device     NUMA node       BW average[Gb/sec]  exit
 *  0     rxe0       0, CPUs 0       1.23                0
 *  node  2 rails                    2.46                0
 */
void rails_report_print(FILE *f, const struct rails_report_row *rows,
			size_t n, double sum, int exit_code);

#endif
