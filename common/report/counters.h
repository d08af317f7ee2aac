/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * record_ctr - a port's counters before and after a run: the sysfs
 * counters/ (the PMA port counters) and hw_counters/ (the driver's own;
 * rxe has some) of /sys/class/infiniband/DEV/ports/N, their deltas for
 * the results document, and which of them count errors
 * (--expect-no-errors). Pure: files under a sysfs root, no verbs.
 *
 * Counters are per port, not per process: traffic of other processes on
 * the same port moves them too.
 */
#ifndef RDMABENCH_RECORD_CTR_H
#define RDMABENCH_RECORD_CTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/results.h"

#define RECORD_CTR_MAX 320

struct record_ctr {
	char name[RESULTS_NAME_LEN];	/* "counters/port_xmit_data" */
	uint64_t value;
};

struct record_ctr_snap {
	unsigned int n;
	bool is_truncated;		/* more than RECORD_CTR_MAX files */
	struct record_ctr c[RECORD_CTR_MAX];	/* sorted by name */
};

/*
 * Read every counter of DEV's port under sysfs_root (NULL or "" =
 * "/sys"), named "counters/NAME" and "hw_counters/NAME", sorted. Files
 * that do not read as a decimal number (unsupported counters return
 * errors) and hw_counters/lifespan (a setting) are left out. Returns 0,
 * -EINVAL for a bad argument, -ENOENT when the port has neither folder.
 */
int record_ctr_read(const char *sysfs_root, const char *dev, unsigned int port,
		    struct record_ctr_snap *out);

/*
 * Does the counter count errors? Names containing "err", "discard",
 * "drop", "out_of_buffer", "out_of_seq", "link_down", "retrans" or
 * "timeout", except "flush" counters (work requests flushed when a QP is
 * destroyed: every run's teardown moves them). Pure.
 */
bool record_ctr_is_error(const char *name);

/*
 * after - before, for the counters in both, into d->counters (sets
 * d->has_counters). When there are more than RESULTS_MAX_COUNTERS,
 * unchanged counters that are not error counters are left out first.
 * Returns how many were left out (0: all there).
 */
unsigned int record_ctr_delta(const struct record_ctr_snap *before,
			      const struct record_ctr_snap *after,
			      struct results_doc *d);

/*
 * The error counters of d that moved: "hw_counters/send_err +3,
 * counters/symbol_error +1" into text (truncated at len), their number
 * as the return value, the sum of their moves in *sum. Pure.
 */
unsigned int record_ctr_errors(const struct results_doc *d, char *text,
			       size_t len, int64_t *sum);

#endif
