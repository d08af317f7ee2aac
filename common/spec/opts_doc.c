// SPDX-License-Identifier: BSD-2-Clause
/*
 * opts_doc - --help and the man pages from the option table: the rows a
 * tool takes, by group, with their defaults, and a few examples each.
 * The shell completion is in opts_doc_sh.c.
 */
#include <stdio.h>
#include <string.h>

#include "spec/opts.h"
#include "spec/opts_doc.h"
#include "spec/opts_refuse.h"
#include "spec/opts_table.h"

/* The sections of --help and of the man page's OPTIONS, by group. */
static const char *const doc_groups[OPT_G_COUNT] = {
	[OPT_G_CONN] = "Connection",
	[OPT_G_TEST] = "Test",
	[OPT_G_GATES] = "Gates (exit 3 when one is missed)",
	[OPT_G_OUTPUTS] = "Outputs",
	[OPT_G_PLACE] = "Placement",
	[OPT_G_GPU] = "GPU memory",
	[OPT_G_SERVER] = "Server (what a client may ask for)",
	[OPT_G_HELP] = "Help",
	[OPT_G_PERFTEST] = "perftest options that are what rdmabench does "
			   "anyway",
};

/* An example command line: the tools it is for (ONLY_* bits, 0: all). */
struct doc_example {
	unsigned int only;
	const char *args; /* after the tool's name */
	const char *what;
};

#define NOT_ATOMIC (ONLY_WRITE | ONLY_READ | ONLY_SEND)

/* In this order; a tool shows the first DOC_EXAMPLES_MAX that apply. */
static const struct doc_example doc_examples[] = {
	{ 0, "", "server: wait for a client (start it first)" },
	{ ONLY_BW | NOT_ATOMIC, "-a --report_gbits 192.0.2.1",
	  "client: every size 2 B .. 8 MiB, in Gb/s" },
	{ ONLY_BW | ONLY_ATOMIC, "-A CMP_AND_SWAP -q 4 192.0.2.1",
	  "client: compare-and-swap over 4 QPs" },
	{ ONLY_BW, "-D 10 --expect-gbps 90 --json run.json 192.0.2.1",
	  "client: 10 s; exit 3 below 90 Gb/s; the run as JSON" },
	{ ONLY_LAT | NOT_ATOMIC, "-a -H 192.0.2.1",
	  "client: every size, with the latency histogram" },
	{ ONLY_LAT | ONLY_ATOMIC, "-A CMP_AND_SWAP -H 192.0.2.1",
	  "client: compare-and-swap, with the latency histogram" },
	{ ONLY_LAT, "-n 100000 --expect-p99-us 10 --junit lat.xml 192.0.2.1",
	  "client: exit 3 when p99 is above 10 us; a JUnit file" },
};

#define DOC_EXAMPLES_MAX 3
#define DOC_EXAMPLE_COUNT (sizeof(doc_examples) / sizeof(doc_examples[0]))

static const char doc_exit_codes[] =
	"Exit codes: 0 ok, 1 runtime error, 2 usage, 3 below expectation, "
	"4 data corruption, 5 peer unreachable, lost or timed out, 130 "
	"stopped by SIGINT/SIGTERM (a second signal ends it at once).";

static const char doc_spelling[] =
	"Long options take '_' and '-' alike (--ib-dev, --ib_dev) and may "
	"be shortened to a unique prefix.";

static const char doc_server[] =
	"Without SERVER it is the server: it waits for a client. SERVER is "
	"a hostname or any IP of the server; the data device is -d, else "
	"the one that owns the route, else the first active one. The "
	"client sends the whole test configuration; the server needs only "
	"-d/-i/-p.";

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

/* Write text for roff: '-' as \-, '\' as \e, no control char first. */
static void doc_roff(const char *text, FILE *out)
{
	if (*text == '.' || *text == '\'')
		fputs("\\&", out);
	for (; *text; text++) {
		if (*text == '-')
			fputs("\\-", out);
		else if (*text == '\\')
			fputs("\\e", out);
		else
			fputc(*text, out);
	}
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

/* An enum's choices for this tool, perftest's way: "=<RC/UC>". */
static void doc_choices(const struct opt_def *o, const struct bench_desc *d,
			char *buf, size_t len)
{
	size_t i, n = snprintf(buf, len, "=<");

	for (i = 0; o->choices[i] && n < len; i++)
		if (opts_table_choice_ok(o, i, d))
			n += snprintf(buf + n, len - n, "%s%s",
				      n > 2 ? "/" : "", o->choices[i]);
	if (n < len)
		snprintf(buf + n, len - n, ">");
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
static void doc_group(const struct bench_desc *d, enum opt_group g, bool man,
		      FILE *out)
{
	bool titled = false;
	size_t i;

	for (i = 0; i < opts_table_count; i++) {
		const struct opt_def *o = &opts_table_rows[i];

		if (o->group != g || !opts_table_listed(o, d))
			continue;
		if (!titled && man)
			fprintf(out, ".SS \"%s\"\n", doc_groups[g]);
		else if (!titled)
			fprintf(out, "\n%s:\n", doc_groups[g]);
		titled = true;
		doc_row(o, d, man, out);
	}
}

/* The refused perftest options by name, space separated. */
static void doc_refused(char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < opts_refuse_count && n < len; i++)
		n += snprintf(buf + n, len - n, "%s--%s", i ? " " : "",
			      opts_refuse_rows[i].name);
}

/* The examples for d: "tool args" and what it does. */
static void doc_examples_of(const struct bench_desc *d, bool man, FILE *out)
{
	size_t i, shown = 0;
	char line[160];

	for (i = 0; i < DOC_EXAMPLE_COUNT && shown < DOC_EXAMPLES_MAX; i++) {
		const struct doc_example *e = &doc_examples[i];

		if (!opts_table_only_ok(e->only, d))
			continue;
		snprintf(line, sizeof(line), "%s%s%s", d->name,
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

void opts_doc_usage(const struct bench_desc *desc, FILE *out)
{
	char refused[2048];
	int g;

	fprintf(out, "%s - %s (rdmabench %s)\n\n", desc->name, desc->summary,
		RDMABENCH_VERSION);
	fprintf(out, "Usage:\n  %s [options]         server: wait for a "
		"client\n  %s [options] SERVER  client: run the test "
		"against SERVER\n\n", desc->name, desc->name);
	doc_wrap(doc_server, 0, 0, out);
	for (g = OPT_G_CONN; g < OPT_G_COUNT; g++)
		doc_group(desc, (enum opt_group)g, false, out);
	fprintf(out, "\nperftest options refused (exit 2, saying why and "
		"what to use instead):\n");
	doc_refused(refused, sizeof(refused));
	doc_wrap(refused, 1, 0, out);
	fputc('\n', out);
	doc_wrap(doc_spelling, 0, 0, out);
	fprintf(out, "\nExamples:\n");
	doc_examples_of(desc, false, out);
	fputc('\n', out);
	doc_wrap(doc_exit_codes, 0, 0, out);
}

/* .TH and NAME: "name - summary". */
static void doc_man_head(const char *name, const char *summary, FILE *out)
{
	size_t i;

	fputs(".\\\" Generated from rdmabench's option table; do not edit.\n"
	      ".TH ", out);
	for (i = 0; name[i]; i++)
		fputc(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 32 :
		      name[i], out);
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

static void doc_man_see_also(FILE *out)
{
	fputs(".SH SEE ALSO\n.BR rdmabench (7),\n.BR ib_doctor (1),\n"
	      ".BR ib_write_bw (1),\n.BR ib_write_lat (1),\n"
	      ".BR ib_read_bw (1),\n.BR ib_read_lat (1),\n"
	      ".BR ib_send_bw (1),\n.BR ib_send_lat (1),\n"
	      ".BR ib_atomic_bw (1),\n.BR ib_atomic_lat (1)\n", out);
}

void opts_doc_man(const struct bench_desc *d, FILE *out)
{
	char refused[2048];
	int g;

	doc_man_head(d->name, d->summary, out);
	fprintf(out, ".SH SYNOPSIS\n.B %s\n[\\fIoptions\\fR]\n.br\n.B %s\n"
		"[\\fIoptions\\fR] \\fISERVER\\fR\n.SH DESCRIPTION\n",
		d->name, d->name);
	doc_roff(d->summary, out);
	fputs(", a drop-in for perftest's tool of the same name.\n", out);
	doc_man_para(doc_server, out);
	doc_man_para(doc_spelling, out);
	fputs(".SH OPTIONS\n", out);
	for (g = OPT_G_CONN; g < OPT_G_COUNT; g++)
		doc_group(d, (enum opt_group)g, true, out);
	fputs(".SS \"perftest options refused\"\nExit 2; the message says "
	      "why and what to use instead:\n", out);
	doc_refused(refused, sizeof(refused));
	doc_roff(refused, out);
	fputs("\n.SH EXAMPLES\n", out);
	doc_examples_of(d, true, out);
	fputs(".SH EXIT STATUS\n", out);
	doc_roff(doc_exit_codes + strlen("Exit codes: "), out);
	fputc('\n', out);
	doc_man_see_also(out);
}

void opts_doc_man_text(const char *name, const char *summary,
		       const char *text, FILE *out)
{
	const char *line = text;

	doc_man_head(name, summary, out);
	fputs(".SH DESCRIPTION\n.nf\n", out);
	while (*line) {
		size_t n = strcspn(line, "\n");
		char buf[256];

		snprintf(buf, sizeof(buf), "%.*s", (int)n, line);
		doc_roff(buf, out);
		fputc('\n', out);
		line += n + (line[n] == '\n');
	}
	fputs(".fi\n", out);
	doc_man_see_also(out);
}
