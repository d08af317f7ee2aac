/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * role - which node of the plan this process is, from the engine that
 * launched it: its rank, the number of ranks, and for Slurm the node list.
 * The engines, first match wins (a table in role.c):
 *   slurm   SLURM_PROCID; SLURM_NTASKS; SLURM_STEP_NUM_NODES or
 *           SLURM_NNODES; the nodes from SLURM_STEP_NODELIST,
 *           SLURM_JOB_NODELIST or SLURM_NODELIST (compressed:
 *           "node-[01-03,07],gpu7")
 *   openmpi OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE
 *   pmi     PMI_RANK, PMI_SIZE (MPICH, Intel MPI: Hydra)
 *   k8s     JOB_COMPLETION_INDEX (an Indexed Job); the size is the host
 *           list's (the pods' names, e.g. "job-[0-7].svc") x the ranks a
 *           node
 * With N ranks a node (--ranks-per-node), rank r runs on the host list's
 * node r / N: ranks fill a node before the next (Open MPI's --map-by
 * ppr:N:node, srun's block distribution).
 * Explicit --rank overrides them all (role_explicit). Variables are read
 * through a callback so tests give a table instead of the environment.
 * Pure. Errors are logged here with the variable and its value.
 */
#ifndef RDMABENCH_FABRIC_ROLE_H
#define RDMABENCH_FABRIC_ROLE_H

/* The value of variable name, or NULL (getenv, or a test's table). */
typedef const char *(*role_getenv_fn)(const char *name, void *ctx);

struct role {
	const char *engine; /* "slurm", "openmpi", "pmi", "k8s", "--rank" */
	unsigned int rank;
	int size; /* ranks launched; -1: not told (k8s, --rank) */
	int nodes; /* nodes the launcher spans (Slurm); -1: not told */
	const char *nodelist; /* Slurm's node list, or NULL */
};

/*
 * Fill r from the first engine whose rank variable is set. -ENOENT (not
 * logged) when none is; -EINVAL (logged) for a value that is not a
 * number or a rank not below the size. The counts against the host list
 * are role_check's.
 */
int role_from_env(struct role *r, role_getenv_fn get, void *ctx);

/* --rank TEXT: -EINVAL (logged) when not a number. */
int role_explicit(struct role *r, const char *text);

/*
 * The role against nodes nodes of per_node ranks each: -EINVAL (logged,
 * with the launcher's fix) when the engine launched another number of
 * ranks than nodes x per_node, Slurm's step spans another number of
 * nodes, or the rank is past them.
 */
int role_check(const struct role *r, unsigned int nodes, unsigned int per_node);

/* The host list's index of r's node: rank / per_node. */
unsigned int role_node(const struct role *r, unsigned int per_node);

#endif
