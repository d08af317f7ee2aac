// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/spec/opts_table.c and opts_doc*.c: every row names its
 * group, no two names collide once '_'/'-' and case are forgiven, --help
 * lists per tool only what applies, every example parses, the man page and
 * the completion carry the same options.
 */
#define _GNU_SOURCE /* open_memstream */
#include <stdlib.h>

#include "doctor/doctor.h"
#include "spec/opts.h"
#include "spec/opts_doc.h"
#include "spec/opts_doc_sh.h"
#include "spec/opts_forgive.h"
#include "spec/opts_refuse.h"
#include "spec/opts_table.h"
#include "test.h"

/* What fn writes for d, in memory (free it). */
static char *render(void (*fn)(const struct bench_desc *, FILE *),
		    const struct bench_desc *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	if (out) {
		fn(d, out);
		fclose(out);
	}
	return text ? text : strdup("");
}

static void bench_man(const struct bench_desc *d, FILE *out)
{
	opts_doc_man(&opts_table_prog, d, out);
}

static const char *name_at(size_t i)
{
	return i < opts_table_count ? opts_table_rows[i].name :
	       opts_refuse_rows[i - opts_table_count].name;
}

static void test_rows(void)
{
	size_t n = opts_table_count + opts_refuse_count, i, j;

	for (i = 0; i < opts_table_count; i++) {
		const struct opt_def *o = &opts_table_rows[i];
		bool ok = o->group > OPT_G_NONE && o->group < OPT_G_COUNT;

		if (!ok)
			fprintf(stderr, "  --%s: no .group\n", o->name);
		EXPECT_TRUE(ok);
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (!opts_forgive_cmp(name_at(i), name_at(j))) {
				fprintf(stderr, "  --%s and --%s collide\n",
					name_at(i), name_at(j));
				EXPECT_TRUE(false);
			}
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
		char *help = render(opts_doc_usage, d);

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
		EXPECT_TRUE(strstr(help, atomic || d->verb == BENCH_VERB_READ ?
				   "-c, --connection=<RC>" :
				   "-c, --connection=<RC/UC>") != NULL);
		test_examples(d, help);
		free(help);
	}
}

/* The man page has each option --help has, roff-escaped. */
static void test_man(void)
{
	const struct bench_desc *d = bench_tool(BENCH_TOOL_WRITE_BW);
	char *man = render(bench_man, d);

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
	static const struct option doctor[] = {
		{ "json", required_argument, NULL, 'j' }, { NULL, 0, NULL, 0 },
	};
	const struct opts_doc_sh_extra x = { "ib_doctor", doctor };
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	if (!out)
		return;
	opts_doc_sh_bash(&x, out);
	fclose(out);
	EXPECT_TRUE(strstr(text, "--report_gbits --report-gbits ") != NULL);
	EXPECT_TRUE(strstr(text, "--report-both --report_both ") != NULL);
	EXPECT_TRUE(strstr(text, "\t-c|--connection) COMPREPLY=($(compgen "
			   "-W 'RC UC'") != NULL);
	EXPECT_TRUE(strstr(text, "\t--json) COMPREPLY=($(compgen -f") != NULL);
	EXPECT_TRUE(strstr(text, "complete -F _rdmabench ib_write_bw ") !=
		    NULL);
	EXPECT_TRUE(strstr(text, " ib_atomic_lat ib_doctor\n") != NULL);
	free(text);
}

/* ib_doctor: its --help (and so its man page) names each of its options. */
static void test_doctor(void)
{
	const struct option *o = doctor_cli_options();
	char *text = NULL, flag[64];
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	if (!out)
		return;
	doctor_cli_usage(out);
	fclose(out);
	for (; o->name; o++) {
		snprintf(flag, sizeof(flag), "--%s ", o->name);
		if (!strstr(text, flag))
			fprintf(stderr, "  ib_doctor --help lacks %s\n", flag);
		EXPECT_TRUE(strstr(text, flag) != NULL);
	}
	free(text);
}

int main(void)
{
	test_doctor();
	test_rows();
	test_usage();
	test_man();
	test_completion();
	return test_finish("test_opts_doc");
}
