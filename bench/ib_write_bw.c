// SPDX-License-Identifier: BSD-2-Clause
/* ib_write_bw - RDMA WRITE bandwidth. */
#include "run/main.h"

static const struct bench_desc desc = {
	.name = "ib_write_bw",
	.summary = "RDMA WRITE bandwidth",
	.verb = BENCH_VERB_WRITE,
	.measure = BENCH_MEASURE_BW,
	.default_size = 65536,
	.default_iters = 5000,
};

int main(int argc, char **argv)
{
	return bench_main(&desc, argc, argv);
}
