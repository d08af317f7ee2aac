// SPDX-License-Identifier: BSD-2-Clause
/*
 * summary_of - the verdict summary (common/report/summary.c, what a bench
 * writes with --summary) of a results JSON file, on stdout. The stand-in
 * tool of the entrypoint's tests (tests/k8s/fake-tool.sh) and its samples
 * write the summary a real bench would write for their canned documents.
 *
 *   summary_of RESULT.json [SERVER]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/summary.h"

int main(int argc, char **argv)
{
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[65536];
	FILE *in, *mem;
	int ret;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: summary_of RESULT.json [SERVER]\n");
		return 2;
	}
	in = fopen(argv[1], "r");
	mem = open_memstream(&buf, &len);
	if (!in || !mem) {
		fprintf(stderr, "summary_of: %s: %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), in)) > 0)
		fwrite(chunk, 1, n, mem);
	fclose(in);
	fclose(mem);
	ret = summary_write(buf, len, argc > 2 ? argv[2] : NULL, stdout);
	free(buf);
	if (ret)
		fprintf(stderr, "summary_of: %s: %s\n", argv[1],
			strerror(-ret));
	return ret ? 1 : 0;
}
