// SPDX-License-Identifier: BSD-2-Clause
/* ib_atomic_lat - atomic latency (full round trip; -A CMP_AND_SWAP). */
#include "run/main.h"

static const struct bench_desc desc = {
	.name = "ib_atomic_lat",
	.summary = "atomic latency (full round trip; -A CMP_AND_SWAP)",
	.verb = BENCH_VERB_ATOMIC_FAA,
	.measure = BENCH_MEASURE_LAT,
	.default_size = 8,
	.default_iters = 1000,
};

int main(int argc, char **argv)
{
	return bench_main(&desc, argc, argv);
}
