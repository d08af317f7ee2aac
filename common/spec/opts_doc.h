/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opts_doc - what a program's option rows say, rendered for people: --help,
 * --version and the man page of any program of the option engine
 * (spec/opts_prog.h); the shell completion is opts_doc_sh.h. The rows
 * feed them all: groups, the tools a row applies to, arguments,
 * defaults. Pure: writes to the FILE given.
 */
#ifndef RDMABENCH_OPTS_DOC_H
#define RDMABENCH_OPTS_DOC_H

#include <stdio.h>

#include "spec/bench.h"
#include "spec/opts_prog.h"

/* --help of program p (d: the bench tool, for the benches' table; else
 * NULL): usage, its options by group, examples, exit codes. */
void opts_doc_help(const struct opt_prog *p, const struct bench_desc *d,
		   FILE *out);

/* --help of bench tool d (the benches' program). */
void opts_doc_usage(const struct bench_desc *d, FILE *out);

/* --version: "NAME (rdmabench) VERSION". */
void opts_doc_version(const struct opt_prog *p, const struct bench_desc *d,
		      FILE *out);

/* The man page (section 1) of program p (d as for opts_doc_help). */
void opts_doc_man(const struct opt_prog *p, const struct bench_desc *d,
		  FILE *out);

/*
 * A man page (section 1) around a usage text: NAME from name and summary,
 * the text as it is (ib_doctor, whose options are not the table's).
 */
void opts_doc_man_text(const char *name, const char *summary,
		       const char *text, FILE *out);

#endif
