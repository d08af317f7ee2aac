/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opts_forgive - long options the way people type them, before getopt_long
 * sees them: '_' and '-' are the same letter, case does not matter, a
 * unique prefix names its option. An unknown name gets "did you mean" (the
 * nearest names by edit distance), an ambiguous prefix the list of its
 * candidates. Works on any getopt_long table (opts.c builds one a program).
 * Pure: no verbs headers, never exits.
 */
#ifndef RDMABENCH_SPEC_OPTS_FORGIVE_H
#define RDMABENCH_SPEC_OPTS_FORGIVE_H

#include <getopt.h>
#include <stddef.h>

/*
 * A copy of argv in which every "--name[=value]" that names one option of
 * longs (terminated by a zeroed row) is spelled as longs spells it; shorts
 * is getopt's short string, to skip the value of "-s VALUE". Words after
 * "--" are left alone, and with shorts' "+" (options end at the first
 * operand) the words from that operand on. Returns the copy (argc + 1
 * pointers, NULL last; one block for free()), or NULL with a message in
 * err: -ENOMEM, an unknown name, an ambiguous prefix (*ret says which,
 * -EINVAL or -ENOMEM).
 */
char **opts_forgive(const struct option *longs, const char *shorts,
		    int argc, char **argv, int *ret, char *err,
		    size_t err_len);

/* '_' and '-' alike, case ignored: 0 when a and b are the same name. */
int opts_forgive_cmp(const char *a, const char *b);

#endif
