// SPDX-License-Identifier: BSD-2-Clause
/* ib_fabric - many nodes at once: a traffic pattern over a host list. */
#include "fabric/live/fabric.h"

int main(int argc, char **argv)
{
	return fabric_main(argc, argv);
}
