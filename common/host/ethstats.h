/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ethstats - a netdev's driver statistics as `ethtool -S IF` shows them
 * (ioctl SIOCETHTOOL: ETHTOOL_GSSET_INFO, ETHTOOL_GSTRINGS,
 * ETHTOOL_GSTATS), for the congestion budgets: only the pause counters
 * are kept (names ending "_pause", "_pause_ctrl_phy" or "_pause_frames":
 * mlx5's rx/tx_pause_ctrl_phy and rx/tx_prioN_pause, bnxt's and others'
 * rx/tx_pause_frames). Not root-relative: the ioctl asks the running
 * kernel, in this process's network namespace.
 */
#ifndef RDMABENCH_HOST_ETHSTATS_H
#define RDMABENCH_HOST_ETHSTATS_H

#include <stdbool.h>

#include "host/counters.h"

/* Is the statistic called name (as the driver names it) a pause counter? */
bool ethstats_is_pause(const char *name);

/*
 * Add IF's pause counters to s as "ethtool/NAME". Returns how many were
 * added, or -errno: -EINVAL for a bad name, -EOPNOTSUPP for a driver with
 * no statistics (lo, rxe's netdev is the real NIC's), -ENODEV.
 */
int ethstats_pause_read(const char *ifname, struct counters_snap *s);

#endif
