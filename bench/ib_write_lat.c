// SPDX-License-Identifier: BSD-2-Clause
/* ib_write_lat - RDMA WRITE latency (half the ping-pong round trip). */
#include "run/main.h"

static const struct bench_desc desc = {
	.name = "ib_write_lat",
	.summary = "RDMA WRITE latency (half the ping-pong round trip)",
	.verb = BENCH_VERB_WRITE,
	.measure = BENCH_MEASURE_LAT,
	.default_size = 2,
	.default_iters = 1000,
};

int main(int argc, char **argv)
{
	return bench_main(&desc, argc, argv);
}
