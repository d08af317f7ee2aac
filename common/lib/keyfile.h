/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * keyfile - a shared secret read from a file (--auth-key-file, e.g. a
 * Kubernetes Secret mounted read-only). Pure.
 *
 * The key is the file's bytes, less one trailing "\n" or "\r\n" (what an
 * editor or `echo` adds): at least KEYFILE_MIN and at most KEYFILE_MAX
 * bytes; a regular file. A file that its group or others may read is
 * used, with a warning that names the file and the fix.
 *
 * The strength floor (keyfile_weak), a simple estimate that a key was
 * not typed: at least KEYFILE_MIN (32) bytes, at least KEYFILE_DISTINCT
 * (10) distinct byte values, and no byte value more than a quarter of
 * the key. 32 random bytes (raw, base64 or hex: `head -c 32 /dev/urandom
 * | base64`, `openssl rand -hex 32`) always pass; "aaaa...", "abab..."
 * and short passwords do not. A key below it is refused, with why, on
 * the server, the client and ib_fabric alike.
 */
#ifndef RDMABENCH_LIB_KEYFILE_H
#define RDMABENCH_LIB_KEYFILE_H

#include <stddef.h>
#include <stdint.h>

#define KEYFILE_MIN 32
#define KEYFILE_DISTINCT 10
#define KEYFILE_MAX 1024

struct keyfile {
	char path[256];             /* for messages */
	uint8_t key[KEYFILE_MAX];
	size_t len;
};

/*
 * Load path into *k. 0, or -errno, logged with what to do (-ENOENT,
 * -EACCES, -EINVAL: not a regular file, a length out of bounds, or a key
 * below the strength floor).
 */
int keyfile_load(const char *path, struct keyfile *k);

/*
 * Is key (len bytes) below the strength floor? NULL when strong enough;
 * else why, a phrase ("3 distinct byte values, fewer than 10").
 */
const char *keyfile_weak(const uint8_t *key, size_t len, char *why,
			 size_t why_len);

/* Forget the key (its bytes zeroed). */
void keyfile_clear(struct keyfile *k);

#endif
