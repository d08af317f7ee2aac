/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * afile - write an output file without ever harming what the path names.
 * The one such writer, for the benches' results files, ib_doctor --json
 * and ib_fabric's plan alike. What a path names decides how (issue #24:
 * as root, "--json /dev/null" once replaced /dev/null with a regular
 * file):
 *
 *   a new or regular file   written atomically: readers (a CI step,
 *                           node_exporter's textfile collector, a pod's
 *                           termination message) see the old file or the
 *                           new one, never half of one; through a
 *                           symlink, the target is replaced and the link
 *                           kept
 *   "-", /dev/stdout,       this program's own output (afile_save: the
 *   /dev/stderr, /dev/fd/N, stream the caller set aside for "-"; else
 *   /proc/self/fd/N         the descriptor), written in place
 *   device, FIFO, socket    opened (a socket: connected) and written in
 *   (or a symlink to one)   place, never replaced; a FIFO without a
 *                           reader is an error, not a hang
 *   a directory             refused, naming the path and why
 *
 * The atomic write: the temporary file is made by mkstemp() in the
 * destination's folder (rename() is atomic only within one filesystem;
 * O_EXCL and an unpredictable name cannot be raced by another user
 * there), rendered, flushed and fsync'd, made mode 0644, renamed over
 * the path, and then the folder is fsync'd so that the rename itself
 * survives a crash.
 */
#ifndef RDMABENCH_LIB_AFILE_H
#define RDMABENCH_LIB_AFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes the contents to out; 0 or -errno (the file is then dropped). */
typedef int (*afile_render_fn)(const void *arg, FILE *out);

/* An output option and the path it names ("--json", "out.json"). */
struct afile_opt {
	const char *opt;
	const char *path;         /* NULL or "": not asked for */
};

/*
 * Option time, over every output of a program: each path afile_check()ed,
 * and no two naming the same output (afile_same()): -EINVAL with why
 * naming both options. 0 when all can be written.
 */
int afile_check_set(const struct afile_opt *outs, size_t n, char *why,
		    size_t len);

/*
 * Render into path as the table above says: atomically for a new or
 * regular file, in place for anything else, refused for a directory.
 * Returns 0, or -errno after one message on stderr naming path; the
 * temporary file never stays behind. A failed fsync of the folder only
 * warns (the file is in place).
 */
int afile_write(const char *path, afile_render_fn render, const void *arg);

/* Does path name standard output: "-", /dev/stdout, /dev/fd/1 or
 * /proc/self/fd/1? */
bool afile_is_stdout(const char *path);

/*
 * The descriptor of this process that path names: 1 for "-" and
 * /dev/stdout, 2 for /dev/stderr, N for /dev/fd/N and /proc/self/fd/N;
 * -1 for any other path.
 */
int afile_own_fd(const char *path);

enum afile_kind {
	AFILE_CREATE,     /* nothing there yet: made atomically */
	AFILE_REPLACE,    /* a regular file: replaced atomically */
	AFILE_OWN_FD,     /* one of this process's descriptors (fd) */
	AFILE_IN_PLACE,   /* a character or block device, a FIFO */
	AFILE_SOCKET,     /* a Unix socket: connected to */
	AFILE_DIR,        /* refused */
};

struct afile_target {
	enum afile_kind kind;
	int fd;                   /* AFILE_OWN_FD: the descriptor */
	bool via_link;            /* path was a symlink (to path below) */
	char path[PATH_MAX];      /* where to write: symlinks followed */
};

/*
 * What path names (the table above), its symlinks followed by hand (a
 * dangling one names the file it will create). Only lstat and readlink:
 * nothing is opened or written. Returns 0, or -errno (-ELOOP, -EACCES,
 * -ENAMETOOLONG...) with nothing logged.
 */
int afile_classify(const char *path, struct afile_target *t);

/* "a device or FIFO"...: what a kind is, for messages. */
const char *afile_kind_name(enum afile_kind kind);

/*
 * Option time: a path that can never take a document (a directory, a
 * symlink loop) is refused with why ("--json out: is a directory: give
 * a file name ...", opt naming the option) in why: -EINVAL. 0 otherwise.
 */
int afile_check(const char *opt, const char *path, char *why, size_t len);

/*
 * Do a and b name the same output: the same text, the same descriptor
 * of this process ("-" and /dev/stdout), or the same existing file or
 * node (stat: device and inode, symlinks followed)? "" is no path.
 */
bool afile_same(const char *a, const char *b);

/*
 * Render into path: as afile_write(), or into std, flushed, when path
 * names standard output (afile_is_stdout(): the caller has set std aside
 * from the human text). Returns 0, or -errno after one message on stderr.
 */
int afile_save(const char *path, afile_render_fn render, const void *arg,
	       FILE *std);

#endif
