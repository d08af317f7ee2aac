// SPDX-License-Identifier: BSD-2-Clause
/* ib_write_bw - RDMA WRITE bandwidth. */
#include "run/main.h"

int main(int argc, char **argv)
{
	return bench_main(bench_tool(BENCH_TOOL_WRITE_BW), argc, argv);
}
