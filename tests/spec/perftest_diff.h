/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/spec/perftest_diff.h - the argv and the known table of
 * test_perftest_diff: perftest's options (tests/fixtures/
 * perftest-options.txt) made into a fixed-seed list of argv per tool and
 * side, the rows of tests/spec/perftest_diff_known.txt, and the
 * classification of each argv's two verdicts. Included by that test only.
 */
#ifndef RDMABENCH_TESTS_SPEC_PERFTEST_DIFF_H
#define RDMABENCH_TESTS_SPEC_PERFTEST_DIFF_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/bench.h"
#include "tests/spec/perftest_samples.h"

enum diff_verdict { DIFF_UNCLEAR, DIFF_ACCEPT, DIFF_REFUSE };

struct diff_item {
	int tool;                 /* enum bench_tool */
	bool client;              /* the address last */
	char args[200];           /* the options, space-separated */
	enum diff_verdict ours, perftest;
	char msg[256];            /* our refusal */
	char pmsg[160];           /* perftest's, when run live */
};

/* One row of perftest_diff_known.txt: where perftest says `perftest`
 * and we differ, on these tools and side, for an argv holding every one
 * of tokens ("-": any), with our refusal holding msg. */
struct diff_known {
	enum diff_verdict perftest;
	char tools[200], side[8], tokens[160], msg[200], reason[512];
	unsigned int hits;
};

struct diff_counts {
	size_t both_accept, both_refuse, unclear;
	size_t we_refuse, we_refuse_known, we_accept, we_accept_known;
	size_t unknown;
};

/* perftest's options, as its --help and long_options[] spell them. */
struct diff_popt {
	char name[48], shrt;
	bool arg;
};

static struct diff_popt diff_popts[256];
static size_t diff_n_popts;

/* Values a perftest user would give; "1" for the rest. */
static const struct { const char *name, *value; } diff_samples[] = {
	PERFTEST_SAMPLES,
	{ "qp", "2" }, { "tx-depth", "128" }, { "rx-depth", "128" },
	{ "cq-mod", "100" }, { "post_list", "1" }, { "inline_size", "0" },
	{ "sl", "0" }, { "ib-port", "1" }, { "dualport", "1" },
	{ "rate_limit", "10" }, { "rate_units", "Gbps" },
	{ "rate_limit_type", "SW" }, { "burst_size", "10" },
	{ "latency_gap", "10" }, { "report_per_port", "1" },
	{ "outs", "100" }, { "use_cuda", "0" }, { "use_rocm", "0" },
	{ "flows", "2" }, { "flows_burst", "2" }, { "mr_per_qp", "1" },
};

/* Values perftest or we may refuse; each alone and after the flags. */
static const char *const diff_invalid[] = {
	"-s 0", "-s zz", "-s 4294967296", "-n 0", "-n 3", "-D 0", "-q 0",
	"-q 100000", "-x -1", "-x 300", "-c XX", "-c UD", "-c XRC", "-c DC",
	"-c SRD", "-c UC", "--output foo", "-m 100", "-m 8192", "-p 0",
	"-p 70000", "-t 0", "-r 0", "-a -s 64", "-n 10 -D 5", "-a -n 100",
	"--out_json_file out.json", "-u 0", "-l 0", "--burst_size 0",
	"--rate_limit 0", "-A FOO", "-i 0", "-i 3", "-S 16", "--tos 300",
	"-Q 0", "-D 5 --run_infinitely", "-b -R", "-I 1000", "-w 0",
	"--rate_units X", "--rate_limit_type X", "-n 100 --run_infinitely",
};

/* What wrappers pass, one option (with its value) a piece. */
static const char *const diff_wrap[] = {
	"-n 100", "-n 5000", "-D 2", "-D 10", "-a", "-s 4096", "-s 65536",
	"-s 2", "-b", "-q 4", "-q 1", "-R", "-F", "-x 3", "-x 0",
	"--report_gbits", "--output bandwidth", "--output latency",
	"--output message_rate", "--out_json",
	"--out_json --out_json_file out.json", "-c RC", "-c UC", "-c UD",
	"-d mlx5_0", "-i 1", "-m 1024", "--perform_warm_up",
	"--run_infinitely", "-p 18515", "--report-both", "-t 128", "-l 2",
	"-I 0", "--tos 106", "-S 0", "-u 14", "-z",
};
#define DIFF_N(a) (sizeof(a) / sizeof((a)[0]))

static inline const char *diff_word(enum diff_verdict v)
{
	return v == DIFF_ACCEPT ? "accepts" : v == DIFF_REFUSE ? "refuses" :
	       "unclear";
}

/* Is phrase (n bytes) in args, between spaces or the ends? */
static inline bool diff_has_phrase(const char *args, const char *phrase,
				   size_t n)
{
	const char *p = args;

	for (; (p = strstr(p, phrase)); p++)
		if ((p == args || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return true;
	return false;
}

/* Does args hold every option of want ("-": any), each with the values
 * that follow it there ("-n 3": -n then 3, next to each other; "-n
 * --perform_warm_up": both, anywhere)? */
static inline bool diff_has_tokens(const char *args, const char *want)
{
	char w[256];
	size_t start = 0, end;

	if (!strcmp(want, "-"))
		return true;
	snprintf(w, sizeof(w), "%s", want);
	while (w[start]) {
		end = start + strcspn(w + start, " ");
		/* the values of this option: the tokens up to the next -x */
		while (w[end] == ' ' && w[end + 1] && w[end + 1] != '-')
			end += 1 + strcspn(w + end + 1, " ");
		if (w[end])
			w[end++] = '\0';
		if (!diff_has_phrase(args, w + start, strlen(w + start)))
			return false;
		start = end;
	}
	return true;
}

static inline const char *diff_sample(const char *name)
{
	size_t i;

	for (i = 0; i < DIFF_N(diff_samples); i++)
		if (!strcmp(diff_samples[i].name, name))
			return diff_samples[i].value;
	return "1";
}

static inline int diff_load_options(const char *src)
{
	char path[PATH_MAX], line[512], name[48], shrt[8], tools[256];
	int arg;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/fixtures/perftest-options.txt",
		 src);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && diff_n_popts < 256) {
		struct diff_popt *o = &diff_popts[diff_n_popts];

		if (line[0] == '#' || line[0] == '\n' ||
		    sscanf(line, "%47s %7s %d %255s", name, shrt, &arg,
			   tools) != 4)
			continue;
		/* not a run: their output is neither verdict */
		if (!strcmp(name, "help") || !strcmp(name, "version"))
			continue;
		snprintf(o->name, sizeof(o->name), "%s", name);
		o->shrt = shrt[0] == '-' ? 0 : shrt[0];
		o->arg = arg;
		diff_n_popts++;
	}
	fclose(f);
	return diff_n_popts >= 150 ? 0 : -EINVAL;
}

/* "--name value" or "-c value" of option o. */
static inline void diff_popt_args(const struct diff_popt *o, bool shrt,
				  char *buf, size_t len)
{
	if (shrt)
		snprintf(buf, len, "-%c%s%.60s", o->shrt, o->arg ? " " : "",
			 o->arg ? diff_sample(o->name) : "");
	else
		snprintf(buf, len, "--%.47s%s%.60s", o->name, o->arg ? " " : "",
			 o->arg ? diff_sample(o->name) : "");
}

static inline uint32_t diff_rand(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Append piece to args unless its option is there already. */
static inline void diff_add(char *args, size_t len, const char *piece)
{
	char opt[64];
	size_t n = strcspn(piece, " ");

	snprintf(opt, sizeof(opt), "%.*s", (int)n, piece);
	if (diff_has_tokens(args, opt))
		return;
	snprintf(args + strlen(args), len - strlen(args), "%s%s",
		 args[0] ? " " : "", piece);
}

/* Is args already an item of this tool and side (from first on)? */
static inline bool diff_dup(const struct diff_item *it, size_t first,
			    size_t n, const char *args)
{
	size_t i;

	for (i = first; i < n; i++)
		if (!strcmp(it[i].args, args))
			return true;
	return false;
}

static inline size_t diff_push(struct diff_item *it, size_t first,
			       size_t n, size_t max, int tool, bool client,
			       const char *args)
{
	if (n >= max || !args[0] || diff_dup(it, first, n, args))
		return n;
	memset(&it[n], 0, sizeof(it[n]));
	it[n].tool = tool;
	it[n].client = client;
	snprintf(it[n].args, sizeof(it[n].args), "%s", args);
	return n + 1;
}

/* One tool and side: every option alone (long, short), the invalid
 * values, then 1-3 wrapper flags with (mostly) one option, to per. */
static inline size_t diff_gen_side(struct diff_item *it, size_t n,
				   size_t max, int tool, bool client,
				   size_t per)
{
	uint32_t seed = 26u + client;
	size_t first = n, i, k, tries = 0;
	char a[200];

	for (i = 0; i < diff_n_popts; i++) {
		diff_popt_args(&diff_popts[i], false, a, sizeof(a));
		n = diff_push(it, first, n, max, tool, client, a);
		if (!diff_popts[i].shrt)
			continue;
		diff_popt_args(&diff_popts[i], true, a, sizeof(a));
		n = diff_push(it, first, n, max, tool, client, a);
	}
	for (i = 0; i < DIFF_N(diff_invalid); i++)
		n = diff_push(it, first, n, max, tool, client, diff_invalid[i]);
	while (n - first < per && n < max && tries++ < per * 20) {
		a[0] = '\0';
		for (k = 1 + diff_rand(&seed) % 3; k; k--)
			diff_add(a, sizeof(a),
				 diff_wrap[diff_rand(&seed) % DIFF_N(diff_wrap)]);
		if (diff_rand(&seed) % 10 < 7) {
			char o[100];
			size_t p = diff_rand(&seed) % diff_n_popts;

			diff_popt_args(&diff_popts[p], false, o, sizeof(o));
			diff_add(a, sizeof(a), o);
		} else if (diff_rand(&seed) % 3 == 0) {
			diff_add(a, sizeof(a), diff_invalid[diff_rand(&seed) %
					       DIFF_N(diff_invalid)]);
		}
		n = diff_push(it, first, n, max, tool, client, a);
	}
	return n;
}

static inline size_t diff_generate(struct diff_item *it, size_t max,
				   size_t per)
{
	size_t n = 0;
	int t;

	for (t = 0; t < BENCH_TOOL_COUNT; t++) {
		n = diff_gen_side(it, n, max, t, false, per);
		n = diff_gen_side(it, n, max, t, true, per);
	}
	return n;
}

/* ------------------------------------------------------- the known table */

static inline void diff_trim(char *s)
{
	char *p = s;
	size_t n;

	while (*p == ' ' || *p == '\t')
		p++;
	memmove(s, p, strlen(p) + 1);
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n'))
		s[--n] = '\0';
}

/* "WHO | TOOLS | SIDE | TOKENS | OUR MESSAGE | REASON" into k. */
static inline int diff_parse_row(char *line, struct diff_known *k)
{
	char *f[6], *save = NULL;
	int i;

	for (i = 0; i < 6; i++) {
		f[i] = strtok_r(i ? NULL : line, "|", &save);
		if (!f[i])
			return -EINVAL;
		diff_trim(f[i]);
	}
	if (!strcmp(f[0], "we-refuse"))
		k->perftest = DIFF_ACCEPT;
	else if (!strcmp(f[0], "we-accept"))
		k->perftest = DIFF_REFUSE;
	else
		return -EINVAL;
	/* a refusal of ours is known by its words, never by flags alone */
	if ((k->perftest == DIFF_ACCEPT && !strcmp(f[4], "-")) || !f[5][0])
		return -EINVAL;
	snprintf(k->tools, sizeof(k->tools), "%s", f[1]);
	snprintf(k->side, sizeof(k->side), "%s", f[2]);
	snprintf(k->tokens, sizeof(k->tokens), "%s", f[3]);
	snprintf(k->msg, sizeof(k->msg), "%s", f[4]);
	snprintf(k->reason, sizeof(k->reason), "%s", f[5]);
	return 0;
}

static inline int diff_load_known(const char *src, struct diff_known **out,
				  size_t *n)
{
	char path[PATH_MAX], line[1024];
	struct diff_known *k = calloc(512, sizeof(*k));
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/spec/perftest_diff_known.txt",
		 src);
	f = fopen(path, "r");
	*out = k;
	*n = 0;
	if (!f || !k) {
		if (f)
			fclose(f);
		return -ENOENT;
	}
	while (fgets(line, sizeof(line), f) && *n < 512) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (diff_parse_row(line, &k[*n])) {
			fprintf(stderr, "perftest_diff_known.txt: bad row "
				"(6 fields, a we-refuse row names our "
				"message): %s", line);
			fclose(f);
			return -EINVAL;
		}
		(*n)++;
	}
	fclose(f);
	return 0;
}

static inline bool diff_row_matches(const struct diff_known *k,
				    const struct diff_item *it)
{
	const char *tool = bench_tool(it->tool)->name + 3;
	const char *side = it->client ? "client" : "server";
	const char *p = strstr(k->tools, tool);
	size_t n = strlen(tool);
	bool tool_ok = !strcmp(k->tools, "*") ||
		       (p && (p == k->tools || p[-1] == ',') &&
			(!p[n] || p[n] == ','));

	return k->perftest == it->perftest && tool_ok &&
	       (!strcmp(k->side, "*") || !strcmp(k->side, side)) &&
	       diff_has_tokens(it->args, k->tokens) &&
	       (it->perftest != DIFF_ACCEPT || strstr(it->msg, k->msg));
}

static inline const struct diff_known *
diff_find(struct diff_known *k, size_t nk, const struct diff_item *it)
{
	size_t i;

	for (i = 0; i < nk; i++)
		if (diff_row_matches(&k[i], it)) {
			k[i].hits++;
			return &k[i];
		}
	return NULL;
}

/* Count it in c; print a difference to out (when not NULL). */
static inline void diff_classify(const struct diff_item *it,
				 const struct diff_known *kc, size_t nk,
				 struct diff_counts *c, FILE *out)
{
	const struct diff_known *k;
	bool we_refuse = it->perftest == DIFF_ACCEPT;

	if (it->perftest == DIFF_UNCLEAR || it->ours == it->perftest) {
		if (it->perftest == DIFF_UNCLEAR) {
			c->unclear++;
			c->unknown++;
		} else if (it->ours == DIFF_ACCEPT) {
			c->both_accept++;
		} else {
			c->both_refuse++;
		}
		if (out && it->perftest == DIFF_UNCLEAR)
			fprintf(out, "UNCLEAR %s %s: %s\n",
				bench_tool(it->tool)->name, it->client ?
				"client" : "server", it->args);
		return;
	}
	k = diff_find((struct diff_known *)kc, nk, it);
	*(we_refuse ? &c->we_refuse : &c->we_accept) += 1;
	if (k)
		*(we_refuse ? &c->we_refuse_known : &c->we_accept_known) += 1;
	else
		c->unknown++;
	if (out)
		fprintf(out, "%s %s %s: perftest %s, we %s: %s -- %s\n",
			k ? "known" : "NEW", bench_tool(it->tool)->name,
			it->client ? "client" : "server",
			we_refuse ? "accepts" : "refuses",
			we_refuse ? "refuse" : "accept", it->args,
			we_refuse ? it->msg : it->pmsg[0] ? it->pmsg :
			"(perftest's message: run it live)");
}

static inline void diff_print_counts(const struct diff_counts *c, FILE *f)
{
	fprintf(f, "perftest accepts, we refuse: %zu (%zu in the known "
		"table)\n", c->we_refuse, c->we_refuse_known);
	fprintf(f, "we accept, perftest refuses: %zu (%zu in the known "
		"table)\n", c->we_accept, c->we_accept_known);
	fprintf(f, "both accept: %zu\nboth refuse: %zu\n", c->both_accept,
		c->both_refuse);
	fprintf(f, "perftest's verdict unclear: %zu\n", c->unclear);
	fprintf(f, "differences not in the known table: %zu\n", c->unknown);
}

/* Rows that matched nothing: fixed since, or too narrow; a note. */
static inline void diff_print_stale(const struct diff_known *k, size_t nk,
				    FILE *f)
{
	size_t i;

	for (i = 0; i < nk; i++)
		if (!k[i].hits)
			fprintf(f, "note: known row matched nothing (fixed? "
				"drop it): %s | %s | %s | %s\n", k[i].tools,
				k[i].side, k[i].tokens, k[i].msg);
}

#endif
