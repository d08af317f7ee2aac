/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fs - read sysfs/procfs/devfs files below a root folder: "/" on a
 * real host, a fake tree in the unit tests. The one reader of such files
 * for the benches (host/) and ib_doctor alike. Pure: no verbs headers.
 *
 * Every PATH argument is a printf format for an absolute path ("/sys/...");
 * the root is put in front of it. Returns are 0 or -errno.
 *
 * A value longer than the caller's buffer is refused with -EOVERFLOW,
 * never cut (a cut name or number is another one), as rdma-core's
 * ibv_read_sysfs_file_at() refuses it; on any error the buffer holds "".
 */
#ifndef RDMABENCH_LIB_FS_H
#define RDMABENCH_LIB_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define FS_PATH_MAX 512

/* root + the formatted path into out. -ENAMETOOLONG if it does not fit. */
int fs_path(const char *root, char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Read a whole (small) file into buf as a string without its trailing
 * newlines and blanks. -EOVERFLOW when that is more than len - 1 bytes;
 * -ENOENT, -EINVAL (sysfs says so for an unset attribute), ... on failure.
 */
int fs_read(const char *root, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Read a file holding one integer (decimal or 0x hex, nothing after it)
 * into *out; -EINVAL for anything else (-EOVERFLOW: over 63 bytes).
 */
int fs_read_long(const char *root, long *out, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Read a file holding one unsigned decimal integer of up to 64 bits
 * (sysfs counters), nothing after it, into *out; -EINVAL for anything
 * else (a sign, hex, a word: a counter the driver does not support).
 */
int fs_read_u64(const char *root, uint64_t *out, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The value of the "key:" line of a file such as /proc/self/status
 * ("VmPin:\t  1024 kB" -> "1024 kB"), without the blanks before it.
 * -ENOENT when no line has that key; -EOVERFLOW when the value does not
 * fit out, or the file is over 8 KiB.
 */
int fs_read_field(const char *root, const char *key, char *out, size_t len,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * Open the path for reading line by line (a file with no bound on its
 * size: /proc/net/route holds a line per route): *out is the stream to
 * fclose. 0 or -errno.
 */
int fs_open_lines(const char *root, FILE **out, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* True if the path exists (a link to nowhere does not). */
bool fs_exists(const char *root, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Resolve every link of the path; out gets the result as an absolute path
 * inside the root ("/sys/devices/pci0000:00/..."), so that a fake tree
 * behaves like the real one (its links must be relative, as sysfs's are).
 */
int fs_resolve(const char *root, char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The last component of the link's target (a driver's or device's name). */
int fs_link_name(const char *root, char *out, size_t len,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * The entries of a folder (no "." or ".."), sorted in version order
 * (mlx5_2 before mlx5_10), as one malloc'd block: *names_out points to n
 * strings; free(*names_out) frees all. An absent folder gives 0 entries
 * and returns -ENOENT.
 */
int fs_list(const char *root, char ***names_out, size_t *n_out,
	     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Open the path read-write and close it again: 0 if that works. */
int fs_try_open(const char *root, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Copy src into dst (always terminated); true if it fit. */
bool fs_copy(char *dst, size_t len, const char *src);

#endif
