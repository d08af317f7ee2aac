/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * log - diagnostics to stderr, never stdout (stdout carries results only).
 * Every line starts with the program name so that a server's and a client's
 * logs interleaved in one terminal or pod log stay readable.
 * bench_err_why() (log.c) also keeps the sentence for the run's documents.
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
/*
 * The sentence a run's error was logged with (the one line that names what
 * was wrong and what to do), kept for the run's documents: the JSON
 * "error", the JUnit failure, the verdict line and so a pod's termination
 * message say what stderr said, not the errno's text. A run owns one
 * (struct bench_ctx) and hands it to the code that logs its errors.
 */
#define LOG_WHY_LEN 512

struct log_why {
	char text[LOG_WHY_LEN];     /* the first sentence kept; "": none */
};

/*
 * bench_err(), and the sentence kept in why when it holds none yet (the
 * first error of a run is its cause; what follows is its consequence).
 * why may be NULL: then only bench_err().
 */
void bench_err_why(struct log_why *why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define bench_info(fmt, ...)                                                 \
	fprintf(stderr, "%s: " fmt "\n", program_invocation_short_name,      \
		##__VA_ARGS__)

#endif
