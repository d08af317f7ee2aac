// SPDX-License-Identifier: BSD-2-Clause
/*
 * sanitize - peer text as printable ASCII with \xNN escapes (sanitize.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/sanitize.h"

/* The longest result built at once: every wire text field fits. */
#define SANITIZE_MAX 1024

/*
 * Append src's bytes to out as printable text while each whole piece (a
 * byte, or its 4-byte escape) fits in limit bytes. Returns the length;
 * *all: every byte of src was taken.
 */
static size_t sanitize_put(char *out, size_t limit, const char *src,
			   size_t src_max, bool *all)
{
	size_t i, n = 0;
	unsigned char ch;

	for (i = 0; i < src_max && src[i]; i++) {
		ch = (unsigned char)src[i];
		if (ch >= 0x20 && ch <= 0x7e) {
			if (n + 1 > limit)
				break;
			out[n++] = (char)ch;
		} else {
			if (n + 4 > limit)
				break;
			snprintf(out + n, 5, "\\x%02x", ch);
			n += 4;
		}
	}
	*all = i == src_max || !src[i];
	return n;
}

char *sanitize_text(char *dst, size_t len, const char *src, size_t src_max)
{
	char out[SANITIZE_MAX];
	size_t n, limit;
	bool all;

	if (!len)
		return dst;
	limit = (len < SANITIZE_MAX ? len : SANITIZE_MAX) - 1;
	n = sanitize_put(out, limit, src, src_max, &all);
	if (!all) /* room for "..." after what fits */
		n = sanitize_put(out, limit > 3 ? limit - 3 : 0, src, src_max,
				 &all) + 3;
	if (!all)
		memcpy(out + n - 3, "...", 3);
	if (n > limit) /* limit < 3: no room even for the dots */
		n = limit;
	out[n] = '\0';
	memcpy(dst, out, n + 1);
	return dst;
}
