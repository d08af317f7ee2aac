/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * doctor_nl - the netlink/ioctl probes behind struct doctor_probe (see
 * doctor_probe.h for what each answers). Not pure.
 */
#ifndef RDMABENCH_DOCTOR_NL_H
#define RDMABENCH_DOCTOR_NL_H

#include <stddef.h>

#include "doctor/probe.h"

int dnl_route(void *priv, const struct doctor_addr *peer, char *ifname,
	      size_t len);
int dnl_port_netdev(void *priv, const char *dev, unsigned int port,
		    char *ifname, size_t len);
int dnl_netdev_link(void *priv, const char *ifname,
		    struct doctor_netdev_link *out);
int dnl_addrs(void *priv, struct doctor_addr **out, size_t *n);

#endif
