/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opts_doc_sh - bash and zsh completion for every tool, from the option
 * engine's programs (spec/opts_prog.h): the eight benches' table, each
 * tool the options it takes, and the programs of their own (ib_doctor,
 * ib_fabric): the options each lists, in both spellings, and the values
 * of the enum options. Pure: writes to the FILE given.
 */
#ifndef RDMABENCH_SPEC_OPTS_DOC_SH_H
#define RDMABENCH_SPEC_OPTS_DOC_SH_H

#include <stdio.h>

#include "spec/opts_prog.h"

/* Bash completion: one function, complete -F for the eight benches and
 * the programs of extra (NULL-terminated). */
void opts_doc_sh_bash(const struct opt_prog *const *extra, FILE *out);

/* Zsh completion (#compdef): the same words. */
void opts_doc_sh_zsh(const struct opt_prog *const *extra, FILE *out);

#endif
