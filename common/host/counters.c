// SPDX-License-Identifier: BSD-2-Clause
/*
 * counters - port counters before and after a run. See counters.h.
 */
#include "host/counters.h"
#include "lib/fs.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ctr_dirs[] = { "counters", "hw_counters" };

/* The port's folder of counters, below the sysfs root. */
struct ctr_dir {
	const char *root;
	const char *dev;
	unsigned int port;
	const char *name;       /* "counters" or "hw_counters" */
};

/* One counter file: a decimal number and a newline, nothing else. */
static int ctr_read_value(const struct ctr_dir *d, const char *file,
			  uint64_t *value)
{
	/* unsupported counters fail the read itself (EINVAL, EOPNOTSUPP) */
	return fs_read_u64(d->root, value, "/class/infiniband/%s/ports/%u/%s/%s",
			   d->dev, d->port, d->name, file);
}

/* Add the counters of one folder; a missing folder adds nothing. */
static int ctr_read_dir(const struct ctr_dir *d, struct counters_snap *s)
{
	struct counters_value *c;
	char **files;
	size_t n, i;
	int ret;

	ret = fs_list(d->root, &files, &n, "/class/infiniband/%s/ports/%u/%s",
		      d->dev, d->port, d->name);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		if (files[i][0] == '.' || !strcmp(files[i], "lifespan"))
			continue;
		if (s->n == COUNTERS_MAX) {
			s->is_truncated = true;
			break;
		}
		c = &s->c[s->n];
		if ((size_t)snprintf(c->name, sizeof(c->name), "%s/%s",
				     d->name, files[i]) >= sizeof(c->name) ||
		    ctr_read_value(d, files[i], &c->value))
			continue;
		s->n++;
	}
	free(files);
	return 0;
}

static int ctr_cmp(const void *a, const void *b)
{
	return strcmp(((const struct counters_value *)a)->name,
		      ((const struct counters_value *)b)->name);
}

int counters_read(const char *sysfs_root, const char *dev, unsigned int port,
		  struct counters_snap *out)
{
	struct ctr_dir d = {
		.root = sysfs_root && sysfs_root[0] ? sysfs_root : "/sys",
		.dev = dev, .port = port,
	};
	unsigned int i, found = 0;
	int ret;

	if (!dev || !dev[0] || strchr(dev, '/') || !port || !out)
		return -EINVAL;
	out->n = 0;
	out->is_truncated = false;
	for (i = 0; i < sizeof(ctr_dirs) / sizeof(ctr_dirs[0]); i++) {
		d.name = ctr_dirs[i];
		ret = ctr_read_dir(&d, out);
		if (ret == -ENAMETOOLONG)
			return ret;
		found += !ret;
	}
	if (!found)
		return -ENOENT;
	qsort(out->c, out->n, sizeof(out->c[0]), ctr_cmp);
	return 0;
}

int counters_find(const struct counters_snap *s, const char *name,
		  uint64_t *value)
{
	struct counters_value key;
	const struct counters_value *c;

	if (!name || strlen(name) >= sizeof(key.name))
		return -ENOENT;
	strcpy(key.name, name);
	c = bsearch(&key, s->c, s->n, sizeof(s->c[0]), ctr_cmp);
	if (!c)
		return -ENOENT;
	*value = c->value;
	return 0;
}

bool counters_is_error(const char *name)
{
	static const char *const marks[] = {
		"err", "discard", "drop", "out_of_buffer", "out_of_seq",
		"link_down", "retrans", "timeout",
	};
	size_t i;

	if (!name || strstr(name, "flush"))
		return false;
	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (strstr(name, marks[i]))
			return true;
	return false;
}

/* The counter called name in s (sorted), or NULL. */
static const struct counters_value *ctr_find(const struct counters_snap *s,
					     const char *name)
{
	struct counters_value key;

	snprintf(key.name, sizeof(key.name), "%s", name);
	return bsearch(&key, s->c, s->n, sizeof(s->c[0]), ctr_cmp);
}

/* A counter worth a slot when slots are short: it moved, or counts errors. */
static bool ctr_keep(const struct counters_value *c,
		     const struct counters_value *old)
{
	return c->value != old->value || counters_is_error(c->name);
}

unsigned int counters_diff(const struct counters_snap *before,
			   const struct counters_snap *after,
			   struct counters_delta *out, unsigned int max,
			   unsigned int *n_out)
{
	unsigned int i, both = 0, keep = 0, spare, n = 0, left_out = 0;
	const struct counters_value *old;
	struct counters_delta *rc;

	for (i = 0; i < after->n; i++) {
		old = ctr_find(before, after->c[i].name);
		both += !!old;
		keep += old && ctr_keep(&after->c[i], old);
	}
	/* slots for unchanged non-error counters, after the others */
	spare = both <= max ? both - keep : keep < max ? max - keep : 0;
	for (i = 0; i < after->n; i++) {
		old = ctr_find(before, after->c[i].name);
		if (!old)
			continue;
		if (n == max || (!ctr_keep(&after->c[i], old) && !spare)) {
			left_out++;
			continue;
		}
		if (!ctr_keep(&after->c[i], old))
			spare--;
		rc = &out[n++];
		snprintf(rc->name, sizeof(rc->name), "%s", after->c[i].name);
		/* wrap-free: 64-bit two's complement gives the signed change */
		rc->delta = (int64_t)(after->c[i].value - old->value);
	}
	*n_out = n;
	return left_out;
}

unsigned int counters_errors(const struct counters_delta *d, unsigned int n,
			     char *text, size_t len, int64_t *sum)
{
	unsigned int i, found = 0;
	size_t used = 0;
	int w;

	*sum = 0;
	if (len)
		text[0] = '\0';
	for (i = 0; i < n; i++) {
		if (!d[i].delta || !counters_is_error(d[i].name))
			continue;
		*sum += d[i].delta;
		if (used < len) {
			w = snprintf(text + used, len - used, "%s%s %+" PRId64,
				     found ? ", " : "", d[i].name, d[i].delta);
			used += w > 0 ? (size_t)w : 0;
		}
		found++;
	}
	return found;
}

static const struct counters_unit ctr_units[] = {
	{ "port_xmit_data", "bytes", 4 }, { "port_rcv_data", "bytes", 4 },
	{ "_bytes", "bytes", 1 },	  { "_octets", "bytes", 1 },
	{ "_packets", "packets", 1 },	  { "_pkts", "packets", 1 },
};

const struct counters_unit *counters_unit_of(const char *name)
{
	static const struct counters_unit events = { "", "events", 1 };
	size_t i, n = strlen(name), k;

	for (i = 0; i < sizeof(ctr_units) / sizeof(ctr_units[0]); i++) {
		k = strlen(ctr_units[i].suffix);
		if (n >= k && !strcmp(name + n - k, ctr_units[i].suffix))
			return &ctr_units[i];
	}
	return &events;
}

int counters_get(const struct counters_snap *s, const char *name,
		 uint64_t *value)
{
	const struct counters_value *c = ctr_find(s, name);

	if (!c)
		return -ENOENT;
	*value = c->value;
	return 0;
}

int counters_add(struct counters_snap *s, const char *name, uint64_t value)
{
	struct counters_value *c;

	if (strlen(name) >= sizeof(s->c[0].name))
		return -ENAMETOOLONG;
	c = (struct counters_value *)ctr_find(s, name);
	if (c) {
		c->value = value;
		return 0;
	}
	if (s->n == COUNTERS_MAX) {
		s->is_truncated = true;
		return -ENOSPC;
	}
	c = &s->c[s->n++];
	strcpy(c->name, name);
	c->value = value;
	qsort(s->c, s->n, sizeof(s->c[0]), ctr_cmp);
	return 0;
}

int counters_moved(uint64_t before, uint64_t after, uint64_t *moved)
{
	uint64_t d = after - before; /* modulo 2^64 */

	*moved = 0;
	if (d <= INT64_MAX) {
		*moved = d;
		return 0;
	}
	if (before > UINT32_MAX || after > UINT32_MAX)
		return -ERANGE;
	*moved = (uint32_t)(after - before);
	return 0;
}
