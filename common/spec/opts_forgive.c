// SPDX-License-Identifier: BSD-2-Clause
/*
 * opts_forgive - argv's long options respelled as the getopt table spells
 * them, before getopt_long runs: '_' = '-', any case, unique prefixes; the
 * nearest names for a typo, the candidates for an ambiguous prefix.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/opts_forgive.h"

/* Names longer than this are never "near" anything. */
#define FORGIVE_NAME_MAX 64
/* At most this many names in a "did you mean" or an ambiguity. */
#define FORGIVE_LIST_MAX 8

static int forgive_char(char c)
{
	return c == '_' ? '-' : tolower((unsigned char)c);
}

/* Compare the first n letters of a and b the forgiving way. */
static int forgive_ncmp(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int d = forgive_char(a[i]) - forgive_char(b[i]);

		if (d || !a[i])
			return d;
	}
	return 0;
}

int opts_forgive_cmp(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	return forgive_ncmp(a, b, (la > lb ? la : lb) + 1);
}

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

/* Edit distance (optimal string alignment: a swap costs 1). */
static size_t forgive_distance(const char *a, size_t la, const char *b)
{
	size_t d[3][FORGIVE_NAME_MAX + 1], lb = strlen(b), i, j;

	if (la > FORGIVE_NAME_MAX || lb > FORGIVE_NAME_MAX)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		size_t *cur = d[i % 3], *up = d[(i - 1) % 3];

		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			bool same = forgive_char(a[i - 1]) ==
				    forgive_char(b[j - 1]);

			cur[j] = min3(up[j] + 1, cur[j - 1] + 1,
				      up[j - 1] + !same);
			if (i > 1 && j > 1 &&
			    forgive_char(a[i - 1]) == forgive_char(b[j - 2]) &&
			    forgive_char(a[i - 2]) == forgive_char(b[j - 1]) &&
			    d[(i - 2) % 3][j - 2] + 1 < cur[j])
				cur[j] = d[(i - 2) % 3][j - 2] + 1;
		}
	}
	return d[la % 3][lb];
}

/* "--a, --b or --c" from the rows picked[0..n). */
static void forgive_list(const struct option *longs, const size_t *picked,
			 size_t n, char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < n && used < len; i++)
		used += snprintf(buf + used, len - used, "%s--%s",
				 !i ? "" : i + 1 == n ? " or " : ", ",
				 longs[picked[i]].name);
}

/* An unknown name: the nearest names, when any is near enough. */
static int forgive_unknown(const struct option *longs, const char *word,
			   size_t n, char *err, size_t err_len)
{
	size_t picked[FORGIVE_LIST_MAX], count = 0, best = (size_t)-1, i;
	size_t near = n <= 4 ? 1 : 2;
	char names[256];

	for (i = 0; longs[i].name; i++) {
		size_t d = forgive_distance(word + 2, n, longs[i].name);

		if (d > near || d > best)
			continue;
		if (d < best)
			count = 0;
		best = d;
		if (count < FORGIVE_LIST_MAX)
			picked[count++] = i;
	}
	if (!count) {
		snprintf(err, err_len,
			 "unknown option '%s' (--help lists them)", word);
		return -EINVAL;
	}
	forgive_list(longs, picked, count, names, sizeof(names));
	snprintf(err, err_len, "unknown option '%s': did you mean %s? "
		 "(--help lists them)", word, names);
	return -EINVAL;
}

/* Two rows getopt would treat as one option. */
static bool forgive_same(const struct option *a, const struct option *b)
{
	return a->has_arg == b->has_arg && a->flag == b->flag &&
	       a->val == b->val;
}

/*
 * The row the word "--name[=v]" names (name n letters long): the exact
 * name, else the one option it is a prefix of. Returns its index, or -1
 * with a message in err.
 */
static long forgive_find(const struct option *longs, const char *word,
			 size_t n, char *err, size_t err_len)
{
	size_t picked[FORGIVE_LIST_MAX], count = 0, all_same = 1, i;
	char names[256];

	for (i = 0; longs[i].name; i++) {
		if (forgive_ncmp(word + 2, longs[i].name, n))
			continue;
		if (!longs[i].name[n])
			return (long)i; /* the whole name */
		if (count && !forgive_same(&longs[picked[0]], &longs[i]))
			all_same = 0;
		if (count < FORGIVE_LIST_MAX)
			picked[count++] = i;
	}
	if (count && all_same)
		return (long)picked[0];
	if (!count)
		return forgive_unknown(longs, word, n, err, err_len), -1;
	forgive_list(longs, picked, count, names, sizeof(names));
	snprintf(err, err_len, "ambiguous option '%.*s': could be %s; "
		 "write more of the name", (int)n + 2, word, names);
	return -1;
}

/* Does short option c take its value from the next word? */
static bool forgive_short_takes(const char *shorts, char c)
{
	const char *p = strchr(shorts, c);

	return c != ':' && p && p[1] == ':' && p[2] != ':';
}

/* How many words after "-abc" are its value (0 or 1). */
static int forgive_short_skip(const char *shorts, const char *word)
{
	size_t i;

	for (i = 1; word[i]; i++)
		if (forgive_short_takes(shorts, word[i]))
			return !word[i + 1];
	return 0;
}

/* Respell one "--name[=value]" word into *space; 1: the next word is its
 * value, 0: not, -1: an error in err. */
static int forgive_word(const struct option *longs, char **slot,
			char **space, char *err, size_t err_len)
{
	const char *word = *slot, *eq = strchr(word, '=');
	size_t n = eq ? (size_t)(eq - word) - 2 : strlen(word) - 2;
	long i = forgive_find(longs, word, n, err, err_len);
	int len;

	if (i < 0)
		return -1;
	len = sprintf(*space, "--%s%s", longs[i].name, eq ? eq : "");
	*slot = *space;
	*space += len + 1;
	return !eq && longs[i].has_arg == required_argument;
}

/* Bytes for the copy: pointers, then every long word respelled. */
static size_t forgive_size(const struct option *longs, int argc, char **argv)
{
	size_t longest = 0, total = (size_t)(argc + 1) * sizeof(char *), i;
	int a;

	for (i = 0; longs[i].name; i++)
		if (strlen(longs[i].name) > longest)
			longest = strlen(longs[i].name);
	for (a = 1; a < argc; a++)
		if (!strncmp(argv[a], "--", 2))
			total += longest + strlen(argv[a]) + 3;
	return total;
}

char **opts_forgive(const struct option *longs, const char *shorts,
		    int argc, char **argv, int *ret, char *err,
		    size_t err_len)
{
	char **copy = malloc(forgive_size(longs, argc, argv)), *space;
	bool in_order = shorts[0] == '+'; /* getopt stops at an operand */
	int a, skip;

	*ret = -ENOMEM;
	if (!copy)
		return snprintf(err, err_len, "out of memory"), NULL;
	memcpy(copy, argv, (size_t)argc * sizeof(char *));
	copy[argc] = NULL;
	space = (char *)(copy + argc + 1);
	*ret = -EINVAL;
	for (a = 1; a < argc && strcmp(copy[a], "--"); a += 1 + skip) {
		skip = 0;
		if (!strncmp(copy[a], "--", 2))
			skip = forgive_word(longs, &copy[a], &space, err,
					    err_len);
		else if (copy[a][0] == '-' && copy[a][1])
			skip = forgive_short_skip(shorts, copy[a]);
		else if (in_order)
			break;
		if (skip < 0) {
			free(copy);
			return NULL;
		}
	}
	*ret = 0;
	return copy;
}
