// SPDX-License-Identifier: BSD-2-Clause
/* ib_send_bw - SEND/RECV bandwidth. */
#include "run/main.h"

static const struct bench_desc desc = {
	.name = "ib_send_bw",
	.summary = "SEND/RECV bandwidth",
	.verb = BENCH_VERB_SEND,
	.measure = BENCH_MEASURE_BW,
	.default_size = 65536,
	.default_iters = 1000,
};

int main(int argc, char **argv)
{
	return bench_main(&desc, argc, argv);
}
