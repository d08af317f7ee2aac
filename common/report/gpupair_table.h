/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * gpupair_table - the table --use_cuda auto prints before a --rails run:
 * which GPU holds each rail's buffers and how far it is from the rail's
 * NIC (host/gpupair.h). Pure: prints only to the FILE given.
 *
 *  --- GPU per rail (--use_cuda auto) ---
 *   rail  NIC        GPU  bus id        PCIe  NUMA NIC/GPU
 *      0  mlx5_0       0  0000:15:00.0  PIX   0/0
 *      1  mlx5_8       1  0000:19:00.0  PHB   0/0  beyond the NIC's switch
 */
#ifndef RDMABENCH_REPORT_GPUPAIR_TABLE_H
#define RDMABENCH_REPORT_GPUPAIR_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "host/gpupair.h"

struct gpupair_table_row {
	const char *nic;               /* the rail's name */
	const char *gpu_bdf;           /* its GPU's bus id */
	const struct gpupair *pair;
};

void gpupair_table_print(FILE *out, const struct gpupair_table_row *rows,
			 size_t n);

#endif
