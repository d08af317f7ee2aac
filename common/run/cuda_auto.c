// SPDX-License-Identifier: BSD-2-Clause
/*
 * cuda_auto - --use_cuda auto (cuda_auto.h).
 */
#include <errno.h>
#include <stdio.h>

#include "gpu/cuda_drv.h"
#include "host/gpupair.h"
#include "lib/fs.h"
#include "lib/log.h"
#include "report/gpupair_table.h"
#include "run/cuda_auto.h"

struct cuda_auto_gpus {
	char ids[GPUPAIR_GPUS_MAX][CUDA_BUS_ID_MAX];
	size_t n;
};

/* GPUPAIR_BDF_MAX is the bus ids' size in both headers. */
_Static_assert(GPUPAIR_BDF_MAX == CUDA_BUS_ID_MAX, "bus id sizes differ");

/* The driver's GPUs; none is the user's to fix (-ENODEV). */
static int cuda_auto_list(struct cuda_auto_gpus *g)
{
	int ret;

	ret = cuda_drv_list(CUDA_LIB_NAME, g->ids, GPUPAIR_GPUS_MAX, &g->n);
	if (!ret && !g->n) {
		bench_err("--use_cuda auto: the CUDA driver shows no GPU: "
			  "check nvidia-smi and CUDA_VISIBLE_DEVICES, or drop "
			  "--use_cuda to measure host memory");
		ret = -ENODEV;
	}
	return ret;
}

static void cuda_auto_fill(struct cuda_auto_pick *pick,
			   const struct cuda_auto_gpus *g,
			   const struct gpupair *p)
{
	pick->ordinal = p->gpu;
	pick->link = p->link;
	fs_copy(pick->bus_id, sizeof(pick->bus_id), g->ids[p->gpu]);
}

static void cuda_auto_warn(const struct gpupair *p, const char *nic,
			   const char *bdf)
{
	char msg[GPUPAIR_MSG_MAX];

	gpupair_warn(p, nic, bdf, msg, sizeof(msg));
	if (msg[0])
		bench_warn("%s", msg);
}

int cuda_auto_rails(const struct rails *rl, struct cuda_auto_pick *picks,
		    FILE *out)
{
	struct gpupair_table_row rows[RAILS_MAX];
	struct gpupair_nic nics[RAILS_MAX];
	struct gpupair pairs[RAILS_MAX];
	struct cuda_auto_gpus g;
	size_t i;
	int ret;

	ret = cuda_auto_list(&g);
	if (ret)
		return ret;
	for (i = 0; i < rl->n; i++)
		nics[i] = (struct gpupair_nic){ rl->items[i].name,
						rl->items[i].node };
	gpupair_plan("/sys", (const char (*)[GPUPAIR_BDF_MAX])g.ids, g.n,
		     nics, rl->n, pairs);
	for (i = 0; i < rl->n; i++) {
		cuda_auto_fill(&picks[i], &g, &pairs[i]);
		rows[i] = (struct gpupair_table_row){ rl->items[i].name,
						      picks[i].bus_id,
						      &pairs[i] };
	}
	gpupair_table_print(out, rows, rl->n);
	for (i = 0; i < rl->n; i++)
		cuda_auto_warn(&pairs[i], rl->items[i].name, picks[i].bus_id);
	return 0;
}

void cuda_auto_set(struct bench_cfg *c, const struct cuda_auto_pick *pick)
{
	c->use_cuda = pick->ordinal;
	fs_copy(c->cuda_bus_id, sizeof(c->cuda_bus_id), pick->bus_id);
}

int cuda_auto_link(struct bench_cfg *c, const char *dev)
{
	struct gpupair_nic nic = { dev, -1 };
	struct cuda_auto_pick pick;
	struct cuda_auto_gpus g;
	struct gpupair p;
	int ret;

	if (c->use_cuda != OPTS_CUDA_AUTO)
		return 0;
	ret = cuda_auto_list(&g);
	if (ret || !dev || !dev[0])
		return ret;
	gpupair_plan("/sys", (const char (*)[GPUPAIR_BDF_MAX])g.ids, g.n,
		     &nic, 1, &p);
	cuda_auto_fill(&pick, &g, &p);
	cuda_auto_set(c, &pick);
	bench_info("--use_cuda auto: GPU %d (%s), %s to %s", pick.ordinal,
		   pick.bus_id, topo_link_name(p.link), dev);
	cuda_auto_warn(&p, dev, pick.bus_id);
	return 0;
}
