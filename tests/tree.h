/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/tree.h - planting fake sysfs/proc trees in the unit tests: one
 * file of text at a time, its folders made on the way. Include after
 * tests/test.h.
 */
#ifndef RDMABENCH_TESTS_TREE_H
#define RDMABENCH_TESTS_TREE_H

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Write text to root/rel, making the folders on the way. */
static inline void tree_put(const char *root, const char *rel,
			    const char *text)
{
	char path[PATH_MAX], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	EXPECT_TRUE(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

#endif
