// SPDX-License-Identifier: BSD-2-Clause
/*
 * watch_run - ib_doctor --watch: run the command between two snapshots
 * (see watch.h). SIGINT, SIGTERM and SIGCHLD are blocked and taken with
 * sigtimedwait, so no handler and no global: a signal another process
 * sent (si_code <= 0: kill, sigqueue) is passed on to the command; one
 * the terminal sent (SI_KERNEL) reached the command's process group
 * already; one still running 10 s after is killed. The command keeps ib_doctor's stdin, stdout and stderr.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "doctor/watch.h"
#include "lib/log.h"
#include "lib/timer.h"

/* In the child: the signals as they were, then the command. */
static void run_child(const struct watch_cmd *cmd, const sigset_t *old)
{
	char *const *argv = cmd->argv;

	sigprocmask(SIG_SETMASK, old, NULL);
	if (cmd->out_to_stderr)
		dup2(STDERR_FILENO, STDOUT_FILENO);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	execvp(argv[0], argv);
	bench_err("--watch: cannot run %s: %s", argv[0], strerror(errno));
	_exit(127);
}

/* A command still running this long after a stop is killed (SIGKILL):
 * ib_doctor never hangs on one that ignores SIGINT and SIGTERM. */
#define RUN_KILL_AFTER_MS 10000

/* Wait for pid, passing on the stop signals that come meanwhile. */
static void run_wait(pid_t pid, const sigset_t *set, struct watch_cmd *cmd)
{
	const struct timespec tick = { .tv_sec = 1 };
	uint64_t kill_at = 0;
	siginfo_t si;
	int sig;

	while (waitpid(pid, &cmd->status, WNOHANG) != pid) {
		if (kill_at && timer_expired(kill_at)) {
			bench_warn("--watch: %s still runs %d s after the stop: "
				   "killed", cmd->argv[0],
				   RUN_KILL_AFTER_MS / 1000);
			kill(pid, SIGKILL);
			kill_at = 0;
		}
		sig = sigtimedwait(set, &si, &tick);
		if (sig != SIGINT && sig != SIGTERM)
			continue;
		if (!cmd->stopped)
			kill_at = timer_deadline_ns(RUN_KILL_AFTER_MS);
		cmd->stopped = sig;
		if (si.si_code <= 0)
			kill(pid, sig);
	}
}

int watch_run(struct watch_cmd *cmd)
{
	sigset_t set, old;
	uint64_t t0;
	pid_t pid;
	int err;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &old);
	fflush(NULL); /* nothing buffered twice */
	t0 = timer_now_ns();
	pid = fork();
	if (pid < 0) {
		err = -errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		bench_err("--watch: fork: %s", strerror(-err));
		return err;
	}
	if (!pid)
		run_child(cmd, &old);
	run_wait(pid, &set, cmd);
	cmd->ns = timer_now_ns() - t0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return 0;
}

int watch_go(struct chk_ctx *c, struct watch_cmd *cmd, enum watch_expect e)
{
	struct watch_snap *s = calloc(2, sizeof(*s));
	struct watch_result *r = calloc(1, sizeof(*r));
	int ret = -ENOMEM;

	if (!s || !r)
		goto out;
	ret = inv_read(c->root, c->probe, &c->inv);
	if (ret)
		goto out;
	ret = watch_snap_read(c, &s[0]);
	if (ret) {
		bench_err("--watch: cannot list the interfaces in %s/class/net:"
			  " %s", c->inv.sysfs, strerror(-ret));
		goto out;
	}
	ret = watch_run(cmd);
	if (ret || (ret = watch_snap_read(c, &s[1])))
		goto out;
	watch_diff(&s[0], &s[1], r);
	watch_judge(c, r, cmd, e);
out:
	c->rep.lost |= ret == -ENOMEM;
	free(s);
	free(r);
	return ret;
}
