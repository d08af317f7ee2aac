// SPDX-License-Identifier: BSD-2-Clause
/*
 * selfaddr - this node's own address checked against its RDMA interfaces
 * (selfaddr.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fabric/selfaddr.h"

/* Every node's entry is the same address: one machine plays them all. */
static bool selfaddr_one_machine(const struct hostlist *hl)
{
	unsigned int i;

	for (i = 1; i < hl->n; i++)
		if (strcmp(hostlist_addr(hl, i), hostlist_addr(hl, 0)))
			return false;
	return true;
}

/* The fix: the RDMA addresses found here, or how to get one. */
static void selfaddr_fix(const struct hostlist *hl, unsigned int rank,
			 const struct selfaddr_facts *f, char *buf, size_t len)
{
	if (f->rdma_ips && f->rdma_ips[0])
		snprintf(buf, len, "give the node's RDMA interface address in "
			 "a hosts file (--hostfile, a line '%s ADDRESS'; "
			 "this node's: %s)", hl->h[rank].name, f->rdma_ips);
	else
		snprintf(buf, len, "this node has no RDMA interface with an "
			 "IPv4 address: give one an address (ip addr add "
			 "ADDR/LEN dev NETDEV; ib_doctor lists the RDMA "
			 "netdevs), then name it in a hosts file (--hostfile, "
			 "a line '%s ADDRESS')", hl->h[rank].name);
}

/* Why the address is wrong, before the fix. */
static const char *selfaddr_why(const struct selfaddr_facts *f)
{
	if (!f->local)
		return "which is not an address of this node (the host list "
		       "or the name service disagrees with this node)";
	if (f->loopback)
		return "a loopback address (/etc/hosts often maps the host's "
		       "own name to 127.0.1.1)";
	return "on an interface that no RDMA device owns (a management "
	       "network?)";
}

/* "node-03", or "node-03 ADDRESS" from a hosts file. */
static const char *selfaddr_entry(const struct hostlist *hl,
				  unsigned int rank, char *buf, size_t len)
{
	const struct hostlist_host *h = &hl->h[rank];

	snprintf(buf, len, "%s%s%s", h->name, h->addr[0] ? " " : "", h->addr);
	return buf;
}

/* A name (no ADDRESS) on this node, off RDMA: its first RDMA address. */
static bool selfaddr_found_here(const struct hostlist *hl, unsigned int rank,
				const struct selfaddr_facts *f)
{
	return f->ip && f->local && !hl->h[rank].addr[0] && f->rdma_ip &&
	       f->rdma_ip[0];
}

int selfaddr_check(const struct hostlist *hl, unsigned int rank,
		   const struct selfaddr_facts *f, char *use, size_t use_len,
		   char *msg, size_t len)
{
	char fix[SELFADDR_MSG_MAX / 2], buf[2 * HOSTLIST_NAME_LEN];
	const char *entry = selfaddr_entry(hl, rank, buf, sizeof(buf));
	bool one = f->ip && f->loopback && f->local &&
		   selfaddr_one_machine(hl);

	if (f->ip && f->local && ((f->owner && f->owner[0]) || one)) {
		snprintf(use, use_len, "%s", f->ip);
		if (one)
			snprintf(msg, len, "%s (%s): every node on this one "
				 "machine", entry, f->ip);
		else
			snprintf(msg, len, "%s (%s) is on %s", entry, f->ip,
				 f->owner);
		return 0;
	}
	if (selfaddr_found_here(hl, rank, f)) {
		snprintf(use, use_len, "%s", f->rdma_ip);
		snprintf(msg, len, "%s is %s, %s: its peers reach it at %s "
			 "(%s), found here; the name only meets rank 0", entry,
			 f->ip, selfaddr_why(f), f->rdma_ip, f->rdma_dev);
		return 0;
	}
	selfaddr_fix(hl, rank, f, fix, sizeof(fix));
	if (!f->ip)
		snprintf(msg, len, "'%s', this node's entry in the host "
			 "list, does not resolve here: %s", entry, fix);
	else
		snprintf(msg, len, "'%s', this node's entry in the host "
			 "list, is %s, %s: %s", entry, f->ip, selfaddr_why(f),
			 fix);
	return -EINVAL;
}
