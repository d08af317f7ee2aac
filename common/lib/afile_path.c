// SPDX-License-Identifier: BSD-2-Clause
/*
 * afile_path - what an output path names, before anything is written
 * (see afile.h): a file to make or replace atomically, this process's
 * own stream, a node to write in place, or a folder to refuse. What
 * exists is judged through the links (stat); a regular file is replaced
 * at its real path, so the atomic write lands next to the target and the
 * link stays; a dangling link is followed by hand to the file it will
 * create.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/afile.h"

/* Links followed before giving up, as the kernel's ELOOP bound. */
#define AFILE_MAX_LINKS 40

/* "/dev/fd/" or "/proc/self/fd/" then a decimal fd; -1 when not. */
static int afile_fd_number(const char *path)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };
	const char *num = NULL;
	char *end;
	size_t i;
	long n;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !num; i++)
		if (!strncmp(path, dirs[i], strlen(dirs[i])))
			num = path + strlen(dirs[i]);
	if (!num || *num < '0' || *num > '9')
		return -1;
	errno = 0;
	n = strtol(num, &end, 10);
	return errno || *end || n > INT_MAX ? -1 : (int)n;
}

int afile_own_fd(const char *path)
{
	if (!path || !path[0])
		return -1;
	if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout"))
		return STDOUT_FILENO;
	if (!strcmp(path, "/dev/stderr"))
		return STDERR_FILENO;
	return afile_fd_number(path);
}

bool afile_is_stdout(const char *path)
{
	return afile_own_fd(path) == STDOUT_FILENO;
}

/* The target of link (read as lstat said), relative to link's folder. */
static int afile_link_target(const char *link, char *out, size_t len)
{
	char target[PATH_MAX];
	const char *slash = strrchr(link, '/');
	ssize_t n = readlink(link, target, sizeof(target) - 1);

	if (n < 0)
		return -errno;
	target[n] = '\0';
	if (target[0] == '/' || !slash)
		n = snprintf(out, len, "%s", target);
	else
		n = snprintf(out, len, "%.*s/%s", (int)(slash - link), link,
			     target);
	return (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Follow path's links into t->path; *st: the last one's lstat, if any. */
static int afile_follow(const char *path, struct afile_target *t,
			struct stat *st, bool *exists)
{
	char next[PATH_MAX];
	int i, ret;

	if ((size_t)snprintf(t->path, sizeof(t->path), "%s", path) >=
	    sizeof(t->path))
		return -ENAMETOOLONG;
	for (i = 0; i <= AFILE_MAX_LINKS; i++) {
		if (lstat(t->path, st)) {
			if (errno != ENOENT)
				return -errno;
			*exists = false;
			return 0;
		}
		*exists = true;
		if (!S_ISLNK(st->st_mode))
			return 0;
		t->via_link = true;
		ret = afile_link_target(t->path, next, sizeof(next));
		if (ret)
			return ret;
		memcpy(t->path, next, sizeof(next));
	}
	return -ELOOP;
}

static enum afile_kind afile_kind_of(mode_t mode)
{
	if (S_ISREG(mode))
		return AFILE_REPLACE;
	if (S_ISDIR(mode))
		return AFILE_DIR;
	if (S_ISSOCK(mode))
		return AFILE_SOCKET;
	return AFILE_IN_PLACE; /* character or block device, FIFO */
}

int afile_classify(const char *path, struct afile_target *t)
{
	struct stat st, lst;
	bool exists = false;
	int ret;

	memset(t, 0, sizeof(*t));
	if (!path || !path[0])
		return -EINVAL;
	t->fd = afile_own_fd(path);
	if (t->fd >= 0) {
		t->kind = AFILE_OWN_FD;
		snprintf(t->path, sizeof(t->path), "%s", path);
		return 0;
	}
	/*
	 * Something there: the kernel follows the links (/proc's magic ones
	 * too, whose text is no path); a regular file is replaced at its
	 * real path, anything else is opened as named.
	 */
	if (!stat(path, &st)) {
		t->kind = afile_kind_of(st.st_mode);
		t->via_link = !lstat(path, &lst) && S_ISLNK(lst.st_mode);
		if (t->kind != AFILE_REPLACE) {
			snprintf(t->path, sizeof(t->path), "%s", path);
			return 0;
		}
		return realpath(path, t->path) ? 0 : -errno;
	}
	if (errno != ENOENT)
		return -errno;
	/* nothing there (or a dangling link): the file it will create */
	ret = afile_follow(path, t, &st, &exists);
	if (ret)
		return ret;
	t->kind = exists ? afile_kind_of(st.st_mode) : AFILE_CREATE;
	return 0;
}

const char *afile_kind_name(enum afile_kind kind)
{
	switch (kind) {
	case AFILE_CREATE:
		return "a new file";
	case AFILE_REPLACE:
		return "a regular file";
	case AFILE_OWN_FD:
		return "this program's own output";
	case AFILE_IN_PLACE:
		return "a device or FIFO";
	case AFILE_SOCKET:
		return "a socket";
	default:
		return "a directory";
	}
}

int afile_check(const char *opt, const char *path, char *why, size_t len)
{
	struct afile_target t;
	int ret = afile_classify(path, &t);

	if (ret == -ELOOP || ret == -ENAMETOOLONG) {
		snprintf(why, len, "%s %.200s: %s: give another path", opt,
			 path, strerror(-ret));
		return -EINVAL;
	}
	if (!ret && t.kind == AFILE_DIR) {
		snprintf(why, len, "%s %.200s: is a directory: give a file "
			 "name (e.g. %.200s/result)", opt, path, path);
		return -EINVAL;
	}
	return 0; /* anything else is said when it is written */
}

/*
 * path made canonical for comparing, whether or not it exists: its
 * symlinks followed, then its folder through realpath() ("x", "./x" and
 * "/cwd/x" alike). False when the folder cannot be resolved.
 */
static bool afile_canon(const char *path, char *out, size_t len)
{
	struct afile_target t;
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash, *base;

	if (afile_classify(path, &t))
		return false;
	slash = strrchr(t.path, '/');
	base = slash ? slash + 1 : t.path;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == t.path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - t.path),
			 t.path);
	if (!realpath(dir, real))
		return false;
	return (size_t)snprintf(out, len, "%s/%s", real, base) < len;
}

bool afile_same(const char *a, const char *b)
{
	char ca[PATH_MAX], cb[PATH_MAX];
	struct stat sa, sb;
	int fa, fb;

	if (!a || !b || !a[0] || !b[0])
		return false;
	if (!strcmp(a, b))
		return true;
	fa = afile_own_fd(a);
	fb = afile_own_fd(b);
	if (fa >= 0 || fb >= 0)
		return fa == fb;
	if (!stat(a, &sa) && !stat(b, &sb))
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	return afile_canon(a, ca, sizeof(ca)) &&
	       afile_canon(b, cb, sizeof(cb)) && !strcmp(ca, cb);
}

int afile_check_set(const struct afile_opt *outs, size_t n, char *why,
		    size_t len)
{
	size_t i, j;
	int ret;

	for (i = 0; i < n; i++) {
		if (!outs[i].path || !outs[i].path[0])
			continue;
		ret = afile_check(outs[i].opt, outs[i].path, why, len);
		if (ret)
			return ret;
		for (j = 0; j < i; j++) {
			if (!afile_same(outs[j].path, outs[i].path))
				continue;
			if (afile_own_fd(outs[i].path) >= 0)
				snprintf(why, len, "%s %.100s and %s %.100s "
					 "both ask for the same output "
					 "stream, where two documents cannot "
					 "be told apart: give one of them a "
					 "file name", outs[j].opt, outs[j].path,
					 outs[i].opt, outs[i].path);
			else
				snprintf(why, len, "%s and %s both name "
					 "%.200s: one document would replace "
					 "or follow the other: give each its "
					 "own file", outs[j].opt, outs[i].opt,
					 outs[i].path);
			return -EINVAL;
		}
	}
	return 0;
}
