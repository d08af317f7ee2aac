/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * json - a small streaming JSON emitter (RFC 8259) writing to a FILE *.
 * Pure: no allocation, no globals; the writer tracks nesting and comma
 * state itself so callers cannot produce malformed text by accident.
 *
 * Every call returns 0 or a negative errno, and the first error sticks:
 * once a call failed, later calls do nothing and return that error, so a
 * renderer may check only json_finish(). Errors:
 *   -EINVAL  misuse (a value where a key is due, end of the wrong
 *            container, a second top-level value, ...)
 *   -E2BIG   nesting deeper than JSON_MAX_DEPTH
 *   -EIO     the FILE * reported a write error
 *
 * Strings are UTF-8: valid sequences pass through unchanged, quotes,
 * backslashes and control characters are escaped, and any byte that is
 * not part of a valid UTF-8 sequence becomes U+FFFD, so the output is
 * always valid JSON whatever the input (device strings are not trusted).
 * Doubles are written in the shortest form that reads back to the same
 * value (at most 17 significant digits); NaN and infinities become null.
 */
#ifndef RDMABENCH_LIB_JSON_H
#define RDMABENCH_LIB_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json_writer {
	FILE *out;
	unsigned int indent;            /* spaces per level; 0 = one line */
	unsigned int depth;             /* open containers */
	char open[JSON_MAX_DEPTH];      /* '{' or '[' per open container */
	bool has_items[JSON_MAX_DEPTH]; /* a member was written at that level */
	bool key_pending;               /* a key was written, value due */
	bool done;                      /* the top-level value is complete */
	int err;                        /* first error, sticky */
};

/* Start a document on out; indent = spaces per level (0: compact). */
void json_init(struct json_writer *w, FILE *out, unsigned int indent);

/* Open / close an object or an array. */
int json_object_begin(struct json_writer *w);
int json_object_end(struct json_writer *w);
int json_array_begin(struct json_writer *w);
int json_array_end(struct json_writer *w);

/* A member name inside an object; the next call must write its value. */
int json_key(struct json_writer *w, const char *key);

/* Values. json_string(NULL) writes null. */
int json_string(struct json_writer *w, const char *s);
int json_u64(struct json_writer *w, uint64_t v);
int json_i64(struct json_writer *w, int64_t v);
int json_double(struct json_writer *w, double v);
int json_bool(struct json_writer *w, bool v);
int json_null(struct json_writer *w);

/* Key and value in one call, for object members. */
int json_kv_string(struct json_writer *w, const char *key, const char *s);
int json_kv_u64(struct json_writer *w, const char *key, uint64_t v);
int json_kv_i64(struct json_writer *w, const char *key, int64_t v);
int json_kv_double(struct json_writer *w, const char *key, double v);
int json_kv_bool(struct json_writer *w, const char *key, bool v);

/* A member whose value is null, an object or an array to be filled. */
int json_kv_null(struct json_writer *w, const char *key);
int json_kv_object_begin(struct json_writer *w, const char *key);
int json_kv_array_begin(struct json_writer *w, const char *key);

/*
 * End the document: newline, flush. Returns the sticky error, -EINVAL when
 * the top-level value is incomplete, -EIO on a write error.
 */
int json_finish(struct json_writer *w);

/*
 * Length (1-4) of the valid UTF-8 sequence starting at s, of at most n
 * bytes; 0 when s does not start one (stray continuation, overlong form,
 * surrogate, above U+10FFFF, truncated). Pure; shared with the XML writer.
 */
size_t json_utf8_len(const unsigned char *s, size_t n);

/*
 * Shortest "%.Ng" text (N = 1..17) of a finite v that strtod() reads back
 * as v, without an exponent below 1e17 (180, not 1.8e+02); writes into
 * buf (32 bytes suffice). Returns 0, or -EDOM when v is NaN or infinite,
 * -ENOSPC when buf is too small.
 */
int json_format_double(double v, char *buf, size_t len);

#endif
