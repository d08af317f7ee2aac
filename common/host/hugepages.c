// SPDX-License-Identifier: BSD-2-Clause
/*
 * hugepages - /proc/meminfo's huge page pool and the sentence of an
 * exhausted one (hugepages.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/hugepages.h"
#include "lib/fs.h"

/* "key:   N" or "key:   N kB" of /proc/meminfo into *out (kB: bytes). */
static int hugepages_field(const char *root, const char *key, uint64_t *out)
{
	char text[64], *end;
	unsigned long long v;
	int ret;

	ret = fs_read_field(root, key, text, sizeof(text), "/proc/meminfo");
	if (ret)
		return ret;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || end == text)
		return -EINVAL;
	if (!strcmp(end, " kB"))
		v *= 1024;
	else if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int hugepages_read(const char *root, struct hugepages *out)
{
	const struct {
		const char *key;
		uint64_t *at;
	} fields[] = {
		{ "Hugepagesize", &out->page_bytes },
		{ "HugePages_Total", &out->total },
		{ "HugePages_Free", &out->free },
		{ "HugePages_Rsvd", &out->rsvd },
	};
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		ret = hugepages_field(root, fields[i].key, fields[i].at);
		if (ret) {
			memset(out, 0, sizeof(*out));
			return ret;
		}
	}
	return 0;
}

uint64_t hugepages_round(const struct hugepages *hp, uint64_t len)
{
	uint64_t p = hp->page_bytes;

	return p ? (len + p - 1) / p * p : len;
}

void hugepages_k8s_name(uint64_t page_bytes, char *buf, size_t len)
{
	if (page_bytes >= (1ULL << 30) && !(page_bytes % (1ULL << 30)))
		snprintf(buf, len, "hugepages-%" PRIu64 "Gi", page_bytes >> 30);
	else
		snprintf(buf, len, "hugepages-%" PRIu64 "Mi",
			 page_bytes ? page_bytes >> 20 : 2);
}

void hugepages_why(const struct hugepages *hp, uint64_t want, char *buf,
		   size_t len)
{
	uint64_t page = hp->page_bytes ? hp->page_bytes : 2ULL << 20;
	uint64_t need = (want + page - 1) / page;
	uint64_t avail = hp->free > hp->rsvd ? hp->free - hp->rsvd : 0;
	char k8s[32];

	hugepages_k8s_name(page, k8s, sizeof(k8s));
	if (avail >= need) {
		/* the pool has them: a cgroup's hugetlb limit refused */
		snprintf(buf, len,
			 "%" PRIu64 " huge pages of %" PRIu64 " kB are "
			 "needed and %" PRIu64 " are free (/proc/meminfo), so "
			 "a hugetlb cgroup limit refused them: in Kubernetes, "
			 "raise the pod's %s resource to at least %" PRIu64
			 " MiB, or drop --use_hugepages",
			 need, page >> 10, avail, k8s, need * page >> 20);
		return;
	}
	snprintf(buf, len,
		 "%" PRIu64 " huge pages of %" PRIu64 " kB are needed, "
		 "%" PRIu64 " of the pool's %" PRIu64 " are free "
		 "(/proc/meminfo): as root, echo %" PRIu64 " > "
		 "/proc/sys/vm/nr_hugepages (in Kubernetes, on the node, and "
		 "request the pod's %s resource: %" PRIu64 " MiB), or drop "
		 "--use_hugepages",
		 need, page >> 10, avail, hp->total, hp->total + need - avail,
		 k8s, need * page >> 20);
}
