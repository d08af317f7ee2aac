/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * keyfile - a shared secret read from a file (--auth-key-file, e.g. a
 * Kubernetes Secret mounted read-only). Pure.
 *
 * The key is the file's bytes, less one trailing "\n" or "\r\n" (what an
 * editor or `echo` adds): at least KEYFILE_MIN and at most KEYFILE_MAX
 * bytes; a regular file. A file that its group or others may read is
 * used, with a warning that names the file and the fix.
 */
#ifndef RDMABENCH_LIB_KEYFILE_H
#define RDMABENCH_LIB_KEYFILE_H

#include <stddef.h>
#include <stdint.h>

#define KEYFILE_MIN 16
#define KEYFILE_MAX 1024

struct keyfile {
	char path[256];             /* for messages */
	uint8_t key[KEYFILE_MAX];
	size_t len;
};

/*
 * Load path into *k. 0, or -errno, logged with what to do (-ENOENT,
 * -EACCES, -EINVAL: not a regular file or a length out of bounds).
 */
int keyfile_load(const char *path, struct keyfile *k);

/* Forget the key (its bytes zeroed). */
void keyfile_clear(struct keyfile *k);

#endif
