/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpuload - the host's CPU use as perftest's --cpu_util reports it: the
 * "cpu" line of /proc/stat (all CPUs) read at two moments; the share of
 * user time in user + idle time between them, in percent (perftest's
 * get_cpu_stats()/calc_cpu_util(): system, irq and the rest are left out,
 * as there). Read through lib/fs (root "/" on a host).
 */
#ifndef RDMABENCH_HOST_CPULOAD_H
#define RDMABENCH_HOST_CPULOAD_H

#include <stdint.h>

struct cpuload {
	uint64_t user;           /* USER_HZ ticks */
	uint64_t idle;
};

/* Parse a "cpu  user nice system idle ..." line. 0 or -EINVAL. */
int cpuload_parse(const char *line, struct cpuload *out);

/* Read root's /proc/stat. 0 or -errno (not logged). */
int cpuload_read(const char *root, struct cpuload *out);

/* user / (user + idle) between a and b, in percent; 0 when no tick
 * passed. */
double cpuload_pct(const struct cpuload *a, const struct cpuload *b);

/* The first "cpu MHz" line of root's /proc/cpuinfo (x86: the clock of a
 * CPU at that moment; what perftest's get_cpu_mhz() reads): 0, -ENOENT
 * when there is none, or -errno. */
int cpuload_mhz(const char *root, double *mhz);

#endif
