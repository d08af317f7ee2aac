// SPDX-License-Identifier: BSD-2-Clause
/*
 * net - addresses, GIDs and procfs routes (net.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fs.h"
#include "doctor/net.h"

int net_addr_parse(const char *text, struct probe_addr *out)
{
	memset(out, 0, sizeof(*out));
	if (inet_pton(AF_INET, text, out->bytes) == 1)
		out->family = AF_INET;
	else if (inet_pton(AF_INET6, text, out->bytes) == 1)
		out->family = AF_INET6;
	else
		return -EINVAL;
	inet_ntop(out->family, out->bytes, out->text, sizeof(out->text));
	return 0;
}

void net_addr_gid(const struct probe_addr *a, unsigned char gid[16])
{
	if (a->family == AF_INET6) {
		memcpy(gid, a->bytes, 16);
		return;
	}
	memset(gid, 0, 16);
	gid[10] = gid[11] = 0xff;
	memcpy(gid + 12, a->bytes, 4);
}

int net_gid_parse(const char *text, unsigned char gid[16])
{
	/* sysfs prints eight 4-digit groups: a valid IPv6 literal */
	return inet_pton(AF_INET6, text, gid) == 1 ? 0 : -EINVAL;
}

bool net_addr_link_local(const struct probe_addr *a)
{
	return a->family == AF_INET6 && a->bytes[0] == 0xfe &&
	       (a->bytes[1] & 0xc0) == 0x80;
}

bool net_addr_equal(const struct probe_addr *a, const struct probe_addr *b)
{
	return a->family == b->family &&
	       !memcmp(a->bytes, b->bytes, a->family == AF_INET ? 4 : 16);
}

/* Do the first plen bits of a and b agree? */
static bool net_prefix_match(const unsigned char *a, const unsigned char *b,
			      unsigned int plen)
{
	unsigned int full = plen / 8, rest = plen % 8;

	if (memcmp(a, b, full))
		return false;
	return !rest || !((a[full] ^ b[full]) & (0xff00u >> rest));
}

/* One route of a procfs table: destination, prefix length, interface. */
struct net_route {
	unsigned char dst[16];
	unsigned int plen;
	char dev[PROBE_IFNAME_LEN];
};

/* /proc/net/route: Iface Destination Gateway Flags ... Mask (hex, host
 * order as the kernel stores it, i.e. network bytes read little-endian).
 * False for the header and routes not RTF_UP. */
static bool net_route4_line(const char *line, struct net_route *r)
{
	unsigned int dst, gw, flags, mask;

	if (sscanf(line, "%15s %x %x %x %*d %*d %*d %x", r->dev, &dst, &gw,
		   &flags, &mask) != 5 || !(flags & 0x1))
		return false;
	memcpy(r->dst, &dst, 4);
	r->plen = (unsigned int)__builtin_popcount(ntohl(mask));
	return true;
}

/* /proc/net/ipv6_route: dest plen src splen nexthop metric ref use flags
 * dev. False for routes not RTF_UP, and local/reject ones (lo). */
static bool net_route6_line(const char *line, struct net_route *r)
{
	unsigned int flags, i;
	char hex[33];

	if (sscanf(line, "%32s %x %*s %*s %*s %*s %*s %*s %x %15s", hex,
		   &r->plen, &flags, r->dev) != 4 || !(flags & 0x1) ||
	    r->plen > 128 || !strcmp(r->dev, "lo"))
		return false;
	for (i = 0; i < 16; i++)
		sscanf(hex + 2 * i, "%2hhx", &r->dst[i]);
	return true;
}

/* The interface of the longest prefix that holds peer, of either table. */
static int net_route_best(FILE *f, bool (*parse)(const char *,
						  struct net_route *),
			  const struct probe_addr *peer, char *ifname,
			  size_t len)
{
	char line[512];
	struct net_route r;
	unsigned int best_plen = 0;
	bool found = false;

	while (fgets(line, sizeof(line), f)) {
		if (!parse(line, &r) ||
		    !net_prefix_match(r.dst, peer->bytes, r.plen))
			continue;
		if (!found || r.plen > best_plen) {
			fs_copy(ifname, len, r.dev);
			best_plen = r.plen;
			found = true;
		}
	}
	return found ? 0 : -ENETUNREACH;
}

int net_route_proc(const char *root, const struct probe_addr *peer,
		    char *ifname, size_t len)
{
	FILE *f;
	int ret;

	ret = fs_open_lines(root, &f, "/proc/net/%s",
			    peer->family == AF_INET ? "route" : "ipv6_route");
	if (ret)
		return ret;
	ret = net_route_best(f, peer->family == AF_INET ? net_route4_line :
			     net_route6_line, peer, ifname, len);
	fclose(f);
	return ret;
}

unsigned int net_roce_mtu(long netdev_mtu)
{
	long payload = netdev_mtu - (40 + 8 + 12 + 4 + 28 + 4);
	unsigned int mtu;

	for (mtu = 4096; mtu >= 256; mtu /= 2)
		if (payload >= (long)mtu)
			return mtu;
	return 0;
}
