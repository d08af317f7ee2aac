// SPDX-License-Identifier: BSD-2-Clause
/*
 * afile - the output writer (see afile.h): atomic for files, in place
 * for everything else; afile_path.c says which a path is.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "lib/afile.h"
#include "lib/log.h"

/* fsync the folder holding path, so the rename itself survives a crash. */
static int afile_sync_dir(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd, ret = 0;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) && errno != EINVAL)	/* some fs cannot, harmless */
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * Render into fd, which this takes (closed on return), and flush it (and,
 * durable, fsync it: a temporary file about to be renamed). Messages name
 * the destination: that is the name the user gave.
 */
static int afile_render_fd(int fd, const char *path, afile_render_fn render,
			   const void *arg, bool durable)
{
	FILE *f = fdopen(fd, "w");
	int ret;

	if (!f) {
		ret = -errno;
		close(fd);
		bench_err("%s: fdopen: %s", path, strerror(-ret));
		return ret;
	}
	ret = render(arg, f);
	if (ret) {
		bench_err("%s: rendering: %s", path, strerror(-ret));
		fclose(f);
		return ret;
	}
	/* ENOSPC and EIO often surface only at flush or fsync */
	errno = 0;
	if (fflush(f) || ferror(f) || (durable && fsync(fileno(f))))
		ret = errno ? -errno : -EIO;
	if (fclose(f) && !ret)
		ret = errno ? -errno : -EIO;
	if (ret)
		bench_err("%s: writing: %s", path, strerror(-ret));
	return ret;
}

/*
 * mkstemp() next to dest (path with its symlinks followed), made 0644;
 * the fd, or -errno (logged, naming path: the name the user gave).
 */
static int afile_temp(const char *dest, const char *path, char *tmp,
		      size_t len)
{
	int fd, ret;

	if ((size_t)snprintf(tmp, len, "%s.tmp.XXXXXX", dest) >= len) {
		bench_err("%s: file name too long", path);
		return -ENAMETOOLONG;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		ret = -errno;
		bench_err("%s: cannot create a temporary file next to it: %s",
			  path, strerror(-ret));
		return ret;
	}
	/* mkstemp gives 0600; collectors run as other users and must read */
	if (fchmod(fd, 0644)) {
		ret = -errno;
		close(fd);
		unlink(tmp);
		bench_err("%s: fchmod(%s): %s", path, tmp, strerror(-ret));
		return ret;
	}
	return fd;
}

/* Atomically at t->path (symlinks followed); messages name path. */
static int afile_atomic(const char *path, const struct afile_target *t,
			afile_render_fn render, const void *arg)
{
	char tmp[PATH_MAX];
	int fd, ret;

	fd = afile_temp(t->path, path, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	ret = afile_render_fd(fd, path, render, arg, true);
	if (!ret && rename(tmp, t->path)) {
		ret = -errno;
		bench_err("%s: rename(%s): %s", path, tmp, strerror(-ret));
	}
	if (ret) {
		unlink(tmp);
		return ret;
	}
	ret = afile_sync_dir(t->path);
	if (ret)
		bench_warn("fsync of the folder of %s: %s", path,
			   strerror(-ret));
	return 0;
}

/*
 * A device or FIFO, opened where it is. O_NONBLOCK only for the open: a
 * FIFO without a reader fails (ENXIO) instead of hanging the run; the
 * writes then block as a pipe's do.
 */
static int afile_open_node(const char *path, const struct afile_target *t)
{
	int fd = open(t->path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
	int ret, fl;

	if (fd < 0) {
		ret = -errno;
		if (ret == -ENXIO)
			bench_err("%s: a FIFO with no reader: start the reader "
				  "first (cat %s &), or give a file", path,
				  path);
		else
			bench_err("%s (%s): opening it to write in place: %s",
				  path, afile_kind_name(t->kind),
				  strerror(-ret));
		return ret;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)) {
		ret = -errno;
		close(fd);
		bench_err("%s: fcntl: %s", path, strerror(-ret));
		return ret;
	}
	return fd;
}

/* A Unix socket: connected to (stream), never replaced by a file. */
static int afile_open_socket(const char *path, const struct afile_target *t)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, ret;

	if (strlen(t->path) >= sizeof(sa.sun_path)) {
		bench_err("%s: a socket whose name is too long to connect to: "
			  "give a file", path);
		return -ENAMETOOLONG;
	}
	memcpy(sa.sun_path, t->path, strlen(t->path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		bench_err("%s: a socket: connecting to write the document: "
			  "%s (a stream socket with a listener takes it; or "
			  "give a file)", path, strerror(-ret));
		return ret;
	}
	return fd;
}

/* This process's own descriptor n, duplicated: n stays open. */
static int afile_open_own(const char *path, int n)
{
	int fd = fcntl(n, F_DUPFD_CLOEXEC, 3);

	if (fd < 0) {
		fd = -errno;
		bench_err("%s: descriptor %d: %s", path, n, strerror(-fd));
	}
	return fd;
}

int afile_write(const char *path, afile_render_fn render, const void *arg)
{
	struct afile_target t;
	int fd, ret;

	if (!path || !path[0] || !render)
		return -EINVAL;
	ret = afile_classify(path, &t);
	if (ret) {
		bench_err("%s: %s: give another path", path, strerror(-ret));
		return ret;
	}
	switch (t.kind) {
	case AFILE_CREATE:
	case AFILE_REPLACE:
		return afile_atomic(path, &t, render, arg);
	case AFILE_DIR:
		bench_err("%s: is a directory: give a file name (e.g. "
			  "%s/result)", path, path);
		return -EISDIR;
	case AFILE_OWN_FD:
		fd = afile_open_own(path, t.fd);
		break;
	case AFILE_SOCKET:
		fd = afile_open_socket(path, &t);
		break;
	default:
		fd = afile_open_node(path, &t);
		break;
	}
	return fd < 0 ? fd : afile_render_fd(fd, path, render, arg, false);
}

int afile_save(const char *path, afile_render_fn render, const void *arg,
	       FILE *std)
{
	int ret;

	if (!afile_is_stdout(path))
		return afile_write(path, render, arg);
	if (!render || !std)
		return -EINVAL;
	ret = render(arg, std);
	if (!ret && (fflush(std) || ferror(std)))
		ret = -EIO;
	if (ret)
		bench_err("writing to standard output: %s", strerror(-ret));
	return ret;
}
