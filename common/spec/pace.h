/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pace - how often a server answers one source: a token bucket per host
 * (PACE_PER_S answers a second, bursts of PACE_BURST) in a small fixed
 * table, so that a host that reconnects hundreds of times a second costs
 * the server a few answers a second, not a share of a CPU: beyond its
 * rate a connection is closed without the answer. A table full of busy
 * hosts gives up the one whose bucket is fullest (idle longest: nothing
 * is lost). Pure: the caller keeps the clock. README "Trust model".
 */
#ifndef RDMABENCH_SPEC_PACE_H
#define RDMABENCH_SPEC_PACE_H

#include <stdbool.h>
#include <stdint.h>

#define PACE_SRC_MAX 32            /* hosts remembered at once */
#define PACE_HOST_MAX 64           /* an address, without its port */
#define PACE_PER_S 5ULL            /* answers a second, in the long run */
#define PACE_BURST 10ULL           /* answers at once, after a pause */

struct pace_src {
	char host[PACE_HOST_MAX];   /* "": free */
	uint64_t tat_ns;            /* when its bucket is full again (GCRA) */
};

struct pace {
	struct pace_src src[PACE_SRC_MAX];
};

void pace_init(struct pace *r);

/* May host be answered at now_ns? true: yes, and the answer is counted;
 * false: over its rate (nothing counted: a refusal costs no token). */
bool pace_take(struct pace *r, const char *host, uint64_t now_ns);

#endif
