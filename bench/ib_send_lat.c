// SPDX-License-Identifier: BSD-2-Clause
/* ib_send_lat - SEND/RECV latency (half the ping-pong round trip). */
#include "run/main.h"

int main(int argc, char **argv)
{
	return bench_main(bench_tool(BENCH_TOOL_SEND_LAT), argc, argv);
}
