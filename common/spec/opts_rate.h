/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opts_rate - perftest's rate limiter options (--rate_limit,
 * --rate_units, --rate_limit_type, --burst_size, --typical_pkt_size):
 * perftest 4.5's rules between them, what they resolve to (the HW
 * limiter: the QP's static rate; SW: paced posts), the messages a second
 * the SW limiter allows at a size, and the header's words. Pure.
 */
#ifndef RDMABENCH_SPEC_OPTS_RATE_H
#define RDMABENCH_SPEC_OPTS_RATE_H

#include <stddef.h>

#include "spec/opts.h"

/*
 * After opts_parse: refuse what perftest's parser refuses (each with what
 * to do), resolve cfg->rate_limiter, rate_limit_v and burst_size (0: -t),
 * and note what paces nothing in this run (the server, -b, no rate).
 * 0 or -EINVAL with a message in err.
 */
int opts_check_rate(struct bench_cfg *cfg, const struct bench_desc *d,
		    char *err, size_t err_len);

/* The HW limiter's rate in Gb/s for --rate_limit's text, as perftest's
 * table of the verbs' static rates names it; 0: not one of them. */
double opts_rate_static_gbps(const char *text);

/* The HW limiter could not be set (not InfiniBand, or the QP did not
 * take it) and --rate_limit_type did not ask for it: SW instead, as
 * perftest, where SW paces this run; else none, noted. */
void opts_rate_no_hw(struct bench_cfg *cfg, const struct bench_desc *d);

/* The SW limiter's messages a second at size bytes (0: no limit). */
double opts_rate_per_s(const struct bench_cfg *cfg, unsigned long long size);

/* The header's "Rate limit" line's text; NULL when there is no limiter. */
const char *opts_rate_text(const struct bench_cfg *cfg, char *buf,
			   size_t len);

#endif
