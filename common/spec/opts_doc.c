// SPDX-License-Identifier: BSD-2-Clause
/*
 * opts_doc - --help, --version and the man page of any program of the
 * option engine (spec/opts_prog.h), from its rows and its text: the rows
 * it takes, by group, with their defaults, and a few examples. The shell
 * completion is in opts_doc_sh.c.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "spec/opts_doc.h"
#include "spec/opts_table.h"

/* At most this many examples in a program's --help and man page. */
#define DOC_EXAMPLES_MAX 3

/*
 * Write text wrapped to 78 columns, each new line after indent spaces;
 * col: the column the first word starts at (0: a new line).
 */
static void doc_wrap(const char *text, int indent, int col, FILE *out)
{
	while (*text) {
		int w = (int)strcspn(text, " ");

		if (col > indent && col + 1 + w > 78) {
			fputc('\n', out);
			col = 0;
		}
		if (col < indent)
			col = fprintf(out, "%*s", indent - col, "") + col;
		else if (col > indent)
			col += fprintf(out, " ");
		col += fprintf(out, "%.*s", w, text);
		text += w;
		text += strspn(text, " ");
	}
	fputc('\n', out);
}

/* One character for roff: '-' as \-, '\' as \e. */
static void doc_roff_char(char c, FILE *out)
{
	if (c == '-')
		fputs("\\-", out);
	else if (c == '\\')
		fputs("\\e", out);
	else
		fputc(c, out);
}

/* Write text for roff, no control char first. */
static void doc_roff(const char *text, FILE *out)
{
	if (*text == '.' || *text == '\'')
		fputs("\\&", out);
	for (; *text; text++)
		doc_roff_char(*text, out);
}

/* The default --help shows for o in d; NULL: none. */
static const char *doc_default(const struct opt_def *o,
			       const struct bench_desc *d, char *buf,
			       size_t len)
{
	const char *def = opts_table_default(o, d, buf, len);

	if (o->kind == OPT_NOOP || !def || !def[0] || !strcmp(def, "-1"))
		return NULL;
	return def;
}

/* An enum's choices for this tool, perftest's way: "=<RC/UC>"; an
 * optional one in brackets. */
static void doc_choices(const struct opt_def *o, const struct bench_desc *d,
			char *buf, size_t len)
{
	size_t i, n = snprintf(buf, len, "%s=<", o->bare ? "[" : "");

	for (i = 0; o->choices[i] && n < len; i++)
		if (opts_table_choice_ok(o, i, d))
			n += snprintf(buf + n, len - n, "%s%s",
				      buf[n - 1] != '<' ? "/" : "",
				      o->choices[i]);
	if (n < len)
		snprintf(buf + n, len - n, ">%s", o->bare ? "]" : "");
}

/* "-s, --size BYTES" ("    --json FILE" when pad and no short). */
static void doc_flag(const struct opt_def *o, const struct bench_desc *d,
		     bool pad, char *buf, size_t len)
{
	char arg[64] = "";

	if (o->kind == OPT_ENUM)
		doc_choices(o, d, arg, sizeof(arg));
	else if (o->arg) /* "[=N]": an optional argument takes no space */
		snprintf(arg, sizeof(arg), "%s%s", o->arg[0] == '[' ? "" : " ",
			 o->arg);
	if (o->code < 256)
		snprintf(buf, len, "-%c, --%s%s", o->code, o->name, arg);
	else
		snprintf(buf, len, "%s--%s%s", pad ? "    " : "", o->name,
			 arg);
}

/* Where --help's descriptions start. */
#define DOC_HELP_COL 33

/* One option: --help's line(s), or the man page's .TP paragraph. */
static void doc_row(const struct opt_def *o, const struct bench_desc *d,
		    bool man, FILE *out)
{
	char flag[128], num[32], text[256];
	const char *def = doc_default(o, d, num, sizeof(num));
	int col;

	doc_flag(o, d, !man, flag, sizeof(flag));
	snprintf(text, sizeof(text), "%s%s%s%s", o->help, def ? " [" : "",
		 def ? def : "", def ? "]" : "");
	if (man) {
		fputs(".TP\n.B ", out);
		doc_roff(flag, out);
		fputc('\n', out);
		doc_roff(text, out);
		fputc('\n', out);
		return;
	}
	col = fprintf(out, "  %s", flag);
	if (col >= DOC_HELP_COL) { /* a long flag: its text below it */
		fputc('\n', out);
		col = 0;
	}
	doc_wrap(text, DOC_HELP_COL, col, out);
}

/* The options of group g that d takes, under the group's title. */
static void doc_group(const struct opt_prog *p, const struct bench_desc *d,
		      unsigned int g, bool man, FILE *out)
{
	bool titled = false;
	size_t i;

	for (i = 0; i < p->count; i++) {
		const struct opt_def *o = &p->rows[i];

		if (o->group != g || !opts_table_listed(o, d))
			continue;
		if (!titled && man)
			fprintf(out, ".SS \"%s\"\n", p->groups[g]);
		else if (!titled)
			fprintf(out, "\n%s:\n", p->groups[g]);
		titled = true;
		doc_row(o, d, man, out);
	}
}

/* The refused options by name, space separated. */
static void doc_refused(const struct opt_prog *p, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; p->refused[i].name && n < len; i++)
		n += snprintf(buf + n, len - n, "%s--%s", i ? " " : "",
			      p->refused[i].name);
}

/* "Long options take '_' and '-' alike (--ib-dev, --ib_dev) ...", the
 * example the program's first listed option with a '-' in its name. */
static void doc_spelling(const struct opt_prog *p, const struct bench_desc *d,
			 char *buf, size_t len)
{
	char eg[96] = "";
	size_t i, n;

	for (i = 0; i < p->count && !eg[0]; i++) {
		const char *name = p->rows[i].name;

		if (!strchr(name, '-') || !opts_table_listed(&p->rows[i], d))
			continue;
		n = (size_t)snprintf(eg, sizeof(eg), " (--%s, --", name);
		for (; *name && n + 2 < sizeof(eg); name++)
			eg[n++] = *name == '-' ? '_' : *name;
		snprintf(eg + n, sizeof(eg) - n, ")");
	}
	snprintf(buf, len, "Long options take '_' and '-' alike%s and may be "
		 "shortened to a unique prefix.", eg);
}

/* The examples for d: "tool args" and what it does. */
static void doc_examples_of(const struct opt_prog *p,
			    const struct bench_desc *d, bool man, FILE *out)
{
	const struct opt_example *e;
	size_t shown = 0;
	char line[160];

	for (e = p->examples; e->what && shown < DOC_EXAMPLES_MAX; e++) {
		if (!opts_table_only_ok(e->only, d))
			continue;
		snprintf(line, sizeof(line), "%s%s%s", opts_prog_name(p, d),
			 e->args[0] ? " " : "", e->args);
		if (man) {
			fputs(".TP\n.B ", out);
			doc_roff(line, out);
			fputc('\n', out);
			doc_roff(e->what, out);
			fputc('\n', out);
		} else {
			fprintf(out, "  %s\n      %s\n", line, e->what);
		}
		shown++;
	}
}

/* "Usage:" and its lines, each one's "what" in a column. */
static void doc_usage_lines(const struct opt_prog *p, const char *name,
			    FILE *out)
{
	const struct opt_usage *u;
	int width = 0;

	for (u = p->usage; u->args; u++)
		if (u->what && (int)strlen(u->args) > width)
			width = (int)strlen(u->args);
	fputs("Usage:\n", out);
	for (u = p->usage; u->args; u++)
		if (u->what)
			fprintf(out, "  %s %-*s  %s\n", name, width, u->args,
				u->what);
		else
			fprintf(out, "  %s %s\n", name, u->args);
	fputc('\n', out);
}

void opts_doc_help(const struct opt_prog *p, const struct bench_desc *d,
		   FILE *out)
{
	const char *const *para;
	char text[2048];
	unsigned int g;

	fprintf(out, "%s - %s (rdmabench %s)\n\n", opts_prog_name(p, d),
		opts_prog_summary(p, d), RDMABENCH_VERSION);
	doc_usage_lines(p, opts_prog_name(p, d), out);
	for (para = p->about; para && *para; para++) {
		doc_wrap(*para, 0, 0, out);
		if (para[1])
			fputc('\n', out);
	}
	for (g = 1; g < p->group_count; g++)
		doc_group(p, d, g, false, out);
	if (p->refused) {
		fprintf(out, "\nperftest options refused (exit 2, saying why "
			"and what to use instead):\n");
		doc_refused(p, text, sizeof(text));
		doc_wrap(text, 1, 0, out);
	}
	fputc('\n', out);
	doc_spelling(p, d, text, sizeof(text));
	doc_wrap(text, 0, 0, out);
	if (p->examples) {
		fprintf(out, "\nExamples:\n");
		doc_examples_of(p, d, false, out);
	}
	fputc('\n', out);
	doc_wrap(p->exit_codes, 0, 0, out);
}

void opts_doc_usage(const struct bench_desc *d, FILE *out)
{
	opts_doc_help(&opts_table_prog, d, out);
}

void opts_doc_version(const struct opt_prog *p, const struct bench_desc *d,
		      FILE *out)
{
	fprintf(out, "%s (rdmabench) %s\n", opts_prog_name(p, d),
		RDMABENCH_VERSION);
}

bool opts_doc_asked(const struct opt_prog *p, const struct bench_desc *d,
		    bool help, bool version, FILE *out)
{
	if (help)
		opts_doc_help(p, d, out);
	else if (version)
		opts_doc_version(p, d, out);
	return help || version;
}

/* .TH and NAME: "name - summary". */
static void doc_man_head(const char *name, const char *summary, FILE *out)
{
	size_t i;

	fputs(".\\\" Generated from rdmabench's option table; do not edit.\n"
	      ".TH ", out);
	for (i = 0; name[i]; i++)
		fputc(toupper((unsigned char)name[i]), out);
	fprintf(out, " 1 \"\" \"rdmabench %s\" \"User Commands\"\n.SH NAME\n",
		RDMABENCH_VERSION);
	doc_roff(name, out);
	fputs(" \\- ", out);
	doc_roff(summary, out);
	fputc('\n', out);
}

/* A paragraph of plain text. */
static void doc_man_para(const char *text, FILE *out)
{
	fputs(".PP\n", out);
	doc_roff(text, out);
	fputc('\n', out);
}

/* Does a word start at s (args' first char: s == args)? */
static bool doc_word_start(const char *args, const char *s)
{
	return s == args || !(isalnum((unsigned char)s[-1]) || s[-1] == '-' ||
			      s[-1] == '_');
}

/* A usage line for roff: "options" and the upper-case words (SERVER,
 * LIST, P) in italics, the rest as it is. */
static void doc_man_args(const char *args, FILE *out)
{
	const char *s = args;

	while (*s) {
		size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_");

		if (!n && !strncmp(s, "options", 7))
			n = 7;
		if (n && doc_word_start(args, s) &&
		    !isalnum((unsigned char)s[n]) && s[n] != '-') {
			fprintf(out, "\\fI%.*s\\fR", (int)n, s);
			s += n;
		} else {
			doc_roff_char(*s++, out);
		}
	}
}

static void doc_man_synopsis(const struct opt_prog *p, const char *name,
			     FILE *out)
{
	const struct opt_usage *u;

	fputs(".SH SYNOPSIS\n", out);
	for (u = p->usage; u->args; u++) {
		fprintf(out, "%s.B %s\n", u == p->usage ? "" : ".br\n", name);
		doc_man_args(u->args, out);
		fputc('\n', out);
	}
}

static void doc_man_see_also(FILE *out)
{
	fputs(".SH SEE ALSO\n.BR rdmabench (7),\n.BR ib_doctor (1),\n"
	      ".BR ib_fabric (1),\n"
	      ".BR ib_write_bw (1),\n.BR ib_write_lat (1),\n"
	      ".BR ib_read_bw (1),\n.BR ib_read_lat (1),\n"
	      ".BR ib_send_bw (1),\n.BR ib_send_lat (1),\n"
	      ".BR ib_atomic_bw (1),\n.BR ib_atomic_lat (1)\n", out);
}

/* OPTIONS: the groups, then the refused ones. */
static void doc_man_options(const struct opt_prog *p,
			    const struct bench_desc *d, FILE *out)
{
	char refused[2048];
	unsigned int g;

	fputs(".SH OPTIONS\n", out);
	for (g = 1; g < p->group_count; g++)
		doc_group(p, d, g, true, out);
	if (!p->refused)
		return;
	fputs(".SS \"perftest options refused\"\nExit 2; the message says "
	      "why and what to use instead:\n", out);
	doc_refused(p, refused, sizeof(refused));
	doc_roff(refused, out);
	fputc('\n', out);
}

void opts_doc_man(const struct opt_prog *p, const struct bench_desc *d,
		  FILE *out)
{
	const char *const *para;
	char text[256];

	doc_man_head(opts_prog_name(p, d), opts_prog_summary(p, d), out);
	doc_man_synopsis(p, opts_prog_name(p, d), out);
	fputs(".SH DESCRIPTION\n", out);
	doc_roff(opts_prog_summary(p, d), out);
	fputs(p->lead ? p->lead : ".", out);
	fputc('\n', out);
	for (para = p->about; para && *para; para++)
		doc_man_para(*para, out);
	doc_spelling(p, d, text, sizeof(text));
	doc_man_para(text, out);
	doc_man_options(p, d, out);
	if (p->examples) {
		fputs(".SH EXAMPLES\n", out);
		doc_examples_of(p, d, true, out);
	}
	fputs(".SH EXIT STATUS\n", out);
	doc_roff(p->exit_codes + strlen("Exit codes: "), out);
	fputc('\n', out);
	doc_man_see_also(out);
}
