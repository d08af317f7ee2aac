/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * afile - write a file atomically: readers (a CI step, node_exporter's
 * textfile collector, a pod's termination message) see the old file or
 * the new one, never half of one. The one such writer, for the benches'
 * results files and ib_doctor --json alike; "-" is standard output for
 * both (afile_save).
 *
 * The temporary file is made by mkstemp() in the destination's folder
 * (rename() is atomic only within one filesystem; an unpredictable name
 * cannot be raced by another user there), rendered, flushed and fsync'd,
 * made mode 0644, renamed over path, and then the folder is fsync'd so
 * that the rename itself survives a crash.
 */
#ifndef RDMABENCH_LIB_AFILE_H
#define RDMABENCH_LIB_AFILE_H

#include <stdbool.h>
#include <stdio.h>

/* Writes the contents to out; 0 or -errno (the file is then dropped). */
typedef int (*afile_render_fn)(const void *arg, FILE *out);

/*
 * Render into path atomically. Returns 0, or -errno after one message on
 * stderr naming path; the temporary file never stays behind. A failed
 * fsync of the folder only warns (the file is in place).
 */
int afile_write(const char *path, afile_render_fn render, const void *arg);

/* Is path "-", the name that means standard output? */
bool afile_is_stdout(const char *path);

/*
 * Render into path: atomically (afile_write()) for a file, or into std,
 * flushed, when path is "-" (the caller has set std aside from the human
 * text). Returns 0, or -errno after one message on stderr.
 */
int afile_save(const char *path, afile_render_fn render, const void *arg,
	       FILE *std);

#endif
