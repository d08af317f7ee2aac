/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * netstat - a network interface's byte and packet counters, read from
 * ROOT/class/net/IF/statistics/{rx,tx}_{bytes,packets} (sysfs_root "/sys",
 * or a fake tree in the tests), and the interfaces there are. The one
 * reader of those files (ib_doctor --watch). Pure: files, no verbs.
 *
 * The counters are the interface's, not a process's: whatever else the
 * host sends through it moves them too. A pod sees its own netns's
 * interfaces (sysfs is mounted per netns).
 */
#ifndef RDMABENCH_HOST_NETSTAT_H
#define RDMABENCH_HOST_NETSTAT_H

#include <stddef.h>
#include <stdint.h>

struct netstat {
	uint64_t rx_bytes, tx_bytes;
	uint64_t rx_packets, tx_packets;
};

/*
 * IF's four counters under sysfs_root ("" or NULL = "/sys") into *out.
 * Returns 0, -EINVAL for a bad name (empty, '/', "." or ".."), -ENOENT
 * when IF has no statistics folder, or the read's -errno (a counter that
 * is not a decimal number: -EINVAL).
 */
int netstat_read(const char *sysfs_root, const char *ifname,
		 struct netstat *out);

/*
 * The interfaces under sysfs_root (ROOT/class/net, version order) as
 * fs_list gives them: *names_out one malloc'd block (free it), n names.
 * 0, or -errno (-ENOENT: no class/net).
 */
int netstat_list(const char *sysfs_root, char ***names_out, size_t *n_out);

#endif
