// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/lib/afile.c and afile_path.c: what an output path
 * names, and that nothing but a regular file is ever replaced (issue
 * #24: as root, "--json /dev/null" replaced /dev/null). All in a scratch
 * folder: FIFOs, sockets and symlinks need no root; a device node does,
 * and tests/lib/test_outputs_root.sh covers it in a private mount namespace.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/afile.h"
#include "tests/test.h"

static char dir[64];

/* dir/name, in a static buffer of its own per slot. */
static const char *at(const char *name)
{
	static char bufs[4][PATH_MAX];
	static int slot;
	char *b = bufs[slot++ % 4];

	snprintf(b, PATH_MAX, "%s/%s", dir, name);
	return b;
}

static int render_doc(const void *arg, FILE *out)
{
	return fputs(arg, out) < 0 ? -EIO : 0;
}

static mode_t type_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) ? 0 : st.st_mode & S_IFMT;
}

/* The whole of fd, into buf; the number of bytes. */
static size_t slurp(int fd, char *buf, size_t len)
{
	size_t n = 0;
	ssize_t r;

	while (n < len - 1 && (r = read(fd, buf + n, len - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
	return n;
}

static void test_own_fds(void)
{
	struct afile_target t;

	EXPECT_EQ_INT(afile_own_fd("-"), 1);
	EXPECT_EQ_INT(afile_own_fd("/dev/stdout"), 1);
	EXPECT_EQ_INT(afile_own_fd("/dev/fd/1"), 1);
	EXPECT_EQ_INT(afile_own_fd("/proc/self/fd/1"), 1);
	EXPECT_EQ_INT(afile_own_fd("/dev/stderr"), 2);
	EXPECT_EQ_INT(afile_own_fd("/proc/self/fd/2"), 2);
	EXPECT_EQ_INT(afile_own_fd("/dev/fd/63"), 63); /* bash's >(...) */
	EXPECT_EQ_INT(afile_own_fd("/dev/fd/"), -1);
	EXPECT_EQ_INT(afile_own_fd("/dev/fd/1x"), -1);
	EXPECT_EQ_INT(afile_own_fd("/dev/stdoutx"), -1);
	EXPECT_EQ_INT(afile_own_fd("--"), -1);
	EXPECT_EQ_INT(afile_own_fd(""), -1);
	EXPECT_TRUE(afile_is_stdout("-"));
	EXPECT_TRUE(afile_is_stdout("/dev/stdout"));
	EXPECT_TRUE(!afile_is_stdout("/dev/stderr"));
	EXPECT_TRUE(!afile_is_stdout("out.json"));
	EXPECT_EQ_INT(afile_classify("/dev/stderr", &t), 0);
	EXPECT_EQ_INT(t.kind, AFILE_OWN_FD);
	EXPECT_EQ_INT(t.fd, 2);
}

/* Each kind of path in the scratch folder. */
static void test_classify(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct afile_target t;
	int fd;

	EXPECT_EQ_INT(afile_classify(at("new"), &t), 0);
	EXPECT_EQ_INT(t.kind, AFILE_CREATE);
	EXPECT_STREQ(t.path, at("new"));

	fd = open(at("reg"), O_WRONLY | O_CREAT, 0644);
	close(fd);
	EXPECT_EQ_INT(afile_classify(at("reg"), &t), 0);
	EXPECT_EQ_INT(t.kind, AFILE_REPLACE);
	EXPECT_TRUE(!t.via_link);

	EXPECT_EQ_INT(mkdir(at("dir"), 0755), 0);
	EXPECT_EQ_INT(afile_classify(at("dir"), &t), 0);
	EXPECT_EQ_INT(t.kind, AFILE_DIR);

	EXPECT_EQ_INT(mkfifo(at("fifo"), 0644), 0);
	EXPECT_EQ_INT(afile_classify(at("fifo"), &t), 0);
	EXPECT_EQ_INT(t.kind, AFILE_IN_PLACE);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", at("sock"));
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	EXPECT_EQ_INT(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(fd);
	EXPECT_EQ_INT(afile_classify(at("sock"), &t), 0);
	EXPECT_EQ_INT(t.kind, AFILE_SOCKET);

	/* symlinks: relative and absolute, to each kind, dangling, a loop */
	EXPECT_EQ_INT(symlink("reg", at("to_reg")), 0);
	EXPECT_EQ_INT(afile_classify(at("to_reg"), &t), 0);
	EXPECT_EQ_INT(t.kind, AFILE_REPLACE);
	EXPECT_TRUE(t.via_link);
	EXPECT_STREQ(t.path, at("reg"));
	EXPECT_EQ_INT(symlink(at("to_reg"), at("to_to_reg")), 0);
	EXPECT_EQ_INT(afile_classify(at("to_to_reg"), &t), 0);
	EXPECT_STREQ(t.path, at("reg"));
	EXPECT_EQ_INT(symlink("fifo", at("to_fifo")), 0);
	EXPECT_EQ_INT(afile_classify(at("to_fifo"), &t), 0);
	EXPECT_EQ_INT(t.kind, AFILE_IN_PLACE);
	EXPECT_EQ_INT(symlink("dir", at("to_dir")), 0);
	EXPECT_EQ_INT(afile_classify(at("to_dir"), &t), 0);
	EXPECT_EQ_INT(t.kind, AFILE_DIR);
	EXPECT_EQ_INT(symlink("later", at("dangling")), 0);
	EXPECT_EQ_INT(afile_classify(at("dangling"), &t), 0);
	EXPECT_EQ_INT(t.kind, AFILE_CREATE);
	EXPECT_STREQ(t.path, at("later"));
	EXPECT_EQ_INT(symlink("loop_b", at("loop_a")), 0);
	EXPECT_EQ_INT(symlink("loop_a", at("loop_b")), 0);
	EXPECT_EQ_INT(afile_classify(at("loop_a"), &t), -ELOOP);
}

/* A FIFO with a reader gets the document; the FIFO stays a FIFO. */
static void test_write_fifo(void)
{
	char got[256];
	int rfd;

	/* the reader: this process, open before the write (the small
	 * document fits in the FIFO's buffer) */
	rfd = open(at("fifo"), O_RDONLY | O_NONBLOCK);
	EXPECT_TRUE(rfd >= 0);
	EXPECT_EQ_INT(afile_write(at("fifo"), render_doc, "{\"a\": 1}\n"), 0);
	EXPECT_EQ_INT(afile_write(at("to_fifo"), render_doc, "{}\n"), 0);
	slurp(rfd, got, sizeof(got));
	close(rfd);
	EXPECT_STREQ(got, "{\"a\": 1}\n{}\n");
	EXPECT_EQ_U64(type_of(at("fifo")), S_IFIFO);
	EXPECT_EQ_U64(type_of(at("to_fifo")), S_IFLNK);
	/* no reader: an error at once, not a hang; still a FIFO */
	EXPECT_EQ_INT(afile_write(at("fifo"), render_doc, "x"), -ENXIO);
	EXPECT_EQ_U64(type_of(at("fifo")), S_IFIFO);
	EXPECT_EQ_INT(afile_write(at("to_fifo"), render_doc, "x"), -ENXIO);
	EXPECT_EQ_U64(type_of(at("to_fifo")), S_IFLNK);
}

/* A listening socket takes the document; the socket stays. */
static void test_write_socket(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char got[256] = "";
	int lfd, cfd;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", at("lsock"));
	lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	EXPECT_EQ_INT(bind(lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	EXPECT_EQ_INT(listen(lfd, 1), 0);
	/* the backlog takes the connection; the small write fits */
	EXPECT_EQ_INT(afile_write(at("lsock"), render_doc, "doc\n"), 0);
	cfd = accept(lfd, NULL, NULL);
	EXPECT_TRUE(cfd >= 0);
	slurp(cfd, got, sizeof(got));
	EXPECT_STREQ(got, "doc\n");
	close(cfd);
	close(lfd);
	EXPECT_EQ_U64(type_of(at("lsock")), S_IFSOCK);
	/* nobody listening: refused, and the socket file stays */
	EXPECT_EQ_INT(afile_write(at("sock"), render_doc, "x"), -ECONNREFUSED);
	EXPECT_EQ_U64(type_of(at("sock")), S_IFSOCK);
}

/* Files: atomic, through a symlink the target replaced, link kept. */
static void test_write_files(void)
{
	char got[64];
	int fd;

	EXPECT_EQ_INT(afile_write(at("to_reg"), render_doc, "new\n"), 0);
	EXPECT_EQ_U64(type_of(at("to_reg")), S_IFLNK);
	fd = open(at("reg"), O_RDONLY);
	slurp(fd, got, sizeof(got));
	close(fd);
	EXPECT_STREQ(got, "new\n");
	EXPECT_EQ_INT(afile_write(at("dangling"), render_doc, "made\n"), 0);
	EXPECT_EQ_U64(type_of(at("dangling")), S_IFLNK);
	EXPECT_EQ_U64(type_of(at("later")), S_IFREG);
	EXPECT_EQ_INT(afile_write(at("dir"), render_doc, "x"), -EISDIR);
	EXPECT_EQ_U64(type_of(at("dir")), S_IFDIR);
	EXPECT_EQ_INT(afile_write(at("to_dir"), render_doc, "x"), -EISDIR);
	EXPECT_EQ_U64(type_of(at("to_dir")), S_IFLNK);
}

/* /dev/fd/N: into this process's descriptor N, which stays open. */
static void test_write_own_fd(void)
{
	char path[32], got[64];
	int pfd[2];

	EXPECT_EQ_INT(pipe(pfd), 0);
	snprintf(path, sizeof(path), "/dev/fd/%d", pfd[1]);
	EXPECT_EQ_INT(afile_write(path, render_doc, "one "), 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", pfd[1]);
	EXPECT_EQ_INT(afile_write(path, render_doc, "two"), 0);
	EXPECT_TRUE(fcntl(pfd[1], F_GETFD) >= 0);
	/* a symlink to it: /proc's magic link is no path; judged by stat */
	EXPECT_EQ_INT(symlink(path, at("to_fd")), 0);
	EXPECT_EQ_INT(afile_write(at("to_fd"), render_doc, " three"), 0);
	EXPECT_EQ_U64(type_of(at("to_fd")), S_IFLNK);
	close(pfd[1]);
	slurp(pfd[0], got, sizeof(got));
	close(pfd[0]);
	EXPECT_STREQ(got, "one two three");
	EXPECT_EQ_INT(afile_write("/dev/fd/999", render_doc, "x"), -EBADF);
}

static void test_same_and_sets(void)
{
	char why[256], sum[PATH_MAX], folder_path[PATH_MAX];
	const struct afile_opt two[] = { { "--json", "x" },
					 { "--junit", "./x" } };
	const struct afile_opt out2[] = { { "--json", "-" },
					  { "--prom", "/dev/stdout" } };
	const struct afile_opt fine[] = { { "--json", "-" },
					  { "--junit", "/dev/stderr" },
					  { "--prom", "" },
					  { "--summary", sum } };
	const struct afile_opt folder[] = { { "--json", folder_path } };

	snprintf(sum, sizeof(sum), "%s", at("sum"));
	snprintf(folder_path, sizeof(folder_path), "%s", at("dir"));
	EXPECT_TRUE(afile_same("x", "./x"));
	EXPECT_TRUE(afile_same(at("reg"), at("to_reg")));
	EXPECT_TRUE(afile_same(at("later"), at("dangling")));
	EXPECT_TRUE(afile_same("-", "/dev/stdout"));
	EXPECT_TRUE(!afile_same("-", "/dev/stderr"));
	EXPECT_TRUE(!afile_same(at("reg"), at("later")));
	EXPECT_TRUE(!afile_same("", ""));

	EXPECT_EQ_INT(afile_check_set(two, 2, why, sizeof(why)), -EINVAL);
	EXPECT_STREQ(why, "--json and --junit both name ./x: one document "
		     "would replace or follow the other: give each its own "
		     "file");
	EXPECT_EQ_INT(afile_check_set(out2, 2, why, sizeof(why)), -EINVAL);
	EXPECT_TRUE(strstr(why, "--json - and --prom /dev/stdout") != NULL);
	EXPECT_EQ_INT(afile_check_set(fine, 4, why, sizeof(why)), 0);
	EXPECT_EQ_INT(afile_check_set(folder, 1, why, sizeof(why)), -EINVAL);
	EXPECT_TRUE(strstr(why, "is a directory") != NULL);
	EXPECT_TRUE(strstr(why, folder_path) != NULL);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/test_afile.XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	test_own_fds();
	test_classify();
	test_write_fifo();
	test_write_socket();
	test_write_files();
	test_write_own_fd();
	test_same_and_sets();
	if (fork() == 0)
		execlp("rm", "rm", "-rf", dir, (char *)NULL);
	wait(NULL);
	return test_finish("test_afile");
}
