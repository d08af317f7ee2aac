// SPDX-License-Identifier: BSD-2-Clause
/*
 * verb - the verb table's rows as data. Pure: the opcode column is left
 * out here (it needs verbs.h); xfer.c expands it.
 */
#include "spec/bench.h"

static const struct bench_verb_info verb_rows[BENCH_VERB_COUNT] = {
#define X(e, nm, ttl, op, rgn, end, lat, div, uc, fixed)                     \
	[BENCH_VERB_##e] = { .name = nm, .title = ttl,                       \
			     .region = BENCH_REGION_##rgn,                   \
			     .bw_end = BENCH_END_##end,                      \
			     .lat_mode = BENCH_LAT_##lat, .lat_divisor = div, \
			     .uc_ok = uc, .fixed_size = fixed },
	BENCH_VERBS(X)
#undef X
};

const struct bench_verb_info *bench_verb(enum bench_verb verb)
{
	return &verb_rows[verb];
}

const char *bench_verb_name(enum bench_verb verb)
{
	return verb_rows[verb].name;
}

const char *bench_verb_title(enum bench_verb verb)
{
	return verb_rows[verb].title;
}

unsigned int bench_verb_lat_divisor(enum bench_verb verb)
{
	return verb_rows[verb].lat_divisor;
}
