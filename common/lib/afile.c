// SPDX-License-Identifier: BSD-2-Clause
/*
 * afile - atomic file writer (see afile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
 * Render into the open temporary file and make it durable. Closes fd.
 * Messages name the destination: that is the name the user gave.
 */
static int afile_fill(int fd, const char *path, afile_render_fn render,
		      const void *arg)
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
	if (fflush(f) || fsync(fileno(f))) {
		ret = -errno;
		fclose(f);
		bench_err("%s: writing: %s", path, strerror(-ret));
		return ret;
	}
	if (fclose(f)) {
		ret = -errno;
		bench_err("%s: closing: %s", path, strerror(-ret));
		return ret;
	}
	return 0;
}

/* mkstemp() next to path, made 0644; the fd, or -errno (logged). */
static int afile_temp(const char *path, char *tmp, size_t len)
{
	int fd, ret;

	if ((size_t)snprintf(tmp, len, "%s.tmp.XXXXXX", path) >= len) {
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

int afile_write(const char *path, afile_render_fn render, const void *arg)
{
	char tmp[PATH_MAX];
	int fd, ret;

	if (!path || !path[0] || !render)
		return -EINVAL;
	fd = afile_temp(path, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	ret = afile_fill(fd, path, render, arg);
	if (!ret && rename(tmp, path)) {
		ret = -errno;
		bench_err("%s: rename(%s): %s", path, tmp, strerror(-ret));
	}
	if (ret) {
		unlink(tmp);
		return ret;
	}
	ret = afile_sync_dir(path);
	if (ret)
		bench_warn("fsync of the folder of %s: %s", path,
			   strerror(-ret));
	return 0;
}

bool afile_is_stdout(const char *path)
{
	return path && path[0] == '-' && !path[1];
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
