// SPDX-License-Identifier: BSD-2-Clause
/* role - rank and size from the launching engine (see role.h). */
#include "fabric/role.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/log.h"
#include "lib/units.h"

#define VARS 3
#define FIX_LEN 96

/* How each engine launches N ranks a node (role_fix). */
enum role_fixes {
	FIX_SLURM,
	FIX_OPENMPI,
	FIX_PMI,
	FIX_K8S,
	FIX_RANK
};

static const struct engine {
	const char *name;
	const char *rank[VARS];
	const char *size[VARS]; /* the ranks launched */
	const char *nodes[VARS]; /* the nodes spanned, when told */
	const char *nodelist[VARS];
	enum role_fixes fix;
} engines[] = {
	{ "slurm",
	  { "SLURM_PROCID" },
	  { "SLURM_NTASKS" },
	  { "SLURM_STEP_NUM_NODES", "SLURM_NNODES" },
	  { "SLURM_STEP_NODELIST", "SLURM_JOB_NODELIST", "SLURM_NODELIST" },
	  FIX_SLURM },
	{ "openmpi",
	  { "OMPI_COMM_WORLD_RANK" },
	  { "OMPI_COMM_WORLD_SIZE" },
	  { NULL },
	  { NULL },
	  FIX_OPENMPI },
	{ "pmi", { "PMI_RANK" }, { "PMI_SIZE" }, { NULL }, { NULL }, FIX_PMI },
	{ "k8s",
	  { "JOB_COMPLETION_INDEX" },
	  { NULL },
	  { NULL },
	  { NULL },
	  FIX_K8S },
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

/* *out = the first of names that is set, else -1. */
static int count(const char *const names[VARS], role_getenv_fn get, void *ctx,
		 int *out)
{
	const char *var, *v = first(names, get, ctx, &var);
	unsigned int n;
	int err;

	*out = -1;
	if (!v)
		return 0;
	err = number(var, v, &n);
	if (!err)
		*out = (int)n;
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
			err = count(e->size, get, ctx, &r->size);
		if (!err)
			err = count(e->nodes, get, ctx, &r->nodes);
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
	*r = (struct role){ .engine = "--rank", .size = -1, .nodes = -1 };
	return number("--rank", text, &r->rank);
}

/* How r's engine launches nodes x per ranks, in fix. */
static void role_fix(const struct role *r, unsigned int nodes, unsigned int per,
		     char *fix, size_t len)
{
	enum role_fixes k = FIX_RANK;

	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (engines[i].name == r->engine)
			k = engines[i].fix;
	if (k == FIX_SLURM)
		snprintf(fix, len, "srun -N %u --ntasks-per-node=%u", nodes,
			 per);
	else if (k == FIX_OPENMPI)
		snprintf(fix, len, "mpirun -np %u --map-by ppr:%u:node",
			 nodes * per, per);
	else if (k == FIX_PMI)
		snprintf(fix, len, "mpiexec -n %u -ppn %u", nodes * per, per);
	else if (k == FIX_K8S)
		snprintf(fix, len,
			 "completions = parallelism = %u: the hosts "
			 "x --ranks-per-node",
			 nodes * per);
	else
		snprintf(fix, len, "--rank 0..%u", nodes * per - 1);
}

int role_check(const struct role *r, unsigned int nodes, unsigned int per_node)
{
	unsigned int per = per_node ? per_node : 1, total = nodes * per;
	char fix[FIX_LEN];

	role_fix(r, nodes, per, fix, sizeof(fix));
	if (r->nodes >= 0 && (unsigned int)r->nodes != nodes) {
		bench_err("%s spans %d nodes, but the host list has %u: list "
			  "the job's nodes (under srun leave --hosts out; %s)",
			  r->engine, r->nodes, nodes, fix);
		return -EINVAL;
	}
	if (r->size >= 0 && (unsigned int)r->size != total) {
		char other[48] = "";

		if (nodes && r->size > 0 && !((unsigned int)r->size % nodes))
			snprintf(other, sizeof(other),
				 ", or give --ranks-per-node %u",
				 (unsigned int)r->size / nodes);
		bench_err("%s launched %d ranks for %u node(s) x %u rank(s) a "
			  "node (--ranks-per-node %u): launch %u (%s)%s",
			  r->engine, r->size, nodes, per, per, total, fix,
			  other);
		return -EINVAL;
	}
	if (r->rank >= total) {
		bench_err(
			"%s: rank %u, but %u node(s) x %u rank(s) a node make "
			"ranks 0..%u (%s)",
			r->engine, r->rank, nodes, per, total - 1, fix);
		return -EINVAL;
	}
	return 0;
}

unsigned int role_node(const struct role *r, unsigned int per_node)
{
	return r->rank / (per_node ? per_node : 1);
}
