// SPDX-License-Identifier: BSD-2-Clause
/*
 * fake - probe answers read from a fake tree's "probe" file, so that
 * unit tests (and ib_doctor --root) exercise every check without verbs,
 * rdma_cm or netlink. Format in probe.h. Pure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fs.h"
#include "doctor/net.h"
#include "doctor/probe.h"

#define FAKE_WORDS 6

/*
 * Find the first line whose first words are key, a1 (and a2, if not
 * NULL); its words go into w[0..FAKE_WORDS). 0, or -EOPNOTSUPP.
 */
static int fake_line(const char *root, const char *key, const char *a1,
		     const char *a2, char w[FAKE_WORDS][64])
{
	char path[FS_PATH_MAX], line[512];
	FILE *f;
	int n, ret = -EOPNOTSUPP;

	if (fs_path(root, path, sizeof(path), "/probe"))
		return ret;
	f = fopen(path, "re");
	if (!f)
		return ret;
	while (ret && fgets(line, sizeof(line), f)) {
		memset(w, 0, FAKE_WORDS * sizeof(w[0]));
		n = sscanf(line, "%63s %63s %63s %63s %63s %63s", w[0], w[1],
			   w[2], w[3], w[4], w[5]);
		if (n >= 2 && !strcmp(w[0], key) && !strcmp(w[1], a1) &&
		    (!a2 || !strcmp(w[2], a2)))
			ret = 0;
	}
	fclose(f);
	return ret;
}

/* An answer that is an error: "-19" stands for -ENODEV. */
static int fake_err(const char *word)
{
	return word[0] == '-' ? (int)strtol(word, NULL, 10) : 0;
}

static int fake_dev_open(void *priv, const char *dev)
{
	char w[FAKE_WORDS][64];
	int ret = fake_line(priv, "open", dev, NULL, w);

	return ret ? ret : -abs((int)strtol(w[2], NULL, 10));
}

/* The line "KIND DEV PORT ..." (port_query's, port_rated's) into w. */
static int fake_port_line(void *priv, const char *kind, const char *dev,
			  unsigned int port, char w[FAKE_WORDS][64])
{
	char num[16];

	snprintf(num, sizeof(num), "%u", port);
	return fake_line(priv, kind, dev, num, w);
}

static int fake_port_query(void *priv, const char *dev, unsigned int port,
			   struct probe_port_attr *out)
{
	char w[FAKE_WORDS][64];
	int ret = fake_port_line(priv, "port", dev, port, w);

	if (ret)
		return ret;
	out->active_mtu_bytes = (unsigned int)strtoul(w[3], NULL, 10);
	out->max_mtu_bytes = (unsigned int)strtoul(w[4], NULL, 10);
	return 0;
}

static int fake_port_netdev(void *priv, const char *dev, unsigned int port,
			    char *ifname, size_t len)
{
	char w[FAKE_WORDS][64], num[16];
	int ret;

	snprintf(num, sizeof(num), "%u", port);
	ret = fake_line(priv, "port_netdev", dev, num, w);
	if (!ret)
		fs_copy(ifname, len, w[3]);
	return ret;
}

static int fake_netdev_link(void *priv, const char *ifname,
			    struct probe_netdev_link *out)
{
	char w[FAKE_WORDS][64];
	int ret = fake_line(priv, "netdev_link", ifname, NULL, w);

	if (ret)
		return ret;
	out->max_speed_mbps = strtoul(w[2], NULL, 10);
	out->max_lanes = (unsigned int)strtoul(w[3], NULL, 10);
	return 0;
}

static int fake_addrs(void *priv, struct probe_addr **out, size_t *n)
{
	char path[FS_PATH_MAX], line[256], ifname[64], ip[64];
	struct probe_addr *a;
	FILE *f;
	size_t cap = 64;

	*out = NULL;
	*n = 0;
	if (fs_path(priv, path, sizeof(path), "/probe"))
		return -EOPNOTSUPP;
	f = fopen(path, "re");
	if (!f)
		return -EOPNOTSUPP;
	a = calloc(cap, sizeof(*a));
	while (a && *n < cap && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "addr %63s %63s", ifname, ip) != 2 ||
		    net_addr_parse(ip, &a[*n]))
			continue;
		fs_copy(a[(*n)++].ifname, PROBE_IFNAME_LEN, ifname);
	}
	fclose(f);
	*out = a;
	return a ? 0 : -ENOMEM;
}

static int fake_route(void *priv, const struct probe_addr *peer,
		      char *ifname, size_t len)
{
	char w[FAKE_WORDS][64];
	int ret = fake_line(priv, "route", peer->text, NULL, w);

	if (ret)
		return ret;
	ret = fake_err(w[2]);
	if (!ret)
		fs_copy(ifname, len, w[2]);
	return ret;
}

static int fake_cm_resolve(void *priv, const char *peer,
			   unsigned int timeout_ms, char *dev, size_t len,
			   unsigned int *port)
{
	char w[FAKE_WORDS][64];
	int ret = fake_line(priv, "cm", peer, NULL, w);

	(void)timeout_ms;
	if (ret)
		return ret;
	ret = fake_err(w[2]);
	if (ret)
		return ret;
	fs_copy(dev, len, w[2]);
	*port = (unsigned int)strtoul(w[3], NULL, 10);
	return 0;
}

/* "pfc IF MASK" and "trust IF dscp|pcp"; neither: no dcbnl ops. */
static int fake_dcb(void *priv, const char *ifname, struct probe_dcb *out)
{
	char w[FAKE_WORDS][64];
	int pfc = fake_line(priv, "pfc", ifname, NULL, w);
	unsigned int d;

	memset(out, 0, sizeof(*out));
	if (!pfc) {
		out->pfc_en = (unsigned int)strtoul(w[2], NULL, 0) & 0xff;
		out->has_pfc = true;
	}
	if (fake_line(priv, "trust", ifname, NULL, w))
		return pfc;
	for (d = 0; d < 64 && !strcmp(w[2], "dscp"); d++) {
		out->dscp_set |= 1ull << d;
		out->dscp_prio[d] = (unsigned char)(d >> 3);
	}
	return 0;
}

static int fake_port_rated(void *priv, const char *dev, unsigned int port,
			   struct probe_port_rated *out)
{
	char w[FAKE_WORDS][64];
	int ret = fake_port_line(priv, "rated", dev, port, w);

	if (ret)
		return ret;
	out->lanes = (unsigned int)strtoul(w[3], NULL, 10);
	fs_copy(out->speed, sizeof(out->speed), w[4]);
	return 0;
}

void fake_probe(const char *root, struct probe *out)
{
	*out = (struct probe){
		.priv = (void *)root,
		.dev_open = fake_dev_open,
		.port_query = fake_port_query,
		.port_netdev = fake_port_netdev,
		.netdev_link = fake_netdev_link,
		.addrs = fake_addrs,
		.route = fake_route,
		.cm_resolve = fake_cm_resolve,
		.dcb = fake_dcb,
		.port_rated = fake_port_rated,
	};
}
