// SPDX-License-Identifier: BSD-2-Clause
/*
 * opts - the one parser (spec/opts_prog.h): a program's rows drive
 * getopt_long, defaults and range checks, for the benches, ib_fabric and
 * ib_doctor alike. Defaults are parsed through the same path as user
 * input, so a bad default fails a unit test instead of a user.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "spec/opts.h"
#include "spec/opts_forgive.h"
#include "spec/opts_refuse.h"
#include "spec/opts_table.h"
#include "lib/units.h"

void opts_err(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
}

int opts_rules_check(const struct opts_rule *rules, size_t n, char *err,
		     size_t err_len)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (rules[i].bad) {
			opts_err(err, err_len, "%s", rules[i].msg);
			return -EINVAL;
		}
	}
	return 0;
}

/* Add "what (why)" to the run's notes of what changes nothing. */
void opts_note(struct bench_cfg *cfg, const char *what)
{
	size_t at = strlen(cfg->noop_notes);

	if (!strstr(cfg->noop_notes, what))
		snprintf(cfg->noop_notes + at, sizeof(cfg->noop_notes) - at,
			 "%s%s", at ? "; " : "", what);
}

/*
 * The values option o accepts, ", "-separated, into list: every choice
 * bench tool d can take (NULL: every choice), as its --help lists them.
 */
static void opt_choices(const struct opt_def *o, const struct bench_desc *d,
			char *list, size_t len)
{
	size_t i, n = 0;

	list[0] = '\0';
	for (i = 0; o->choices[i] && n < len; i++)
		if (opts_table_choice_ok(o, i, d))
			n += snprintf(list + n, len - n, "%s%s",
				      n ? ", " : "", o->choices[i]);
}

/* The choice value names (any case), else -EINVAL and err lists them. */
static int opt_enum(const struct opt_def *o, const struct bench_desc *d,
		    const char *value, const char *label, uint64_t *index_out,
		    char *err, size_t err_len)
{
	char list[256];
	size_t i;

	for (i = 0; o->choices[i]; i++) {
		/* a choice this tool cannot take is opts_check's to word */
		if (!strcasecmp(value, o->choices[i])) {
			*index_out = i;
			return 0;
		}
	}
	opt_choices(o, d, list, sizeof(list));
	opts_err(err, err_len, "%s '%s': must be one of %s", label, value,
		 list);
	return -EINVAL;
}

static int opt_double(const char *value, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (errno || end == value || *end || !(v >= 0) || v > 1e12)
		return -EINVAL;
	*out = v;
	return 0;
}

/* Numbers, sizes, enums, doubles: parse and range-check value. */
static int opt_parse_value(const struct opt_def *o,
			   const struct bench_desc *d, const char *value,
			   char *base, const char *label, char *err,
			   size_t err_len)
{
	uint64_t num = 0;
	int ret;

	switch (o->kind) {
	case OPT_DOUBLE:
		ret = opt_double(value, (double *)(base + o->off));
		if (ret)
			opts_err(err, err_len, "%s '%s': must be a number >= 0",
				 label, value);
		return ret;
	case OPT_ENUM:
		ret = opt_enum(o, d, value, label, &num, err, err_len);
		break;
	case OPT_U64:
	case OPT_OPT_INT:
		ret = units_parse_u64(value, o->min, o->max, &num);
		break;
	default: /* OPT_SIZE */
		ret = units_parse_size(value, &num);
		if (!ret && (num < o->min || num > o->max))
			ret = -ERANGE;
		break;
	}
	if (ret == -ERANGE)
		opts_err(err, err_len, "%s %s: must be in [%llu, %llu]", label,
			 value, (unsigned long long)o->min,
			 (unsigned long long)o->max);
	else if (ret && o->kind != OPT_ENUM)
		opts_err(err, err_len, "%s '%s': not a number%s", label, value,
			 o->kind == OPT_SIZE ? " (e.g. 65536, 64K, 1M)" : "");
	if (!ret && o->kind == OPT_OPT_INT)
		*(int64_t *)(base + o->off) = (int64_t)num;
	else if (!ret)
		*(uint64_t *)(base + o->off) = num;
	return ret;
}

/* Store one value; value is NULL for flags, .bare stands in for an
 * optional argument not given. */
static int opt_store(const struct opt_def *o, const struct bench_desc *d,
		     void *cfg, const char *value, char *err, size_t err_len)
{
	char *base = cfg;
	char label[64];
	int ret = 0;

	opts_table_label(o, label, sizeof(label));
	if (!value)
		value = o->bare;
	switch (o->kind) {
	case OPT_FLAG:
	case OPT_NOOP:
		*(bool *)(base + o->off) = true;
		break;
	case OPT_STR:
		if (!value[0]) {
			opts_err(err, err_len,
				 "%s: the value must not be empty", label);
			return -EINVAL;
		}
		if (strlen(value) >= o->max) {
			opts_err(err, err_len, "%s '%.40s...': at most %llu "
				 "characters", label, value,
				 (unsigned long long)o->max - 1);
			return -EINVAL;
		}
		strcpy(base + o->off, value);
		break;
	case OPT_OPT_INT:
		if (!strcmp(value, "-1")) { /* the default */
			*(int64_t *)(base + o->off) = -1;
			break;
		}
		if (!strcmp(value, "auto")) {
			*(int64_t *)(base + o->off) = OPTS_CUDA_AUTO;
			break;
		}
		/* fall through */
	default:
		ret = opt_parse_value(o, d, value, base, label, err, err_len);
		break;
	}
	if (!ret && o->has_off)
		*(bool *)(base + o->has_off) = true;
	return ret;
}

static int opts_defaults(const struct opt_prog *p,
			 const struct bench_desc *d, void *cfg, char *err,
			 size_t err_len)
{
	char num[32];
	size_t i;
	int ret;

	memset(cfg, 0, p->cfg_size);
	for (i = 0; i < p->count; i++) {
		const struct opt_def *o = &p->rows[i];
		const char *def = opts_table_default(o, d, num, sizeof(num));

		if (!def)
			continue;
		ret = opt_store(o, d, cfg, def, err, err_len);
		if (ret)
			return ret;
		if (o->has_off) /* a default does not count as given */
			*(bool *)((char *)cfg + o->has_off) = false;
	}
	return 0;
}

/* How many refused options p has (a NULL name ends them). */
static size_t refused_count(const struct opt_prog *p)
{
	size_t n = 0;

	while (p->refused && p->refused[n].name)
		n++;
	return n;
}

/* getopt's view of a refused option (code OPT_REFUSED_CODE + i). */
static struct option refusal_option(const struct opt_prog *p, size_t i)
{
	const struct opts_refusal *r = &p->refused[i];

	return (struct option){ r->name, r->has_arg ? required_argument :
				no_argument, NULL,
				(int)(OPT_REFUSED_CODE + i) };
}

static char *add_short(char *shorts, int code, int has_arg)
{
	if (code <= 0 || code >= 256)
		return shorts;
	*shorts++ = (char)code;
	if (has_arg != no_argument)
		*shorts++ = ':';
	if (has_arg == optional_argument)
		*shorts++ = ':';
	return shorts;
}

/* p's getopt tables: longs[], NULL-ended, and the short string. */
static void build_getopt(const struct opt_prog *p, size_t refused,
			 struct option *longs, char *shorts)
{
	size_t i;

	if (p->in_order)
		*shorts++ = '+'; /* stop at the first operand */
	*shorts++ = ':'; /* report a missing argument as ':' */
	for (i = 0; i < p->count; i++) {
		const struct opt_def *o = &p->rows[i];
		int has_arg = o->bare ? optional_argument :
			      o->arg ? required_argument : no_argument;

		longs[i] = (struct option){ o->name, has_arg, NULL, o->code };
		shorts = add_short(shorts, o->code, has_arg);
	}
	for (i = 0; i < refused; i++) {
		longs[p->count + i] = refusal_option(p, i);
		shorts = add_short(shorts, p->refused[i].short_name,
				   longs[p->count + i].has_arg);
	}
	longs[p->count + refused] = (struct option){ 0 };
	*shorts = '\0';
}

static const struct opt_def *opt_find(const struct opt_prog *p, int code)
{
	size_t i;

	for (i = 0; i < p->count; i++)
		if (p->rows[i].code == code)
			return &p->rows[i];
	return NULL;
}

/* The refused option getopt returned as code, or NULL. */
static const struct opts_refusal *refusal_find(const struct opt_prog *p,
					       int code)
{
	size_t i;

	if (code >= OPT_REFUSED_CODE)
		return &p->refused[code - OPT_REFUSED_CODE];
	for (i = 0; p->refused && p->refused[i].name; i++)
		if (p->refused[i].short_name == code)
			return &p->refused[i];
	return NULL;
}

/* A refused perftest option: why, and what to do instead. */
static int opt_refuse(const struct opts_refusal *r, char *err, size_t err_len)
{
	if (!r) /* cannot happen: every code getopt returns is a row's */
		opts_err(err, err_len, "unknown option (--help lists them)");
	else if (r->short_name)
		opts_err(err, err_len,
			 "-%c/--%s is not supported by rdmabench: %s; %s",
			 r->short_name, r->name, r->why, r->instead);
	else
		opts_err(err, err_len,
			 "--%s is not supported by rdmabench: %s; %s",
			 r->name, r->why, r->instead);
	return -EINVAL;
}

/* Options of some bench tools only (perftest's --help of each): refused,
 * but for those perftest ignores elsewhere (1: take it, use it not). */
static int opt_applies(const struct opt_def *o, const struct bench_desc *d,
		       char *err, size_t err_len)
{
	char label[64], tools[64];

	if (!d || (o->only & ONLY_LISTED) || opts_table_applies(o, d))
		return 0;
	if (o->only & IGNORED_ELSEWHERE)
		return 1;
	opts_table_label(o, label, sizeof(label));
	if ((o->only & ONLY_MEASURES) && !(o->only & opts_table_mine(d))) {
		bool bw = o->only & ONLY_BW;

		opts_err(err, err_len, "%s is for %s tests, not %s: use the "
			 "ib_*_%s tool", label, bw ? "bandwidth" : "latency",
			 d->name, bw ? "bw" : "lat");
		return -EINVAL;
	}
	opts_table_tools(o->only, tools, sizeof(tools));
	opts_err(err, err_len, "%s is for %s, not %s: use one of those or drop "
		 "it", label, tools, d->name);
	return -EINVAL;
}

/*
 * An option perftest takes and ignores on tool d: its value is checked as
 * where it applies (into a scratch copy, so nothing changes) and its
 * label added, once, to p's list of what changes nothing.
 */
static int opt_ignore(const struct opt_prog *p, const struct opt_def *o,
		      const struct bench_desc *d, void *cfg, const char *value,
		      char *err, size_t err_len)
{
	union { uint64_t u; double f; bool b; char s[256]; } scratch;
	struct opt_def row = *o;
	char label[64], *list = (char *)cfg + p->ignored_off;
	size_t at;
	int ret;

	row.off = 0;
	row.has_off = 0;
	if (row.kind == OPT_STR && row.max > sizeof(scratch.s))
		row.max = sizeof(scratch.s);
	ret = opt_store(&row, d, &scratch, value, err, err_len);
	if (ret || !p->ignored_len)
		return ret;
	opts_table_label(o, label, sizeof(label));
	if (strstr(list, label))
		return 0;
	at = strlen(list);
	snprintf(list + at, p->ignored_len - at, "%s%s", at ? ", " : "",
		 label);
	return 0;
}

/*
 * An optional argument given as the next word ("--use_cuda 0", as perftest
 * users write it): taken when it is a value of the option, so that it is
 * not read as the server address.
 */
static const char *opt_next_value(const struct opt_def *o, int argc,
				  char **argv)
{
	uint64_t num;

	if (o->kind != OPT_OPT_INT || optarg || optind >= argc ||
	    (strcmp(argv[optind], "auto") &&
	     units_parse_u64(argv[optind], o->min, o->max, &num)))
		return optarg;
	return argv[optind++];
}

/* No operands (a program without its operands hook). */
static int opts_no_operands(const struct opt_prog *p, int argc, char **argv,
			    int first, char *err, size_t err_len)
{
	if (first >= argc)
		return 0;
	opts_err(err, err_len, "unexpected argument '%s' (%s)", argv[first],
		 p->operand_hint ? p->operand_hint :
		 "--help lists the options");
	return -EINVAL;
}

/*
 * getopt's error codes into a message naming the option; a missing value
 * of an enumerated option also lists the values it takes.
 */
static int opt_getopt_error(const struct opt_prog *p,
			    const struct bench_desc *d, int code, char **argv,
			    char *err, size_t err_len)
{
	const struct opt_def *o = code == ':' ? opt_find(p, optopt) : NULL;
	char list[256] = "";

	/* an unknown short option inside a cluster ("-Za"): getopt has
	 * not advanced optind yet, so name the character itself */
	if (code == '?' && optopt > 0 && optopt < 256) {
		opts_err(err, err_len,
			 "unknown option '-%c' (--help lists them)", optopt);
		return -EINVAL;
	}
	if (o && o->kind == OPT_ENUM)
		opt_choices(o, d, list, sizeof(list));
	opts_err(err, err_len, "%s option '%s'%s%s",
		 code == '?' ? "unknown" : "missing value for",
		 argv[optind - 1],
		 code == '?' ? " (--help lists them)" : list[0] ? ": one of " :
		 "", list);
	return -EINVAL;
}

/* getopt_long over argv (already respelled by opts_forgive). */
static int opts_getopt(const struct opt_prog *p, const struct bench_desc *d,
		       void *cfg, const struct option *longs,
		       const char *shorts, int argc, char **argv, char *err,
		       size_t err_len)
{
	int code, ret;

	optind = 0; /* 0, not 1: makes glibc re-initialise getopt fully */
	opterr = 0; /* we word the messages ourselves */
	while ((code = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct opt_def *o = opt_find(p, code);

		if (code == '?' || code == ':')
			return opt_getopt_error(p, d, code, argv, err,
						 err_len);
		if (!o)
			return opt_refuse(refusal_find(p, code), err, err_len);
		ret = opt_applies(o, d, err, err_len);
		if (ret == 1)
			ret = opt_ignore(p, o, d, cfg,
					 opt_next_value(o, argc, argv), err,
					 err_len);
		else if (!ret)
			ret = opt_store(o, d, cfg,
					opt_next_value(o, argc, argv), err,
					err_len);
		if (ret)
			return ret;
	}
	if (!p->operands)
		return opts_no_operands(p, argc, argv, optind, err, err_len);
	return p->operands(cfg, argc, argv, optind, err, err_len);
}

int opts_prog_parse(const struct opt_prog *p, const struct bench_desc *d,
		    void *cfg, int argc, char **argv, char *err,
		    size_t err_len)
{
	size_t refused = refused_count(p);
	struct option longs[p->count + refused + 1];
	char shorts[3 * (p->count + refused) + 3];
	char **args;
	int ret;

	ret = opts_defaults(p, d, cfg, err, err_len);
	if (ret)
		return ret;
	build_getopt(p, refused, longs, shorts);
	args = opts_forgive(longs, shorts, argc, argv, &ret, err, err_len);
	if (!args)
		return ret;
	ret = opts_getopt(p, d, cfg, longs, shorts, argc, args, err, err_len);
	free(args);
	return ret;
}

int opts_parse(struct bench_cfg *cfg, const struct bench_desc *desc,
	       int argc, char **argv, char *err, size_t err_len)
{
	return opts_prog_parse(&opts_table_prog, desc, cfg, argc, argv, err,
			       err_len);
}
