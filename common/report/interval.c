// SPDX-License-Identifier: BSD-2-Clause
/*
 * interval - progress rows and the live status line, as text (see
 * interval.h). Pure: numbers in, one line out.
 */
#include "report/interval.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

/* "12.34 Gb/s" or "p50 1.71 us"; "-" when nothing completed. */
static void interval_figure(char *buf, size_t len, const struct interval_fig *f)
{
	if (!f->ops || (f->is_lat ? !isfinite(f->p50_us) : !isfinite(f->gbps)))
		snprintf(buf, len, "%10s %-4s", "-", f->is_lat ? "us" : "Gb/s");
	else if (f->is_lat)
		snprintf(buf, len, "p50 %6.2f us", f->p50_us);
	else
		snprintf(buf, len, "%10.2f Gb/s", f->gbps);
}

int interval_row(char *buf, size_t len, const struct interval_fig *f)
{
	char fig[40];

	if (!buf || !f)
		return -EINVAL;
	interval_figure(fig, sizeof(fig), f);
	snprintf(buf, len, "[%7.2f-%7.2f s] %9llu B  %s  %10llu %s", f->from_s,
		 f->to_s, (unsigned long long)f->size_bytes, fig,
		 (unsigned long long)f->ops, f->is_lat ? "iterations" : "ops");
	return 0;
}

int interval_live_line(char *buf, size_t len, const struct interval_live *l)
{
	const struct interval_fig *f;
	char fig[40], where[80];
	double left;

	if (!buf || !l || !l->tool)
		return -EINVAL;
	f = &l->fig;
	left = l->total_s - f->to_s;
	interval_figure(fig, sizeof(fig), f);
	if (l->total_s > 0)
		snprintf(where, sizeof(where), "%.1f s of %.0f s, %.1f s left",
			 f->to_s, l->total_s, left > 0 ? left : 0.0);
	else if (l->total_ops)
		snprintf(where, sizeof(where), "%.1f s, %.0f%% of %llu %s",
			 f->to_s, 100.0 * (double)f->ops / (double)l->total_ops,
			 (unsigned long long)l->total_ops,
			 f->is_lat ? "iterations" : "ops");
	else
		snprintf(where, sizeof(where), "%.1f s", f->to_s);
	snprintf(buf, len, "%s: %llu B  %s  %s", l->tool,
		 (unsigned long long)f->size_bytes, where, fig);
	return 0;
}
