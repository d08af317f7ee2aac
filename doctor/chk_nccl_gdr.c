// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_nccl_gdr - why NCCL ran NET/IB without GDRDMA (staging through host
 * memory): GPU memory cannot be registered here (no nvidia_peermem, no
 * dmabuf), or the GPU<->NIC pair that --use_cuda auto computes
 * (host/gpupair.c) is beyond PXB, NCCL's default NCCL_NET_GDR_LEVEL; when
 * neither, the host allows GDRDMA and NCCL still did not use it: a FAIL.
 */
#include <stdio.h>
#include <string.h>

#include "doctor/chk_nccl.h"
#include "host/gpupair.h"
#include "host/topo.h"

/* The first far pair of NCCL's HCAs with this host's GPUs into out
 * ("mlx5_0 - GPU 0000:cb:00.0: SYS"); false when none is far. */
static bool far_pair(const struct chk_ctx *c, const struct nccl_log *l,
		     char *out, size_t len)
{
	char gpus[GPUPAIR_GPUS_MAX][GPUPAIR_BDF_MAX];
	struct gpupair_nic nics[NCCL_LOG_HCAS];
	struct gpupair pairs[NCCL_LOG_HCAS];
	size_t i, ng = 0;

	for (i = 0; i < c->inv.ngpu && ng < GPUPAIR_GPUS_MAX; i++)
		snprintf(gpus[ng++], GPUPAIR_BDF_MAX, "%s", c->inv.gpus[i].bdf);
	for (i = 0; i < l->n_hca; i++)
		nics[i] = (struct gpupair_nic){ .name = l->hcas[i].name,
						.node = -1 };
	if (!ng || !l->n_hca ||
	    gpupair_plan(c->inv.sysfs, (const char (*)[GPUPAIR_BDF_MAX])gpus,
			 ng, nics, l->n_hca, pairs))
		return false;
	for (i = 0; i < l->n_hca; i++)
		if (pairs[i].far) {
			snprintf(out, len, "%s - GPU %s: %s", nics[i].name,
				 gpus[pairs[i].gpu],
				 topo_link_name(pairs[i].link));
			return true;
		}
	return false;
}

void chk_nccl_gdr(struct chk_ctx *c, const struct nccl_log *l,
		  const char *subject, bool here, const char *paths)
{
	char head[FINDING_TEXT_LEN / 2], pair[96];

	snprintf(head, sizeof(head), "channels: %s: %lu of %lu net "
		 "channel(s) NET/IB without GDRDMA%s", paths,
		 l->paths[NCCL_PATH_IB], nccl_log_net_paths(l),
		 l->paths[NCCL_PATH_IB_GDR] ? " (mixed)" : "");
	if (!here) {
		findings_add(&c->rep, 10, "nccl_path", subject, VERDICT_FAIL,
			     "%s%s%s%s", head, l->gdr_off_hca[0] ?
			     "; the log: GPU Direct RDMA Disabled for HCA '" :
			     "", l->gdr_off_hca, l->gdr_off_hca[0] ? "'" : "");
		findings_fix(&c->rep, "run ib_doctor on %s: its step 8 says "
			     "whether GPU memory can be registered there",
			     l->host[0] ? l->host : "that host");
	} else if (!chk_gpu_registrable(c)) {
		findings_add(&c->rep, 10, "nccl_path", subject, VERDICT_FAIL,
			     "%s: nvidia-peermem not loaded and no dmabuf",
			     head);
		findings_fix(&c->rep, "modprobe nvidia_peermem (or a kernel "
			     ">= 5.12 with NVIDIA's open modules for dmabuf)");
	} else if (far_pair(c, l, pair, sizeof(pair))) {
		findings_add(&c->rep, 10, "nccl_path", subject, VERDICT_WARN,
			     "%s: the pair %s is beyond PXB, NCCL's default "
			     "NCCL_NET_GDR_LEVEL", head, pair);
		findings_fix(&c->rep, "pair GPUs with NICs under one PCIe "
			     "switch (nvidia-smi topo -m), or accept the path "
			     "with NCCL_NET_GDR_LEVEL=SYS");
	} else {
		findings_add(&c->rep, 10, "nccl_path", subject, VERDICT_FAIL,
			     "%s although this host allows it (GPU memory can "
			     "be registered; the pairs are within PXB)", head);
		findings_fix(&c->rep, "look for 'GPU Direct RDMA Disabled' in "
			     "the log; check NCCL_NET_GDR_LEVEL, NCCL_NET_GDR_READ"
			     " and that the container sees nvidia_peermem");
	}
}
