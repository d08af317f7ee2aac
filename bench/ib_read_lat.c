// SPDX-License-Identifier: BSD-2-Clause
/* ib_read_lat - RDMA READ latency (full round trip). */
#include "run/main.h"

int main(int argc, char **argv)
{
	return bench_main(bench_tool(BENCH_TOOL_READ_LAT), argc, argv);
}
