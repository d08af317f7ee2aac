// SPDX-License-Identifier: BSD-2-Clause
/*
 * opts_doc_sh - bash and zsh completion from the programs' option rows:
 * per tool the options it lists in --help, each long one in both
 * spellings, then per program what follows an option (its enum values,
 * a file, or nothing to offer).
 */
#include <stdio.h>
#include <string.h>

#include "spec/opts_doc_sh.h"
#include "spec/opts_table.h"

/* How the two shells spell the parts of the script. */
struct sh_syntax {
	const char *arm;     /* a case arm's opening: "" or "(" */
	const char *values;  /* before an enum's values */
	const char *values_end;
	const char *file;    /* after an option taking a file */
	const char *none;    /* after an option taking another value */
};

static const struct sh_syntax sh_bash = {
	"", "COMPREPLY=($(compgen -W '", "' -- \"$cur\")); return ;;",
	"COMPREPLY=($(compgen -f -- \"$cur\")); return ;;",
	"COMPREPLY=(); return ;;",
};

static const struct sh_syntax sh_zsh = {
	"(", "compadd ", "; return ;;", "_files; return ;;", "return 1 ;;",
};

/* name, then its other spellings: all '-' and all '_' (sep before each). */
static void sh_spellings(const char *name, const char *sep, FILE *out)
{
	char dash[64], under[64];
	size_t i;

	snprintf(dash, sizeof(dash), "%s", name);
	snprintf(under, sizeof(under), "%s", name);
	for (i = 0; dash[i]; i++) {
		dash[i] = dash[i] == '_' ? '-' : dash[i];
		under[i] = under[i] == '-' ? '_' : under[i];
	}
	fprintf(out, "--%s", name);
	if (strcmp(dash, name))
		fprintf(out, "%s--%s", sep, dash);
	if (strcmp(under, name) && strcmp(under, dash))
		fprintf(out, "%s--%s", sep, under);
}

/* The words program p completes as tool d: "-d --ib-dev --ib_dev ...". */
static void sh_words(const struct opt_prog *p, const struct bench_desc *d,
		     FILE *out)
{
	size_t i;

	for (i = 0; i < p->count; i++) {
		const struct opt_def *o = &p->rows[i];

		if (!opts_table_listed(o, d))
			continue;
		if (o->code < 256)
			fprintf(out, "-%c ", o->code);
		sh_spellings(o->name, " ", out);
		fputc(' ', out);
	}
}

/* One case arm: a program's words, as one string or an array. */
static void sh_tool(const struct opt_prog *p, const struct bench_desc *d,
		    bool zsh, FILE *out)
{
	fprintf(out, "\t%s%s) %s", zsh ? "(" : "", opts_prog_name(p, d),
		zsh ? "opts=(" : "echo '");
	sh_words(p, d, out);
	fprintf(out, "%s\n", zsh ? ") ;;" : "' ;;");
}

/* The case arm of each tool: the eight benches, then the others. */
static void sh_tools(const struct opt_prog *const *extra, bool zsh,
		     FILE *out)
{
	int t;

	for (t = 0; t < BENCH_TOOL_COUNT; t++)
		sh_tool(&opts_table_prog, bench_tool((enum bench_tool)t), zsh,
			out);
	for (; *extra; extra++)
		sh_tool(*extra, NULL, zsh, out);
}

/* "-c|--connection" of row o. */
static void sh_pattern(int code, const char *name, FILE *out)
{
	if (code > 0 && code < 256)
		fprintf(out, "-%c|", code);
	sh_spellings(name, "|", out);
}

/* What follows row o: its values, a file, or nothing to offer. */
static void sh_value(const struct opt_def *o, const struct sh_syntax *s,
		     FILE *out)
{
	size_t i, n = 0;

	if (o->kind != OPT_ENUM) {
		fputs(!strcmp(o->arg, "FILE") || !strcmp(o->arg, "DIR") ?
		      s->file : s->none, out);
		return;
	}
	fputs(s->values, out);
	for (i = 0; o->choices[i]; i++) /* what some tool lists */
		if (opts_table_choice_ok(o, i, NULL))
			fprintf(out, "%s%s", n++ ? " " : "", o->choices[i]);
	fputs(s->values_end, out);
}

/* The arms "after this option, offer that" of p's options with a value
 * (not an optional one: the next word is not its value). */
static void sh_values(const struct opt_prog *p, const struct sh_syntax *s,
		      FILE *out)
{
	size_t i;

	for (i = 0; i < p->count; i++) {
		const struct opt_def *o = &p->rows[i];

		if (!o->arg || o->bare || o->kind == OPT_NOOP)
			continue;
		fprintf(out, "\t\t%s", s->arm);
		sh_pattern(o->code, o->name, out);
		fputs(") ", out);
		sh_value(o, s, out);
		fputc('\n', out);
	}
}

/* The tools' names: the benches, then the others, sep before each. */
static void sh_names(const struct opt_prog *const *extra, const char *sep,
		     FILE *out)
{
	int t;

	for (t = 0; t < BENCH_TOOL_COUNT; t++)
		fprintf(out, "%s%s", t ? sep : "",
			bench_tool((enum bench_tool)t)->name);
	for (; *extra; extra++)
		fprintf(out, "%s%s", sep, (*extra)->name);
}

/* Per program, the arms of what follows an option (s: the shell's). */
static void sh_programs(const struct opt_prog *const *extra,
			const struct sh_syntax *s, const char *prev,
			FILE *out)
{
	const struct opt_prog *const none[] = { NULL };

	fprintf(out, "\t%s", s->arm);
	sh_names(none, "|", out);
	fprintf(out, ")\n\t\tcase %s in\n", prev);
	sh_values(&opts_table_prog, s, out);
	fputs("\t\tesac ;;\n", out);
	for (; *extra; extra++) {
		fprintf(out, "\t%s%s)\n\t\tcase %s in\n", s->arm,
			(*extra)->name, prev);
		sh_values(*extra, s, out);
		fputs("\t\tesac ;;\n", out);
	}
}

static const char sh_generated[] =
	"# Generated from rdmabench's option tables "
	"(common/spec/opts_table.c, fabric/cli.c, doctor/cli.c); "
	"do not edit.\n";

void opts_doc_sh_bash(const struct opt_prog *const *extra, FILE *out)
{
	fprintf(out, "# bash completion for rdmabench's tools\n%s\n"
		"_rdmabench_words()\n{\n\tcase $1 in\n", sh_generated);
	sh_tools(extra, false, out);
	fputs("\tesac\n}\n\n_rdmabench()\n{\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=\n\n"
	      "\t[ \"$COMP_CWORD\" -gt 0 ] && "
	      "prev=${COMP_WORDS[COMP_CWORD-1]}\n\tcase ${1##*/} in\n", out);
	sh_programs(extra, &sh_bash, "$prev", out);
	fputs("\tesac\n\tif [[ $cur == -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$(_rdmabench_words "
	      "\"${1##*/}\")\" -- \"$cur\"))\n\telse\n"
	      "\t\tCOMPREPLY=($(compgen -A hostname -- \"$cur\"))\n\tfi\n"
	      "}\n\ncomplete -F _rdmabench ", out);
	sh_names(extra, " ", out);
	fputc('\n', out);
}

void opts_doc_sh_zsh(const struct opt_prog *const *extra, FILE *out)
{
	fputs("#compdef ", out);
	sh_names(extra, " ", out);
	fprintf(out, "\n# zsh completion for rdmabench's tools\n%s\n"
		"local -a opts\n\ncase $service in\n", sh_generated);
	sh_tools(extra, true, out);
	fputs("esac\ncase $service in\n", out);
	sh_programs(extra, &sh_zsh, "${words[CURRENT-1]}", out);
	fputs("esac\nif [[ $PREFIX == -* ]]; then\n\tcompadd -a opts\n"
	      "else\n\t_hosts\nfi\n", out);
}
