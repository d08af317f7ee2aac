// SPDX-License-Identifier: BSD-2-Clause
/* ib_atomic_bw - atomic bandwidth (FETCH_AND_ADD; -A CMP_AND_SWAP). */
#include "run/main.h"

int main(int argc, char **argv)
{
	return bench_main(bench_tool(BENCH_TOOL_ATOMIC_BW), argc, argv);
}
