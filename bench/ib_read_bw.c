// SPDX-License-Identifier: BSD-2-Clause
/* ib_read_bw - RDMA READ bandwidth. */
#include "run/main.h"

int main(int argc, char **argv)
{
	return bench_main(bench_tool(BENCH_TOOL_READ_BW), argc, argv);
}
