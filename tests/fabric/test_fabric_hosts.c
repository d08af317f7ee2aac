// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_fabric_hosts - fabric/hostlist.c (ranges with their zero padding,
 * several groups, lists, hosts files, refusals) and fabric/role.c (the
 * rank and size of each engine from a table of environment variables,
 * Slurm's node list, the checks against a host list), then a whole
 * resolution: rank -> node name -> what it runs in each round.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fabric/hostlist.h"
#include "fabric/plan.h"
#include "fabric/role.h"
#include "tests/test.h"

/* "a,b,c" joined names of hl, in buf */
#define joined(hl) joined_((hl), (char[4096]){ 0 }, 4096)
static const char *joined_(const struct hostlist *hl, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < hl->n && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "," : "",
				      hl->h[i].name);
	return buf;
}

static void expect_hosts(const char *spec, int rc, const char *names)
{
	struct hostlist hl = { 0 };

	EXPECT_EQ_INT(hostlist_parse(&hl, spec), rc);
	if (!rc)
		EXPECT_STREQ(joined(&hl), names);
	hostlist_free(&hl);
}

static void test_ranges(void)
{
	expect_hosts("a,b,c", 0, "a,b,c");
	expect_hosts("node-[01-03]", 0, "node-01,node-02,node-03");
	expect_hosts("n[1-3,7]", 0, "n1,n2,n3,n7");
	expect_hosts("node-[01-03,07],gpu7", 0,
		     "node-01,node-02,node-03,node-07,gpu7");
	expect_hosts("n[8-10]", 0, "n8,n9,n10");
	expect_hosts("n[098-101]x", 0, "n098x,n099x,n100x,n101x");
	expect_hosts("r[1-2]n[1-2]", 0, "r1n1,r1n2,r2n1,r2n2");
	expect_hosts("job-[0-2].svc", 0, "job-0.svc,job-1.svc,job-2.svc");
	expect_hosts("a,,b", -EINVAL, NULL);
	expect_hosts("a,", -EINVAL, NULL);
	expect_hosts("n[3-1]", -EINVAL, NULL);
	expect_hosts("n[1-2", -EINVAL, NULL);
	expect_hosts("n1-2]", -EINVAL, NULL);
	expect_hosts("n[]", -EINVAL, NULL);
	expect_hosts("n[a-b]", -EINVAL, NULL);
	expect_hosts("n[1-2],n2", -EINVAL, NULL);
	expect_hosts("n[0-5000]", -E2BIG, NULL);
}

static void test_file(void)
{
	char path[] = "/tmp/test_fabric_hostsXXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	struct hostlist hl = { 0 };

	EXPECT_TRUE(f != NULL);
	if (!f)
		return;
	fputs("# the rack\nnode-a 10.0.0.1\n\n  node-b\t10.0.0.2 # b\nnode-[c-d]\n",
	      f);
	fclose(f);
	EXPECT_EQ_INT(hostlist_read_file(&hl, path), -EINVAL);
	hostlist_free(&hl);
	f = fopen(path, "w");
	fputs("# the rack\nnode-a 10.0.0.1\n\n  node-b\t10.0.0.2 # b\nnode-[01-02]\n",
	      f);
	fclose(f);
	EXPECT_EQ_INT(hostlist_read_file(&hl, path), 0);
	EXPECT_STREQ(joined(&hl), "node-a,node-b,node-01,node-02");
	EXPECT_STREQ(hostlist_addr(&hl, 1), "10.0.0.2");
	EXPECT_STREQ(hostlist_addr(&hl, 2), "node-01");
	EXPECT_EQ_INT(hostlist_find(&hl, "node-b"), 1);
	EXPECT_EQ_INT(hostlist_find(&hl, "node-01.cluster.local"), 2);
	EXPECT_EQ_INT(hostlist_find(&hl, "node"), -ENOENT);
	hostlist_free(&hl);
	f = fopen(path, "w");
	fputs("node-a 10.0.0.1 extra\n", f);
	fclose(f);
	EXPECT_EQ_INT(hostlist_read_file(&hl, path), -EINVAL);
	hostlist_free(&hl);
	unlink(path);
	EXPECT_EQ_INT(hostlist_read_file(&hl, path), -ENOENT);
}

/* the environment of a test: "NAME=VALUE" strings, NULL-terminated */
static const char *table_get(const char *name, void *ctx)
{
	size_t len = strlen(name);

	for (const char **e = ctx; *e; e++)
		if (!strncmp(*e, name, len) && (*e)[len] == '=')
			return *e + len + 1;
	return NULL;
}

static void test_engines(void)
{
	const char *none[] = { "HOME=/root", NULL };
	const char *ompi[] = { "OMPI_COMM_WORLD_RANK=2",
			       "OMPI_COMM_WORLD_SIZE=4", NULL };
	const char *pmi[] = { "PMI_RANK=1", "PMI_SIZE=3", NULL };
	const char *k8s[] = { "JOB_COMPLETION_INDEX=5", NULL };
	const char *bad[] = { "OMPI_COMM_WORLD_RANK=x", NULL };
	const char *past[] = { "OMPI_COMM_WORLD_RANK=4",
			       "OMPI_COMM_WORLD_SIZE=4", NULL };
	struct role r;

	EXPECT_EQ_INT(role_from_env(&r, table_get, none), -ENOENT);
	EXPECT_EQ_INT(role_from_env(&r, table_get, ompi), 0);
	EXPECT_STREQ(r.engine, "openmpi");
	EXPECT_TRUE(r.rank == 2 && r.size == 4 && !r.nodelist);
	EXPECT_EQ_INT(role_check(&r, 4, 1), 0);
	EXPECT_EQ_INT(role_check(&r, 3, 1), -EINVAL);
	EXPECT_EQ_INT(role_from_env(&r, table_get, pmi), 0);
	EXPECT_TRUE(!strcmp(r.engine, "pmi") && r.rank == 1 && r.size == 3);
	EXPECT_EQ_INT(role_from_env(&r, table_get, k8s), 0);
	EXPECT_TRUE(!strcmp(r.engine, "k8s") && r.rank == 5 && r.size == -1);
	EXPECT_EQ_INT(role_check(&r, 6, 1), 0);
	EXPECT_EQ_INT(role_check(&r, 5, 1), -EINVAL);
	EXPECT_EQ_INT(role_from_env(&r, table_get, bad), -EINVAL);
	EXPECT_EQ_INT(role_from_env(&r, table_get, past), -EINVAL);
	EXPECT_EQ_INT(role_explicit(&r, "3"), 0);
	EXPECT_TRUE(r.rank == 3 && r.size == -1);
	EXPECT_EQ_INT(role_explicit(&r, "-1"), -EINVAL);
	EXPECT_EQ_INT(role_explicit(&r, ""), -EINVAL);
}

/* srun --ntasks-per-node=1 on 5 nodes, this task the 4th: node-07, which
 * in a ring serves node-03 and is the client of gpu7 */
static void test_slurm(void)
{
	const char *env[] = { "SLURM_PROCID=3", "SLURM_NNODES=5",
			      "SLURM_NTASKS=5",
			      "SLURM_JOB_NODELIST=node-[01-03,07],gpu7", NULL };
	const char *step[] = { "SLURM_PROCID=0",
			       "SLURM_NNODES=9",
			       "SLURM_STEP_NUM_NODES=2",
			       "SLURM_STEP_NODELIST=n[1-2]",
			       "SLURM_JOB_NODELIST=n[1-9]",
			       NULL };
	const char *many[] = { "SLURM_PROCID=0", "SLURM_NNODES=2",
			       "SLURM_NTASKS=4", NULL };
	struct hostlist hl = { 0 };
	struct role r;
	struct plan pl;
	unsigned int k, serves = 0, clients = 0;
	const struct plan_link *l;

	EXPECT_EQ_INT(role_from_env(&r, table_get, env), 0);
	EXPECT_STREQ(r.engine, "slurm");
	EXPECT_TRUE(r.rank == 3 && r.size == 5 && r.nodes == 5);
	EXPECT_STREQ(r.nodelist, "node-[01-03,07],gpu7");
	EXPECT_EQ_INT(hostlist_parse(&hl, r.nodelist), 0);
	EXPECT_EQ_INT(role_check(&r, hl.n, 1), 0);
	EXPECT_STREQ(hl.h[r.rank].name, "node-07");
	EXPECT_EQ_INT(plan_build(&pl, PLAN_RING, hl.n, 1, 18515), 0);
	l = plan_round(&pl, 0, &k);
	for (unsigned int i = 0; i < k; i++) {
		if (l[i].server == r.rank) {
			serves++;
			EXPECT_STREQ(hl.h[l[i].client].name, "node-03");
			EXPECT_EQ_INT(l[i].port, 18515);
		}
		if (l[i].client == r.rank) {
			clients++;
			EXPECT_STREQ(hl.h[l[i].server].name, "gpu7");
		}
	}
	EXPECT_TRUE(serves == 1 && clients == 1);
	plan_free(&pl);
	hostlist_free(&hl);
	EXPECT_EQ_INT(role_from_env(&r, table_get, step), 0);
	EXPECT_TRUE(r.nodes == 2 && r.size == -1 &&
		    !strcmp(r.nodelist, "n[1-2]"));
	EXPECT_EQ_INT(role_check(&r, 2, 1), 0);
	EXPECT_EQ_INT(role_check(&r, 9, 1), -EINVAL); /* the job's 9 */
	/* 4 tasks on 2 nodes: one a node refuses, two a node takes */
	EXPECT_EQ_INT(role_from_env(&r, table_get, many), 0);
	EXPECT_EQ_INT(role_check(&r, 2, 1), -EINVAL);
	EXPECT_EQ_INT(role_check(&r, 2, 2), 0);
}

/* all-to-all over n nodes: rank is a client once and a server once in
 * each round, and of every other node over the rounds */
static void expect_all_to_all_roles(unsigned int rank, unsigned int n)
{
	struct plan pl;
	unsigned int k, to = 0, from = 0;

	EXPECT_EQ_INT(plan_build(&pl, PLAN_ALL_TO_ALL, n, 1, 18515), 0);
	EXPECT_EQ_INT(pl.rounds, n - 1);
	for (unsigned int round = 0; round < pl.rounds; round++) {
		const struct plan_link *l = plan_round(&pl, round, &k);
		unsigned int c = 0, sv = 0;

		for (unsigned int i = 0; i < k; i++) {
			c += l[i].client == rank;
			sv += l[i].server == rank;
			to |= l[i].client == rank ? 1u << l[i].server : 0;
			from |= l[i].server == rank ? 1u << l[i].client : 0;
		}
		EXPECT_TRUE(c == 1 && sv == 1);
	}
	EXPECT_TRUE(to == from && to == ((1u << n) - 1 - (1u << rank)));
	plan_free(&pl);
}

/* srun under an older Slurm (SLURM_NODELIST only, no SLURM_NTASKS) on 3
 * nodes, this task the last (node-3); a SLURM_PROCID past them refused */
static void test_slurm_all_to_all(void)
{
	const char *old[] = { "SLURM_PROCID=2", "SLURM_NNODES=3",
			      "SLURM_NODELIST=node-[1-3]", NULL };
	const char *past[] = { "SLURM_PROCID=3", "SLURM_NNODES=3",
			       "SLURM_NODELIST=node-[1-3]", NULL };
	struct hostlist nodes = { 0 };
	struct role me;

	EXPECT_EQ_INT(role_from_env(&me, table_get, old), 0);
	EXPECT_TRUE(me.rank == 2 && me.nodes == 3 && me.size == -1 &&
		    !strcmp(me.engine, "slurm"));
	EXPECT_STREQ(me.nodelist, "node-[1-3]");
	EXPECT_EQ_INT(hostlist_parse(&nodes, me.nodelist), 0);
	EXPECT_EQ_INT(role_check(&me, nodes.n, 1), 0);
	EXPECT_STREQ(nodes.h[me.rank].name, "node-3");
	expect_all_to_all_roles(me.rank, nodes.n);
	/* without SLURM_NTASKS a rank past the nodes x 1 is role_check's */
	EXPECT_EQ_INT(role_from_env(&me, table_get, past), 0);
	EXPECT_EQ_INT(role_check(&me, nodes.n, 1), -EINVAL);
	hostlist_free(&nodes);
}

/*
 * --ranks-per-node 2: two GPUs a node, one rank each, ranks filling a
 * node before the next. Each launcher's count is nodes x 2; rank r's
 * node is r / 2; other counts are refused.
 */
static void test_ranks_per_node(void)
{
	const char *ompi[] = { "OMPI_COMM_WORLD_RANK=3",
			       "OMPI_COMM_WORLD_SIZE=4", NULL };
	const char *ompi_one[] = { "OMPI_COMM_WORLD_RANK=1",
				   "OMPI_COMM_WORLD_SIZE=2", NULL };
	const char *slurm[] = { "SLURM_PROCID=2", "SLURM_NNODES=2",
				"SLURM_NTASKS=4",
				"SLURM_JOB_NODELIST=gpu-[1-2]", NULL };
	const char *slurm_odd[] = { "SLURM_PROCID=0", "SLURM_NNODES=2",
				    "SLURM_NTASKS=3", NULL };
	const char *k8s[] = { "JOB_COMPLETION_INDEX=3", NULL };
	const char *k8s_past[] = { "JOB_COMPLETION_INDEX=4", NULL };
	struct role r;

	/* mpirun -np 4 --map-by ppr:2:node on 2 nodes: rank 3 on node 1 */
	EXPECT_EQ_INT(role_from_env(&r, table_get, ompi), 0);
	EXPECT_EQ_INT(role_check(&r, 2, 2), 0);
	EXPECT_EQ_INT(role_node(&r, 2), 1);
	EXPECT_EQ_INT(role_check(&r, 2, 1), -EINVAL); /* 4 ranks, 2 nodes */
	EXPECT_EQ_INT(role_check(&r, 4, 2), -EINVAL); /* 4 ranks, want 8 */
	/* one host, two GPUs: mpirun -np 2 --map-by ppr:2:node */
	EXPECT_EQ_INT(role_from_env(&r, table_get, ompi_one), 0);
	EXPECT_EQ_INT(role_check(&r, 1, 2), 0);
	EXPECT_EQ_INT(role_node(&r, 2), 0);
	EXPECT_EQ_INT(role_check(&r, 1, 1), -EINVAL);
	/* srun -N 2 --ntasks-per-node=2: task 2 on gpu-2 */
	EXPECT_EQ_INT(role_from_env(&r, table_get, slurm), 0);
	EXPECT_TRUE(r.size == 4 && r.nodes == 2);
	EXPECT_EQ_INT(role_check(&r, 2, 2), 0);
	EXPECT_EQ_INT(role_node(&r, 2), 1);
	EXPECT_EQ_INT(role_check(&r, 3, 2), -EINVAL); /* the step's 2 */
	EXPECT_EQ_INT(role_from_env(&r, table_get, slurm_odd), 0);
	EXPECT_EQ_INT(role_check(&r, 2, 2), -EINVAL); /* 3 tasks, want 4 */
	/* an Indexed Job of completions 4 over 2 hosts */
	EXPECT_EQ_INT(role_from_env(&r, table_get, k8s), 0);
	EXPECT_EQ_INT(role_check(&r, 2, 2), 0);
	EXPECT_EQ_INT(role_node(&r, 2), 1);
	EXPECT_EQ_INT(role_from_env(&r, table_get, k8s_past), 0);
	EXPECT_EQ_INT(role_check(&r, 2, 2), -EINVAL);
	/* --rank: up to nodes x 2 - 1 */
	EXPECT_EQ_INT(role_explicit(&r, "1"), 0);
	EXPECT_EQ_INT(role_check(&r, 1, 2), 0);
	EXPECT_EQ_INT(role_node(&r, 2), 0);
	EXPECT_EQ_INT(role_explicit(&r, "2"), 0);
	EXPECT_EQ_INT(role_check(&r, 1, 2), -EINVAL);
}

int main(void)
{
	test_ranges();
	test_file();
	test_engines();
	test_slurm();
	test_slurm_all_to_all();
	test_ranks_per_node();
	return test_finish("test_fabric_hosts");
}
