// SPDX-License-Identifier: BSD-2-Clause
/*
 * gen - the man pages and the shell completion, written from the
 * programs' option rows (common/spec/opts_doc*.c) by mk/docs.mk:
 *   gen man TOOL     man page of TOOL (one of the eight, or ib_doctor)
 *   gen man-help TOOL SUMMARY
 *                    man page of a tool with its own parser (ib_fabric):
 *                    its --help text, read from standard input
 *   gen bash | zsh   completion for all the tools
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/doctor.h"
#include "spec/opts_doc.h"
#include "spec/opts_doc_sh.h"
#include "spec/opts_table.h"

/* A page from --help text on stdin, for tools outside the table. */
static int gen_man_help(const char *name, const char *summary)
{
	char text[16384];
	size_t len = fread(text, 1, sizeof(text) - 1, stdin);

	if (!len || len == sizeof(text) - 1) {
		fprintf(stderr, "gen: %s --help gave %s text on stdin\n", name,
			len ? "too much" : "no");
		return 2;
	}
	text[len] = '\0';
	opts_doc_man_text(name, summary, text, stdout);
	return 0;
}

/* The programs with rows of their own, beside the benches' table. */
static const struct opt_prog *const gen_own[] = { &doctor_cli_prog, NULL };

static int gen_man(const char *name)
{
	const struct opt_prog *const *p;
	int t;

	for (p = gen_own; *p; p++) {
		if (!strcmp(name, (*p)->name)) {
			opts_doc_man(*p, NULL, stdout);
			return 0;
		}
	}
	for (t = 0; t < BENCH_TOOL_COUNT; t++) {
		const struct bench_desc *d = bench_tool((enum bench_tool)t);

		if (!strcmp(d->name, name)) {
			opts_doc_man(&opts_table_prog, d, stdout);
			return 0;
		}
	}
	fprintf(stderr, "gen: no tool '%s': name one of the ib_* tools\n",
		name);
	return 2;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "man"))
		return gen_man(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "man-help"))
		return gen_man_help(argv[2], argv[3]);
	if (argc == 2 && !strcmp(argv[1], "bash"))
		return opts_doc_sh_bash(gen_own, stdout), 0;
	if (argc == 2 && !strcmp(argv[1], "zsh"))
		return opts_doc_sh_zsh(gen_own, stdout), 0;
	fprintf(stderr, "usage: gen man TOOL | gen man-help TOOL SUMMARY | gen bash | gen zsh\n");
	return 2;
}
