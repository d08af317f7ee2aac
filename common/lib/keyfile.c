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
	if (k->len < KEYFILE_MIN || k->len > KEYFILE_MAX) {
		bench_err("--auth-key-file %s: %zu bytes of key; give %d to %d "
			  "(e.g. head -c 32 /dev/urandom | base64 > %s)", path,
			  k->len, KEYFILE_MIN, KEYFILE_MAX, path);
		keyfile_clear(k);
		memset(buf, 0, sizeof(buf));
		return -EINVAL;
	}
	memcpy(k->key, buf, k->len);
	memset(buf, 0, sizeof(buf));
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
