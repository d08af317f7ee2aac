// SPDX-License-Identifier: BSD-2-Clause
/*
 * rails - parse --rails (see rails.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/rails.h"

_Static_assert(RAILS_NAME_MAX == PORTS_NAME_MAX, "rail names are port names");

/* "@NODE" or ":PORT": a decimal number in [min, max], nothing after it. */
static int rails_num(const char *s, long min, long max, long *out)
{
	char *end;

	if (!*s)
		return -EINVAL;
	*out = strtol(s, &end, 10);
	return *end || *out < min || *out > max ? -EINVAL : 0;
}

/* One "NAME[:PORT][@NODE]" into *it; the text is modified. */
static int rails_item(char *s, struct rails_item *it, char *err,
		      size_t err_len)
{
	char *at = strchr(s, '@'), *colon;
	long v;

	it->node = -1;
	it->port = 0;
	if (at) {
		*at++ = '\0';
		if (rails_num(at, 0, 1023, &v)) {
			snprintf(err, err_len, "--rails: '%s' after '%s@' is "
				 "no NUMA node: write NAME@N, N from 0", at, s);
			return -EINVAL;
		}
		it->node = (int)v;
	}
	colon = strchr(s, ':');
	if (colon) {
		*colon++ = '\0';
		if (rails_num(colon, 1, 255, &v)) {
			snprintf(err, err_len, "--rails: '%s' after '%s:' is "
				 "no device port: write DEV:PORT, PORT 1-255",
				 colon, s);
			return -EINVAL;
		}
		it->port = (unsigned int)v;
	}
	if (!*s || strlen(s) >= sizeof(it->name)) {
		snprintf(err, err_len, "--rails: a rail needs a device or "
			 "netdev name (at most %zu characters): write "
			 "--rails auto or --rails mlx5_0,mlx5_1",
			 sizeof(it->name) - 1);
		return -EINVAL;
	}
	snprintf(it->name, sizeof(it->name), "%s", s);
	return 0;
}

/* Two rails on one device port would measure the same link twice. */
static int rails_check_dup(const struct rails *r, char *err, size_t err_len)
{
	size_t i, j;

	for (i = 0; i < r->n; i++)
		for (j = i + 1; j < r->n; j++) {
			if (strcmp(r->items[i].name, r->items[j].name) ||
			    r->items[i].port != r->items[j].port)
				continue;
			snprintf(err, err_len, "--rails: '%s' is named twice: "
				 "name each rail once", r->items[i].name);
			return -EINVAL;
		}
	return 0;
}

int rails_parse(const char *text, struct rails *out, char *err,
		size_t err_len)
{
	char buf[RAILS_MAX * (RAILS_NAME_MAX + 16)], *tok, *save = NULL;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!strcmp(text, "auto")) {
		out->is_auto = true;
		return 0;
	}
	if (strlen(text) >= sizeof(buf)) {
		snprintf(err, err_len, "--rails: the list is too long: name at "
			 "most %d rails", RAILS_MAX);
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", text);
	if (!*buf || buf[0] == ',' || buf[strlen(buf) - 1] == ',' ||
	    strstr(buf, ",,")) {
		snprintf(err, err_len, "--rails '%s': an empty rail: write "
			 "--rails auto or --rails mlx5_0,mlx5_1", text);
		return -EINVAL;
	}
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (out->n == RAILS_MAX) {
			snprintf(err, err_len, "--rails: more than %d rails: "
				 "name at most %d", RAILS_MAX, RAILS_MAX);
			return -EINVAL;
		}
		ret = rails_item(tok, &out->items[out->n++], err, err_len);
		if (ret)
			return ret;
	}
	return rails_check_dup(out, err, err_len);
}

int rails_auto(const char *sysfs_root, struct rails *r, char *err,
	       size_t err_len)
{
	struct ports_entry p[RAILS_MAX];
	size_t i, n = ports_active(sysfs_root, p, RAILS_MAX);

	if (!n) {
		snprintf(err, err_len, "--rails auto: no RDMA port is ACTIVE "
			 "here (rdma link show): bring a link up, or name the "
			 "rails");
		return -ENODEV;
	}
	r->n = n;
	for (i = 0; i < n; i++) {
		/* both RAILS_NAME_MAX == PORTS_NAME_MAX, terminated */
		memcpy(r->items[i].name, p[i].dev, sizeof(r->items[i].name));
		r->items[i].port = p[i].port;
		r->items[i].node = -1;
	}
	return 0;
}
