/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * log - diagnostics to stderr, never stdout (stdout carries results only).
 * Every line starts with the program name so that a server's and a client's
 * logs interleaved in one terminal or pod log stay readable.
 */
#ifndef RDMABENCH_LIB_LOG_H
#define RDMABENCH_LIB_LOG_H

#include <errno.h>
#include <stdio.h>

extern char *program_invocation_short_name;

#define bench_err(fmt, ...)                                                  \
	fprintf(stderr, "%s: error: " fmt "\n",                              \
		program_invocation_short_name, ##__VA_ARGS__)
#define bench_warn(fmt, ...)                                                 \
	fprintf(stderr, "%s: warning: " fmt "\n",                            \
		program_invocation_short_name, ##__VA_ARGS__)
#define bench_info(fmt, ...)                                                 \
	fprintf(stderr, "%s: " fmt "\n", program_invocation_short_name,      \
		##__VA_ARGS__)

#endif
