// SPDX-License-Identifier: BSD-2-Clause
/*
 * nl - the netlink and ioctl probes of ib_doctor: interface
 * addresses (getifaddrs), the route to a peer (RTM_GETROUTE: the kernel's
 * own answer, policy routing included, no fork of ip(8)), the netdev of an
 * RDMA port (RDMA netlink, the only place iWARP devices name it) and the
 * fastest link mode a netdev supports (ETHTOOL_GLINKSETTINGS), its DCB
 * PFC and APP table (DCB_CMD_IEEE_GET). Not pure:
 * <rdma/rdma_netlink.h>.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <linux/dcbnl.h>
#include <linux/ethtool.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <rdma/rdma_netlink.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "lib/fs.h"
#include "doctor/live/nl.h"

#define NL_BUF_BYTES 16384
#define NL_TIMEOUT_S 2

/* One netlink request/answer socket; answers bounded by NL_TIMEOUT_S. */
static int nl_open(int proto)
{
	struct timeval tv = { .tv_sec = NL_TIMEOUT_S };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, proto);

	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

static void nl_put_attr(struct nlmsghdr *nh, unsigned short type,
			const void *data, unsigned short len)
{
	struct nlattr *a = (struct nlattr *)((char *)nh +
					     NLMSG_ALIGN(nh->nlmsg_len));

	a->nla_type = type;
	a->nla_len = (unsigned short)(NLA_HDRLEN + len);
	memcpy((char *)a + NLA_HDRLEN, data, len);
	nh->nlmsg_len = NLMSG_ALIGN(nh->nlmsg_len) + NLA_ALIGN(a->nla_len);
}

/* Attribute type of tb[] from the attributes in [p, p + len). */
static void nl_parse(const char *p, int len, const struct nlattr **tb,
		     int max)
{
	const struct nlattr *a = (const struct nlattr *)p;

	memset(tb, 0, (size_t)(max + 1) * sizeof(*tb));
	while (len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= len) {
		int type = a->nla_type & NLA_TYPE_MASK;

		if (type <= max)
			tb[type] = a;
		len -= NLA_ALIGN(a->nla_len);
		a = (const struct nlattr *)((const char *)a +
					    NLA_ALIGN(a->nla_len));
	}
}

static const void *nl_data(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

/* One request on a fresh NETLINK_ROUTE socket, its answer into buf
 * (NL_BUF_BYTES): the answer's length, or -errno. */
static ssize_t nl_ask(const struct nlmsghdr *req, char *buf)
{
	int fd = nl_open(NETLINK_ROUTE);
	ssize_t n;

	if (fd < 0)
		return fd;
	if (send(fd, req, req->nlmsg_len, 0) < 0)
		n = -errno;
	else if ((n = recv(fd, buf, NL_BUF_BYTES, 0)) < 0)
		n = -errno;
	close(fd);
	return n;
}

/* The one answer to a request: 0 and *out when it is of type, the
 * kernel's error (-errno), or -EPROTO. */
static int nl_answer(const char *buf, ssize_t n, unsigned short type,
		     const struct nlmsghdr **out)
{
	const struct nlmsghdr *nh = (const struct nlmsghdr *)buf;

	if (!NLMSG_OK(nh, (unsigned int)n))
		return -EPROTO;
	if (nh->nlmsg_type == NLMSG_ERROR) {
		int err = ((const struct nlmsgerr *)NLMSG_DATA(nh))->error;

		return err ? err : -EPROTO;
	}
	if (nh->nlmsg_type != type)
		return -EPROTO;
	*out = nh;
	return 0;
}

/* ---- RTM_GETROUTE ---- */

static int nl_route_answer(const char *buf, ssize_t n, char *ifname,
			   size_t len)
{
	const struct nlmsghdr *nh;
	const struct nlattr *tb[RTA_MAX + 1];
	const struct rtmsg *rt;
	char name[IF_NAMESIZE];
	int ret;

	ret = nl_answer(buf, n, RTM_NEWROUTE, &nh);
	if (ret)
		return ret;
	rt = NLMSG_DATA(nh);
	if (rt->rtm_type == RTN_UNREACHABLE || rt->rtm_type == RTN_BLACKHOLE ||
	    rt->rtm_type == RTN_PROHIBIT)
		return -ENETUNREACH;
	nl_parse((const char *)RTM_RTA(rt), (int)RTM_PAYLOAD(nh), tb, RTA_MAX);
	if (!tb[RTA_OIF] ||
	    !if_indextoname(*(const unsigned int *)nl_data(tb[RTA_OIF]), name))
		return -ENETUNREACH;
	return fs_copy(ifname, len, name) ? 0 : -ENAMETOOLONG;
}

int nl_route(void *priv, const struct probe_addr *peer, char *ifname,
	      size_t len)
{
	struct {
		struct nlmsghdr nh;
		struct rtmsg rt;
		char attrs[64];
	} req = {
		.nh = { .nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg)),
			.nlmsg_type = RTM_GETROUTE,
			.nlmsg_flags = NLM_F_REQUEST, .nlmsg_seq = 1 },
		.rt = { .rtm_family = (unsigned char)peer->family,
			.rtm_dst_len = peer->family == AF_INET ? 32 : 128 },
	};
	char *buf = malloc(NL_BUF_BYTES);
	ssize_t n;
	int ret;

	(void)priv;
	if (!buf)
		return -ENOMEM;
	nl_put_attr(&req.nh, RTA_DST, peer->bytes,
		    peer->family == AF_INET ? 4 : 16);
	n = nl_ask(&req.nh, buf);
	ret = n < 0 ? (int)n : nl_route_answer(buf, n, ifname, len);
	free(buf);
	return ret;
}

/* ---- RDMA netlink: the netdev of a port ---- */

#define RNL_TB_MAX RDMA_NLDEV_ATTR_NDEV_NAME

/* Look for dev in one read of the device dump: 1 found, 0 not, <0. */
static int rnl_scan(const char *buf, ssize_t n, const char *dev,
		    uint32_t *index, bool *done)
{
	const struct nlmsghdr *nh = (const struct nlmsghdr *)buf;
	const struct nlattr *tb[RNL_TB_MAX + 1];
	unsigned int left = (unsigned int)n;
	int found = 0;

	for (; NLMSG_OK(nh, left); nh = NLMSG_NEXT(nh, left)) {
		if (nh->nlmsg_type == NLMSG_DONE)
			*done = true;
		if (nh->nlmsg_type == NLMSG_ERROR)
			return ((const struct nlmsgerr *)NLMSG_DATA(nh))->error;
		if (nh->nlmsg_type == NLMSG_DONE || found)
			continue;
		nl_parse(NLMSG_DATA(nh), (int)(nh->nlmsg_len - NLMSG_HDRLEN),
			 tb, RNL_TB_MAX);
		if (tb[RDMA_NLDEV_ATTR_DEV_INDEX] &&
		    tb[RDMA_NLDEV_ATTR_DEV_NAME] &&
		    !strcmp(nl_data(tb[RDMA_NLDEV_ATTR_DEV_NAME]), dev)) {
			*index = *(const uint32_t *)
				nl_data(tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
			found = 1;
		}
	}
	return found;
}

static int rnl_dev_index(int fd, char *buf, const char *dev,
			 uint32_t *index)
{
	struct nlmsghdr req = {
		.nlmsg_len = NLMSG_LENGTH(0),
		.nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
					       RDMA_NLDEV_CMD_GET),
		.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		.nlmsg_seq = 1,
	};
	bool done = false, found = false;
	ssize_t n;
	int ret;

	if (send(fd, &req, req.nlmsg_len, 0) < 0)
		return -errno;
	/* read the whole dump even after a match: the socket is reused */
	while (!done) {
		n = recv(fd, buf, NL_BUF_BYTES, 0);
		if (n <= 0)
			return n < 0 ? -errno : -EPROTO;
		ret = rnl_scan(buf, n, found ? "" : dev, index, &done);
		if (ret < 0)
			return ret;
		found |= ret == 1;
	}
	return found ? 0 : -ENODEV;
}

static int rnl_port_ndev(int fd, char *buf, uint32_t index, uint32_t port,
			 char *ifname, size_t len)
{
	struct {
		struct nlmsghdr nh;
		char attrs[32];
	} req = { .nh = {
		.nlmsg_len = NLMSG_LENGTH(0),
		.nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
					       RDMA_NLDEV_CMD_PORT_GET),
		.nlmsg_flags = NLM_F_REQUEST, .nlmsg_seq = 2 } };
	const struct nlattr *tb[RNL_TB_MAX + 1];
	const struct nlmsghdr *nh = (const struct nlmsghdr *)buf;
	ssize_t n;

	nl_put_attr(&req.nh, RDMA_NLDEV_ATTR_DEV_INDEX, &index, 4);
	nl_put_attr(&req.nh, RDMA_NLDEV_ATTR_PORT_INDEX, &port, 4);
	if (send(fd, &req, req.nh.nlmsg_len, 0) < 0)
		return -errno;
	n = recv(fd, buf, NL_BUF_BYTES, 0);
	if (n < 0)
		return -errno;
	if (!NLMSG_OK(nh, (unsigned int)n) || nh->nlmsg_type == NLMSG_ERROR)
		return -EOPNOTSUPP;
	nl_parse(NLMSG_DATA(nh), (int)(nh->nlmsg_len - NLMSG_HDRLEN), tb,
		 RNL_TB_MAX);
	if (!tb[RDMA_NLDEV_ATTR_NDEV_NAME])
		return -ENODEV;
	return fs_copy(ifname, len, nl_data(tb[RDMA_NLDEV_ATTR_NDEV_NAME])) ?
		0 : -ENAMETOOLONG;
}

int nl_port_netdev(void *priv, const char *dev, unsigned int port,
		    char *ifname, size_t len)
{
	char *buf = malloc(NL_BUF_BYTES);
	uint32_t index = 0;
	int fd, ret;

	(void)priv;
	if (!buf)
		return -ENOMEM;
	fd = nl_open(NETLINK_RDMA);
	ret = fd < 0 ? -EOPNOTSUPP : rnl_dev_index(fd, buf, dev, &index);
	if (!ret)
		ret = rnl_port_ndev(fd, buf, index, port, ifname, len);
	if (fd >= 0)
		close(fd);
	free(buf);
	return ret;
}

/* ---- ethtool: the fastest supported link mode ---- */

/* ETHTOOL_LINK_MODE_* bit, Gb/s, lanes: the modes of 10G and up (bits
 * are ABI; 93-98 are the 800G modes of Linux 6.4+). */
static const struct {
	unsigned char bit;
	unsigned short gbps;
	unsigned char lanes;
} eth_modes[] = {
	{ 12, 10, 1 }, { 18, 10, 4 }, { 19, 10, 1 }, { 21, 20, 2 },
	{ 22, 20, 2 }, { 23, 40, 4 }, { 24, 40, 4 }, { 25, 40, 4 },
	{ 26, 40, 4 }, { 27, 56, 4 }, { 28, 56, 4 }, { 29, 56, 4 },
	{ 30, 56, 4 }, { 31, 25, 1 }, { 32, 25, 1 }, { 33, 25, 1 },
	{ 34, 50, 2 }, { 35, 50, 2 }, { 36, 100, 4 }, { 37, 100, 4 },
	{ 38, 100, 4 }, { 39, 100, 4 }, { 40, 50, 2 }, { 42, 10, 1 },
	{ 43, 10, 1 }, { 44, 10, 1 }, { 45, 10, 1 }, { 46, 10, 1 },
	{ 52, 50, 1 }, { 53, 50, 1 }, { 54, 50, 1 }, { 55, 50, 1 },
	{ 56, 50, 1 }, { 57, 100, 2 }, { 58, 100, 2 }, { 59, 100, 2 },
	{ 60, 100, 2 }, { 61, 100, 2 }, { 62, 200, 4 }, { 63, 200, 4 },
	{ 64, 200, 4 }, { 65, 200, 4 }, { 66, 200, 4 }, { 69, 400, 8 },
	{ 70, 400, 8 }, { 71, 400, 8 }, { 72, 400, 8 }, { 73, 400, 8 },
	{ 75, 100, 1 }, { 76, 100, 1 }, { 77, 100, 1 }, { 78, 100, 1 },
	{ 79, 100, 1 }, { 80, 200, 2 }, { 81, 200, 2 }, { 82, 200, 2 },
	{ 83, 200, 2 }, { 84, 200, 2 }, { 85, 400, 4 }, { 86, 400, 4 },
	{ 87, 400, 4 }, { 88, 400, 4 }, { 89, 400, 4 }, { 93, 800, 8 },
	{ 94, 800, 8 }, { 95, 800, 8 }, { 96, 800, 8 }, { 97, 800, 8 },
	{ 98, 800, 8 },
};

#define ETH_NWORDS_MAX 32

int nl_netdev_link(void *priv, const char *ifname,
		    struct probe_netdev_link *out)
{
	struct {
		struct ethtool_link_settings s;
		uint32_t maps[3 * ETH_NWORDS_MAX];
	} e;
	struct ifreq ifr = { .ifr_data = (void *)&e };
	int fd, nwords, ret = 0;
	size_t i;

	(void)priv;
	if (!fs_copy(ifr.ifr_name, sizeof(ifr.ifr_name), ifname))
		return -EINVAL;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* handshake: the kernel answers how many mask words it uses */
	memset(&e, 0, sizeof(e));
	e.s.cmd = ETHTOOL_GLINKSETTINGS;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		ret = -errno;
	nwords = -e.s.link_mode_masks_nwords;
	if (!ret && (nwords <= 0 || nwords > ETH_NWORDS_MAX))
		ret = -EOPNOTSUPP;
	if (!ret) {
		memset(&e, 0, sizeof(e));
		e.s.cmd = ETHTOOL_GLINKSETTINGS;
		e.s.link_mode_masks_nwords = (int8_t)nwords;
		if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
			ret = -errno;
	}
	close(fd);
	if (ret)
		return ret == -EINVAL || ret == -ENOTTY ? -EOPNOTSUPP : ret;
	memset(out, 0, sizeof(*out));
	for (i = 0; i < sizeof(eth_modes) / sizeof(eth_modes[0]); i++) {
		unsigned int b = eth_modes[i].bit;

		/* the supported mask is the first of the three */
		if (b < 32u * (unsigned int)nwords &&
		    (e.maps[b / 32] >> (b % 32) & 1) &&
		    eth_modes[i].gbps * 1000ul > out->max_speed_mbps) {
			out->max_speed_mbps = eth_modes[i].gbps * 1000ul;
			out->max_lanes = eth_modes[i].lanes;
		}
	}
	return out->max_speed_mbps ? 0 : -EOPNOTSUPP;
}

/* ---- DCB: PFC and the APP table (DCB_CMD_IEEE_GET) ---- */

/* The APP table's DSCP entries (selector 5) into out. */
static void dcb_apps(const struct nlattr *table, struct probe_dcb *out)
{
	const struct nlattr *a = nl_data(table);
	int left = table->nla_len - NLA_HDRLEN;

	for (; left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= left;
	     left -= NLA_ALIGN(a->nla_len),
	     a = (const struct nlattr *)((const char *)a +
					 NLA_ALIGN(a->nla_len))) {
		const struct dcb_app *app = nl_data(a);

		if ((a->nla_type & NLA_TYPE_MASK) != DCB_ATTR_IEEE_APP ||
		    a->nla_len < NLA_HDRLEN + sizeof(*app) ||
		    app->selector != IEEE_8021QAZ_APP_SEL_DSCP ||
		    app->protocol >= 64)
			continue;
		out->dscp_set |= 1ull << app->protocol;
		out->dscp_prio[app->protocol] = app->priority;
	}
}

static int dcb_answer(const char *buf, ssize_t n, struct probe_dcb *out)
{
	const struct nlmsghdr *nh;
	const struct nlattr *tb[DCB_ATTR_IEEE + 1], *ieee[DCB_ATTR_IEEE_MAX + 1];
	const struct ieee_pfc *pfc;
	int ret;

	ret = nl_answer(buf, n, RTM_GETDCB, &nh);
	if (ret)
		return ret;
	nl_parse((const char *)NLMSG_DATA(nh) + NLMSG_ALIGN(sizeof(struct dcbmsg)),
		 (int)(nh->nlmsg_len - NLMSG_LENGTH(sizeof(struct dcbmsg))), tb,
		 DCB_ATTR_IEEE);
	if (!tb[DCB_ATTR_IEEE])
		return -EOPNOTSUPP;
	nl_parse(nl_data(tb[DCB_ATTR_IEEE]),
		 tb[DCB_ATTR_IEEE]->nla_len - NLA_HDRLEN, ieee,
		 DCB_ATTR_IEEE_MAX);
	memset(out, 0, sizeof(*out));
	pfc = ieee[DCB_ATTR_IEEE_PFC] ? nl_data(ieee[DCB_ATTR_IEEE_PFC]) : NULL;
	if (pfc && ieee[DCB_ATTR_IEEE_PFC]->nla_len >= NLA_HDRLEN +
						       sizeof(*pfc)) {
		out->pfc_en = pfc->pfc_en;
		out->has_pfc = true;
	}
	if (ieee[DCB_ATTR_IEEE_APP_TABLE])
		dcb_apps(ieee[DCB_ATTR_IEEE_APP_TABLE], out);
	return 0;
}

int nl_dcb(void *priv, const char *ifname, struct probe_dcb *out)
{
	struct {
		struct nlmsghdr nh;
		struct dcbmsg d;
		char attrs[64];
	} req = {
		.nh = { .nlmsg_len = NLMSG_LENGTH(sizeof(struct dcbmsg)),
			.nlmsg_type = RTM_GETDCB,
			.nlmsg_flags = NLM_F_REQUEST, .nlmsg_seq = 1 },
		.d = { .dcb_family = AF_UNSPEC, .cmd = DCB_CMD_IEEE_GET },
	};
	size_t len = strlen(ifname) + 1;
	char *buf;
	ssize_t n;
	int ret;

	(void)priv;
	if (len > IF_NAMESIZE)
		return -EINVAL;
	buf = malloc(NL_BUF_BYTES);
	if (!buf)
		return -ENOMEM;
	nl_put_attr(&req.nh, DCB_ATTR_IFNAME, ifname, (unsigned short)len);
	n = nl_ask(&req.nh, buf);
	ret = n < 0 ? (int)n : dcb_answer(buf, n, out);
	free(buf);
	/* no dcbnl ops, or a kernel without CONFIG_DCB: nothing to tell */
	return ret == -EINVAL || ret == -ENODEV ? -EOPNOTSUPP : ret;
}

/* ---- getifaddrs ---- */

int nl_addrs(void *priv, struct probe_addr **out, size_t *n)
{
	struct ifaddrs *all, *i;
	struct probe_addr *a;
	size_t k = 0, cap = 0;

	(void)priv;
	*out = NULL;
	*n = 0;
	if (getifaddrs(&all))
		return -errno;
	for (i = all; i; i = i->ifa_next)
		cap++;
	a = calloc(cap ? cap : 1, sizeof(*a));
	for (i = all; a && i; i = i->ifa_next) {
		int fam = i->ifa_addr ? i->ifa_addr->sa_family : 0;
		const void *sa = i->ifa_addr;

		if (fam == AF_INET)
			memcpy(a[k].bytes,
			       &((const struct sockaddr_in *)sa)->sin_addr, 4);
		else if (fam == AF_INET6)
			memcpy(a[k].bytes,
			       &((const struct sockaddr_in6 *)sa)->sin6_addr,
			       16);
		else
			continue;
		a[k].family = fam;
		inet_ntop(fam, a[k].bytes, a[k].text, sizeof(a[k].text));
		fs_copy(a[k].ifname, sizeof(a[k].ifname), i->ifa_name);
		k++;
	}
	freeifaddrs(all);
	if (!a)
		return -ENOMEM;
	*out = a;
	*n = k;
	return 0;
}
