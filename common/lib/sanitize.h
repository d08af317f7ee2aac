/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sanitize - text a peer chose, made safe to print: a log line, a
 * terminal, a results file's text, a summary. Pure.
 *
 * The result holds printable ASCII only (0x20..0x7e); every other byte
 * (controls, newlines, ESC, DEL, each byte of UTF-8) is shown as \xNN, so
 * a peer can neither move the cursor, colour the terminal, nor start a line
 * of its own ("\nverdict: pass" prints as "\x0averdict: pass"). A result
 * that does not fit ends with "..." and never cuts an escape. A backslash
 * stays as it is: cleaning clean text changes nothing.
 */
#ifndef RDMABENCH_LIB_SANITIZE_H
#define RDMABENCH_LIB_SANITIZE_H

#include <stddef.h>

/*
 * Clean the NUL-terminated src (at most src_max bytes of it are read) into
 * dst of len bytes (always terminated when len > 0). Returns dst. src and
 * dst may be the same buffer.
 */
char *sanitize_text(char *dst, size_t len, const char *src, size_t src_max);

#endif
