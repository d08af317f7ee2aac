// SPDX-License-Identifier: BSD-2-Clause
/*
 * nonce - getrandom(2), retried on EINTR and short reads. See nonce.h.
 */
#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "lib/log.h"
#include "lib/nonce.h"

int nonce_fill(void *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = getrandom((char *)buf + done, len - done, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			bench_err("getrandom: %s", strerror(errno));
			return -errno;
		}
		done += (size_t)n;
	}
	return 0;
}
