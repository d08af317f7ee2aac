// SPDX-License-Identifier: BSD-2-Clause
/*
 * perftest's own binaries as the oracle of what is accepted (issue 26).
 *
 * For each of the eight tools, server side (no address) and client side
 * (an address), a fixed-seed list of argv is made from perftest's option
 * list (tests/fixtures/perftest-options.txt, from its --help and
 * long_options[]): every option alone (long and short spelling, a valid
 * value), a few invalid values, the flags wrappers pass, combined, and
 * every option with those. Each argv goes through our option engine in
 * process (opts_parse + opts_check: all that bench_main runs before it
 * looks for a device) and through perftest's binary, live: on a host with
 * no RDMA device (the children see an empty sysfs and no providers)
 * perftest's parser runs first, so an argv it accepts ends with "Did not
 * detect devices" (and, but for ib_read_bw and ib_atomic_bw, "Unable to
 * find the Infiniband/RoCE device") and one it refuses with its usage or
 * an error.
 *
 * Every difference must be a row of tests/spec/perftest_diff_known.txt
 * (its reason there); any other fails the test. A refusal of ours is
 * known only with the message the row names, so a new refusal of an argv
 * perftest accepts fails even where a row covers its flags.
 *
 * perftest's verdicts of all the argv are kept in
 * tests/fixtures/perftest-verdicts.txt (PERFTEST_DIFF_WRITE=1 remakes it,
 * running every argv live); where perftest is installed (CI's set-up
 * installs it) every PERFTEST_DIFF_EVERY-th argv (default 4: a quarter)
 * is run live too, and a verdict that differs from the fixture's fails.
 * The fixture is a stand-in (perftest's answers recorded): three quarters
 * of the argv are checked against it, the live quarter against perftest's
 * own binary; without perftest the test proves nothing new about it.
 *
 * Knobs: PERFTEST_BIN_DIR (default /usr/bin; no perftest there: the
 * fixture alone), PERFTEST_DIFF_JOBS (perftest runs in flight, default 4),
 * PERFTEST_DIFF_PLANT="TOKENS" (plant a refusal of ours on every argv that
 * has all TOKENS, to see the test fail: PERFTEST_DIFF_PLANT="-n
 * --perform_warm_up"). The test plants one itself too (test_plant).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "spec/opts.h"
#include "tests/spec/perftest_diff.h"
#include "tests/test.h"

extern char **environ;

#define ADDR "192.0.2.1"
#define PER_SIDE 1000          /* argv per tool and side, at least */
#define MAX_ITEMS (BENCH_TOOL_COUNT * 2 * (PER_SIDE + 400))
#define MAX_JOBS 16
#define CHILD_TIMEOUT_S 20
#define FIXTURE "tests/fixtures/perftest-verdicts.txt"

static struct diff_item items[MAX_ITEMS];
static size_t n_items;

/* ---------------------------------------------------------------- ours */

static void split(char *args, char **argv, int *argc, int max)
{
	char *save = NULL, *t;

	for (t = strtok_r(args, " ", &save); t && *argc < max - 1;
	     t = strtok_r(NULL, " ", &save))
		argv[(*argc)++] = t;
	argv[*argc] = NULL;
}

/* Build item's argv (argv0, its tokens, the address on the client side)
 * into buf; argv points into buf. */
static int item_argv(const struct diff_item *it, const char *argv0,
		     char *buf, size_t len, char **argv, int max)
{
	int argc = 0;

	snprintf(buf, len, "%s", it->args);
	argv[argc++] = (char *)argv0;
	split(buf, argv, &argc, max - 1);
	if (it->client)
		argv[argc++] = (char *)ADDR;
	argv[argc] = NULL;
	return argc;
}

static void ours(struct diff_item *it, const char *plant)
{
	const struct bench_desc *d = bench_tool(it->tool);
	char buf[sizeof(it->args)], *argv[64];
	struct bench_cfg cfg;
	int argc, ret;

	if (plant && diff_has_tokens(it->args, plant)) {
		it->ours = DIFF_REFUSE;
		snprintf(it->msg, sizeof(it->msg),
			 "planted refusal (PERFTEST_DIFF_PLANT)");
		return;
	}
	argc = item_argv(it, d->name, buf, sizeof(buf), argv, 64);
	it->msg[0] = '\0';
	ret = opts_parse(&cfg, d, argc, argv, it->msg, sizeof(it->msg));
	if (!ret && !cfg.show_help && !cfg.show_version)
		ret = opts_check(&cfg, d, it->msg, sizeof(it->msg));
	it->ours = ret ? DIFF_REFUSE : DIFF_ACCEPT;
}

/* ------------------------------------------------------------ perftest */

struct slot {
	pid_t pid;
	size_t item;
	time_t start;
	char out[PATH_MAX];
};

static unsigned int stale_fixture;
static char tmpdir[] = "/tmp/perftest-diff.XXXXXX";
static char **child_env;

static int make_env(void)
{
	size_t n = 0, i, k = 0;
	static char sysfs[PATH_MAX + 32], conf[PATH_MAX + 32];

	while (environ[n])
		n++;
	child_env = calloc(n + 3, sizeof(*child_env));
	if (!child_env)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], "RDMAV_SYSFS_PATH=", 17) &&
		    strncmp(environ[i], "IBV_CONFIG_DIR=", 15))
			child_env[k++] = environ[i];
	/* no device, ever: an accepted argv must not start a run */
	snprintf(sysfs, sizeof(sysfs), "RDMAV_SYSFS_PATH=%s", tmpdir);
	snprintf(conf, sizeof(conf), "IBV_CONFIG_DIR=%s", tmpdir);
	child_env[k++] = sysfs;
	child_env[k++] = conf;
	child_env[k] = NULL;
	return 0;
}

static int spawn(struct slot *s, size_t i, const char *bindir)
{
	struct diff_item *it = &items[i];
	char path[PATH_MAX], buf[sizeof(it->args)], *argv[64];
	posix_spawn_file_actions_t fa;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", bindir,
		 bench_tool(it->tool)->name);
	item_argv(it, path, buf, sizeof(buf), argv, 64);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, s->out,
					 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	ret = posix_spawn(&s->pid, path, &fa, NULL, argv, child_env);
	posix_spawn_file_actions_destroy(&fa);
	s->item = i;
	s->start = time(NULL);
	return -ret;
}

/* The line of perftest's output that says why it refused, into
 * it->pmsg: getopt's complaint, else its last line that is neither its
 * "Parser function exited" nor a rule of dashes; "(its usage)" when it
 * printed only that. */
static void keep_why(struct diff_item *it, char *buf)
{
	bool usage = strstr(buf, "Usage:") != NULL;
	char *save = NULL, *l;

	snprintf(it->pmsg, sizeof(it->pmsg), "(its usage)");
	for (l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		while (*l == ' ')
			l++;
		if (strstr(l, "unrecognized option") ||
		    strstr(l, "invalid option") || strstr(l, "requires an")) {
			snprintf(it->pmsg, sizeof(it->pmsg), "%s", l);
			return;
		}
		if (!usage && *l && *l != '-' &&
		    !strstr(l, "Parser function exited"))
			snprintf(it->pmsg, sizeof(it->pmsg), "%s", l);
	}
}

static enum diff_verdict read_verdict(struct diff_item *it, const char *out)
{
	static char buf[65536];
	ssize_t n;
	int fd = open(out, O_RDONLY);

	if (fd < 0)
		return DIFF_UNCLEAR;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return DIFF_UNCLEAR;
	buf[n] = '\0';
	/* its parser passed: ctx_find_dev's words (ib_read_bw and
	 * ib_atomic_bw stop there, the others add "Unable to find the
	 * Infiniband/RoCE device") */
	if (strstr(buf, "Did not detect devices") ||
	    strstr(buf, "Unable to find the Infiniband/RoCE device"))
		return DIFF_ACCEPT;
	keep_why(it, buf);
	return DIFF_REFUSE;
}

/* The slot whose child ended (status in *st), or -1 if none has yet;
 * a child past CHILD_TIMEOUT_S is killed. */
static int reap(struct slot *s, int jobs, int *st)
{
	pid_t pid = waitpid(-1, st, WNOHANG);
	int j;

	for (j = 0; j < jobs; j++) {
		if (pid > 0 && s[j].pid == pid)
			return j;
		if (s[j].pid > 0 && time(NULL) - s[j].start > CHILD_TIMEOUT_S)
			kill(s[j].pid, SIGKILL);
	}
	if (pid <= 0) {
		struct timespec ts = { 0, 200000 };

		nanosleep(&ts, NULL);
	}
	return -1;
}

static void finish(struct slot *s, int status)
{
	struct diff_item *it = &items[s->item];

	enum diff_verdict v = WIFSIGNALED(status) ? DIFF_UNCLEAR :
			      read_verdict(it, s->out);

	if (it->perftest != DIFF_UNCLEAR && v != it->perftest) {
		fprintf(stderr, "%s %s: %s: perftest %s now, the fixture "
			"says %s: regenerate it (PERFTEST_DIFF_WRITE=1)\n",
			bench_tool(it->tool)->name, it->client ? "client" :
			"server", it->args, diff_word(v),
			diff_word(it->perftest));
		stale_fixture++;
	}
	it->perftest = v;
	s->pid = 0;
}

/* Run perftest on every step-th item, jobs at a time. */
static int run_perftest(const char *bindir, int jobs, size_t step)
{
	struct slot s[MAX_JOBS] = { 0 };
	size_t next = 0, running = 0;
	int j, st;

	for (j = 0; j < jobs; j++)
		snprintf(s[j].out, sizeof(s[j].out), "%s/out.%d", tmpdir, j);
	while (next < n_items || running) {
		for (j = 0; j < jobs && next < n_items; j++) {
			if (s[j].pid)
				continue;
			if (spawn(&s[j], next, bindir)) {
				fprintf(stderr, "cannot run %s's perftest\n",
					bench_tool(items[next].tool)->name);
				return -EIO;
			}
			next += step;
			running++;
		}
		j = reap(s, jobs, &st);
		if (j >= 0) {
			finish(&s[j], st);
			running--;
		}
	}
	return 0;
}

static const char *srcdir(void);

/* ------------------------------------------------------------ fixture */

/* Where tool's side begins and ends in items[]. */
static void side_range(int tool, bool client, size_t *first, size_t *end)
{
	size_t i = 0;

	while (i < n_items && (items[i].tool != tool ||
			       items[i].client != client))
		i++;
	*first = i;
	while (i < n_items && items[i].tool == tool &&
	       items[i].client == client)
		i++;
	*end = i;
}

/* FNV-1a of a side's argv: a fixture of another list is seen. */
static uint32_t side_hash(size_t first, size_t end)
{
	uint32_t h = 2166136261u;
	size_t i;
	const char *p;

	for (i = first; i < end; i++)
		for (p = items[i].args; ; p++) {
			h = (h ^ (unsigned char)*p) * 16777619u;
			if (!*p)
				break;
		}
	return h;
}

static void fixture_path(char *path, size_t len)
{
	snprintf(path, len, "%s/" FIXTURE, srcdir());
}

static int fixture_write(void)
{
	char path[PATH_MAX];
	size_t first, end, i;
	FILE *f;
	int t, c;

	fixture_path(path, sizeof(path));
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "# perftest's verdicts (A accepts, R refuses) of the argv of "
		"tests/spec/test_perftest_diff.c,\n# in its order: tool side "
		"hash-of-the-argv verdicts. Made by PERFTEST_DIFF_WRITE=1 with "
		"perftest\n# installed; read where it is not.\n");
	for (t = 0; t < BENCH_TOOL_COUNT; t++)
		for (c = 0; c < 2; c++) {
			side_range(t, c, &first, &end);
			fprintf(f, "%s %s %08x ", bench_tool(t)->name,
				c ? "client" : "server", side_hash(first, end));
			for (i = first; i < end; i++)
				fputc(items[i].perftest == DIFF_ACCEPT ? 'A' :
				      items[i].perftest == DIFF_REFUSE ? 'R' :
				      '?', f);
			fputc('\n', f);
		}
	return fclose(f) ? -errno : 0;
}

/* One line of the fixture into items[]; -ESTALE if not of our argv. */
static int fixture_line(char *line)
{
	char name[32], side[8], *v;
	unsigned int hash;
	size_t first, end, i;
	int t, n = 0;

	if (sscanf(line, "%31s %7s %x %n", name, side, &hash, &n) != 3 || !n)
		return -EINVAL;
	v = line + n;
	for (t = 0; t < BENCH_TOOL_COUNT; t++)
		if (!strcmp(bench_tool(t)->name, name))
			break;
	side_range(t, !strcmp(side, "client"), &first, &end);
	if (t == BENCH_TOOL_COUNT || side_hash(first, end) != hash ||
	    strcspn(v, "\n") != end - first)
		return -ESTALE;
	for (i = first; i < end; i++)
		items[i].perftest = v[i - first] == 'A' ? DIFF_ACCEPT :
				    v[i - first] == 'R' ? DIFF_REFUSE :
				    DIFF_UNCLEAR;
	return 0;
}

static int fixture_read(void)
{
	static char line[PER_SIDE * 4];
	char path[PATH_MAX];
	int sides = 0, ret = 0;
	FILE *f;

	fixture_path(path, sizeof(path));
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (!ret && fgets(line, sizeof(line), f))
		if (line[0] != '#' && !(ret = fixture_line(line)))
			sides++;
	fclose(f);
	return ret ? ret : sides == 2 * BENCH_TOOL_COUNT ? 0 : -ESTALE;
}

/* ---------------------------------------------------------------- test */

static const char *srcdir(void)
{
	const char *src = getenv("TEST_SRCDIR");

	return src && src[0] ? src : ".";
}

static void cleanup(void)
{
	char p[PATH_MAX];
	int j;

	for (j = 0; j < MAX_JOBS; j++) {
		snprintf(p, sizeof(p), "%s/out.%d", tmpdir, j);
		unlink(p);
	}
	rmdir(tmpdir);
}

/* Classify every item against the known table; print the counts and
 * each difference. The number of unknown differences. */
static size_t compare(const struct diff_known *k, size_t nk, bool quiet)
{
	struct diff_counts c = { 0 };
	size_t i;

	for (i = 0; i < n_items; i++)
		diff_classify(&items[i], k, nk, &c, quiet ? NULL : stderr);
	if (!quiet)
		diff_print_counts(&c, stdout);
	return c.unknown;
}

/* A planted refusal of --perform_warm_up with -n is an unknown
 * difference: the known table's rows name our messages, not the flags
 * alone. */
static void test_plant(const struct diff_known *k, size_t nk)
{
	size_t i, n = 0;

	for (i = 0; i < n_items; i++)
		if (diff_has_tokens(items[i].args, "-n --perform_warm_up") &&
		    items[i].perftest == DIFF_ACCEPT) {
			ours(&items[i], "-n --perform_warm_up");
			n++;
		}
	EXPECT_TRUE(n > 0);
	EXPECT_TRUE(compare(k, nk, true) >= n);
	fprintf(stderr, "planted: %zu refusals of -n --perform_warm_up, "
		"caught\n", n);
}

static size_t env_num(const char *name, size_t dflt)
{
	const char *e = getenv(name);

	return e && atoi(e) > 0 ? (size_t)atoi(e) : dflt;
}

/* perftest's verdicts: from the fixture, every step-th argv (all when
 * the fixture is not of these argv, or PERFTEST_DIFF_WRITE) run live
 * when perftest is installed. */
static void oracle(void)
{
	const char *bindir = getenv("PERFTEST_BIN_DIR");
	bool write = getenv("PERFTEST_DIFF_WRITE") != NULL;
	bool have = write ? false : !fixture_read();
	size_t step = have ? env_num("PERFTEST_DIFF_EVERY", 4) : 1;
	int jobs = (int)env_num("PERFTEST_DIFF_JOBS", 4);
	char path[PATH_MAX];
	struct timespec t0, t1;

	if (!bindir || !bindir[0])
		bindir = "/usr/bin";
	if (jobs > MAX_JOBS)
		jobs = MAX_JOBS;
	snprintf(path, sizeof(path), "%s/ib_write_bw", bindir);
	if (access(path, X_OK)) {
		printf("perftest: not at %s; its verdicts from " FIXTURE
		       "\n", path);
		EXPECT_TRUE(have && !write);
		return;
	}
	if (!have && !write)
		printf("perftest: " FIXTURE " is not of these argv: all run "
		       "live; regenerate it with PERFTEST_DIFF_WRITE=1\n");
	EXPECT_TRUE(mkdtemp(tmpdir) != NULL);
	EXPECT_EQ_INT(make_env(), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	EXPECT_EQ_INT(run_perftest(bindir, jobs, step), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	cleanup();
	printf("perftest: %zu of the argv run live (%.1f s), the rest from "
	       FIXTURE "\n", (n_items + step - 1) / step,
	       (double)(t1.tv_sec - t0.tv_sec) +
	       (t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (write)
		EXPECT_EQ_INT(fixture_write(), 0);
	EXPECT_TRUE(have || write);
	EXPECT_EQ_INT(stale_fixture, 0);
}

int main(void)
{
	const char *plant = getenv("PERFTEST_DIFF_PLANT");
	struct diff_known *known = NULL;
	size_t i, nk = 0;

	EXPECT_EQ_INT(diff_load_options(srcdir()), 0);
	EXPECT_EQ_INT(diff_load_known(srcdir(), &known, &nk), 0);
	if (test_failed_)
		return test_finish("test_perftest_diff");
	n_items = diff_generate(items, MAX_ITEMS, PER_SIDE);
	EXPECT_TRUE(n_items >= BENCH_TOOL_COUNT * 2 * PER_SIDE);
	for (i = 0; i < n_items; i++)
		ours(&items[i], plant && plant[0] ? plant : NULL);
	oracle();
	printf("argv: %zu (%d tools x server, client)\n", n_items,
	       BENCH_TOOL_COUNT);
	EXPECT_EQ_INT(compare(known, nk, false), 0);
	diff_print_stale(known, nk, stderr);
	test_plant(known, nk);
	free(child_env);
	free(known);
	return test_finish("test_perftest_diff");
}
