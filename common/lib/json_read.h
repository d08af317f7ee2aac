/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * json_read - a small JSON reader for the documents ib_doctor reads
 * (Multus network-status, SR-IOV device info): the text is split into
 * tokens in document order, each knowing where it starts and ends, so that
 * a lookup is a walk over an array. No allocation. Pure.
 */
#ifndef RDMABENCH_LIB_JSON_READ_H
#define RDMABENCH_LIB_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

enum json_read_type { JSON_READ_OBJECT, JSON_READ_ARRAY, JSON_READ_STRING, JSON_READ_PRIMITIVE };

struct json_read_tok {
	enum json_read_type type;
	size_t start, end;      /* strings: inside the quotes */
	unsigned int size;      /* object: pairs; array: elements */
};

/*
 * Tokenize js[0..len) into tok[0..max). Returns the token count, -EINVAL
 * on malformed JSON, -ENOMEM when max tokens are not enough. An object's
 * tokens are key, value, key, value...
 */
int json_read_parse(const char *js, size_t len, struct json_read_tok *tok,
		unsigned int max);

/* The index of the token after tok[i] and all it contains. */
int json_read_next(const struct json_read_tok *tok, int n, int i);

/* The value of key in the object tok[obj], or -1. */
int json_read_get(const char *js, const struct json_read_tok *tok, int n, int obj,
	      const char *key);

/* Element k of the array tok[arr], or -1. */
int json_read_elem(const struct json_read_tok *tok, int n, int arr, unsigned int k);

/* Copy a string token, escapes resolved (\uXXXX beyond ASCII as '?'). */
bool json_read_str(const char *js, const struct json_read_tok *t, char *out,
	       size_t len);

/* A primitive token is the literal "true". */
bool json_read_true(const char *js, const struct json_read_tok *t);

#endif
