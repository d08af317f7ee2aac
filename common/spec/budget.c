// SPDX-License-Identifier: BSD-2-Clause
/*
 * budget - a congestion budget's text. See budget.h.
 */
#include "spec/budget.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "spec/opts.h"

/* The units a budget is per, as written after the '/'. */
static const struct {
	const char *text;
	enum budget_per per;
} budget_units[] = {
	{ "s", BUDGET_PER_S },
	{ "GB", BUDGET_PER_GB },
};

const char *budget_unit(enum budget_per per)
{
	return per == BUDGET_PER_S ? "/s" : per == BUDGET_PER_GB ? "/GB" : "";
}

static enum budget_per budget_unit_of(const char *text)
{
	size_t i;

	for (i = 0; i < sizeof(budget_units) / sizeof(budget_units[0]); i++)
		if (!strcasecmp(text, budget_units[i].text))
			return budget_units[i].per;
	return BUDGET_UNSET;
}

int budget_parse(const char *option, const char *text, struct budget *out,
		 char *why, size_t len)
{
	char *end = NULL;
	double v;

	*out = (struct budget){ .per = BUDGET_UNSET };
	if (!text || !*text)
		return 0;
	v = strtod(text, &end);
	if (end != text && *end == '/' && isfinite(v) && v >= 0.0)
		out->per = budget_unit_of(end + 1);
	if (out->per == BUDGET_UNSET) {
		if (len)
			snprintf(why, len, "%s %s: a budget is N/s (events "
				 "per second) or N/GB (per GB moved), N a "
				 "number >= 0: e.g. 100/s or 5/GB", option,
				 text);
		return -EINVAL;
	}
	out->max = v;
	return 0;
}

/* Each kind's option, and where cfg holds its text. */
static const struct {
	const char *option;
	size_t off;
} budget_opts[BUDGET_KINDS] = {
	[BUDGET_PAUSE] = { "--expect-max-pause",
			   offsetof(struct bench_cfg, expect_max_pause) },
	[BUDGET_CNP] = { "--expect-max-cnp",
			 offsetof(struct bench_cfg, expect_max_cnp) },
	[BUDGET_ECN] = { "--expect-max-ecn",
			 offsetof(struct bench_cfg, expect_max_ecn) },
	[BUDGET_OOB] = { "--expect-max-out-of-buffer",
			 offsetof(struct bench_cfg, expect_max_oob) },
};

const char *budget_option(enum budget_kind k)
{
	return k < BUDGET_KINDS ? budget_opts[k].option : "?";
}

int budget_of_cfg(const struct bench_cfg *cfg, struct budget out[BUDGET_KINDS],
		  char *why, size_t len)
{
	const char *text;
	unsigned int k;
	int ret;

	for (k = 0; k < BUDGET_KINDS; k++) {
		text = (const char *)cfg + budget_opts[k].off;
		ret = budget_parse(budget_opts[k].option, text, &out[k], why,
				   len);
		if (ret)
			return ret;
	}
	return 0;
}
