/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dev - what we tell the user about the device and port in use.
 */
#ifndef RDMABENCH_RDMA_DEV_H
#define RDMABENCH_RDMA_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#include "lib/log.h"
#include "spec/wire.h"

/* A count of reads/atomics in flight as verbs' 8-bit fields take it
 * (rdma_conn_param, ibv_qp_attr): at most 255. */
static inline uint8_t dev_rd_atom_u8(uint64_t n)
{
	return (uint8_t)(n < 255 ? n : 255);
}

struct dev_info {
	char name[64];
	char fw_ver[64];
	uint8_t port;
	const char *transport;   /* "IB", "RoCE", "iWARP" */
	const char *port_state;  /* "ACTIVE", ... */
	unsigned int active_mtu_bytes;
	int numa_node;           /* host/devnode.h's; -1: unknown */
	uint32_t max_qp_wr;
	/* reads/atomics a QP may have on the wire as initiator, at most
	 * 255 (-o is capped by it: the header's "Outstand reads") */
	uint8_t max_init_rd_atom;
	bool has_atomics;        /* atomic_cap != IBV_ATOMIC_NONE */
	const char *link_layer;  /* "InfiniBand", "Ethernet" */
	uint8_t active_speed;    /* ibv_port_attr (rate.h RATE_SPEED_*) */
	uint8_t active_width;    /* ibv_port_attr (rate.h RATE_WIDTH_*) */
	uint32_t active_speed_ex; /* XDR and beyond; 0: absent (dev_query) */
	bool software;           /* rxe or siw: the kernel moves the data */
};

/* The kind of ctx's port (IB, RoCE, iWARP): QPs of one kind connect. */
enum wire_data_kind dev_kind(struct ibv_context *ctx, uint8_t port);

/* "IB", "RoCE", "iWARP" ("any" for WIRE_DATA_ANY). */
const char *dev_kind_name(enum wire_data_kind kind);

/* Query ctx/port into *out. Returns 0 or -errno (logged). */
int dev_query(struct ibv_context *ctx, uint8_t port, struct dev_info *out);

/*
 * The file of the libibverbs this process loaded, links resolved
 * ("/usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.50.0"), for rdma-core's
 * release (host/sysver.h). 0, or -ENOENT when it cannot be told.
 */
int dev_libibverbs_path(char *buf, size_t len);

/*
 * --odp: does ctx page memory on demand for the operations need
 * (IBV_ODP_SUPPORT_* bits) on transport qpt (RC, UC, UD), as
 * ibv_query_device_ex's odp_caps say? 0, or -EOPNOTSUPP (or the query's
 * -errno) logged and kept in why (may be NULL), naming what is missing
 * and what to do.
 */
int dev_odp_check(struct ibv_context *ctx, enum ibv_qp_type qpt, uint32_t need,
		  struct log_why *why);

/* A verbs MTU in bytes (IBV_MTU_1024: 1024); 0 for no valid value. */
unsigned int dev_mtu_bytes(enum ibv_mtu mtu);

/* The path a connected QP uses: its source GID and path MTU. */
struct dev_qp_path {
	char gid[64];            /* "::ffff:198.18.0.1"; "" unknown */
	char gid_type[16];       /* "RoCE v2", "RoCE v1", "IB"; "" unknown */
	int gid_index;           /* -1: no GRH (IB LID routing) or unknown */
	unsigned int path_mtu_bytes; /* 0: unknown */
	/* the QP's transport attributes, as ibv_query_qp reads them back */
	bool has_attr;           /* false: the device did not say */
	unsigned int traffic_class; /* GRH traffic class (-T); 0 without GRH */
	unsigned int sl;         /* service level (-S) */
	unsigned int timeout;    /* ack timeout exponent (-u) */
	unsigned int retry_cnt;  /* transport retries (--retry_count) */
	unsigned int rnr_retry;  /* receiver-not-ready retries */
};

/*
 * Read qp's address vector (ibv_query_qp) and the GID table entry it
 * names (ibv_query_gid_ex: value and type). Without a GRH (InfiniBand
 * LID routing) the port's GID 0 is given, of type "IB". Returns 0 or
 * -errno; not logged (the caller decides whether it matters).
 */
int dev_qp_path(struct ibv_qp *qp, const struct dev_info *dev,
		struct dev_qp_path *out);


/*
 * --oob tcp: open the RDMA device named dev, else the one behind the
 * network interface netdev (host/netdev.h's rule, ib_doctor's too: VLANs
 * and macvlans lead to the port below them), else the first one. With
 * netdev and no dev, *port (when not NULL) becomes the port that carries
 * netdev; otherwise it is left as given. Returns 0 or -errno (logged,
 * naming what was looked for and what exists; the sentence also kept in
 * why, which may be NULL: lib/log.h).
 */
int dev_open(const char *dev, const char *netdev, struct ibv_context **out,
	     uint8_t *port, struct log_why *why);

/*
 * --oob tcp: the GID index to use on port. want >= 0 is taken as given;
 * otherwise the best RoCEv2 GID (of netdev when given; IPv4-mapped first);
 * -1 on InfiniBand, where LIDs route. The GID's text goes to text.
 */
/*
 * The first device (ibv_get_device_list order) with an ACTIVE port of
 * kind want (WIRE_DATA_ANY: any kind): its name into name, the port into
 * *port. Returns 0 or -ENODEV (not logged).
 */
int dev_open_first_active(enum wire_data_kind want, char *name, size_t len,
			  uint8_t *port);

/* Is ctx's port ACTIVE? 0, or -ENETDOWN logged with what to do. */
int dev_open_check_active(struct ibv_context *ctx, uint8_t port);

int dev_open_pick_gid(struct ibv_context *ctx, uint8_t port, int want,
		 const char *netdev, int *index_out, char *text, size_t len);

#endif
