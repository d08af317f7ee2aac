/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chk_nccl - step 10 of ib_doctor (--nccl-log): NCCL's transport from its
 * NCCL_DEBUG=INFO log (doctor/nccl_log.h) against this host's facts.
 */
#ifndef RDMABENCH_DOCTOR_CHK_NCCL_H
#define RDMABENCH_DOCTOR_CHK_NCCL_H

#include <stdbool.h>

#include "doctor/chk.h"
#include "doctor/nccl_log.h"

/*
 * The findings of one log (read from path; its name is their subject).
 * host: this host's name; a log of another host is judged from its
 * own lines alone. c->inv must be read (inv_read).
 */
void chk_nccl_check(struct chk_ctx *c, const struct nccl_log *l,
		    const char *path, const char *host);

/*
 * --nccl-log FIRST MORE...: the inventory (inv_read), then each file
 * ("-" is stdin) through chk_nccl_check. 0, or the first file's -errno
 * (said on stderr, naming the file; the others still run).
 */
int chk_nccl_files(struct chk_ctx *c, const char *first, char *const *more,
		   int n_more, const char *host);

/* nccl_path when some net channels ran NET/IB without GDRDMA: why, from
 * this host's GPUDirect facts and GPU<->NIC pairs (chk_nccl_gdr.c). */
void chk_nccl_gdr(struct chk_ctx *c, const struct nccl_log *l,
		  const char *subject, bool here, const char *paths);

#endif
