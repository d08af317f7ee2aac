// SPDX-License-Identifier: BSD-2-Clause
/*
 * rate - expected line rate and the formula behind it. See rate.h.
 */
#include "host/rate.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct speed_row {
	unsigned code;
	const char *name;
	double lane_gbps;	/* data, after encoding */
	double sysfs_lane_gbps;	/* the kernel's rate_show() figure */
};

/*
 * 64b/66b lanes are written as signalling x 64/66 so that the table shows
 * where 13.64 comes from; FDR10 and EDR come out at exactly 10 and 25.
 * From HDR on the lane figure is the nominal data rate (53.125 Gbaud PAM4
 * carries 50 Gb/s after RS-FEC and 256b/257b), as the IB spec states it.
 */
static const struct speed_row speeds[] = {
	{ RATE_SPEED_SDR, "SDR", 2.5 * 8 / 10, 2.5 },
	{ RATE_SPEED_DDR, "DDR", 5.0 * 8 / 10, 5.0 },
	{ RATE_SPEED_QDR, "QDR", 10.0 * 8 / 10, 10.0 },
	{ RATE_SPEED_FDR10, "FDR10", 10.3125 * 64 / 66, 10.0 },
	{ RATE_SPEED_FDR, "FDR", 14.0625 * 64 / 66, 14.0 },
	{ RATE_SPEED_EDR, "EDR", 25.78125 * 64 / 66, 25.0 },
	{ RATE_SPEED_HDR, "HDR", 50.0, 50.0 },
	{ RATE_SPEED_NDR, "NDR", 100.0, 100.0 },
	{ RATE_SPEED_XDR, "XDR", 200.0, 200.0 },
};

struct width_row {
	unsigned code;
	unsigned lanes;
	const char *name;
};

/* active_width is a bit mask, not a lane count: 2X came last, as 16. */
static const struct width_row widths[] = {
	{ RATE_WIDTH_1X, 1, "1X" },
	{ RATE_WIDTH_2X, 2, "2X" },
	{ RATE_WIDTH_4X, 4, "4X" },
	{ RATE_WIDTH_8X, 8, "8X" },
	{ RATE_WIDTH_12X, 12, "12X" },
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* The speed of verbs code code, or (name not NULL) of that name. */
static const struct speed_row *speed_find(unsigned code, const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_LEN(speeds); i++)
		if (name ? !strcmp(speeds[i].name, name) : speeds[i].code == code)
			return &speeds[i];
	return NULL;
}

/* The width of verbs code code, or (lanes not 0) of that many lanes. */
static const struct width_row *width_find(unsigned code, unsigned lanes)
{
	size_t i;

	for (i = 0; i < ARRAY_LEN(widths); i++)
		if (lanes ? widths[i].lanes == lanes : widths[i].code == code)
			return &widths[i];
	return NULL;
}

static void link_fill(const struct speed_row *s, const struct width_row *w,
		      struct rate_link *out)
{
	out->lane_gbps = s->lane_gbps;
	out->lanes = w->lanes;
	out->link_gbps = s->lane_gbps * w->lanes;
	out->speed_name = s->name;
	out->width_name = w->name;
	out->sysfs_gbps = s->sysfs_lane_gbps * w->lanes;
}

int rate_from_port(unsigned active_speed, unsigned active_speed_ex,
		   unsigned active_width, struct rate_link *out)
{
	/* active_speed is 8 bits wide and cannot hold XDR; _ex can. */
	const struct speed_row *s =
		speed_find(active_speed_ex ? active_speed_ex : active_speed,
			   NULL);
	const struct width_row *w = width_find(active_width, 0);

	if (!s || !w || !out)
		return -EINVAL;
	link_fill(s, w, out);
	return 0;
}

/*
 * The kernel writes "%d%s Gb/sec (%dX%s)" (rate_show() in
 * drivers/infiniband/core/sysfs.c): "2.5 Gb/sec (1X SDR)". strtod() would
 * take blanks, signs, "nan" and hex, so the first character must be a
 * digit. Returns where the text after " Gb/sec" starts, or NULL.
 */
static const char *parse_gbps_prefix(const char *text, double *gbps_out)
{
	static const char unit[] = " Gb/sec";
	char *end;

	if (!text || text[0] < '0' || text[0] > '9')
		return NULL;
	*gbps_out = strtod(text, &end);
	if (strncmp(end, unit, sizeof(unit) - 1))
		return NULL;
	return end + sizeof(unit) - 1;
}

int rate_parse_sysfs_gbps(const char *text, double *gbps_out)
{
	double gbps;

	if (!gbps_out || !parse_gbps_prefix(text, &gbps))
		return -EINVAL;
	*gbps_out = gbps;
	return 0;
}

/* Only a trailing newline or blanks may follow the closing parenthesis. */
static int is_blank_tail(const char *p)
{
	for (; *p; p++)
		if (*p != '\n' && *p != ' ' && *p != '\t')
			return 0;
	return 1;
}

int rate_parse_sysfs(const char *text, struct rate_link *out)
{
	const struct speed_row *s;
	const struct width_row *w;
	char name[16];
	unsigned long lanes;
	const char *p;
	char *end;
	double gbps;
	size_t n;

	p = parse_gbps_prefix(text, &gbps);
	if (!p || strncmp(p, " (", 2) || p[2] < '0' || p[2] > '9' || !out)
		return -EINVAL;
	lanes = strtoul(p + 2, &end, 10);
	if (strncmp(end, "X ", 2))
		return -EINVAL;
	p = end + 2;
	n = strcspn(p, ")");
	if (!n || n >= sizeof(name) || p[n] != ')' || !is_blank_tail(p + n + 1))
		return -EINVAL;
	memcpy(name, p, n);
	name[n] = '\0';
	s = speed_find(0, name);
	w = lanes <= 12 ? width_find(0, (unsigned)lanes) : NULL;
	if (!s || !w)
		return -EINVAL;
	link_fill(s, w, out);
	return 0;
}

/* Line encoding of a PCIe generation, as numerator / denominator. */
static void pcie_encoding(double gt_per_s, unsigned *num, unsigned *den)
{
	if (gt_per_s < 8.0) {
		*num = 8;	/* Gen1/2: 8b/10b */
		*den = 10;
	} else if (gt_per_s < 64.0) {
		*num = 128;	/* Gen3..5: 128b/130b */
		*den = 130;
	} else {
		*num = 242;	/* Gen6+ FLIT: 236 B TLP+DLP of 256 */
		*den = 256;
	}
}

double rate_pcie_gbps(double gt_per_s, unsigned width)
{
	unsigned num, den;

	if (!(gt_per_s > 0.0) || !width)
		return 0.0;
	pcie_encoding(gt_per_s, &num, &den);
	return gt_per_s * width * num / den;
}

double rate_pcie_tlp_efficiency(unsigned max_payload_bytes)
{
	if (!max_payload_bytes)
		return 0.0;
	return (double)max_payload_bytes /
	       (max_payload_bytes + RATE_PCIE_TLP_OVERHEAD_BYTES);
}

/*
 * Bytes a full packet costs on the wire besides its payload. Why these:
 * IB  LRH 8 + BTH 12 + ICRC 4 + VCRC 2. A GRH (40) only crosses subnets.
 *     Start/end delimiters and skip ordered sets are below 0.1%.
 * RoCEv2  the Ethernet line spends preamble 7 + SFD 1 + inter-frame gap
 *     12 on every frame, which a speed in Mb/s already includes, then
 *     MAC header 14 + FCS 4, IPv4 20, UDP 8, BTH 12, ICRC 4. An 802.1Q
 *     tag adds 4 (0.1% at MTU 4096), IPv6 adds 20.
 */
static unsigned wire_overhead_bytes(enum rate_transport t)
{
	switch (t) {
	case RATE_IB:
		return RATE_IB_OVERHEAD_BYTES;
	case RATE_ROCE_V2:
		return RATE_ROCE_V2_OVERHEAD_BYTES;
	}
	return 0;
}

double rate_wire_efficiency(unsigned mtu_bytes, enum rate_transport t)
{
	unsigned overhead = wire_overhead_bytes(t);

	if (!mtu_bytes || !overhead)
		return 0.0;
	return (double)mtu_bytes / (mtu_bytes + overhead);
}

const char *rate_transport_name(enum rate_transport t)
{
	return t == RATE_IB ? "IB" : t == RATE_ROCE_V2 ? "RoCEv2" : "?";
}

/* A bounded text builder: output is cut, never overrun, on overflow. */
struct sbuf {
	char *buf;
	size_t len;
	size_t used;
};

__attribute__((format(printf, 2, 0)))
static void sb_vprintf(struct sbuf *sb, const char *fmt, va_list ap)
{
	int n;

	if (sb->used >= sb->len)
		return;
	n = vsnprintf(sb->buf + sb->used, sb->len - sb->used, fmt, ap);
	if (n > 0)
		sb->used += (size_t)n;
}

__attribute__((format(printf, 2, 3)))
static void sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

/* Another "; "-separated clause of a warning list. */
__attribute__((format(printf, 2, 3)))
static void sb_clause(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;

	if (sb->used)
		sb_printf(sb, "; ");
	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

/*
 * A figure with at most `decimals` places and no trailing zeros, so that
 * formulas read "4 × 50 Gb/s", not "4 × 50.00 Gb/s". buf: 32 bytes.
 */
static const char *fmt_num(char *buf, double v, int decimals)
{
	char *p;

	snprintf(buf, 32, "%.*f", decimals, v);
	if (!strchr(buf, '.'))
		return buf;
	p = buf + strlen(buf) - 1;
	while (*p == '0')
		*p-- = '\0';
	if (*p == '.')
		*p = '\0';
	return buf;
}

/* "Gen4" for the standard speeds, else "" (then only GT/s is shown). */
static int pcie_gen(double gt_per_s)
{
	static const double gts[] = { 2.5, 5, 8, 16, 32, 64, 128 };
	size_t i;

	for (i = 0; i < ARRAY_LEN(gts); i++)
		if (fabs(gt_per_s - gts[i]) < 0.01)
			return (int)i + 1;
	return 0;
}

/* Within 1%: Mb/s figures are round (25000), lane rates are not (13.64). */
static int is_close(double a, double b)
{
	return fabs(a - b) <= 0.01 * fmax(fabs(a), fabs(b));
}

/* Work state of rate_achievable(), to keep each step a small function. */
struct rate_work {
	const struct rate_inputs *in;
	struct rate_result res;
	bool has_link;
	bool use_netdev;	/* the line rate is the netdev's */
	struct sbuf formula;
	struct sbuf warning;
};

/* The link from verbs, else from the sysfs text; -ENODATA if neither. */
static int pick_link(struct rate_work *w)
{
	const struct rate_inputs *in = w->in;
	bool has_port = in->active_speed || in->active_speed_ex ||
			in->active_width;
	bool has_text = in->sysfs_rate && in->sysfs_rate[0];
	int ret;

	if (has_port) {
		ret = rate_from_port(in->active_speed, in->active_speed_ex,
				     in->active_width, &w->res.link);
		if (ret)
			return ret;
		w->has_link = true;
	} else if (has_text && !rate_parse_sysfs(in->sysfs_rate,
						 &w->res.link)) {
		w->has_link = true;
	}
	if (!w->has_link && !(in->transport == RATE_ROCE_V2 &&
			      in->netdev_speed_mbps > 0))
		return -ENODATA;
	return 0;
}

/* "WHAT disagrees with verbs 4X HDR (N Gb/s); using USING". */
static void warn_disagree(struct rate_work *w, const char *what,
			  double verbs_gbps, const char *using)
{
	const struct rate_link *l = &w->res.link;
	char b[32];

	sb_clause(&w->warning, "%s disagrees with verbs %s %s (%s Gb/s); using %s",
		  what, l->width_name, l->speed_name,
		  fmt_num(b, verbs_gbps, 1), using);
}

/*
 * The kernel derives ports/N/rate from the same active_speed/width, so a
 * disagreement means the two were read at different times (the link
 * retrained in between) or that the driver reports a speed the kernel's
 * rate_show() does not know (it prints those as SDR): say so, trust verbs.
 */
static void check_sysfs(struct rate_work *w)
{
	const struct rate_inputs *in = w->in;
	const struct rate_link *l = &w->res.link;
	struct rate_link text_link;
	char what[96];
	double gbps;

	if (!in->sysfs_rate || !in->sysfs_rate[0] ||
	    !(in->active_speed || in->active_speed_ex || in->active_width))
		return;
	if (rate_parse_sysfs_gbps(in->sysfs_rate, &gbps) ||
	    rate_parse_sysfs(in->sysfs_rate, &text_link)) {
		sb_clause(&w->warning,
			  "sysfs rate \"%.63s\" is not \"N Gb/sec (WX SPEED)\" with a known WX and SPEED; ignored",
			  in->sysfs_rate);
		return;
	}
	if (fabs(gbps - l->sysfs_gbps) < 0.05 &&
	    !strcmp(text_link.speed_name, l->speed_name) &&
	    text_link.lanes == l->lanes)
		return;
	snprintf(what, sizeof(what), "sysfs rate \"%.63s\"", in->sysfs_rate);
	warn_disagree(w, what, l->sysfs_gbps,
		      "verbs (if the link just retrained, run again)");
}

/*
 * On Ethernet the netdev's speed is the MAC data rate, exact by
 * definition, while verbs' speed/width is the driver's translation into
 * IB terms: mlx5 calls 40GbE "4X QDR" (32 Gb/s of IB data) and the
 * kernel's ib_get_eth_speed(), used by rxe, calls anything above 40GbE
 * "4X EDR". So on RoCE the netdev's rate is used whenever known; a
 * warning is given only when it matches neither the verbs data rate nor
 * the verbs nominal rate. IPoIB's netdev speed is derived from the port,
 * so on IB it adds nothing and is ignored.
 */
static void check_netdev(struct rate_work *w)
{
	const struct rate_inputs *in = w->in;
	const struct rate_link *l = &w->res.link;
	double netdev_gbps = in->netdev_speed_mbps / 1000.0;
	char what[96];

	w->res.line_gbps = w->has_link ? l->link_gbps : 0.0;
	if (in->transport != RATE_ROCE_V2 || in->netdev_speed_mbps <= 0)
		return;
	if (w->has_link && is_close(netdev_gbps, l->link_gbps))
		return;
	w->use_netdev = true;
	w->res.line_gbps = netdev_gbps;
	if (!w->has_link || is_close(netdev_gbps, l->sysfs_gbps))
		return;
	snprintf(what, sizeof(what), "netdev speed %d Mb/s",
		 in->netdev_speed_mbps);
	warn_disagree(w, what, l->link_gbps,
		      "the netdev's (Ethernet's own rate)");
}

/* "4X HDR: 4 × 50 Gb/s = 200 Gb/s" and its netdev variants. */
static void formula_line(struct rate_work *w)
{
	const struct rate_link *l = &w->res.link;
	struct sbuf *f = &w->formula;
	char b1[32], b2[32];

	if (w->use_netdev)
		sb_printf(f, "netdev %d Mb/s = %s Gb/s",
			  w->in->netdev_speed_mbps,
			  fmt_num(b1, w->res.line_gbps, 1));
	if (!w->has_link)
		return;
	sb_printf(f, w->use_netdev ? " (verbs %s %s: " : "%s %s: ",
		  l->width_name, l->speed_name);
	sb_printf(f, "%u × %s Gb/s = %s Gb/s", l->lanes,
		  fmt_num(b1, l->lane_gbps, 2), fmt_num(b2, l->link_gbps, 1));
	if (w->use_netdev)
		sb_printf(f, ")");
	else if (w->in->transport == RATE_ROCE_V2 &&
		 w->in->netdev_speed_mbps > 0)
		sb_printf(f, " (netdev %d Mb/s agrees)",
			  w->in->netdev_speed_mbps);
}

/* "; PCIe Gen4 x16: 16 GT/s × 16 × 128/130 = 252.1 Gb/s [× TLP ...]" */
static void pcie_cap(struct rate_work *w)
{
	const struct rate_inputs *in = w->in;
	struct sbuf *f = &w->formula;
	double raw = rate_pcie_gbps(in->pcie_gts, in->pcie_width);
	double tlp = rate_pcie_tlp_efficiency(in->pcie_max_payload_bytes);
	char b1[32], b2[32];
	unsigned n, d;
	int gen = pcie_gen(in->pcie_gts);

	w->res.pcie_gbps = raw;
	if (raw <= 0.0)
		return;
	pcie_encoding(in->pcie_gts, &n, &d);
	sb_printf(f, "; PCIe ");
	if (gen)
		sb_printf(f, "Gen%d ", gen);
	sb_printf(f, "x%u: %s GT/s × %u × %u/%u = %s Gb/s", in->pcie_width,
		  fmt_num(b1, in->pcie_gts, 4), in->pcie_width, n, d,
		  fmt_num(b2, raw, 1));
	if (tlp <= 0.0)
		return;
	w->res.pcie_gbps = raw * tlp;
	sb_printf(f, " × %.4f (TLP, MaxPayload %u B) = %s Gb/s", tlp,
		  in->pcie_max_payload_bytes,
		  fmt_num(b1, w->res.pcie_gbps, 1));
}

static void achieve(struct rate_work *w)
{
	struct rate_result *r = &w->res;
	char b1[32], b2[32], b3[32];

	r->wire_efficiency = rate_wire_efficiency(w->in->mtu_bytes,
						  w->in->transport);
	r->wire_payload_gbps = r->line_gbps * r->wire_efficiency;
	sb_printf(&w->formula, " × %.4f (%s, MTU %u) = %s Gb/s",
		  r->wire_efficiency, rate_transport_name(w->in->transport),
		  w->in->mtu_bytes, fmt_num(b1, r->wire_payload_gbps, 1));
	pcie_cap(w);
	if (r->pcie_gbps <= 0.0) {
		r->achievable_gbps = r->wire_payload_gbps;
		sb_printf(&w->formula,
			  "; no PCIe link: achievable = %s Gb/s payload",
			  fmt_num(b1, r->achievable_gbps, 1));
		return;
	}
	r->is_pcie_bound = r->pcie_gbps < r->wire_payload_gbps;
	r->achievable_gbps = fmin(r->pcie_gbps, r->wire_payload_gbps);
	sb_printf(&w->formula,
		  "; achievable = min(%s, %s) = %s Gb/s payload",
		  fmt_num(b1, r->wire_payload_gbps, 1),
		  fmt_num(b2, r->pcie_gbps, 1),
		  fmt_num(b3, r->achievable_gbps, 1));
}

/*
 * Wire efficiency applies to the network link only: PCIe carries the
 * payload (and descriptors), never the Ethernet/IB headers, so its ceiling
 * is compared with the link's payload rate, not with the raw line rate.
 */
int rate_achievable(const struct rate_inputs *in, struct rate_result *out)
{
	struct rate_work w = { .in = in };
	int ret;

	if (!in || !out || !in->mtu_bytes ||
	    !rate_wire_efficiency(in->mtu_bytes, in->transport))
		return -EINVAL;
	w.formula = (struct sbuf){ w.res.formula, sizeof(w.res.formula), 0 };
	w.warning = (struct sbuf){ w.res.warning, sizeof(w.res.warning), 0 };
	ret = pick_link(&w);
	if (ret)
		return ret;	/* *out untouched on failure */
	check_sysfs(&w);
	check_netdev(&w);
	formula_line(&w);
	achieve(&w);
	*out = w.res;
	return 0;
}
