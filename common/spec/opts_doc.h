/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opts_doc - what the option table says, rendered for people: --help
 * (opts_doc_usage) and the man pages; the shell completion is
 * opts_doc_sh.h. One table (opts_table.c) feeds them all: groups, the tools
 * a row applies to, arguments, defaults. Pure: writes to the FILE given.
 */
#ifndef RDMABENCH_OPTS_DOC_H
#define RDMABENCH_OPTS_DOC_H

#include <stdio.h>

#include "spec/bench.h"

/* --help of tool d: its options by group, examples, exit codes. */
void opts_doc_usage(const struct bench_desc *d, FILE *out);

/* The man page (section 1) of tool d. */
void opts_doc_man(const struct bench_desc *d, FILE *out);

/*
 * A man page (section 1) around a usage text: NAME from name and summary,
 * the text as it is (ib_doctor, whose options are not the table's).
 */
void opts_doc_man_text(const char *name, const char *summary,
		       const char *text, FILE *out);

#endif
