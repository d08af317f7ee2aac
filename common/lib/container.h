/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * container - container_of(ptr, type, member): the struct of type that
 * holds *ptr as its member, as the kernel and rdma-core write it (their
 * providers embed the core's struct in their own and recover theirs from
 * the core's pointer). ptr must point to that member of such a struct;
 * the compiler checks that its type is the member's.
 */
#ifndef RDMABENCH_LIB_CONTAINER_H
#define RDMABENCH_LIB_CONTAINER_H

#include <stddef.h>

#define container_of(ptr, type, member)                                    \
	__extension__({                                                    \
		const __typeof__(((type *)0)->member) *container_p_ = (ptr); \
		(type *)((char *)container_p_ - offsetof(type, member));    \
	})

#endif
