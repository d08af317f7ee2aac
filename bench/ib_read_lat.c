// SPDX-License-Identifier: BSD-2-Clause
/* ib_read_lat - RDMA READ latency (full round trip). */
#include "run/main.h"

static const struct bench_desc desc = {
	.name = "ib_read_lat",
	.summary = "RDMA READ latency (full round trip)",
	.verb = BENCH_VERB_READ,
	.measure = BENCH_MEASURE_LAT,
	.default_size = 2,
	.default_iters = 1000,
};

int main(int argc, char **argv)
{
	return bench_main(&desc, argc, argv);
}
