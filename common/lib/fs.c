// SPDX-License-Identifier: BSD-2-Clause
/*
 * fs - file access below a root folder (see fs.h). Kept apart
 * from the checks so that every one of them works on a fake tree as well as
 * on the real /sys, /proc and /dev.
 */
#define _GNU_SOURCE /* strverscmp */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/fs.h"

bool fs_copy(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (!len)
		return false;
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return src[n] == '\0';
}

static int fs_vpath(const char *root, char *out, size_t len,
		     const char *fmt, va_list ap)
{
	size_t rlen = strlen(root);
	int n;

	/* "/" and "" both mean the real root: no prefix at all */
	while (rlen && root[rlen - 1] == '/')
		rlen--;
	if (rlen >= len)
		return -ENAMETOOLONG;
	memcpy(out, root, rlen);
	n = vsnprintf(out + rlen, len - rlen, fmt, ap);
	if (n < 0 || (size_t)n >= len - rlen)
		return -ENAMETOOLONG;
	return 0;
}

int fs_path(const char *root, char *out, size_t len, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = fs_vpath(root, out, len, fmt, ap);
	va_end(ap);
	return ret;
}

/*
 * ret = root + the caller's fmt and arguments, formatted into the array
 * path: the one expansion of the variable arguments of every reader.
 */
#define FS_FORMAT(root, path, fmt, ret)					\
	do {								\
		va_list ap_;						\
									\
		va_start(ap_, fmt);					\
		ret = fs_vpath(root, path, sizeof(path), fmt, ap_);	\
		va_end(ap_);						\
	} while (0)

/* After a full buffer: -EOVERFLOW unless only blanks (stripped) follow. */
static int fs_rest_blank(int fd)
{
	char more[64];
	ssize_t n, i;

	for (;;) {
		n = read(fd, more, sizeof(more));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : 0;
		for (i = 0; i < n; i++)
			if (more[i] != '\n' && more[i] != ' ')
				return -EOVERFLOW;
	}
}

static int fs_read_path(const char *path, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* sysfs answers in one read, but a downward-API file may not */
	for (;;) {
		/* full before the end: a cut value would be another value,
		 * so it is refused, as ibv_read_sysfs_file_at() does */
		if (got == len - 1) {
			ret = fs_rest_blank(fd);
			break;
		}
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			ret = -errno;   /* an unset sysfs attribute: EINVAL */
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (ret)
		got = 0;
	while (got > 0 && (buf[got - 1] == '\n' || buf[got - 1] == ' '))
		got--;
	buf[got] = '\0';
	return ret;
}

int fs_read(const char *root, char *buf, size_t len, const char *fmt, ...)
{
	char path[FS_PATH_MAX];
	int ret;

	if (!len)
		return -EINVAL;
	buf[0] = '\0';
	FS_FORMAT(root, path, fmt, ret);
	return ret ? ret : fs_read_path(path, buf, len);
}

int fs_read_long(const char *root, long *out, const char *fmt, ...)
{
	char path[FS_PATH_MAX], buf[64], *end;
	long v;
	int ret;

	FS_FORMAT(root, path, fmt, ret);
	if (ret || (ret = fs_read_path(path, buf, sizeof(buf))))
		return ret;
	errno = 0;
	v = strtol(buf, &end, 0);
	if (errno || end == buf || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

int fs_read_u64(const char *root, uint64_t *out, const char *fmt, ...)
{
	char path[FS_PATH_MAX], buf[32], *end;
	unsigned long long v;
	int ret;

	FS_FORMAT(root, path, fmt, ret);
	if (ret || (ret = fs_read_path(path, buf, sizeof(buf))))
		return ret;
	if (buf[0] < '0' || buf[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

int fs_read_field(const char *root, const char *key, char *out, size_t len,
		  const char *fmt, ...)
{
	char path[FS_PATH_MAX], buf[8192], *line;
	size_t klen = strlen(key);
	int ret;

	FS_FORMAT(root, path, fmt, ret);
	if (ret || (ret = fs_read_path(path, buf, sizeof(buf))))
		return ret;
	for (line = buf; strncmp(line, key, klen) || line[klen] != ':';) {
		line = strchr(line, '\n');
		if (!line)
			return -ENOENT;
		line++;
	}
	line += klen + 1;
	line += strspn(line, " \t");
	line[strcspn(line, "\n")] = '\0';
	if (fs_copy(out, len, line))
		return 0;
	if (len)
		out[0] = '\0';
	return -EOVERFLOW;
}

int fs_open_lines(const char *root, FILE **out, const char *fmt, ...)
{
	char path[FS_PATH_MAX];
	int ret;

	*out = NULL;
	FS_FORMAT(root, path, fmt, ret);
	if (ret)
		return ret;
	*out = fopen(path, "re");
	return *out ? 0 : -errno;
}

bool fs_exists(const char *root, const char *fmt, ...)
{
	char path[FS_PATH_MAX];
	int ret;

	FS_FORMAT(root, path, fmt, ret);
	return !ret && !access(path, F_OK);
}

int fs_resolve(const char *root, char *out, size_t len, const char *fmt, ...)
{
	char path[FS_PATH_MAX], real[PATH_MAX], rroot[PATH_MAX];
	size_t rlen;
	int ret;

	FS_FORMAT(root, path, fmt, ret);
	if (ret)
		return ret;
	if (!realpath(path, real) || !realpath(*root ? root : "/", rroot))
		return -errno;
	rlen = strlen(rroot);
	if (rlen == 1)
		rlen = 0;               /* the real root: keep the whole path */
	if (strncmp(real, rroot, rlen) || (real[rlen] && real[rlen] != '/'))
		return -EXDEV;          /* a link that leaves the tree */
	return fs_copy(out, len, real[rlen] ? real + rlen : "/") ?
		0 : -ENAMETOOLONG;
}

int fs_link_name(const char *root, char *out, size_t len, const char *fmt,
		  ...)
{
	char path[FS_PATH_MAX], target[FS_PATH_MAX];
	const char *base;
	ssize_t n;
	int ret;

	FS_FORMAT(root, path, fmt, ret);
	if (ret)
		return ret;
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	return fs_copy(out, len, base ? base + 1 : target) ?
		0 : -ENAMETOOLONG;
}

static int fs_cmp(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

static bool fs_skip(const struct dirent *de)
{
	return !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
}

/* Pass 2 of fs_list: copy at most n names into the block. */
static size_t fs_fill(DIR *d, char **names, size_t n, size_t bytes)
{
	char *s = (char *)(names + n + 1);
	struct dirent *de;
	size_t i = 0, l;

	while (i < n && (de = readdir(d))) {
		if (fs_skip(de))
			continue;
		l = strlen(de->d_name) + 1;
		if (l > bytes)
			break;          /* the folder grew between the passes */
		memcpy(s, de->d_name, l);
		names[i++] = s;
		s += l;
		bytes -= l;
	}
	names[i] = NULL;
	return i;
}

int fs_list(const char *root, char ***names_out, size_t *n_out,
	     const char *fmt, ...)
{
	char path[FS_PATH_MAX], **names;
	size_t n = 0, bytes = 0;
	struct dirent *de;
	DIR *d;
	int ret;

	*names_out = NULL;
	*n_out = 0;
	FS_FORMAT(root, path, fmt, ret);
	if (ret)
		return ret;
	d = opendir(path);
	if (!d)
		return -errno;
	/* two passes, so that the names and the array are one block */
	while ((de = readdir(d)))
		if (!fs_skip(de)) {
			n++;
			bytes += strlen(de->d_name) + 1;
		}
	names = malloc((n + 1) * sizeof(*names) + bytes);
	if (!names) {
		closedir(d);
		return -ENOMEM;
	}
	rewinddir(d);
	n = fs_fill(d, names, n, bytes);
	closedir(d);
	qsort(names, n, sizeof(*names), fs_cmp);
	*names_out = names;
	*n_out = n;
	return 0;
}

int fs_try_open(const char *root, const char *fmt, ...)
{
	char path[FS_PATH_MAX];
	int fd, ret;

	FS_FORMAT(root, path, fmt, ret);
	if (ret)
		return ret;
	/* what a verbs program does first: a device cgroup or a missing
	 * mount shows here as EPERM/ENOENT even when the name is visible */
	fd = open(path, O_RDWR | O_CLOEXEC);
	/* a fake tree on a read-only checkout: device files never say so */
	if (fd < 0 && errno == EROFS)
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}
