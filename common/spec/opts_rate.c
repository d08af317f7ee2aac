// SPDX-License-Identifier: BSD-2-Clause
/*
 * opts_rate - perftest's rate limiter options (opts_rate.h), with perftest
 * 4.5's meaning (its force_dependecies() and run_iter_bw()): --rate_limit
 * alone is the HW limiter, the verbs' static rate of the QP's address
 * (one of the rates its table names, Gb/s); SW paces the posts of a
 * one-way bandwidth run in bursts of --burst_size (-t by default); PP is
 * raw Ethernet's packet pacing. What perftest refuses, we refuse, with
 * what to do; what it takes and does not use is noted.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/opts_rate.h"

/* perftest's RATE_VALUES: the static rates it sets, as typed (Gb/s). */
static const struct { const char *text; double gbps; } rate_static[] = {
	{ "2.5", 2.5 }, { "5", 5 }, { "10", 10 }, { "14", 14 },
	{ "20", 20 }, { "25", 25 }, { "30", 30 }, { "40", 40 },
	{ "56", 56 }, { "60", 60 }, { "80", 80 }, { "100", 100 },
	{ "112", 112 }, { "120", 120 }, { "168", 168 }, { "200", 200 },
	{ "300", 300 },
};

static const char *const rate_names[] = {
	[OPTS_RATE_HW] = "HW", [OPTS_RATE_SW] = "SW", [OPTS_RATE_PP] = "PP",
	[OPTS_RATE_OFF] = "off",
};

double opts_rate_static_gbps(const char *text)
{
	size_t i;

	for (i = 0; i < sizeof(rate_static) / sizeof(rate_static[0]); i++)
		if (!strcmp(text, rate_static[i].text))
			return rate_static[i].gbps;
	return 0;
}

/* --rate_limit's number as perftest's atof() reads it (a number's
 * prefix; none: 0). */
static double opts_rate_number(const char *text)
{
	double v = strtod(text, NULL);

	return isfinite(v) ? v : 0;
}

/* The limiter in effect: --rate_limit_type, else HW when a rate is given
 * (perftest's default), else none. */
static void opts_rate_resolve(struct bench_cfg *cfg)
{
	cfg->rate_limit_v = cfg->rate_limit[0] ?
			    opts_rate_number(cfg->rate_limit) : 0;
	if (cfg->has_rate_limit_type)
		cfg->rate_limiter = cfg->rate_limit_type;
	else
		cfg->rate_limiter = cfg->rate_limit[0] ? OPTS_RATE_HW :
							 OPTS_RATE_OFF;
}

/* perftest's refusals of the SW limiter: a one-way bandwidth run. */
static bool opts_rate_sw_bad(const struct bench_cfg *cfg,
			     const struct bench_desc *d)
{
	return cfg->rate_limiter == OPTS_RATE_SW &&
	       (d->measure != BENCH_MEASURE_BW ||
		bench_verb(d->verb)->fixed_size ||
		(d->verb == BENCH_VERB_SEND && cfg->bidir));
}

/* ... and of the HW limiter: a QP connected over the TCP channel, a rate
 * of Gb/s or MiB/s that its table names. */
static bool opts_rate_hw_cm(const struct bench_cfg *cfg)
{
	return cfg->rate_limiter == OPTS_RATE_HW &&
	       (cfg->rdma_cm || cfg->comm_rdma_cm);
}

static bool opts_rate_hw_bad_rate(const struct bench_cfg *cfg)
{
	return cfg->rate_limiter == OPTS_RATE_HW && cfg->rate_limit_v > 0 &&
	       cfg->rate_units != OPTS_RATE_PPS &&
	       !opts_rate_static_gbps(cfg->rate_limit);
}

/* The number and the static rate: perftest's refusals that quote it. */
static int opts_rate_value(const struct bench_cfg *cfg, char *err,
			   size_t err_len)
{
	if (cfg->rate_limit[0] && !(cfg->rate_limit_v > 0)) {
		opts_err(err, err_len, "--rate_limit '%s': must be a number "
			 "above 0 (in --rate_units, Gb/s by default)",
			 cfg->rate_limit);
		return -EINVAL;
	}
	if (opts_rate_hw_bad_rate(cfg)) {
		opts_err(err, err_len, "--rate_limit %s: the HW limiter sets "
			 "one of the static rates 2.5, 5, 10, 14, 20, 25, 30, "
			 "40, 56, 60, 80, 100, 112, 120, 168, 200, 300 (Gb/s): "
			 "give one, or add --rate_limit_type SW for any rate",
			 cfg->rate_limit);
		return -EINVAL;
	}
	return 0;
}

static int opts_rate_rules(const struct bench_cfg *cfg,
			   const struct bench_desc *d, char *err,
			   size_t err_len)
{
	const struct opts_rule rules[] = {
		{ cfg->run_infinitely && cfg->rate_limiter != OPTS_RATE_OFF,
		  "--run_infinitely with a rate limiter (perftest refuses it "
		  "too): give -D SEC, or drop --rate_limit" },
		{ cfg->burst_size && cfg->rate_limiter == OPTS_RATE_OFF,
		  "--burst_size needs a rate limiter: add --rate_limit RATE "
		  "--rate_limit_type SW, or drop --burst_size" },
		{ cfg->typical_pkt_size && cfg->rate_limiter != OPTS_RATE_PP,
		  "--typical_pkt_size is the PP limiter's (raw Ethernet): "
		  "drop it" },
		{ opts_rate_sw_bad(cfg, d),
		  "--rate_limit_type SW paces the posts of a one-way "
		  "bandwidth run (perftest refuses it elsewhere too): use "
		  "ib_write_bw, ib_read_bw or ib_send_bw without -b" },
		{ opts_rate_hw_cm(cfg),
		  "--rate_limit (HW unless --rate_limit_type says): the "
		  "static rate is set on QPs connected over the TCP channel, "
		  "not by rdma_cm: drop -R/-z, or add --rate_limit_type SW" },
		{ cfg->rate_limiter == OPTS_RATE_HW &&
		  cfg->rate_units == OPTS_RATE_PPS,
		  "--rate_units p: the HW limiter takes g or M: use "
		  "--rate_limit_type SW for messages a second" },
		{ cfg->rate_limiter == OPTS_RATE_PP,
		  "--rate_limit_type PP: packet pacing is raw Ethernet's "
		  "(perftest's raw_ethernet_bw): use SW or HW" },
	};
	int ret = opts_rate_value(cfg, err, err_len);

	return ret ? ret : opts_rules_check(rules, sizeof(rules) /
					    sizeof(rules[0]), err, err_len);
}

/* What paces nothing here, noted and turned off: the server (the
 * client's posts are paced), SW with -b (perftest 4.5 paces one-way
 * runs only), a limiter without a rate. */
static void opts_rate_unused(struct bench_cfg *cfg)
{
	const struct { bool hit; const char *note; } rows[] = {
		{ opts_is_server(cfg), "--rate_limit (the client paces its "
		  "own posts; the server sends none)" },
		{ cfg->rate_limiter == OPTS_RATE_SW && cfg->bidir,
		  "--rate_limit with -b (perftest 4.5 paces one-way runs "
		  "only)" },
		{ !(cfg->rate_limit_v > 0), "--rate_limit_type without "
		  "--rate_limit (no rate to keep)" },
	};
	size_t i;

	if (cfg->rate_limiter == OPTS_RATE_OFF && cfg->has_rate_units)
		opts_note(cfg, "--rate_units (no --rate_limit: nothing is "
			  "paced)");
	if (cfg->rate_limiter == OPTS_RATE_OFF)
		return;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (rows[i].hit) {
			opts_note(cfg, rows[i].note);
			cfg->rate_limiter = OPTS_RATE_OFF;
			return;
		}
	}
}

int opts_check_rate(struct bench_cfg *cfg, const struct bench_desc *d,
		    char *err, size_t err_len)
{
	int ret;

	opts_rate_resolve(cfg);
	ret = opts_rate_rules(cfg, d, err, err_len);
	if (ret)
		return ret;
	if (!cfg->burst_size)
		cfg->burst_size = cfg->tx_depth;
	opts_rate_unused(cfg);
	return 0;
}

void opts_rate_no_hw(struct bench_cfg *cfg, const struct bench_desc *d)
{
	cfg->rate_limiter = OPTS_RATE_SW;
	if (opts_rate_sw_bad(cfg, d)) {
		opts_note(cfg, "--rate_limit (the HW limiter is InfiniBand's, "
			  "and SW paces one-way bandwidth runs only)");
		cfg->rate_limiter = OPTS_RATE_OFF;
		return;
	}
	opts_rate_unused(cfg);
}

double opts_rate_per_s(const struct bench_cfg *cfg, unsigned long long size)
{
	double v = cfg->rate_limit_v;

	if (cfg->rate_limiter != OPTS_RATE_SW || !(v > 0) || !size)
		return 0;
	switch (cfg->rate_units) {
	case OPTS_RATE_MIBPS:
		return v * 1048576.0 / (double)size;
	case OPTS_RATE_PPS:
		return v;
	default:
		return v * 1e9 / ((double)size * 8);
	}
}

const char *opts_rate_text(const struct bench_cfg *cfg, char *buf,
			   size_t len)
{
	static const char *const units[] = {
		[OPTS_RATE_GBPS] = "Gb/s", [OPTS_RATE_MIBPS] = "MiB/s",
		[OPTS_RATE_PPS] = "messages/s",
	};

	if (cfg->rate_limiter == OPTS_RATE_OFF)
		return NULL;
	if (cfg->rate_limiter == OPTS_RATE_HW)
		snprintf(buf, len, "HW: the QPs' static rate, %s Gb/s "
			 "(--rate_limit)", cfg->rate_limit);
	else
		snprintf(buf, len, "%s: %g %s, posted in bursts of %llu "
			 "messages (--rate_limit)",
			 rate_names[cfg->rate_limiter], cfg->rate_limit_v,
			 units[cfg->rate_units % 3],
			 (unsigned long long)cfg->burst_size);
	return buf;
}
