// SPDX-License-Identifier: BSD-2-Clause
/*
 * nccl_log - the facts of an NCCL_DEBUG=INFO log, line by line. A table
 * of (marker, handler) rows: the first row whose marker a line holds
 * takes it. Texts are cleaned (lib/sanitize.c) as they are kept.
 */
#define _GNU_SOURCE /* strcasestr */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/nccl_log.h"
#include "lib/sanitize.h"

/* Keep at most n bytes of src, cleaned, in dst. */
static void keep(char *dst, size_t len, const char *src, size_t n)
{
	char raw[NCCL_LOG_VALUE * 2];

	if (n >= sizeof(raw))
		n = sizeof(raw) - 1;
	memcpy(raw, src, n);
	raw[n] = '\0';
	sanitize_text(dst, len, raw, sizeof(raw));
}

/* The word at s (up to a space, a newline or the end), kept. */
static void keep_word(char *dst, size_t len, const char *s)
{
	keep(dst, len, s, strcspn(s, " \t\r\n"));
}

/* The rest of the line at s, less its newline and a final '.'. */
static void keep_rest(char *dst, size_t len, const char *s)
{
	size_t n = strcspn(s, "\r\n");

	while (n && (s[n - 1] == '.' || s[n - 1] == ' '))
		n--;
	keep(dst, len, s, n);
}

/* "Using network NAME": IB, Socket, or a plugin's name. */
static void on_network(struct nccl_log *l, const char *s)
{
	keep_rest(l->network, sizeof(l->network), s);
	l->net = !strcmp(l->network, "IB") ? NCCL_NET_IB :
		 !strcmp(l->network, "Socket") ? NCCL_NET_SOCKET :
		 NCCL_NET_PLUGIN;
}

static void on_ib_none(struct nccl_log *l, const char *s)
{
	(void)s;
	l->ib_none = true;
}

/* One " [0]mlx5_0:1/IB" of "NET/IB : Using"; s after the ']'. */
static void add_hca(struct nccl_log *l, const char *s)
{
	struct nccl_hca *h = &l->hcas[l->n_hca];
	const char *colon = strchr(s, ':'), *slash;

	if (l->n_hca >= NCCL_LOG_HCAS || !colon)
		return;
	keep(h->name, sizeof(h->name), s, (size_t)(colon - s));
	h->port = (unsigned int)strtoul(colon + 1, NULL, 10);
	slash = strchr(colon, '/');
	if (slash && slash < colon + 8)
		keep_word(h->link, sizeof(h->link), slash + 1);
	l->n_hca++;
}

/* "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB eth0:..." */
static void on_ib_using(struct nccl_log *l, const char *s)
{
	const char *end = strchr(s, ';'), *p = s;

	while ((p = strchr(p, '[')) && (!end || p < end)) {
		const char *close = strchr(p, ']');

		if (!close)
			break;
		if (isdigit((unsigned char)p[1]))
			add_hca(l, close + 1);
		p = close + 1;
	}
}

static void on_socket_using(struct nccl_log *l, const char *s)
{
	while (*s == ' ')
		s++;
	keep_rest(l->sockets, sizeof(l->sockets), s);
}

/* "Loaded net plugin AWS Libfabric (v7)": the name, less " (vN)". */
static void keep_plugin(char *dst, size_t len, const char *s)
{
	const char *v = strstr(s, " (v");

	keep(dst, len, s, v ? (size_t)(v - s) : strcspn(s, "\r\n"));
}

static void on_net_plugin(struct nccl_log *l, const char *s)
{
	keep_plugin(l->plugin, sizeof(l->plugin), s);
}

static void on_coll_plugin(struct nccl_log *l, const char *s)
{
	keep_plugin(l->collnet, sizeof(l->collnet), s);
}

/* "NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'" (2.18: also
 * "GPU Direct RDMA Disabled for GPU 1b000 / HCA 0 (distance 5 > 4)"). */
static void on_gdr_off(struct nccl_log *l, const char *s)
{
	const char *q = strchr(s, '\'');

	if (!l->gdr_off++ && q)
		keep(l->gdr_off_hca, sizeof(l->gdr_off_hca), q + 1,
		     strcspn(q + 1, "'\r\n"));
}

/* NET/Socket never has GPUDirect: its line says nothing of IB's. */
static void on_ignore(struct nccl_log *l, const char *s)
{
	(void)l;
	(void)s;
}

static void on_gdr_on(struct nccl_log *l, const char *s)
{
	(void)s;
	l->gdr_on++;
}

/* The path of "via WORDS" (net.cc, p2p.cc, shm.cc). */
static enum nccl_path path_of(const char *via)
{
	size_t n = strcspn(via, " \r\n");

	if (!strncmp(via, "NET/IB/", 7) || !strncmp(via, "NET/IB ", 7))
		return memmem(via, n, "/GDRDMA", 7) ? NCCL_PATH_IB_GDR :
		       NCCL_PATH_IB;
	if (!strncmp(via, "NET/Socket", 10))
		return NCCL_PATH_SOCKET;
	if (!strncmp(via, "NET/", 4))
		return NCCL_PATH_PLUGIN;
	if (!strncmp(via, "P2P/", 4))
		return NCCL_PATH_P2P;
	if (!strncmp(via, "SHM/", 4))
		return NCCL_PATH_SHM;
	return NCCL_PATH_OTHER;
}

static void on_channel(struct nccl_log *l, const char *s)
{
	const char *via = strstr(s, " via ");

	if (via)
		l->paths[path_of(via + 5)]++;
}

/* "NCCL_X set by environment to V." and "NCCL_X set to V". */
static void on_var(struct nccl_log *l, const char *s)
{
	const char *name = s, *to = strstr(s, " to ");
	struct nccl_var *v;
	size_t i, n = strcspn(name, " ");

	if (!to || l->n_var >= NCCL_LOG_VARS)
		return;
	v = &l->vars[l->n_var];
	keep(v->name, sizeof(v->name), name, n);
	for (i = 0; i < l->n_var; i++)
		if (!strcmp(l->vars[i].name, v->name))
			return; /* printed once per rank and comm: keep one */
	keep_rest(v->value, sizeof(v->value), to + 4);
	l->n_var++;
}

/* "NCCL version 2.28.9+cuda13.0" */
static void on_version(struct nccl_log *l, const char *s)
{
	keep_word(l->version, sizeof(l->version), s);
}

/* "comm 0x... rank 0 nranks 2 cudaDev ..." / "rank 0 nRanks 2 nNodes" */
static void on_rank(struct nccl_log *l, const char *s)
{
	int rank, nranks;

	if (l->nranks < 0 &&
	    (sscanf(s, "rank %d nranks %d", &rank, &nranks) == 2 ||
	     sscanf(s, "rank %d nRanks %d", &rank, &nranks) == 2)) {
		l->rank = rank;
		l->nranks = nranks;
	}
}

struct marker {
	const char *text;       /* where the facts start: after it */
	void (*take)(struct nccl_log *l, const char *rest);
};

static const struct marker markers[] = {
	{ "Using network ", on_network },
	{ "NET/IB : No device found", on_ib_none },
	{ "NET/IB : Using", on_ib_using },
	{ "NET/Socket : Using", on_socket_using },
	{ "Loaded net plugin ", on_net_plugin },
	{ "Loaded coll plugin ", on_coll_plugin },
	{ "Loaded collnet plugin ", on_coll_plugin },
	{ "NET/Socket : GPU Direct RDMA", on_ignore },
	{ "GPU Direct RDMA Disabled for ", on_gdr_off },
	{ "GPU Direct RDMA Enabled for ", on_gdr_on },
	{ "NCCL version ", on_version },
	{ " rank ", on_rank },
};

/* "host:pid:tid [dev] NCCL INFO ..." : the host, once. */
static void take_host(struct nccl_log *l, const char *line, const char *nccl)
{
	size_t n = strcspn(line, ":");

	if (!l->host[0] && line + n < nccl && n)
		keep(l->host, sizeof(l->host), line, n);
}

/* The words after "NCCL INFO ", or NULL when line is no NCCL line. */
static const char *nccl_text(struct nccl_log *l, const char *line)
{
	const char *at = strstr(line, " NCCL INFO ");

	if (!at)
		at = strstr(line, " NCCL WARN ");
	if (!at)
		return NULL;
	take_host(l, line, at);
	return at + 11;
}

void nccl_log_line(struct nccl_log *l, const char *line)
{
	const char *text = nccl_text(l, line), *at;
	size_t i;

	l->lines++;
	if (!text)
		return;
	l->nccl_lines++;
	if (!strncmp(text, "NCCL_", 5) && strstr(text, " set "))
		on_var(l, text);
	if (!strncmp(text, "Channel ", 8) && strstr(text, " via "))
		on_channel(l, text);
	for (i = 0; i < sizeof(markers) / sizeof(markers[0]); i++) {
		at = strstr(text, markers[i].text);
		if (at) {
			markers[i].take(l, at + (markers[i].text[0] == ' ' ?
						 1 : strlen(markers[i].text)));
			return;
		}
	}
}

void nccl_log_init(struct nccl_log *l)
{
	memset(l, 0, sizeof(*l));
	l->rank = l->nranks = -1;
}

int nccl_log_read(struct nccl_log *l, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;

	while (getline(&line, &cap, f) >= 0)
		nccl_log_line(l, line);
	free(line);
	return ferror(f) ? -EIO : 0;
}

const char *nccl_log_var(const struct nccl_log *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->n_var; i++)
		if (!strcmp(l->vars[i].name, name))
			return l->vars[i].value;
	return NULL;
}

const char *nccl_path_name(enum nccl_path p)
{
	static const char *const names[NCCL_PATH_COUNT] = {
		[NCCL_PATH_IB_GDR] = "NET/IB/GDRDMA",
		[NCCL_PATH_IB] = "NET/IB",
		[NCCL_PATH_SOCKET] = "NET/Socket",
		[NCCL_PATH_PLUGIN] = "NET/plugin",
		[NCCL_PATH_P2P] = "P2P",
		[NCCL_PATH_SHM] = "SHM",
		[NCCL_PATH_OTHER] = "other",
	};

	return p < NCCL_PATH_COUNT ? names[p] : "?";
}

unsigned long nccl_log_net_paths(const struct nccl_log *l)
{
	return l->paths[NCCL_PATH_IB_GDR] + l->paths[NCCL_PATH_IB] +
	       l->paths[NCCL_PATH_SOCKET] + l->paths[NCCL_PATH_PLUGIN];
}

/* What NCCL would use across nodes, for the intra-node sentence. */
static const char *net_across(const struct nccl_log *l)
{
	switch (l->net) {
	case NCCL_NET_SOCKET:
		return "Socket (across nodes it would fall back)";
	case NCCL_NET_IB:
		return "IB";
	case NCCL_NET_PLUGIN:
		return l->network;
	default:
		return "none chosen (no 'Using network' line)";
	}
}

bool nccl_log_intra_node(const struct nccl_log *l, char *why, size_t len)
{
	unsigned long p2p = l->paths[NCCL_PATH_P2P];
	unsigned long shm = l->paths[NCCL_PATH_SHM];
	char via[96];

	if (nccl_log_net_paths(l) || l->paths[NCCL_PATH_OTHER] || !(p2p + shm))
		return false;
	if (!why || !len)
		return true;
	if (p2p && shm)
		snprintf(via, sizeof(via), "%lu via P2P: NVLink or PCIe, %lu "
			 "via SHM: host memory", p2p, shm);
	else
		snprintf(via, sizeof(via), "%lu via %s", p2p ? p2p : shm,
			 p2p ? "P2P: NVLink or PCIe" : "SHM: host memory");
	snprintf(why, len, "no network needed: every channel stayed inside "
		 "the node (%s); NCCL's network for other nodes: %s", via,
		 net_across(l));
	return true;
}
