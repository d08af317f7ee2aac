/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opts_doc - what a program's option rows say, rendered for people: --help,
 * --version and the man page of any program of the option engine
 * (spec/opts_prog.h); the shell completion is opts_doc_sh.h. The rows
 * feed them all: groups, the tools a row applies to, arguments,
 * defaults. Pure: writes to the FILE given.
 */
#ifndef RDMABENCH_SPEC_OPTS_DOC_H
#define RDMABENCH_SPEC_OPTS_DOC_H

#include <stdbool.h>
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

/* --help when help, else --version when version, on out: true when it
 * wrote either (the program then exits 0). */
bool opts_doc_asked(const struct opt_prog *p, const struct bench_desc *d,
		    bool help, bool version, FILE *out);

/* The man page (section 1) of program p (d as for opts_doc_help). */
void opts_doc_man(const struct opt_prog *p, const struct bench_desc *d,
		  FILE *out);

#endif
