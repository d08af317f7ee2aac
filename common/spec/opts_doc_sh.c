// SPDX-License-Identifier: BSD-2-Clause
/*
 * opts_doc_sh - bash and zsh completion from the option table: per tool
 * the options it lists in --help, each long one in both spellings, then
 * what follows an option (its enum values, a file, or nothing to offer).
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

/* The words tool d completes: "-d --ib-dev --ib_dev ...". */
static void sh_words(const struct bench_desc *d, FILE *out)
{
	size_t i;

	for (i = 0; i < opts_table_count; i++) {
		const struct opt_def *o = &opts_table_rows[i];

		if (!opts_table_listed(o, d))
			continue;
		if (o->code < 256)
			fprintf(out, "-%c ", o->code);
		sh_spellings(o->name, " ", out);
		fputc(' ', out);
	}
}

/* The words of a tool outside the table. */
static void sh_extra_words(const struct opts_doc_sh_extra *x, FILE *out)
{
	size_t i;

	for (i = 0; x->longs[i].name; i++) {
		if (x->longs[i].val > 0 && x->longs[i].val < 256)
			fprintf(out, "-%c ", x->longs[i].val);
		sh_spellings(x->longs[i].name, " ", out);
		fputc(' ', out);
	}
}

/* The case arm of each tool: its words, as one string or an array. */
static void sh_tools(const struct opts_doc_sh_extra *x, bool zsh, FILE *out)
{
	const char *open = zsh ? "opts=(" : "echo '";
	const char *close = zsh ? ") ;;" : "' ;;";
	int t;

	for (t = 0; t < BENCH_TOOL_COUNT; t++) {
		const struct bench_desc *d = bench_tool((enum bench_tool)t);

		fprintf(out, "\t%s%s) %s", zsh ? "(" : "", d->name, open);
		sh_words(d, out);
		fprintf(out, "%s\n", close);
	}
	fprintf(out, "\t%s%s) %s", zsh ? "(" : "", x->name, open);
	sh_extra_words(x, out);
	fprintf(out, "%s\n", close);
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
	size_t i;

	if (o->kind != OPT_ENUM) {
		fputs(o->arg && !strcmp(o->arg, "FILE") ? s->file : s->none,
		      out);
		return;
	}
	fputs(s->values, out);
	for (i = 0; o->choices[i]; i++)
		fprintf(out, "%s%s", i ? " " : "", o->choices[i]);
	fputs(s->values_end, out);
}

/* The arms "after this option, offer that" of every option with a value. */
static void sh_values(const struct opts_doc_sh_extra *x,
		      const struct sh_syntax *s, FILE *out)
{
	size_t i;

	for (i = 0; i < opts_table_count; i++) {
		const struct opt_def *o = &opts_table_rows[i];

		if (!o->arg || o->kind == OPT_OPT_INT || o->kind == OPT_NOOP)
			continue;
		fprintf(out, "\t%s", s->arm);
		sh_pattern(o->code, o->name, out);
		fputs(") ", out);
		sh_value(o, s, out);
		fputc('\n', out);
	}
	for (i = 0; x->longs[i].name; i++) {
		if (x->longs[i].has_arg != required_argument)
			continue;
		fprintf(out, "\t%s", s->arm);
		sh_pattern(x->longs[i].val, x->longs[i].name, out);
		fprintf(out, ") %s\n", s->file);
	}
}

/* The tools' names, space separated. */
static void sh_names(const struct opts_doc_sh_extra *x, FILE *out)
{
	int t;

	for (t = 0; t < BENCH_TOOL_COUNT; t++)
		fprintf(out, " %s", bench_tool((enum bench_tool)t)->name);
	fprintf(out, " %s\n", x->name);
}

static const char sh_generated[] =
	"# Generated from rdmabench's option table "
	"(common/spec/opts_table.c); do not edit.\n";

void opts_doc_sh_bash(const struct opts_doc_sh_extra *extra, FILE *out)
{
	fprintf(out, "# bash completion for rdmabench's tools\n%s\n"
		"_rdmabench_words()\n{\n\tcase $1 in\n", sh_generated);
	sh_tools(extra, false, out);
	fputs("\tesac\n}\n\n_rdmabench()\n{\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=\n\n"
	      "\t[ \"$COMP_CWORD\" -gt 0 ] && "
	      "prev=${COMP_WORDS[COMP_CWORD-1]}\n\tcase $prev in\n", out);
	sh_values(extra, &sh_bash, out);
	fputs("\tesac\n\tif [[ $cur == -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$(_rdmabench_words "
	      "\"${1##*/}\")\" -- \"$cur\"))\n\telse\n"
	      "\t\tCOMPREPLY=($(compgen -A hostname -- \"$cur\"))\n\tfi\n"
	      "}\n\ncomplete -F _rdmabench", out);
	sh_names(extra, out);
}

void opts_doc_sh_zsh(const struct opts_doc_sh_extra *extra, FILE *out)
{
	fputs("#compdef", out);
	sh_names(extra, out);
	fprintf(out, "# zsh completion for rdmabench's tools\n%s\n"
		"local -a opts\n\ncase $service in\n", sh_generated);
	sh_tools(extra, true, out);
	fputs("esac\ncase ${words[CURRENT-1]} in\n", out);
	sh_values(extra, &sh_zsh, out);
	fputs("esac\nif [[ $PREFIX == -* ]]; then\n\tcompadd -a opts\n"
	      "else\n\t_hosts\nfi\n", out);
}
