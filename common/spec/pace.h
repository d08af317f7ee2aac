/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pace - how often a server answers one source: a token bucket per host
 * (PACE_PER_S answers a second, bursts of PACE_BURST) in a small fixed
 * table, so that a host that reconnects hundreds of times a second costs
 * the server a few answers a second, not a share of a CPU: beyond its
 * rate a connection is closed without the answer. A table full of busy
 * hosts gives up the one whose bucket is fullest (idle longest: nothing
 * is lost). Pure: the caller keeps the clock. docs/trust.md.
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

/*
 * The same bucket for one stream of messages (perftest's SW rate
 * limiter, --rate_limit): per_s messages a second in the long run, up to
 * burst at once after a pause. Times in ps from the start (a message
 * can cost under 1 ns).
 */
struct pace_flow {
	uint64_t start_ns;
	uint64_t step_ps;           /* one message; 0: no limit */
	uint64_t burst;
	uint64_t tat_ps;
};

void pace_flow_init(struct pace_flow *f, double per_s, uint64_t burst,
		    uint64_t now_ns);

/* How many messages may go at now_ns (UINT64_MAX: no limit). */
uint64_t pace_flow_room(const struct pace_flow *f, uint64_t now_ns);

/* n messages went at now_ns. */
void pace_flow_take(struct pace_flow *f, uint64_t now_ns, uint64_t n);

#endif
