// SPDX-License-Identifier: BSD-2-Clause
/*
 * place_glue - the driver's use of place.c (NUMA, CPUs) and gpu/cuda_drv.c:
 * what each side checks before it connects, and the pinning once the
 * RDMA device is known. Placement is each side's own: --numa, --cpu and
 * --use_cuda apply where they are given.
 */
#include <errno.h>
#include <string.h>

#include "gpu/cuda_drv.h"
#include "rdma/mem.h"
#include "run/cuda_auto.h"
#include "run/place_glue.h"
#include "lib/log.h"

/* A refused --use_cuda auto: no GPU is the user's to fix, no driver not. */
static int bench_auto_err(int ret)
{
	return ret == -ENODEV ? -EINVAL : ret ? -EIO : 0;
}

/* --use_cuda auto: the GPU nearest the device, when it is known yet. */
static int bench_gpu_auto(struct bench_cfg *c)
{
	const char *dev = c->dev_name[0] ? c->dev_name :
			  c->netdev[0] ? c->netdev : NULL;

	return bench_auto_err(cuda_auto_link(c, dev));
}

/* The GPU must be there (driver, device, dmabuf) before anything connects. */
static int bench_gpu_preflight(const struct bench_cfg *c)
{
	struct cuda_ctx *cuda;
	int ret;

	ret = cuda_drv_open(c->use_cuda >= 0 ? (int)c->use_cuda : 0,
			c->cuda_bus_id[0] ? c->cuda_bus_id : NULL, &cuda);
	if (ret)
		return ret == -ENODEV ? -EINVAL : -EIO; /* logged by cuda_drv.c */
	if (c->use_cuda_dmabuf)
		ret = cuda_drv_dmabuf_supported(cuda);
	cuda_drv_close(cuda);
	return ret;
}

/* --numa and --cpu as place.c's request: the same at either call. */
static int place_glue_req(const struct bench_cfg *c, struct place_req *req)
{
	char err[PLACE_MSG_MAX];

	req->cpu_list = c->cpu_list[0] ? c->cpu_list : NULL;
	if (!place_parse_numa(c->numa, req, err, sizeof(err)))
		return 0;
	bench_err("%s", err);
	return -EINVAL;
}

int place_glue_preflight(struct bench_ctx *b)
{
	struct place_req req;
	int ret;

	ret = place_glue_req(&b->cfg, &req);
	if (ret)
		return ret;
	ret = place_allowed_read("/proc/self/status", &b->allowed);
	if (!ret)
		ret = place_decide("/sys", NULL, -1, &req, &b->allowed,
				   &b->place);
	if (ret) {
		bench_err_why(&b->why, "%s", b->place.err);
		return -EINVAL;
	}
	if (b->cfg.mmap_path[0]) { /* before the session: a path's mistake */
		ret = mem_mmap_probe(b->cfg.mmap_path, b->cfg.mmap_offset,
				     &b->why);
		if (ret)
			return ret;
	}
	ret = bench_gpu_auto(&b->cfg);
	if (ret)
		return ret;
	return opts_wants_gpu(&b->cfg) ? bench_gpu_preflight(&b->cfg) : 0;
}

int place_glue_apply(struct bench_ctx *b)
{
	struct place_req req;
	int ret;

	ret = bench_auto_err(cuda_auto_link(&b->cfg, b->dev.name));
	if (!ret)
		ret = place_glue_req(&b->cfg, &req); /* passed at preflight */
	if (ret)
		return ret;
	ret = place_decide("/sys", b->dev.name, -1, &req, &b->allowed,
			   &b->place);
	if (ret) {
		bench_err_why(&b->why, "%s", b->place.err);
		return -EINVAL;
	}
	place_log(&b->place);
	return place_apply(&b->place);
}
