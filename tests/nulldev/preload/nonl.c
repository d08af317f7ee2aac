// SPDX-License-Identifier: BSD-2-Clause
/*
 * nonl - an LD_PRELOAD for tests/nulldev/nulldev-run.sh: socket() for
 * NETLINK_RDMA fails with EPROTONOSUPPORT, as on a kernel without RDMA.
 * libibverbs asks the kernel's RDMA netlink for the devices first and
 * reads sysfs (SYSFS_PATH: the null device's private tree) only when that
 * fails; on a host whose kernel has RDMA the netlink answer (the host's
 * devices, maybe none) would hide the null device. Every other socket is
 * the C library's.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/netlink.h>
#include <sys/socket.h>

int socket(int domain, int type, int protocol)
{
	int (*real)(int, int, int);

	if (domain == AF_NETLINK && protocol == NETLINK_RDMA) {
		errno = EPROTONOSUPPORT;
		return -1;
	}
	real = (int (*)(int, int, int))dlsym(RTLD_NEXT, "socket");
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(domain, type, protocol);
}
