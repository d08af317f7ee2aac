// SPDX-License-Identifier: BSD-2-Clause
/*
 * rails_report - rows, aggregate and gates of a --rails run (see
 * rails_report.h).
 */
#include <math.h>
#include <stdio.h>

#include "report/rails_report.h"
#include "report/verdict.h"
#include "spec/bench.h"

double rails_report_sum(const struct rails_report_row *rows, size_t n)
{
	double sum = 0.0;
	size_t i;

	for (i = 0; i < n; i++)
		if (!isnan(rows[i].gbps))
			sum += rows[i].gbps;
	return sum;
}

int rails_report_exit(const struct rails_report_row *rows, size_t n,
		      double sum, double expect_node_gbps, char *why,
		      size_t why_len)
{
	int code = BENCH_EXIT_OK;
	size_t i;

	why[0] = '\0';
	for (i = 0; i < n; i++)
		code = verdict_exit_worse(code, rows[i].exit_code);
	if (expect_node_gbps > 0.0 && !(sum >= expect_node_gbps)) {
		snprintf(why, why_len, "node: %.2f Gb/s over %zu rails < "
			 "expected %.2f Gb/s (--expect-node-gbps)", sum, n,
			 expect_node_gbps);
		code = verdict_exit_worse(code, BENCH_EXIT_GATE);
	}
	return code;
}

void rails_report_print(FILE *f, const struct rails_report_row *rows,
			size_t n, double sum, int exit_code)
{
	size_t i;

	fprintf(f, " %-5s %-16s %-16s %-19s %s\n", "rail", "device",
		"NUMA node", "BW average[Gb/sec]", "exit");
	for (i = 0; i < n; i++)
		fprintf(f, " %-5zu %-16s %-16s %-19.2f %d\n", i, rows[i].name,
			rows[i].place, isnan(rows[i].gbps) ? 0.0 : rows[i].gbps,
			rows[i].exit_code);
	fprintf(f, " %-5s %-16s %-16s %-19.2f %d\n", "node", "sum", "",
		sum, exit_code);
}
