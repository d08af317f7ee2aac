// SPDX-License-Identifier: BSD-2-Clause
/*
 * verb - the verb table's rows as data. Pure: the opcode column is left
 * out here (it needs verbs.h); xfer.c expands it.
 */
#include "spec/bench.h"

const struct bench_verb_info bench_verb_rows[BENCH_VERB_COUNT] = {
#define X(e, nm, ttl, op, rgn, end, lat, div, uc, fixed)                     \
	[BENCH_VERB_##e] = { .name = nm, .title = ttl,                       \
			     .region = BENCH_REGION_##rgn,                   \
			     .bw_end = BENCH_END_##end,                      \
			     .lat_mode = BENCH_LAT_##lat, .lat_divisor = div, \
			     .uc_ok = uc, .fixed_size = fixed },
	BENCH_VERBS(X)
#undef X
};

const char *bench_verb_name(enum bench_verb verb)
{
	return bench_verb_rows[verb].name;
}

const char *bench_verb_title(enum bench_verb verb)
{
	return bench_verb_rows[verb].title;
}

unsigned int bench_verb_lat_divisor(enum bench_verb verb)
{
	return bench_verb_rows[verb].lat_divisor;
}

static const struct bench_desc tool_rows[BENCH_TOOL_COUNT] = {
	[BENCH_TOOL_WRITE_BW] = {
		.name = "ib_write_bw",
		.summary = "RDMA WRITE bandwidth",
		.verb = BENCH_VERB_WRITE,
		.measure = BENCH_MEASURE_BW,
		.default_size = 65536,
		.default_iters = 5000,
	},
	[BENCH_TOOL_WRITE_LAT] = {
		.name = "ib_write_lat",
		.summary = "RDMA WRITE latency (half the ping-pong round trip)",
		.verb = BENCH_VERB_WRITE,
		.measure = BENCH_MEASURE_LAT,
		.default_size = 2,
		.default_iters = 1000,
	},
	[BENCH_TOOL_READ_BW] = {
		.name = "ib_read_bw",
		.summary = "RDMA READ bandwidth",
		.verb = BENCH_VERB_READ,
		.measure = BENCH_MEASURE_BW,
		.default_size = 65536,
		.default_iters = 1000,
	},
	[BENCH_TOOL_READ_LAT] = {
		.name = "ib_read_lat",
		.summary = "RDMA READ latency (full round trip)",
		.verb = BENCH_VERB_READ,
		.measure = BENCH_MEASURE_LAT,
		.default_size = 2,
		.default_iters = 1000,
	},
	[BENCH_TOOL_SEND_BW] = {
		.name = "ib_send_bw",
		.summary = "SEND/RECV bandwidth",
		.verb = BENCH_VERB_SEND,
		.measure = BENCH_MEASURE_BW,
		.default_size = 65536,
		.default_iters = 1000,
	},
	[BENCH_TOOL_SEND_LAT] = {
		.name = "ib_send_lat",
		.summary = "SEND/RECV latency (half the ping-pong round trip)",
		.verb = BENCH_VERB_SEND,
		.measure = BENCH_MEASURE_LAT,
		.default_size = 2,
		.default_iters = 1000,
	},
	[BENCH_TOOL_ATOMIC_BW] = {
		.name = "ib_atomic_bw",
		.summary = "atomic bandwidth (FETCH_AND_ADD; -A CMP_AND_SWAP)",
		.verb = BENCH_VERB_ATOMIC_FAA,
		.measure = BENCH_MEASURE_BW,
		.default_size = 8,
		.default_iters = 1000,
	},
	[BENCH_TOOL_ATOMIC_LAT] = {
		.name = "ib_atomic_lat",
		.summary = "atomic latency (full round trip; -A CMP_AND_SWAP)",
		.verb = BENCH_VERB_ATOMIC_FAA,
		.measure = BENCH_MEASURE_LAT,
		.default_size = 8,
		.default_iters = 1000,
	},
};

const struct bench_desc *bench_tool(enum bench_tool tool)
{
	return &tool_rows[tool];
}
