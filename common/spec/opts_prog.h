/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opts_prog - the one option engine of every program, as fio's engines
 * hand their .options to fio's one parser: a program is a table of rows
 * (struct opt_def) over its own config struct, and the text around them
 * (struct opt_prog). opts.c parses any program by its rows (getopt_long,
 * after opts_forgive.c's respelling and "did you mean"); opts_doc.c
 * writes its --help, --version and man page, opts_doc_sh.c its shell
 * completion. The programs: the eight benches (spec/opts_table.c, each
 * row tagged with the tools it applies to), ib_fabric (fabric/cli.c) and
 * ib_doctor (doctor/cli.c). Pure: no verbs headers, never exits.
 *
 * A row names its fields (fio's options.c style): .name, .code (a short
 * char, or a number from 256 up for a long-only option), .kind, .off
 * (and .has_off when "given" matters), .min/.max, .def (.def_lat where
 * the bench latency tools' default differs), .bare (an optional
 * argument's value when none is given), .arg, .help (none: a hidden
 * alias), .choices (OPT_ENUM), .group (where --help and the man page
 * list it; test_opts_doc fails on a row without) and, in the benches'
 * table, .only (the tools it applies to; none: all eight). A field left
 * out is 0 or NULL.
 */
#ifndef RDMABENCH_SPEC_OPTS_PROG_H
#define RDMABENCH_SPEC_OPTS_PROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spec/bench.h"
#include "spec/opts_refuse.h"

enum opt_kind {
	OPT_FLAG,     /* bool, set to true */
	OPT_U64,      /* decimal in [min, max] */
	OPT_SIZE,     /* bytes, K/M/G suffixes, in [min, max] */
	OPT_STR,      /* char array of max bytes */
	OPT_DOUBLE,   /* decimal number >= 0 */
	OPT_ENUM,     /* one of choices[], its index stored as uint64_t */
	OPT_OPT_INT,  /* int64_t in [min, max], or "auto" = OPTS_CUDA_AUTO
		       * (--use_cuda only) */
	OPT_NOOP,     /* perftest's, already what we do; help says why */
};

struct opt_def {
	const char *name;       /* the long option, without "--" */
	int code;               /* short option char, or >= 256: long only */
	enum opt_kind kind;
	size_t off;             /* where the value goes, in the config */
	size_t has_off;         /* a bool set when given; 0: none */
	uint64_t min, max;      /* OPT_U64/OPT_SIZE range; OPT_STR: max bytes */
	const char *def;        /* the default, NULL: none */
	const char *def_lat;    /* the latency benches' default, NULL: .def */
	const char *bare;       /* the argument is optional: its value when
				 * none is given; NULL: not optional */
	const char *arg;        /* argument name in --help, NULL: no argument */
	const char *help;       /* NULL: a hidden alias */
	const char *const *choices; /* OPT_ENUM, NULL-terminated */
	unsigned int only;      /* the benches' ONLY_* bits; 0: every tool */
	unsigned int group;     /* its --help section: the program's groups[] */
};

/* The -h/--help and -V/--version rows of every program: bools at
 * help_off and version_off of its config, listed in its group g. */
#define OPT_ROWS_HELP(help_off, version_off, g)                           \
	{ .name = "help", .code = 'h', .kind = OPT_FLAG, .off = (help_off), \
	  .help = "show this help", .group = (g) },                        \
	{ .name = "version", .code = 'V', .kind = OPT_FLAG,                 \
	  .off = (version_off), .help = "show the version", .group = (g) }

/* A line of --help's "Usage:" and of the man page's SYNOPSIS. */
struct opt_usage {
	const char *args;       /* after the program's name; NULL ends */
	const char *what;       /* NULL: nothing said beside it */
};

/* An example command line of --help and the man page. */
struct opt_example {
	const char *args;       /* after the program's name */
	const char *what;       /* NULL ends the list */
	unsigned int only;      /* the bench tools it is for; 0: all */
};

/* Refused option i (p->refused[i]) gets this code + i from getopt. */
#define OPT_REFUSED_CODE 0x10000

struct opt_prog {
	const char *name;       /* NULL: the bench tool's (d->name) */
	const char *summary;    /* NULL: the bench tool's */
	const struct opt_def *rows;
	size_t count;
	size_t cfg_size;        /* the config struct the rows' .off point in */
	const char *const *groups;  /* section titles, by .group (0: none) */
	unsigned int group_count;
	const struct opt_usage *usage;
	const char *const *about;   /* paragraphs after the usage; NULL ends */
	const char *lead;       /* after the summary in the man page's
				 * DESCRIPTION; NULL: "." */
	const struct opt_example *examples; /* NULL: none */
	const char *exit_codes; /* "Exit codes: ..." */
	const struct opts_refusal *refused; /* perftest's, with why; a row
					     * with a NULL name ends it */
	bool in_order;          /* options end at the first operand */
	/*
	 * The words after the options (argv[first..argc), argv as parsed:
	 * with in_order, argv's own indexes): check and keep them. Returns 0,
	 * or -EINVAL with a message in err. NULL: operands are refused.
	 */
	int (*operands)(void *cfg, int argc, char **argv, int first,
			char *err, size_t err_len);
	/* Where a row that does not apply to the bench tool but is
	 * IGNORED_ELSEWHERE (spec/opts_table.h) is named: a char array of
	 * ignored_len bytes at ignored_off of the config, labels ", "
	 * separated; ignored_len 0: no such rows. */
	size_t ignored_off, ignored_len;
	/* Without .operands, what a refused operand is told beside it;
	 * NULL: "--help lists the options". */
	const char *operand_hint;
};

/*
 * Parse argv by program p's rows into cfg (p->cfg_size bytes): the rows'
 * defaults first, then argv. d: the bench tool the benches' table is
 * parsed for (its options, its defaults), NULL for other programs.
 * Returns 0, or -EINVAL/-ERANGE/-ENOMEM with a message naming the option
 * and what to do in err. Can be called repeatedly (tests do).
 */
int opts_prog_parse(const struct opt_prog *p, const struct bench_desc *d,
		    void *cfg, int argc, char **argv, char *err,
		    size_t err_len);

/* Word a message into err (the parser's refusals, and a program's own
 * checks after it: each names what was wrong and what to do). */
void opts_err(char *err, size_t err_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A rule of a program's checks: when bad, msg is the refusal. */
struct opts_rule {
	bool bad;
	const char *msg;
};

/* The first of n rules that is bad: its msg into err, -EINVAL; else 0. */
int opts_rules_check(const struct opts_rule *rules, size_t n, char *err,
		     size_t err_len);

/* The program's name and summary: p's, else bench tool d's. */
const char *opts_prog_name(const struct opt_prog *p,
			   const struct bench_desc *d);
const char *opts_prog_summary(const struct opt_prog *p,
			      const struct bench_desc *d);

#endif
