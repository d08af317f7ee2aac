// SPDX-License-Identifier: BSD-2-Clause
/*
 * gen - the man pages and the shell completion, written from the
 * programs' option rows (common/spec/opts_doc*.c) by mk/docs.mk:
 *   gen man TOOL     man page of TOOL (one of the eight, ib_doctor or
 *                    ib_fabric)
 *   gen bash | zsh   completion for all the tools
 */
#include <stdio.h>
#include <string.h>

#include "doctor/doctor.h"
#include "fabric/cli.h"
#include "spec/opts_doc.h"
#include "spec/opts_doc_sh.h"
#include "spec/opts_table.h"

/* The programs with rows of their own, beside the benches' table. */
static const struct opt_prog *const gen_own[] = {
	&doctor_cli_prog, &fabric_cli_prog, NULL,
};

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
	if (argc == 2 && !strcmp(argv[1], "bash"))
		return opts_doc_sh_bash(gen_own, stdout), 0;
	if (argc == 2 && !strcmp(argv[1], "zsh"))
		return opts_doc_sh_zsh(gen_own, stdout), 0;
	fprintf(stderr, "usage: gen man TOOL | gen bash | gen zsh\n");
	return 2;
}
