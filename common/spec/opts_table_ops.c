// SPDX-License-Identifier: BSD-2-Clause
/*
 * opts_table_ops - what the benches' option table says of a tool: which
 * rows apply, are listed, and their defaults and labels (opts_table.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "lib/tick.h"
#include "spec/opts.h"
#include "spec/opts_table.h"

/* The verb names of ONLY_WRITE, ONLY_READ, ... in that order. */
static const char *const only_verbs[] = { "write", "read", "send", "atomic" };
#define ONLY_VERB_COUNT (sizeof(only_verbs) / sizeof(only_verbs[0]))

unsigned int opts_table_mine(const struct bench_desc *d)
{
	unsigned int bits = d->measure == BENCH_MEASURE_BW ? ONLY_BW : ONLY_LAT;
	size_t i;

	for (i = 0; i < ONLY_VERB_COUNT; i++)
		if (!strcmp(bench_verb_name(d->verb), only_verbs[i]))
			bits |= ONLY_WRITE << i;
	return bits;
}

void opts_table_tools(unsigned int only, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < ONLY_VERB_COUNT; i++)
		if (only & (ONLY_WRITE << i))
			n += snprintf(buf + n, n < len ? len - n : 0,
				      "%sib_%s_*", n ? ", " : "",
				      only_verbs[i]);
}

bool opts_table_only_ok(unsigned int only, const struct bench_desc *d)
{
	unsigned int mine;

	if (!d) /* not a bench: every row is the program's own */
		return true;
	if (only & ONLY_NO_TOOL)
		return false;
	mine = opts_table_mine(d);
	return (!(only & ONLY_MEASURES) || (only & mine & ONLY_MEASURES)) &&
	       (!(only & ONLY_VERBS) || (only & mine & ONLY_VERBS));
}

bool opts_table_applies(const struct opt_def *o, const struct bench_desc *d)
{
	return opts_table_only_ok(o->only, d);
}

bool opts_table_listed(const struct opt_def *o, const struct bench_desc *d)
{
	return o->help && opts_table_applies(o, d) &&
	       !(d && bench_verb(d->verb)->fixed_size &&
		 (o->code == 's' || o->code == 'a'));
}

const char *opts_table_default(const struct opt_def *o,
			       const struct bench_desc *d, char *buf,
			       size_t len)
{
	if (d && (o->code == 's' || o->code == 'n')) {
		snprintf(buf, len, "%llu", o->code == 's' ? d->default_size :
			 d->default_iters);
		return buf;
	}
	if (d && d->measure == BENCH_MEASURE_LAT && o->def_lat)
		return o->def_lat;
	return o->def;
}

const char *opts_table_label(const struct opt_def *o, char *buf, size_t len)
{
	if (o->code < 256)
		snprintf(buf, len, "-%c/--%s", o->code, o->name);
	else
		snprintf(buf, len, "--%s", o->name);
	return buf;
}
