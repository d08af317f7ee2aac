// SPDX-License-Identifier: BSD-2-Clause
/*
 * ethstats - a netdev's pause counters through SIOCETHTOOL. See
 * ethstats.h.
 */
#include "host/ethstats.h"

#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

/* The ends of a pause counter's name. */
static const char *const pause_ends[] = {
	"_pause", "_pause_ctrl_phy", "_pause_frames",
};

bool ethstats_is_pause(const char *name)
{
	size_t n = strlen(name), e, i;

	for (i = 0; i < sizeof(pause_ends) / sizeof(pause_ends[0]); i++) {
		e = strlen(pause_ends[i]);
		if (n > e && !strcmp(name + n - e, pause_ends[i]))
			return true;
	}
	return false;
}

static int eth_ioctl(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) ? -errno : 0;
}

/* How many statistics IF has (ETH_SS_STATS). */
static int eth_count(int fd, const char *ifname, uint32_t *n)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;
	} info = { .hdr = { .cmd = ETHTOOL_GSSET_INFO,
			    .sset_mask = 1ULL << ETH_SS_STATS } };
	int ret = eth_ioctl(fd, ifname, &info);

	if (ret)
		return ret;
	*n = info.hdr.sset_mask ? info.len : 0;
	return *n ? 0 : -EOPNOTSUPP;
}

/* The names and the values, each one block the caller frees. */
static int eth_fetch(int fd, const char *ifname, uint32_t n,
		     struct ethtool_gstrings **names,
		     struct ethtool_stats **vals)
{
	*names = calloc(1, sizeof(**names) + (size_t)n * ETH_GSTRING_LEN);
	*vals = calloc(1, sizeof(**vals) + (size_t)n * sizeof(uint64_t));
	if (!*names || !*vals)
		return -ENOMEM;
	**names = (struct ethtool_gstrings){ .cmd = ETHTOOL_GSTRINGS,
					     .string_set = ETH_SS_STATS,
					     .len = n };
	**vals = (struct ethtool_stats){ .cmd = ETHTOOL_GSTATS, .n_stats = n };
	int ret = eth_ioctl(fd, ifname, *names);

	return ret ? ret : eth_ioctl(fd, ifname, *vals);
}

static int eth_keep(const struct ethtool_gstrings *names,
		    const struct ethtool_stats *vals, uint32_t n,
		    struct counters_snap *s)
{
	char name[ETH_GSTRING_LEN + 1], key[COUNTERS_NAME_LEN];
	int added = 0;
	uint32_t i;

	for (i = 0; i < n && i < names->len && i < vals->n_stats; i++) {
		memcpy(name, names->data + (size_t)i * ETH_GSTRING_LEN,
		       ETH_GSTRING_LEN);
		name[ETH_GSTRING_LEN] = '\0';
		if (!ethstats_is_pause(name) ||
		    (size_t)snprintf(key, sizeof(key), "ethtool/%s", name) >=
			    sizeof(key) ||
		    counters_add(s, key, vals->data[i]))
			continue;
		added++;
	}
	return added;
}

int ethstats_pause_read(const char *ifname, struct counters_snap *s)
{
	struct ethtool_gstrings *names = NULL;
	struct ethtool_stats *vals = NULL;
	uint32_t n = 0;
	int fd, ret;

	if (!ifname || !*ifname || strlen(ifname) >= IFNAMSIZ || !s)
		return -EINVAL;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	ret = eth_count(fd, ifname, &n);
	if (!ret)
		ret = eth_fetch(fd, ifname, n, &names, &vals);
	if (!ret)
		ret = eth_keep(names, vals, n, s);
	free(names);
	free(vals);
	close(fd);
	return ret;
}
