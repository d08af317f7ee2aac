/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/golden.h - compare a test's output with tests/golden/<name>
 * (TEST_SRCDIR: the source tree, default "."); TEST_UPDATE_GOLDEN=1
 * rewrites the file. Include after tests/test.h, in one test program each.
 */
#ifndef RDMABENCH_TESTS_GOLDEN_H
#define RDMABENCH_TESTS_GOLDEN_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Read a whole file; NULL when it cannot be read. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			char *more;

			cap = cap ? 2 * cap : 8192;
			more = realloc(text, cap);
			if (!more) {
				free(text);
				fclose(f);
				return NULL;
			}
			text = more;
		}
		got = fread(text + n, 1, 4096, f);
		n += got;
		if (got < 4096)
			break;
	}
	fclose(f);
	text[n] = '\0';
	*len = n;
	return text;
}

/* Print the first line where got and want differ. */
static void show_diff(const char *got, const char *want)
{
	unsigned int line = 1;
	const char *g = got, *w = want;

	while (*g && *g == *w) {
		if (*g == '\n') {
			line++;
			got = g + 1;
			want = w + 1;
		}
		g++;
		w++;
	}
	fprintf(stderr, "  first difference on line %u, column %d\n"
		"  got:  \"%.*s\"\n  want: \"%.*s\"\n", line, (int)(g - got) + 1,
		(int)strcspn(got, "\n"), got, (int)strcspn(want, "\n"), want);
}

/* Compare text with tests/golden/<name>, or rewrite it on request. */
static void expect_golden(const char *text, size_t len, const char *name)
{
	const char *srcdir = getenv("TEST_SRCDIR");
	const char *update = getenv("TEST_UPDATE_GOLDEN");
	char path[4096];
	size_t want_len = 0;
	char *want;

	snprintf(path, sizeof(path), "%s/tests/golden/%s",
		 srcdir && srcdir[0] ? srcdir : ".", name);
	if (update && !strcmp(update, "1")) {
		FILE *f = fopen(path, "wb");

		EXPECT_TRUE(f != NULL);
		if (f) {
			EXPECT_EQ_U64(fwrite(text, 1, len, f), len);
			EXPECT_EQ_INT(fclose(f), 0);
			fprintf(stderr, "  rewrote %s\n", path);
		}
		return;
	}
	want = read_file(path, &want_len);
	if (!want)
		fprintf(stderr, "  cannot read %s: %s (set TEST_SRCDIR to the "
			"source tree)\n", path, strerror(errno));
	EXPECT_TRUE(want != NULL);
	if (!want)
		return;
	EXPECT_EQ_U64(len, want_len);
	if (len != want_len || memcmp(text, want, len)) {
		fprintf(stderr, "  %s differs from the output\n", path);
		show_diff(text, want);
		EXPECT_TRUE(0);
	}
	free(want);
}

#endif
