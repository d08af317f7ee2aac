// SPDX-License-Identifier: BSD-2-Clause
/* role - rank and size from the launching engine (see role.h). */
#include "fabric/role.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>

#include "lib/log.h"
#include "lib/units.h"

#define VARS 3

static const struct engine {
	const char *name;
	const char *rank[VARS];
	const char *size[VARS];
	const char *nodelist[VARS];
	const char *tasks; /* ranks, when that may differ from nodes */
	const char *fix; /* how to launch one rank a node */
} engines[] = {
	{ "slurm",
	  { "SLURM_PROCID" },
	  { "SLURM_STEP_NUM_NODES", "SLURM_NNODES" },
	  { "SLURM_STEP_NODELIST", "SLURM_JOB_NODELIST", "SLURM_NODELIST" },
	  "SLURM_NTASKS",
	  "srun --ntasks-per-node=1" },
	{ "openmpi",
	  { "OMPI_COMM_WORLD_RANK" },
	  { "OMPI_COMM_WORLD_SIZE" },
	  { NULL },
	  NULL,
	  "mpirun -np <nodes> --map-by node" },
	{ "pmi",
	  { "PMI_RANK" },
	  { "PMI_SIZE" },
	  { NULL },
	  NULL,
	  "mpiexec -n <nodes> -ppn 1" },
	{ "k8s",
	  { "JOB_COMPLETION_INDEX" },
	  { NULL },
	  { NULL },
	  NULL,
	  "completions = parallelism = the number of hosts" },
};

static const char *first(const char *const names[VARS], role_getenv_fn get,
			 void *ctx, const char **which)
{
	for (int i = 0; i < VARS && names[i]; i++) {
		const char *v = get(names[i], ctx);

		if (v) {
			*which = names[i];
			return v;
		}
	}
	return NULL;
}

static int number(const char *name, const char *text, unsigned int *v)
{
	uint64_t n;

	if (units_parse_u64(text, 0, INT_MAX, &n)) {
		bench_err("%s=%s: want a whole number", name, text);
		return -EINVAL;
	}
	*v = (unsigned int)n;
	return 0;
}

static int engine_size(const struct engine *e, struct role *r,
		       role_getenv_fn get, void *ctx)
{
	const char *var, *v = first(e->size, get, ctx, &var);
	unsigned int size, tasks;
	int err;

	r->size = -1;
	if (!v)
		return 0;
	err = number(var, v, &size);
	if (err)
		return err;
	r->size = (int)size;
	v = e->tasks ? get(e->tasks, ctx) : NULL;
	if (!v)
		return 0;
	err = number(e->tasks, v, &tasks);
	if (!err && tasks != size) {
		bench_err(
			"%s: %s=%u tasks on %s=%u nodes: run one task a node (%s)",
			e->name, e->tasks, tasks, var, size, e->fix);
		err = -EINVAL;
	}
	return err;
}

int role_from_env(struct role *r, role_getenv_fn get, void *ctx)
{
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++) {
		const struct engine *e = &engines[i];
		const char *var, *v = first(e->rank, get, ctx, &var);
		int err;

		if (!v)
			continue;
		*r = (struct role){ .engine = e->name };
		err = number(var, v, &r->rank);
		if (!err)
			err = engine_size(e, r, get, ctx);
		if (!err && r->size >= 0 && r->rank >= (unsigned int)r->size) {
			bench_err(
				"%s: %s=%u is not below the %d ranks launched",
				e->name, var, r->rank, r->size);
			err = -EINVAL;
		}
		if (!err && e->nodelist[0])
			r->nodelist = first(e->nodelist, get, ctx, &var);
		return err;
	}
	return -ENOENT;
}

int role_explicit(struct role *r, const char *text)
{
	*r = (struct role){ .engine = "--rank", .size = -1 };
	return number("--rank", text, &r->rank);
}

static const char *fix_of(const char *engine)
{
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (engines[i].name == engine)
			return engines[i].fix;
	return "--rank 0..nodes-1";
}

int role_check(const struct role *r, unsigned int nodes)
{
	if (r->size >= 0 && (unsigned int)r->size != nodes) {
		bench_err(
			"%s launched %d ranks for %u nodes in the host list: one rank a node (%s)",
			r->engine, r->size, nodes, fix_of(r->engine));
		return -EINVAL;
	}
	if (r->rank >= nodes) {
		bench_err("%s: rank %u, but the host list has %u nodes (%s)",
			  r->engine, r->rank, nodes, fix_of(r->engine));
		return -EINVAL;
	}
	return 0;
}
