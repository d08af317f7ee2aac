// SPDX-License-Identifier: BSD-2-Clause
/* ib_send_bw - SEND/RECV bandwidth. */
#include "run/main.h"

int main(int argc, char **argv)
{
	return bench_main(bench_tool(BENCH_TOOL_SEND_BW), argc, argv);
}
