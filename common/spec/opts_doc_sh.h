/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opts_doc_sh - bash and zsh completion for the eight tools, from the
 * option table (the options each tool takes, in both spellings, and the
 * values of the enum options), plus tools outside the table (ib_doctor)
 * from their getopt options. Pure: writes to the FILE given.
 */
#ifndef RDMABENCH_OPTS_DOC_SH_H
#define RDMABENCH_OPTS_DOC_SH_H

#include <getopt.h>
#include <stdio.h>

/* A tool outside the table: its name and getopt options. */
struct opts_doc_sh_extra {
	const char *name;
	const struct option *longs; /* a zeroed row ends it */
};

/* Bash completion: one function, complete -F for every tool. */
void opts_doc_sh_bash(const struct opts_doc_sh_extra *extra, FILE *out);

/* Zsh completion (#compdef): the same words. */
void opts_doc_sh_zsh(const struct opts_doc_sh_extra *extra, FILE *out);

#endif
