// SPDX-License-Identifier: BSD-2-Clause
/* fabric_exec - run this rank's rounds (see the header). */
#include "fabric/live/fabric_exec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/log.h"
#include "lib/stop.h"
#include "lib/timer.h"
#include "report/verdict.h"
#include "spec/bench.h"

struct proc {
	pid_t pid;
	const struct plan_link *l;
	bool server;
	bool ended; /* ib_fabric sent it SIGTERM */
	int code; /* exit code; 128 + signal */
};

/* In the child: output to the side's log, then the tool. */
static void child(const struct fabric_exec *e, const struct proc *p,
		  const struct linkcmd *c)
{
	char file[HOSTLIST_NAME_LEN * 2 + 32], path[PATH_MAX];
	int fd;

	linkcmd_file(file, sizeof(file), e->x->hosts, p->l);
	file[strlen(file) - strlen(".json")] = '\0';
	snprintf(path, sizeof(path), "%s/%s.%s.log", e->x->out_dir, file,
		 p->server ? "server" : "client");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
	}
	signal(SIGPIPE, SIG_DFL);
	execvp(c->argv[0], (char *const *)c->argv);
	bench_err("cannot run %s: %s (--tool)", c->argv[0], strerror(errno));
	_exit(127);
}

static int spawn(const struct fabric_exec *e, struct proc *p)
{
	struct linkcmd c;
	int err = linkcmd_build(&c, e->x, p->l, p->server);

	if (err)
		return err;
	p->pid = fork();
	if (p->pid < 0) {
		err = -errno;
		bench_err("fork: %s", strerror(-err));
		return err;
	}
	if (!p->pid)
		child(e, p, &c);
	return 0;
}

/* Reap procs until all exited; past deadline_ns or on a stop, kill them. */
static void wait_all(struct proc *procs, unsigned int n, uint64_t deadline_ns)
{
	unsigned int left = n;
	bool killed = false;

	while (left) {
		for (unsigned int i = 0; i < n; i++) {
			int st;

			if (procs[i].pid <= 0 ||
			    waitpid(procs[i].pid, &st, WNOHANG) != procs[i].pid)
				continue;
			procs[i].code = WIFEXITED(st) ? WEXITSTATUS(st) :
							128 + WTERMSIG(st);
			procs[i].pid = 0;
			left--;
		}
		if (left && !killed &&
		    (stop_flag || timer_expired(deadline_ns))) {
			bench_warn(
				"round deadline or stop: ending %u tool process(es)",
				left);
			for (unsigned int i = 0; i < n; i++)
				if (procs[i].pid > 0) {
					kill(procs[i].pid, SIGTERM);
					procs[i].ended = true;
				}
			killed = true;
		}
		if (left)
			timer_sleep_ms(20);
	}
}

/* The round's verdict for this rank, each failed side named. */
static int round_code(const struct fabric_exec *e, const struct proc *procs,
		      unsigned int n)
{
	int code = BENCH_EXIT_OK;

	for (unsigned int i = 0; i < n; i++) {
		const struct plan_link *l = procs[i].l;
		int c = procs[i].code;

		/* a server ended after its client: the client has the verdict */
		if (c == BENCH_EXIT_OK || (procs[i].server && procs[i].ended))
			continue;
		bench_warn(
			"round %u: %s -> %s stream %u port %u: %s exit %d (%s)",
			l->round, e->x->hosts->h[l->client].name,
			e->x->hosts->h[l->server].name, l->stream, l->port,
			procs[i].server ? "server" : "client", c,
			verdict_exit_meaning(c));
		code = verdict_exit_worse(code, procs[i].server &&
					  c == BENCH_EXIT_GATE ?
					  BENCH_EXIT_RUNTIME : c);
	}
	return code;
}

/* Start this rank's sides of round r: its ns servers, then its clients. */
static int start_round(const struct fabric_exec *e, unsigned int r,
		       struct proc *procs, unsigned int *n, unsigned int *ns)
{
	unsigned int k;
	const struct plan_link *l = plan_round(e->pl, r, &k);
	int err = 0;

	*n = *ns = 0;
	for (int server = 1; server >= 0; server--) {
		for (unsigned int i = 0; i < k && !err; i++) {
			if ((server ? l[i].server : l[i].client) != e->rank)
				continue;
			procs[*n] =
				(struct proc){ .l = &l[i], .server = server };
			err = spawn(e, &procs[*n]);
			*n += !err;
		}
		if (server)
			*ns = *n;
	}
	return err;
}

/*
 * One round: this rank's clients end, then every rank's (the first
 * barrier), then its servers get FABRIC_SERVER_GRACE_MS to end by
 * themselves: a server whose client died early is ended then, not at
 * the round's deadline. *lost: the barrier failed.
 */
static int run_round(const struct fabric_exec *e, unsigned int r,
		     struct proc *procs, struct fabric_barrier *b, bool *lost)
{
	uint64_t deadline = timer_deadline_ns(e->round_timeout_s * 1000ULL);
	unsigned int n, ns;
	int err = start_round(e, r, procs, &n, &ns);

	wait_all(procs + ns, n - ns, deadline);
	/* twice: the others may have started their round later */
	*lost = fabric_barrier_wait(b,
				    timer_deadline_ns(2 * e->round_timeout_s *
						      1000ULL)) != 0;
	wait_all(procs, ns,
		 *lost ? 0 : timer_deadline_ns(FABRIC_SERVER_GRACE_MS));
	return err ? BENCH_EXIT_RUNTIME : round_code(e, procs, n);
}

int fabric_exec_run(const struct fabric_exec *e, struct fabric_barrier *b)
{
	struct proc *procs =
		calloc(2 * e->pl->nodes * e->pl->streams, sizeof(*procs));
	int code = BENCH_EXIT_OK;
	bool lost = false;

	if (!procs)
		return BENCH_EXIT_RUNTIME;
	for (unsigned int r = 0; r < e->pl->rounds && !stop_flag && !lost;
	     r++) {
		code = verdict_exit_worse(code,
					  run_round(e, r, procs, b, &lost));
		if (!lost)
			lost = fabric_barrier_wait(
				       b, timer_deadline_ns(2 *
							    e->round_timeout_s *
							    1000ULL)) != 0;
	}
	free(procs);
	if (lost)
		code = verdict_exit_worse(code, BENCH_EXIT_PEER);
	return stop_flag ? BENCH_EXIT_STOPPED : code;
}
