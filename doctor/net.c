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

/* /proc/net/route: Iface Destination Gateway Flags ... Mask (hex, host
 * order as the kernel stores it, i.e. network bytes read little-endian). */
static int net_route4(FILE *f, const struct probe_addr *peer, char *ifname,
		       size_t len)
{
	char line[256], dev[PROBE_IFNAME_LEN];
	unsigned int dst, gw, flags, mask, best_plen = 0;
	bool found = false;

	while (fgets(line, sizeof(line), f)) {
		unsigned int plen, m;

		if (sscanf(line, "%15s %x %x %x %*d %*d %*d %x", dev, &dst, &gw,
			   &flags, &mask) != 5 || !(flags & 0x1))
			continue;       /* the header, or a route not RTF_UP */
		m = ntohl(mask);
		plen = (unsigned int)__builtin_popcount(m);
		if (!net_prefix_match((const unsigned char *)&dst,
				       peer->bytes, plen))
			continue;
		if (!found || plen > best_plen) {
			fs_copy(ifname, len, dev);
			best_plen = plen;
			found = true;
		}
	}
	return found ? 0 : -ENETUNREACH;
}

/* /proc/net/ipv6_route: dest plen src splen nexthop metric ref use flags dev */
static int net_route6(FILE *f, const struct probe_addr *peer, char *ifname,
		       size_t len)
{
	char line[512], hex[33], dev[PROBE_IFNAME_LEN];
	unsigned char dst[16];
	unsigned int plen, flags, i, best_plen = 0;
	bool found = false;

	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%32s %x %*s %*s %*s %*s %*s %*s %x %15s",
			   hex, &plen, &flags, dev) != 4 || !(flags & 0x1) ||
		    plen > 128 || !strcmp(dev, "lo"))
			continue;       /* not RTF_UP, or local/reject */
		for (i = 0; i < 16; i++)
			sscanf(hex + 2 * i, "%2hhx", &dst[i]);
		if (!net_prefix_match(dst, peer->bytes, plen))
			continue;
		if (!found || plen > best_plen) {
			fs_copy(ifname, len, dev);
			best_plen = plen;
			found = true;
		}
	}
	return found ? 0 : -ENETUNREACH;
}

int net_route_proc(const char *root, const struct probe_addr *peer,
		    char *ifname, size_t len)
{
	char path[FS_PATH_MAX];
	FILE *f;
	int ret;

	ret = fs_path(root, path, sizeof(path), "/proc/net/%s",
		       peer->family == AF_INET ? "route" : "ipv6_route");
	if (ret)
		return ret;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	ret = peer->family == AF_INET ? net_route4(f, peer, ifname, len) :
					net_route6(f, peer, ifname, len);
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
