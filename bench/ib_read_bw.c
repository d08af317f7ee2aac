// SPDX-License-Identifier: BSD-2-Clause
/* ib_read_bw - RDMA READ bandwidth. */
#include "run/main.h"

static const struct bench_desc desc = {
	.name = "ib_read_bw",
	.summary = "RDMA READ bandwidth",
	.verb = BENCH_VERB_READ,
	.measure = BENCH_MEASURE_BW,
	.default_size = 65536,
	.default_iters = 1000,
};

int main(int argc, char **argv)
{
	return bench_main(&desc, argc, argv);
}
