/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nl - the netlink/ioctl probes behind struct probe (see
 * probe.h for what each answers). Not pure.
 */
#ifndef RDMABENCH_DOCTOR_LIVE_NL_H
#define RDMABENCH_DOCTOR_LIVE_NL_H

#include <stddef.h>

#include "doctor/probe.h"

int nl_route(void *priv, const struct probe_addr *peer, char *ifname,
	      size_t len);
int nl_port_netdev(void *priv, const char *dev, unsigned int port,
		    char *ifname, size_t len);
int nl_netdev_link(void *priv, const char *ifname,
		    struct probe_netdev_link *out);
int nl_dcb(void *priv, const char *ifname, struct probe_dcb *out);
int nl_addrs(void *priv, struct probe_addr **out, size_t *n);

#endif
