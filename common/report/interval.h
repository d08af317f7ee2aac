/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * interval - the text of a run's progress, pure: the row printed every
 * --interval seconds (iperf3's) and the one-line live status a terminal
 * shows while a size runs. run/progress.c decides when; this file only
 * says what. Each writes one NUL-terminated line without a newline into
 * buf (truncated at len) and returns 0, or -EINVAL on a NULL argument.
 */
#ifndef RDMABENCH_REPORT_INTERVAL_H
#define RDMABENCH_REPORT_INTERVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What one interval, or the run so far, measured. */
struct interval_fig {
	uint64_t size_bytes;
	double from_s, to_s;     /* since the size started */
	uint64_t ops;            /* completed in [from_s, to_s) */
	bool is_lat;             /* p50_us, else gbps */
	double gbps;             /* payload Gb/s in the interval */
	double p50_us;           /* the interval's median latency */
};

/*
 * "[  1.00-  2.00 s]  65536 B     12.34 Gb/s      23552 ops"
 * "[  1.00-  2.00 s]      2 B  p50  1.71 us      291014 iterations"
 */
int interval_row(char *buf, size_t len, const struct interval_fig *f);

/* Where the size stands, for the live line. */
struct interval_live {
	const char *tool;
	struct interval_fig fig; /* from_s 0, to_s now; gbps, p50 so far */
	double total_s;          /* -D; 0: iteration mode */
	uint64_t total_ops;      /* -n x QPs; 0: unknown */
};

/*
 * "ib_write_bw: 65536 B  3.0 s of 10 s, 7.0 s left  12.34 Gb/s" or, with
 * -n, "... 1.2 s, 45% of 5000 iterations ...".
 */
int interval_live_line(char *buf, size_t len, const struct interval_live *l);

#endif
