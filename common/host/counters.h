/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * counters - a port's counters before and after a run: the sysfs
 * counters/ (the PMA port counters) and hw_counters/ (the driver's own;
 * rxe has some) of /sys/class/infiniband/DEV/ports/N, their changes over
 * the run, and which of them count errors (--expect-no-errors). Pure:
 * files under a sysfs root, no verbs.
 *
 * Counters are per port, not per process: traffic of other processes on
 * the same port moves them too.
 */
#ifndef RDMABENCH_HOST_COUNTERS_H
#define RDMABENCH_HOST_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define COUNTERS_MAX 320
#define COUNTERS_NAME_LEN 64

struct counters_value {
	char name[COUNTERS_NAME_LEN];	/* "counters/port_xmit_data" */
	uint64_t value;
};

struct counters_snap {
	unsigned int n;
	bool is_truncated;		/* more than COUNTERS_MAX files */
	struct counters_value c[COUNTERS_MAX];	/* sorted by name */
};

/* A counter's change over the run (the results document's too). */
struct counters_delta {
	char name[COUNTERS_NAME_LEN];	/* "counters/port_xmit_data" */
	int64_t delta;			/* end - start */
};

/*
 * Read every counter of DEV's port under sysfs_root (NULL or "" =
 * "/sys"), named "counters/NAME" and "hw_counters/NAME", sorted. Files
 * that do not read as a decimal number (unsupported counters return
 * errors) and hw_counters/lifespan (a setting) are left out. Returns 0,
 * -EINVAL for a bad argument, -ENOENT when the port has neither folder.
 */
int counters_read(const char *sysfs_root, const char *dev, unsigned int port,
		  struct counters_snap *out);

/*
 * The value of the counter called name ("counters/port_xmit_data") in s:
 * 0, or -ENOENT when s has none of that name.
 */
int counters_find(const struct counters_snap *s, const char *name,
		  uint64_t *value);

/*
 * Does the counter count errors? Names containing "err", "discard",
 * "drop", "out_of_buffer", "out_of_seq", "link_down", "retrans" or
 * "timeout", except "flush" counters (work requests flushed when a QP is
 * destroyed: every run's teardown moves them).
 */
bool counters_is_error(const char *name);

/*
 * after - before, for the counters in both, in name order into out[] (at
 * most max; *n_out set). When there are more than max, unchanged
 * counters that are not error counters are left out first. Returns how
 * many were left out (0: all there).
 */
unsigned int counters_diff(const struct counters_snap *before,
			   const struct counters_snap *after,
			   struct counters_delta *out, unsigned int max,
			   unsigned int *n_out);

/*
 * The error counters of d[0..n) that moved: "hw_counters/send_err +3,
 * counters/symbol_error +1" into text (truncated at len), their number
 * as the return value, the sum of their moves in *sum.
 */
unsigned int counters_errors(const struct counters_delta *d, unsigned int n,
			     char *text, size_t len, int64_t *sum);

/*
 * A counter's unit and the factor to it, by the end of its name: the
 * PMA's port_xmit_data / port_rcv_data count 4-byte words (IBA 16.1.3.5),
 * so their bytes are 4x; "_bytes"/"_octets" are bytes, "_packets"/"_pkts"
 * packets; anything else counts events (factor 1). The one rule of the
 * words -> bytes arithmetic (results' Prometheus text, ib_doctor --watch).
 */
struct counters_unit {
	const char *suffix;
	const char *unit;		/* "bytes", "packets", "events" */
	unsigned int factor;
};
const struct counters_unit *counters_unit_of(const char *name);

/*
 * Add (or replace) the counter called name ("ethtool/rx_pause_ctrl_phy")
 * in s, keeping it sorted. Returns 0, -ENAMETOOLONG, or -ENOSPC when s is
 * full (is_truncated set).
 */
int counters_add(struct counters_snap *s, const char *name, uint64_t value);

/* The value of the counter called name in s into *value: 0, or -ENOENT. */
int counters_get(const struct counters_snap *s, const char *name,
		 uint64_t *value);

/*
 * How far a counter moved from before to after, into *moved: after -
 * before modulo 2^64 (a 64-bit counter that wrapped past 2^64 - 1 still
 * gives its move); a counter that went back while both values fit 32
 * bits wrapped at 2^32 (the 32-bit counters of older drivers). Anything
 * else that went back was reset: -ERANGE, *moved 0.
 */
int counters_moved(uint64_t before, uint64_t after, uint64_t *moved);

#endif
