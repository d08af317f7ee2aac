// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_link - step 2 of ib_doctor: a port's link history and rate. A
 * link that flapped or counted errors before the test passes a two-node
 * test and fails a long job:
 *   link_errors  the port's error counters since they were last reset
 *                (boot, or perfquery -R): sysfs counters/ (the PMA
 *                PortCounters: IB, mlx5 RoCE) and hw_counters/link_downed
 *                (rxe), read by host/counters.c
 *   link_flaps   the netdev's carrier_up_count (carrier_changes before
 *                Linux 4.16): every carrier up after the first is a flap
 *   link_rate    an IB port's active width/speed (ports/N/rate) against
 *                the width/speed it supports (the port_rated probe: the
 *                PortInfo MAD; sysfs and ibv_query_port have no rated
 *                value)
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/chk.h"
#include "host/counters.h"
#include "host/rate.h"

/* The counters a link's health shows in, with the count they may reach
 * (0: any is a finding) and their width (the PMA's saturate). */
static const struct {
	const char *name;
	uint64_t max_ok;
	unsigned int bits;
} link_counters[] = {
	{ "counters/symbol_error", 0, 16 },
	{ "counters/link_downed", 0, 8 },
	{ "counters/link_error_recovery", 0, 8 },
	{ "counters/port_rcv_errors", 0, 16 },
	{ "counters/port_rcv_remote_physical_errors", 0, 16 },
	{ "counters/local_link_integrity_errors", 0, 4 },
	{ "counters/excessive_buffer_overrun_errors", 0, 4 },
	{ "hw_counters/link_downed", 0, 64 },
};

#define LINK_NCOUNTERS (sizeof(link_counters) / sizeof(link_counters[0]))

/* A PMA counter stops at its width's maximum. */
static bool link_saturated(size_t i, uint64_t v)
{
	unsigned int bits = link_counters[i].bits;

	return bits < 64 && v == (1ull << bits) - 1;
}

/* The counters over their limit, "counters/symbol_error 12, ..." into
 * text; how many there are; *seen: how many of the table s has. */
static unsigned int link_over(const struct counters_snap *s, char *text,
			      size_t len, unsigned int *seen)
{
	unsigned int n = 0;
	size_t i, at = 0;
	uint64_t v;

	*seen = 0;
	text[0] = '\0';
	for (i = 0; i < LINK_NCOUNTERS; i++) {
		if (counters_find(s, link_counters[i].name, &v))
			continue;
		(*seen)++;
		if (v <= link_counters[i].max_ok || at + 2 >= len)
			continue;
		at += (size_t)snprintf(text + at, len - at, "%s%s %llu%s",
				       n ? ", " : "", link_counters[i].name,
				       (unsigned long long)v,
				       link_saturated(i, v) ? " (saturated)" : "");
		n++;
	}
	return n;
}

static void link_errors(struct chk_ctx *c, const char *sub,
			const struct inv_dev *d, const struct inv_port *p)
{
	struct counters_snap *s = malloc(sizeof(*s));
	char text[FINDING_TEXT_LEN - 120];
	unsigned int n = 0, seen = 0;

	if (s && !counters_read(c->inv.sysfs, d->name, p->num, s))
		n = link_over(s, text, sizeof(text), &seen);
	free(s);
	if (!seen) {
		findings_add(&c->rep, 2, "link_errors", sub, VERDICT_SKIP,
			   "unknown: the port shows no link error counter "
			   "(counters/, hw_counters/link_downed)");
	} else if (!n) {
		findings_add(&c->rep, 2, "link_errors", sub, VERDICT_PASS,
			   "none of its %u link error counters moved since "
			   "they were reset", seen);
	} else {
		findings_add(&c->rep, 2, "link_errors", sub, VERDICT_WARN,
			   "since the counters were reset (boot, or perfquery "
			   "-R): %s", text);
		findings_fix(&c->rep, "a marginal cable, transceiver or switch "
			   "port: check it (mlxlink -d %s -c shows BER and FEC; "
			   "ibqueryerrors the fabric's), then reset the counters "
			   "(perfquery -R) and see whether they move again",
			   d->bdf[0] ? d->bdf : d->name);
	}
}

static void link_flaps(struct chk_ctx *c, const char *sub,
		       const struct inv_port *p)
{
	const char *nd = p->netdev;
	uint64_t up = 0, changes = 0;
	bool has_up = !fs_read_u64(c->root, &up,
				   "/sys/class/net/%s/carrier_up_count", nd);
	bool has_ch = !fs_read_u64(c->root, &changes,
				   "/sys/class/net/%s/carrier_changes", nd);
	/* before 4.16 only the changes: up, then (down, up) per flap */
	uint64_t flaps = has_up ? (up ? up - 1 : 0) :
			 (changes ? (changes - 1) / 2 : 0);

	if (!nd[0] || (!has_up && !has_ch)) {
		findings_add(&c->rep, 2, "link_flaps", sub, VERDICT_SKIP,
			   "unknown: %s%s has no carrier counts", nd[0] ?
			   "netdev " : "no netdev", nd);
	} else if (!flaps) {
		findings_add(&c->rep, 2, "link_flaps", sub, VERDICT_PASS,
			   "%s: no carrier flap since boot (carrier_changes "
			   "%llu)", nd, (unsigned long long)changes);
	} else {
		findings_add(&c->rep, 2, "link_flaps", sub, VERDICT_WARN,
			   "%s lost its carrier %llu time%s since boot "
			   "(carrier_up_count %llu, carrier_changes %llu)", nd,
			   (unsigned long long)flaps, flaps == 1 ? "" : "s",
			   (unsigned long long)up, (unsigned long long)changes);
		findings_fix(&c->rep, "unless someone set %s down (ip link, a "
			   "driver reset), the link flapped: check the cable and "
			   "the switch port's log; dmesg | grep %s says when", nd,
			   nd);
	}
}

/* "4X NDR" as rate.h's link: lanes and the per-lane data rate. */
static int link_parse(unsigned int lanes, const char *speed,
		      struct rate_link *out)
{
	char text[48];

	snprintf(text, sizeof(text), "0 Gb/sec (%uX %s)", lanes, speed);
	return rate_parse_sysfs(text, out);
}

static void link_rate(struct chk_ctx *c, const char *sub,
		      const struct inv_dev *d, const struct inv_port *p)
{
	const struct probe *pr = c->probe;
	struct probe_port_rated r = { 0 };
	struct rate_link act, max;

	if (!pr->port_rated || pr->port_rated(pr->priv, d->name, p->num, &r) ||
	    link_parse(r.lanes, r.speed, &max) ||
	    rate_parse_sysfs(p->link.rate_text, &act)) {
		findings_add(&c->rep, 2, "link_rate", sub, VERDICT_SKIP,
			   "unknown: %s; the rated width/speed needs the "
			   "PortInfo MAD (ibportstate -C %s -P %u %u query "
			   "shows LinkWidthSupported, LinkSpeedSupported)",
			   p->link.rate_text[0] ? p->link.rate_text :
			   "no rate", d->name, p->num, p->num);
		return;
	}
	if (act.lanes >= max.lanes && act.lane_gbps >= max.lane_gbps) {
		findings_add(&c->rep, 2, "link_rate", sub, VERDICT_PASS,
			   "%s %s: the port's rated width and speed",
			   act.width_name, act.speed_name);
		return;
	}
	findings_add(&c->rep, 2, "link_rate", sub, VERDICT_WARN,
		   "%s %s (%.0f Gb/s) on a port rated %s %s (%.0f Gb/s): the "
		   "link trained below its rating", act.width_name,
		   act.speed_name, act.link_gbps, max.width_name,
		   max.speed_name, max.link_gbps);
	findings_fix(&c->rep, "the cable or the switch port holds it back: "
		   "check both are %s-rated (mlxlink -d %s shows the cable's "
		   "and the peer's speeds), reseat, or set the switch port's "
		   "speeds", max.speed_name, d->bdf[0] ? d->bdf : d->name);
}

static void link_dev(struct chk_ctx *c, const struct inv_dev *d)
{
	char sub[FINDING_SUBJECT_LEN];
	unsigned int i;

	for (i = 0; i < d->nports; i++) {
		const struct inv_port *p = &d->ports[i];

		chk_dev_port_subject(sub, sizeof(sub), d, p);
		link_errors(c, sub, d, p);
		link_flaps(c, sub, p);
		if (p->xport == INV_XPORT_IB && d->bdf[0])
			link_rate(c, sub, d, p);
	}
}

void chk_link_check(struct chk_ctx *c)
{
	chk_dev_each(c, link_dev);
}
