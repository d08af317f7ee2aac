/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nonce - unpredictable bytes from the kernel (getrandom), for session
 * tokens and authentication challenges. Pure (no verbs).
 */
#ifndef RDMABENCH_LIB_NONCE_H
#define RDMABENCH_LIB_NONCE_H

#include <stddef.h>

/* Fill buf with len random bytes. 0, or -errno (logged). */
int nonce_fill(void *buf, size_t len);

#endif
