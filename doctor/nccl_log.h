/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nccl_log - what NCCL says about its transport in an NCCL_DEBUG=INFO
 * log: the network it chose ("Using network IB"), the HCAs, ports and link
 * layers of "NET/IB : Using [0]mlx5_0:1/IB", "NET/IB : No device found.",
 * the Socket interfaces, a net or collnet plugin it loaded, "GPU Direct
 * RDMA Disabled for HCA", the path of each channel ("via NET/IB/0/GDRDMA",
 * "via P2P/IPC", "via SHM/direct/direct", "via NET/Socket/1") and the
 * NCCL_* variables it printed. Pure: a line in, facts out; no verbs or
 * CUDA header. Every text kept is cleaned by lib/sanitize.c, so it prints
 * safely whatever the log held.
 *
 * The formats are NCCL's from 2.18 to 2.28 (src/transport/net.cc,
 * net_ib.cc, net_socket.cc, init.cc, plugin/net.cc, misc/param.cc):
 * docs/doctor.md lists the lines and the versions read.
 */
#ifndef RDMABENCH_DOCTOR_NCCL_LOG_H
#define RDMABENCH_DOCTOR_NCCL_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define NCCL_LOG_TEXT 64
#define NCCL_LOG_VALUE 128
#define NCCL_LOG_HCAS 32
#define NCCL_LOG_VARS 48

/* The network NCCL chose ("Using network NAME"). */
enum nccl_net {
	NCCL_NET_NONE,          /* no "Using network" line */
	NCCL_NET_IB,            /* NCCL's own verbs transport */
	NCCL_NET_SOCKET,        /* TCP sockets: the silent fallback */
	NCCL_NET_PLUGIN,        /* any other name: a net plugin (OFI, IBext) */
};

/* The path of one channel to a peer, from its "via ..." words. */
enum nccl_path {
	NCCL_PATH_IB_GDR,       /* NET/IB.../GDRDMA */
	NCCL_PATH_IB,           /* NET/IB without GDRDMA: staged via host */
	NCCL_PATH_SOCKET,       /* NET/Socket */
	NCCL_PATH_PLUGIN,       /* NET/<plugin's name> */
	NCCL_PATH_P2P,          /* P2P/... inside the node */
	NCCL_PATH_SHM,          /* SHM/... inside the node */
	NCCL_PATH_OTHER,        /* COLLNET, NVLS, anything new */
	NCCL_PATH_COUNT,
};

struct nccl_hca {
	char name[NCCL_LOG_TEXT];       /* "mlx5_0" */
	unsigned int port;
	char link[16];                  /* "IB", "RoCE" */
};

struct nccl_var {
	char name[NCCL_LOG_TEXT];       /* "NCCL_IB_HCA" */
	char value[NCCL_LOG_VALUE];
};

struct nccl_log {
	char host[NCCL_LOG_TEXT];       /* the lines' "host:pid:tid" prefix */
	char version[NCCL_LOG_TEXT];    /* "2.28.9+cuda13.0" */
	char network[NCCL_LOG_TEXT];    /* "IB", "Socket", "AWS Libfabric" */
	enum nccl_net net;
	bool ib_none;                   /* "NET/IB : No device found." */
	struct nccl_hca hcas[NCCL_LOG_HCAS];
	size_t n_hca;
	char sockets[NCCL_LOG_VALUE];   /* "NET/Socket : Using" interfaces */
	char plugin[NCCL_LOG_TEXT];     /* "Loaded net plugin NAME" */
	char collnet[NCCL_LOG_TEXT];    /* "Loaded coll(net) plugin NAME" */
	unsigned int gdr_off, gdr_on;   /* "GPU Direct RDMA Dis/Enabled ..." */
	char gdr_off_hca[NCCL_LOG_TEXT]; /* the first disabled one's name */
	unsigned long paths[NCCL_PATH_COUNT];
	struct nccl_var vars[NCCL_LOG_VARS];
	size_t n_var;
	int rank, nranks;               /* from "rank R nranks N"; -1 unknown */
	unsigned long lines, nccl_lines; /* all lines; "NCCL INFO/WARN" ones */
};

/* An empty log (rank and nranks -1). */
void nccl_log_init(struct nccl_log *l);

/* Take one line (without or with its newline). */
void nccl_log_line(struct nccl_log *l, const char *line);

/* Every line of f. 0, or -EIO on a read error. */
int nccl_log_read(struct nccl_log *l, FILE *f);

/* The value of the variable name as NCCL printed it, or NULL. */
const char *nccl_log_var(const struct nccl_log *l, const char *name);

/* "NET/IB/GDRDMA", "NET/IB", "NET/Socket", ... */
const char *nccl_path_name(enum nccl_path p);

/* How many channels went over a network (IB, Socket or a plugin). */
unsigned long nccl_log_net_paths(const struct nccl_log *l);

/*
 * Whether the log's traffic stayed inside the node: some channel via P2P
 * or SHM and none over a network (NET/...) or another path (COLLNET,
 * NVLS). The one decision of ib_fabric's transport and ib_doctor's
 * clause: "Using network Socket" is then only the network NCCL set up
 * for other nodes. When true and why is given, the sentence: "no network
 * needed: every channel stayed inside the node (24 via P2P: NVLink or
 * PCIe); NCCL's network for other nodes: Socket (across nodes it would
 * fall back)". Pure.
 */
bool nccl_log_intra_node(const struct nccl_log *l, char *why, size_t len);

#endif
