/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * doctor_json - a small JSON reader for the documents ib_doctor reads
 * (Multus network-status, SR-IOV device info): the text is split into
 * tokens in document order, each knowing where it starts and ends, so that
 * a lookup is a walk over an array. No allocation. Pure.
 */
#ifndef RDMABENCH_DOCTOR_JSON_H
#define RDMABENCH_DOCTOR_JSON_H

#include <stdbool.h>
#include <stddef.h>

enum djson_type { DJSON_OBJECT, DJSON_ARRAY, DJSON_STRING, DJSON_PRIMITIVE };

struct djson_tok {
	enum djson_type type;
	size_t start, end;      /* strings: inside the quotes */
	unsigned int size;      /* object: pairs; array: elements */
};

/*
 * Tokenize js[0..len) into tok[0..max). Returns the token count, -EINVAL
 * on malformed JSON, -ENOMEM when max tokens are not enough. An object's
 * tokens are key, value, key, value...
 */
int djson_parse(const char *js, size_t len, struct djson_tok *tok,
		unsigned int max);

/* The index of the token after tok[i] and all it contains. */
int djson_next(const struct djson_tok *tok, int n, int i);

/* The value of key in the object tok[obj], or -1. */
int djson_get(const char *js, const struct djson_tok *tok, int n, int obj,
	      const char *key);

/* Element k of the array tok[arr], or -1. */
int djson_elem(const struct djson_tok *tok, int n, int arr, unsigned int k);

/* Copy a string token, escapes resolved (\uXXXX beyond ASCII as '?'). */
bool djson_str(const char *js, const struct djson_tok *t, char *out,
	       size_t len);

/* A primitive token is the literal "true". */
bool djson_true(const char *js, const struct djson_tok *t);

#endif
