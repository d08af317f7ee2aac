/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * layout - where things lie in the buffers of the data connections: byte
 * offsets and sizes only, no memory and no verbs. Pure, and all inline:
 * rdma/conn.h's accessors (which the hot loops call), conn.c's
 * allocations and scripts/bench/hotloop.c share this one copy.
 *
 * Data buffer: for QP i, [recv region | send region], region_bytes each;
 * the peer writes into (or sends to) our recv regions and reads from our
 * send regions, at the same offsets in its own buffer (its region_bytes).
 * Host buffer ("aux", not shown to the peer): for QP i, LAYOUT_AUX_COUNT
 * slots of LAYOUT_AUX_SLOT_BYTES.
 */
#ifndef RDMABENCH_SPEC_LAYOUT_H
#define RDMABENCH_SPEC_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "spec/bench.h"

/* A QP's host slots: an atomic's fetched value, FIN out, FIN in. */
enum layout_aux { LAYOUT_AUX_ATOMIC, LAYOUT_AUX_FIN_OUT, LAYOUT_AUX_FIN_IN,
		  LAYOUT_AUX_GRH, /* -c UD: every receive's 40-byte GRH */
		  LAYOUT_AUX_COUNT };
#define LAYOUT_AUX_SLOT_BYTES 64

/* The offset of QP i's region r in a data buffer of region_bytes regions. */
static inline uint64_t layout_region(unsigned int i, enum bench_region r,
				     uint64_t region_bytes)
{
	return (2 * (uint64_t)i + r) * region_bytes;
}

/* The size of the data buffer of nqps QPs. */
static inline uint64_t layout_data_bytes(unsigned int nqps,
					 uint64_t region_bytes)
{
	return 2 * (uint64_t)nqps * region_bytes;
}

/* The offset of QP i's host slot `which`. */
static inline size_t layout_aux(unsigned int i, enum layout_aux which)
{
	return ((size_t)i * LAYOUT_AUX_COUNT + which) * LAYOUT_AUX_SLOT_BYTES;
}

/* The size of the host buffer of nqps QPs. */
static inline size_t layout_aux_bytes(unsigned int nqps)
{
	return (size_t)nqps * LAYOUT_AUX_COUNT * LAYOUT_AUX_SLOT_BYTES;
}

#endif
