/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * units - parsing sizes and converting counts to the figures we print. Pure.
 *
 * Definitions (docs/usage.md quotes these):
 *   Gbps  = payload bits / elapsed seconds / 10^9
 *   MiB/s = payload bytes / elapsed seconds / 2^20
 *   Mpps  = messages / elapsed seconds / 10^6
 */
#ifndef RDMABENCH_LIB_UNITS_H
#define RDMABENCH_LIB_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse a byte count: decimal digits with an optional binary suffix
 * K/k (2^10), M/m (2^20), G/g (2^30), optionally followed by "B"/"iB"
 * ("64K", "1MiB", "65536"). Returns 0 and sets *bytes_out, -EINVAL for
 * garbage ("12Q", "", "-1"), -ERANGE on overflow of uint64_t.
 */
int units_parse_size(const char *text, uint64_t *bytes_out);

/*
 * Parse an unsigned decimal integer in [min, max]. Returns 0, -EINVAL for
 * garbage, -ERANGE when outside [min, max].
 */
int units_parse_u64(const char *text, uint64_t min, uint64_t max,
		    uint64_t *value_out);

/* The figures; elapsed_ns == 0 gives 0.0. */
double units_gbps(uint64_t bytes, uint64_t elapsed_ns);
double units_mibps(uint64_t bytes, uint64_t elapsed_ns);
double units_mpps(uint64_t msgs, uint64_t elapsed_ns);

/* A byte count for a message: "8.0 MiB", "64 KiB", "unlimited"
 * (UINT64_MAX), into out. */
void units_fmt_bytes(uint64_t bytes, char *out, size_t len);

/* ns to µs as a double. */
double units_ns_to_us(double ns);

#endif
