// SPDX-License-Identifier: BSD-2-Clause
/* ib_write_lat - RDMA WRITE latency (half the ping-pong round trip). */
#include "run/main.h"

int main(int argc, char **argv)
{
	return bench_main(bench_tool(BENCH_TOOL_WRITE_LAT), argc, argv);
}
