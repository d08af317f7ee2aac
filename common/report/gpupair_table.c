// SPDX-License-Identifier: BSD-2-Clause
/*
 * gpupair_table - the GPU-per-rail table (gpupair_table.h).
 */
#include <stdio.h>

#include "report/gpupair_table.h"

/* A NUMA node, or "-" when unknown. */
static const char *gpupair_table_node(int node, char *buf, size_t len)
{
	if (node < 0)
		return "-";
	snprintf(buf, len, "%d", node);
	return buf;
}

void gpupair_table_print(FILE *out, const struct gpupair_table_row *rows,
			 size_t n)
{
	char a[16], b[16];
	size_t i;

	fprintf(out, "--- GPU per rail (--use_cuda auto) ---\n");
	fprintf(out, " %4s  %-16s %3s  %-12s  %-7s  %s\n", "rail", "NIC",
		"GPU", "bus id", "PCIe", "NUMA NIC/GPU");
	for (i = 0; i < n; i++) {
		const struct gpupair *p = rows[i].pair;

		fprintf(out, " %4zu  %-16s %3d  %-12s  %-7s  %s/%s%s\n", i,
			rows[i].nic, p->gpu, rows[i].gpu_bdf,
			topo_link_name(p->link),
			gpupair_table_node(p->nic_node, a, sizeof(a)),
			gpupair_table_node(p->gpu_node, b, sizeof(b)),
			p->far ? "  beyond the NIC's switch" : "");
	}
}
