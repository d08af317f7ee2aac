// SPDX-License-Identifier: BSD-2-Clause
/*
 * check - a server's checks of its client's test: first that it is a
 * test at all (known verb, no zero where a count belongs), then the
 * server's caps, one reason at a time; memory is the plan of buffers and
 * rings (spec/plan.h) against --max-mem.
 */
#include <errno.h>
#include <stdio.h>

#include "spec/bench.h"
#include "spec/check.h"
#include "spec/opts.h"
#include "spec/plan.h"
#include "lib/units.h"

/* The largest queue depth a client may ask for. */
#define CHECK_MAX_DEPTH 16384

static bool check_valid(const struct test *t)
{
	return t->iters && t->tx_depth && t->cq_mod && t->size_bytes &&
	       t->qps && t->post_list && t->rx_depth && t->outstanding &&
	       t->max_size_bytes >= t->size_bytes &&
	       t->tx_depth <= CHECK_MAX_DEPTH && t->rx_depth <= CHECK_MAX_DEPTH;
}

/* --max-mem: the plan of buffers and rings, and where the cap came from. */
static int check_mem(const struct test *t, const struct bench_cfg *caps,
		     char *why, size_t len)
{
	char need[32], cap[32];
	struct plan p;

	plan_test(t, &p);
	if (p.total_bytes <= caps->max_mem_bytes)
		return 0;
	units_fmt_bytes(p.total_bytes, need, sizeof(need));
	units_fmt_bytes(caps->max_mem_bytes, cap, sizeof(cap));
	snprintf(why, len, "%s of buffers and rings: this server allows %s "
		 "(--max-mem%s%s)", need, cap,
		 caps->max_mem_from[0] ? ": " : "", caps->max_mem_from);
	return -EINVAL;
}

int check_test(const struct test *t, const struct bench_cfg *caps,
	       char *why, size_t len)
{
	if (t->verb >= BENCH_VERB_COUNT || t->measure > BENCH_MEASURE_LAT) {
		snprintf(why, len, "unknown test (verb %u, measure %u): a newer "
			 "client?", (unsigned int)t->verb,
			 (unsigned int)t->measure);
		return -EINVAL;
	}
	if (!check_valid(t)) {
		snprintf(why, len, "invalid test parameters");
		return -EINVAL;
	}
	/* UC is never acknowledged: a server that took it from anyone could
	 * be made to send to any address; it is served only when asked for */
	if (t->uc && caps->conn_type != OPTS_CONN_UC)
		snprintf(why, len, "UC (-c UC): this server takes RC only; "
			 "start it with -c UC to serve UC clients");
	else if (t->ud && caps->conn_type != OPTS_CONN_UD)
		snprintf(why, len, "UD (-c UD): this server takes %s only; "
			 "start it with -c UD to serve UD clients",
			 opts_conn_name(caps->conn_type));
	else if (t->ud && (t->uc || t->verb != BENCH_VERB_SEND ||
			   t->max_size_bytes > TEST_UD_MAX_BYTES))
		snprintf(why, len, "UD carries sends of one packet (%u bytes "
			 "at most), not UC, other verbs or %llu bytes",
			 TEST_UD_MAX_BYTES,
			 (unsigned long long)t->max_size_bytes);
	else if (t->reversed && (t->measure != BENCH_MEASURE_BW || t->bidir))
		snprintf(why, len,
			 "--reversed turns a one-way bandwidth test "
			 "round, not a latency test or -b");
	else if (t->max_size_bytes > caps->max_size_bytes)
		snprintf(why, len, "messages of %llu bytes: this server allows "
			 "%llu (--max-size)", (unsigned long long)t->max_size_bytes,
			 (unsigned long long)caps->max_size_bytes);
	else if (t->qps > caps->max_qps)
		snprintf(why, len, "%u QPs: this server allows %llu (--max-qps)",
			 t->qps, (unsigned long long)caps->max_qps);
	else if (t->duration_s > caps->max_duration_s)
		snprintf(why, len, "-D %u: this server allows %llu s "
			 "(--max-duration)", t->duration_s,
			 (unsigned long long)caps->max_duration_s);
	else if (t->recv_post_list > t->rx_depth ||
		 (t->recv_post_list > 1 && t->measure != BENCH_MEASURE_BW))
		snprintf(why, len, "--recv_post_list %u with -r %u: a list of "
			 "receives must fit in the receive queue, and only "
			 "bandwidth tests post lists", t->recv_post_list,
			 t->rx_depth);
	else if (t->margin_s && 2ULL * t->margin_s >= t->duration_s)
		snprintf(why, len, "-f %u with -D %u: the margin must be less "
			 "than half of -D (each end of the run has one)",
			 t->margin_s, t->duration_s);
	else
		return check_mem(t, caps, why, len);
	return -EINVAL;
}
