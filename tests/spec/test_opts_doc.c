// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/spec/opts_table.c and opts_doc*.c, over every program
 * of the option engine (the benches, ib_doctor, ib_fabric): every row
 * names its group and a code of its own, no two names collide once
 * '_'/'-' and case are forgiven, --help lists per tool only what applies,
 * every example parses, the man page and the completion carry the same
 * options.
 */
#define _GNU_SOURCE /* open_memstream */
#include <stdlib.h>

#include "doctor/doctor.h"
#include "fabric/cli.h"
#include "spec/opts.h"
#include "spec/opts_doc.h"
#include "spec/opts_doc_sh.h"
#include "spec/opts_forgive.h"
#include "spec/opts_refuse.h"
#include "spec/opts_table.h"
#include "tests/test.h"

/* The programs with rows of their own, beside the benches' table. */
static const struct opt_prog *const own[] = {
	&doctor_cli_prog, &fabric_cli_prog, NULL,
};

/* What fn writes for program p as tool d, in memory (free it). */
static char *render(void (*fn)(const struct opt_prog *,
			       const struct bench_desc *, FILE *),
		    const struct opt_prog *p, const struct bench_desc *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	if (out) {
		fn(p, d, out);
		fclose(out);
	}
	return text ? text : strdup("");
}

/* Row i of p, then its refused options: the names getopt is given. */
static const char *name_at(const struct opt_prog *p, size_t i)
{
	return i < p->count ? p->rows[i].name : p->refused[i - p->count].name;
}

/* Every row of p names its group and a code of its own; no two names
 * collide once '_'/'-' and case are forgiven. */
static void test_rows_of(const struct opt_prog *p)
{
	size_t n = p->count, i, j;

	while (p->refused && p->refused[n - p->count].name)
		n++;
	for (i = 0; i < p->count; i++) {
		const struct opt_def *o = &p->rows[i];
		bool ok = o->group > 0 && o->group < p->group_count &&
			  p->groups[o->group];

		if (!ok)
			fprintf(stderr, "  --%s: no .group\n", o->name);
		EXPECT_TRUE(ok);
		for (j = i + 1; j < p->count; j++)
			EXPECT_TRUE(o->code != p->rows[j].code);
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (!opts_forgive_cmp(name_at(p, i), name_at(p, j))) {
				fprintf(stderr, "  --%s and --%s collide\n",
					name_at(p, i), name_at(p, j));
				EXPECT_TRUE(false);
			}
}

static void test_rows(void)
{
	const struct opt_prog *const *p;

	EXPECT_EQ_U64(opts_table_prog.count, opts_table_count);
	test_rows_of(&opts_table_prog);
	for (p = own; *p; p++)
		test_rows_of(*p);
}

/* Parse line ("ib_x_y args...") as tool d would, and check it. */
static void parse_example(const struct bench_desc *d, char *line)
{
	char *argv[24], *save = NULL, err[256] = "";
	struct bench_cfg cfg;
	int argc = 0, ret;

	for (char *w = strtok_r(line, " ", &save); w && argc < 23;
	     w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	ret = opts_parse(&cfg, d, argc, argv, err, sizeof(err));
	if (!ret)
		ret = opts_check(&cfg, d, err, sizeof(err));
	if (ret)
		fprintf(stderr, "  %s example: %s\n", d->name, err);
	EXPECT_EQ_INT(ret, 0);
}

/* The examples of --help: the lines "  TOOL ..." after "Examples:". */
static void test_examples(const struct bench_desc *d, const char *help)
{
	const char *p = strstr(help, "\nExamples:\n");
	size_t pre = strlen(d->name) + 2;
	int count = 0;
	char line[256];

	EXPECT_TRUE(p != NULL);
	for (p = p ? strchr(p + 1, '\n') + 1 : ""; !strncmp(p, "  ", 2);
	     p = strchr(p, '\n') + 1) {
		size_t n = strcspn(p, "\n");

		if (!strncmp(p + 2, d->name, pre - 2)) {
			snprintf(line, sizeof(line), "%.*s", (int)n - 2, p + 2);
			parse_example(d, line);
			count++;
		}
	}
	EXPECT_TRUE(count >= 2 && count <= 3);
}

/* What --help of each tool lists and leaves out. */
static void test_usage(void)
{
	for (int t = 0; t < BENCH_TOOL_COUNT; t++) {
		const struct bench_desc *d = bench_tool((enum bench_tool)t);
		bool bw = d->measure == BENCH_MEASURE_BW;
		bool atomic = bench_verb(d->verb)->fixed_size != 0;
		char *help = render(opts_doc_help, &opts_table_prog, d);

		EXPECT_TRUE(strstr(help, "\nConnection:\n") != NULL);
		EXPECT_TRUE(strstr(help, "\nGates (exit 3") != NULL);
		EXPECT_TRUE(strstr(help, "\nServer (") != NULL);
		EXPECT_EQ_INT(!!strstr(help, "--report_gbits"), bw);
		EXPECT_EQ_INT(!!strstr(help, "--tx-depth"), bw);
		EXPECT_EQ_INT(!!strstr(help, "--expect-gbps"), bw);
		EXPECT_EQ_INT(!!strstr(help, "--expect-p99-us"), !bw);
		EXPECT_EQ_INT(!!strstr(help, "--use_cuda["), bw);
		EXPECT_EQ_INT(!!strstr(help, "-A, --atomic_type"), atomic);
		EXPECT_EQ_INT(!!strstr(help, "-s, --size"), !atomic);
		/* UC: write and send; UD: send only */
		EXPECT_TRUE(strstr(help, atomic || d->verb == BENCH_VERB_READ ?
				   "-c, --connection=<RC>" :
				   d->verb == BENCH_VERB_SEND ?
				   "-c, --connection=<RC/UC/UD>" :
				   "-c, --connection=<RC/UC>") != NULL);
		test_examples(d, help);
		free(help);
	}
}

/* The man page has each option --help has, roff-escaped. */
static void test_man(void)
{
	const struct bench_desc *d = bench_tool(BENCH_TOOL_WRITE_BW);
	char *man = render(opts_doc_man, &opts_table_prog, d);

	EXPECT_TRUE(strncmp(man, ".\\\"", 3) == 0);
	EXPECT_TRUE(strstr(man, ".TH IB_WRITE_BW 1 ") != NULL);
	EXPECT_TRUE(strstr(man, ".SS \"Connection\"") != NULL);
	EXPECT_TRUE(strstr(man, ".B \\-\\-report_gbits\n") != NULL);
	EXPECT_TRUE(strstr(man, ".B \\-s, \\-\\-size BYTES\n") != NULL);
	EXPECT_TRUE(strstr(man, ".SH EXIT STATUS") != NULL);
	EXPECT_TRUE(strstr(man, "\n-") == NULL); /* no unescaped dash first */
	free(man);
}

static void test_completion(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	if (!out)
		return;
	opts_doc_sh_bash(own, out);
	fclose(out);
	EXPECT_TRUE(strstr(text, "--report_gbits --report-gbits ") != NULL);
	EXPECT_TRUE(strstr(text, "--report-both --report_both ") != NULL);
	EXPECT_TRUE(strstr(text, "\t-c|--connection) COMPREPLY=($(compgen "
			   "-W 'RC UC UD'") != NULL);
	EXPECT_TRUE(strstr(text, "\t--json) COMPREPLY=($(compgen -f") != NULL);
	EXPECT_TRUE(strstr(text, "complete -F _rdmabench ib_write_bw ") !=
		    NULL);
	EXPECT_TRUE(strstr(text, " ib_atomic_lat ib_doctor ib_fabric\n") !=
		    NULL);
	free(text);
}

/* "--name" of o in text, each '-' written as dash ("\\-" in a man page). */
static bool has_flag(const char *text, const char *dash,
		     const struct opt_def *o)
{
	char flag[128];
	size_t n = (size_t)snprintf(flag, sizeof(flag), "%s%s", dash, dash);
	const char *c;

	for (c = o->name; *c && n + 3 < sizeof(flag); c++)
		n += (size_t)snprintf(flag + n, sizeof(flag) - n, "%s",
				      *c == '-' ? dash : (char[2]){ *c, 0 });
	return strstr(text, flag) != NULL;
}

/* ib_doctor and ib_fabric: --help, the man page and the completion name
 * each of their options; --version names the program. */
static void test_own(const struct opt_prog *p)
{
	char *help = render(opts_doc_help, p, NULL);
	char *man = render(opts_doc_man, p, NULL);
	char *version = render(opts_doc_version, p, NULL);
	char *sh = NULL, want[96];
	size_t len = 0, i;
	FILE *out = open_memstream(&sh, &len);

	if (out) {
		opts_doc_sh_bash(own, out);
		fclose(out);
	}
	for (i = 0; i < p->count; i++) {
		const struct opt_def *o = &p->rows[i];
		bool ok = has_flag(help, "-", o) && has_flag(man, "\\-", o) &&
			  sh && has_flag(sh, "-", o);

		if (!ok)
			fprintf(stderr, "  %s: --%s missing\n", p->name,
				o->name);
		EXPECT_TRUE(ok);
	}
	snprintf(want, sizeof(want), "%s (rdmabench) ", p->name);
	EXPECT_TRUE(strncmp(version, want, strlen(want)) == 0);
	snprintf(want, sizeof(want), ".TH %s 1 ", p->name);
	EXPECT_TRUE(strcasestr(man, want) != NULL);
	EXPECT_TRUE(strstr(man, ".SH EXIT STATUS") != NULL);
	free(help);
	free(man);
	free(version);
	free(sh);
}

int main(void)
{
	const struct opt_prog *const *p;

	for (p = own; *p; p++)
		test_own(*p);
	test_rows();
	test_usage();
	test_man();
	test_completion();
	return test_finish("test_opts_doc");
}
