// SPDX-License-Identifier: BSD-2-Clause
/* fabric_nccl - nccl-tests on this rank, judged (see the header). */
#include "fabric/live/fabric_nccl.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fabric/cli.h"
#include "fabric/ntest.h"
#include "fabric/ntest_json.h"
#include "host/ports.h"
#include "host/rate.h"
#include "lib/afile.h"
#include "lib/fs.h"
#include "lib/log.h"
#include "lib/stop.h"
#include "lib/timer.h"
#include "spec/bench.h"

#define NCCL_KILL_GRACE_MS 5000
#define NCCL_PORTS_MAX 64

/* OUT/nccl_r<rank>_<node>.<ext> */
static void nccl_path(const struct fabric_nccl *n, const char *ext, char *out,
		      size_t len, bool base)
{
	snprintf(out, len, "%s%snccl_r%u_%s.%s", base ? "" : n->out,
		 base ? "" : "/", n->rank, n->node, ext);
}

/* NCCL_DEBUG=INFO, unless the user's is INFO or TRACE already. */
static void debug_env(void)
{
	const char *d = getenv("NCCL_DEBUG");

	if (d && (!strcasecmp(d, "INFO") || !strcasecmp(d, "TRACE")))
		return;
	if (d && *d)
		bench_warn("NCCL_DEBUG=%s: set to INFO, the transport's lines "
			   "are needed",
			   d);
	setenv("NCCL_DEBUG", "INFO", 1);
}

/* In the child: output to the log, then the program. */
static void child(const struct fabric_nccl *n, const char *log)
{
	char **argv = calloc(n->nargs + 2, sizeof(*argv));
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || !argv) {
		bench_err("%s: %s (--out)", log, strerror(errno));
		_exit(BENCH_EXIT_RUNTIME);
	}
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	argv[0] = (char *)n->prog;
	for (unsigned int i = 0; i < n->nargs; i++)
		argv[i + 1] = n->args[i];
	signal(SIGPIPE, SIG_DFL);
	execvp(n->prog, argv);
	fprintf(stderr,
		"ib_fabric: cannot run %s: %s (--nccl-test: a path, "
		"or a name on PATH)\n",
		n->prog, strerror(errno));
	_exit(127);
}

/* Wait for pid until the deadline or a stop, then end it. Its status. */
static int reap(pid_t pid, unsigned int timeout_s)
{
	uint64_t deadline = timer_deadline_ns(timeout_s * 1000ULL), kill_at = 0;
	int st;

	while (waitpid(pid, &st, WNOHANG) != pid) {
		if (!kill_at && (stop_flag || timer_expired(deadline))) {
			bench_warn("--nccl-test: %s: ending the program",
				   stop_flag ? "stopped" : "--timeout passed");
			kill(pid, SIGTERM);
			kill_at = timer_deadline_ns(NCCL_KILL_GRACE_MS);
		} else if (kill_at && timer_expired(kill_at)) {
			kill(pid, SIGKILL);
		}
		timer_sleep_ms(50);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* This node's ACTIVE RDMA ports and their data rates. */
static void nics_read(struct ntest_nics *nics)
{
	struct ports_entry p[NCCL_PORTS_MAX];
	size_t np = ports_active("/", p, NCCL_PORTS_MAX);

	*nics = (struct ntest_nics){ 0 };
	for (size_t i = 0; i < np; i++) {
		char text[128];
		struct rate_link rl;

		if (fs_read("/", text, sizeof(text),
			    "/sys/class/infiniband/%s/ports/%u/rate", p[i].dev,
			    p[i].port) ||
		    rate_parse_sysfs(text, &rl))
			continue;
		nics->ports++;
		nics->sum_gbps += rl.link_gbps;
		if (rl.link_gbps > nics->max_gbps)
			nics->max_gbps = rl.link_gbps;
	}
}

/* The expectation: given, derived, or none (said why). */
static void expectation(const struct fabric_nccl *n, const struct ntest_out *o,
			struct ntest_expect *e, char *why, size_t why_len)
{
	struct ntest_nics nics;
	const char *test = o->test[0] ? o->test : n->prog;
	/* a node's GPUs: its ranks x each rank's (nGpus) */
	unsigned int gpus = n->ranks_per_node * (o->ngpus ? o->ngpus : 1);

	e->busbw = n->expect_gbps;
	e->from = "--expect-busbw";
	if (!n->expect_auto || !o->nrows) /* no table: nothing to gate */
		return;
	nics_read(&nics);
	e->busbw = ntest_derive(ntest_bound_of(test), &nics, n->nodes, gpus,
				FABRIC_BUSBW_FRACTION, why, why_len);
	e->from = why;
	if (e->busbw <= 0)
		bench_warn("--expect-busbw auto: no expectation for %s on %u "
			   "node(s) with %u active RDMA port(s) (one node, no "
			   "port, or a test without a bound): give GB/s",
			   test, n->nodes, nics.ports);
}

static int render(const void *arg, FILE *out)
{
	return ntest_json_write(out, arg);
}

/* The rank's one line: its verdict, figure and transport. */
static void say(const struct fabric_nccl *n, const struct ntest_out *o,
		const struct ntest_judgement *jp, const char *path)
{
	const struct ntest_judgement j = *jp;

	if (o->nrows)
		bench_info("rank %u (%s): %s %s: %zu rows, busbw %.2f GB/s at "
			   "%llu B, NCCL over %s: %s (exit %d); %s",
			   n->rank, n->node, o->test[0] ? o->test : n->prog,
			   ntest_verdict_name(j.verdict), o->nrows, j.busbw,
			   (unsigned long long)j.at_size, ntest_net_name(j.net),
			   j.reason, j.exit_code, path);
	else
		bench_info("rank %u (%s): %s %s: no table (an MPI build prints "
			   "it on rank 0), NCCL over %s: %s (exit %d); %s",
			   n->rank, n->node, n->prog,
			   ntest_verdict_name(j.verdict), ntest_net_name(j.net),
			   j.reason, j.exit_code, path);
}

/* Read the log, judge it, write the document. The exit code. */
static int judge_log(const struct fabric_nccl *n, const char *log, int status)
{
	struct ntest_out *o = calloc(1, sizeof(*o));
	struct ntest_judgement j;
	struct ntest_expect e = { .table_due = n->rank == 0,
				  .exit_status = status };
	char why[256], path[PATH_MAX], base[PATH_MAX];
	struct ntest_doc d = { .rank = n->rank,
			       .ranks_per_node = n->ranks_per_node,
			       .node = n->node,
			       .engine = n->engine,
			       .program = n->prog,
			       .log = base,
			       .hl = n->hl,
			       .o = o,
			       .e = &e,
			       .j = &j };
	FILE *f = fopen(log, "r");

	if (!o || !f || ntest_read((ntest_init(o), o), f)) {
		bench_err("%s: cannot read the program's output", log);
		free(o);
		if (f)
			fclose(f);
		return BENCH_EXIT_RUNTIME;
	}
	fclose(f);
	expectation(n, o, &e, why, sizeof(why));
	ntest_judge(o, &e, &j);
	nccl_path(n, "log", base, sizeof(base), true);
	nccl_path(n, "json", path, sizeof(path), false);
	if (afile_write(path, render, &d))
		j.exit_code = BENCH_EXIT_RUNTIME;
	say(n, o, &j, path);
	free(o);
	return j.exit_code;
}

int fabric_nccl_run(const struct fabric_nccl *n)
{
	char log[PATH_MAX];
	pid_t pid;

	nccl_path(n, "log", log, sizeof(log), false);
	debug_env();
	pid = fork();
	if (pid < 0) {
		bench_err("fork: %s", strerror(errno));
		return BENCH_EXIT_RUNTIME;
	}
	if (!pid)
		child(n, log);
	return judge_log(n, log, reap(pid, n->timeout_s));
}
