// SPDX-License-Identifier: BSD-2-Clause
/*
 * keyfile - read, bound and check a key file. See keyfile.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/keyfile.h"
#include "lib/log.h"

/* Open path: a regular file, its mode in *mode. fd, or -errno (logged). */
static int keyfile_open(const char *path, mode_t *mode)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		int err = errno;

		bench_err("--auth-key-file %s: %s: give a readable file with "
			  "the shared key (the same on server and client)",
			  path, strerror(err));
		return -err;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		bench_err("--auth-key-file %s: not a regular file: give the "
			  "file that holds the key", path);
		close(fd);
		return -EINVAL;
	}
	*mode = st.st_mode;
	return fd;
}

/* The bytes read, less one trailing "\n" or "\r\n". */
static size_t keyfile_trim(const uint8_t *key, size_t len)
{
	if (len && key[len - 1] == '\n')
		len--;
	if (len && key[len - 1] == '\r')
		len--;
	return len;
}

const char *keyfile_weak(const uint8_t *key, size_t len, char *why,
			 size_t why_len)
{
	size_t count[256] = { 0 }, distinct = 0, most = 0, i;

	for (i = 0; i < len; i++) {
		distinct += !count[key[i]]++;
		if (count[key[i]] > most)
			most = count[key[i]];
	}
	if (len < KEYFILE_MIN)
		snprintf(why, why_len, "%zu bytes of key, fewer than %d", len,
			 KEYFILE_MIN);
	else if (distinct < KEYFILE_DISTINCT)
		snprintf(why, why_len, "%zu distinct byte values, fewer than "
			 "%d (a repeated or typed key)", distinct,
			 KEYFILE_DISTINCT);
	else if (most * 4 > len)
		snprintf(why, why_len, "one byte value is %zu of its %zu bytes, "
			 "more than a quarter", most, len);
	else
		return NULL;
	return why;
}

/* Refuse a key below the floor or above KEYFILE_MAX: -EINVAL (logged). */
static int keyfile_check(const char *path, const struct keyfile *k)
{
	char why[96];

	if (k->len > KEYFILE_MAX)
		snprintf(why, sizeof(why), "more than %d bytes of key",
			 KEYFILE_MAX);
	else if (!keyfile_weak(k->key, k->len, why, sizeof(why)))
		return 0;
	bench_err("--auth-key-file %s: too weak or too long a key: %s; give "
		  "%d to %d bytes of random key (e.g. head -c 32 /dev/urandom "
		  "| base64 > %s; chmod 600 %s)", path, why, KEYFILE_MIN,
		  KEYFILE_MAX, path, path);
	return -EINVAL;
}

int keyfile_load(const char *path, struct keyfile *k)
{
	uint8_t buf[KEYFILE_MAX + 3];
	mode_t mode = 0;
	ssize_t n;
	int fd;

	keyfile_clear(k);
	snprintf(k->path, sizeof(k->path), "%s", path);
	fd = keyfile_open(path, &mode);
	if (fd < 0)
		return fd;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0) {
		bench_err("--auth-key-file %s: %s", path, strerror(errno));
		return -EIO;
	}
	k->len = keyfile_trim(buf, (size_t)n);
	memcpy(k->key, buf, k->len < KEYFILE_MAX ? k->len : KEYFILE_MAX);
	memset(buf, 0, sizeof(buf));
	if (keyfile_check(path, k)) {
		keyfile_clear(k);
		return -EINVAL;
	}
	if (mode & (S_IRWXG | S_IRWXO))
		bench_warn("--auth-key-file %s: its group or others may read it "
			   "(mode %04o): chmod 600 %s (Kubernetes: defaultMode "
			   "0400 on the Secret volume)", path,
			   (unsigned int)(mode & 07777), path);
	return 0;
}

void keyfile_clear(struct keyfile *k)
{
	memset(k->key, 0, sizeof(k->key));
	k->len = 0;
}
