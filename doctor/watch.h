/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * watch - step 11 of ib_doctor, --watch -- CMD ARGS: the byte proof. The
 * RDMA ports' counters (host/counters.h: counters/ and hw_counters/) and
 * every netdev's statistics (host/netstat.h) before and after CMD runs;
 * how many bytes crossed each RDMA port and each TCP interface while it
 * ran; a failure when a command that should use RDMA (--expect rdma, the
 * default) moved its bytes over TCP, naming the interface they took.
 *
 * A port's bytes: the PMA's counters/port_{xmit,rcv}_data (4-byte words,
 * counters_unit_of), else hw_counters/{tx,rx}_bytes, else estimated as
 * packets (hw_counters/sent_pkts, rcvd_pkts: rxe has nothing else) x the
 * port's active MTU, said "estimated". A netdev that no RDMA port carries
 * is a TCP interface (lo included: a copy to a local address takes it). A
 * port's own netdev counts as TCP only when the port's counters saw no
 * RDMA bytes (rxe passes its RoCE packets through its netdev, mlx5 does
 * not: with RDMA moving, the netdev's bytes cannot be told apart).
 * Counters are per port and per interface, not per process: whatever
 * else the host moves meanwhile is counted too. Pure: files below the
 * root, the MTU through the probe table.
 */
#ifndef RDMABENCH_DOCTOR_WATCH_H
#define RDMABENCH_DOCTOR_WATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "doctor/chk.h"
#include "host/counters.h"
#include "host/netdev.h"
#include "host/netstat.h"

#define WATCH_STEP 11
/* Bytes under which a TCP interface's traffic is background, not the
 * command's (a quiet host's ssh, kubelet and DNS over a short run). */
#define WATCH_FLOOR_BYTES (1024 * 1024)
#define WATCH_PORTS_MAX (INV_NDEVS_MAX * INV_PORTS_MAX)
#define WATCH_IFS_MAX 256

enum watch_expect { WATCH_EXPECT_RDMA, WATCH_EXPECT_TCP };

struct watch_port_snap {
	char subject[FINDING_SUBJECT_LEN];      /* "rxe0/1" */
	unsigned int mtu;       /* active MTU in bytes; 0: unknown */
	bool has;               /* counters read */
	struct counters_snap ctr;
};

struct watch_if_snap {
	char name[NETDEV_NAME_LEN];
	char port[FINDING_SUBJECT_LEN]; /* the RDMA port carrying it, "" none */
	bool has;
	struct netstat st;
};

struct watch_snap {
	struct watch_port_snap ports[WATCH_PORTS_MAX];
	unsigned int nports;
	struct watch_if_snap ifs[WATCH_IFS_MAX];
	unsigned int nifs;
};

/* One direction of a port: how many bytes, from which counter. */
struct watch_dir {
	uint64_t bytes, packets;
	const char *src;        /* the counter the bytes come from; NULL: none */
	bool estimated;         /* packets x MTU */
	bool reset;             /* the counter went back */
};

struct watch_port {
	char subject[FINDING_SUBJECT_LEN];
	unsigned int mtu;
	bool has;
	struct watch_dir xmit, rcv;
	uint64_t crossed;       /* the busier direction's bytes */
	char moved[FINDING_TEXT_LEN];   /* "hw_counters/sent_pkts +6464, ..." */
};

struct watch_if {
	char name[NETDEV_NAME_LEN];
	char port[FINDING_SUBJECT_LEN];
	bool reset;
	bool tcp;               /* judged a TCP interface */
	bool port_counts;       /* its port has byte counts (exact or not) */
	uint64_t tx_bytes, rx_bytes;
	uint64_t crossed;       /* the busier direction's bytes */
};

struct watch_result {
	struct watch_port ports[WATCH_PORTS_MAX];
	unsigned int nports;
	struct watch_if ifs[WATCH_IFS_MAX];
	unsigned int nifs;
	uint64_t rdma_bytes;    /* crossed, summed over the ports */
	uint64_t tcp_bytes;     /* crossed, summed over the TCP interfaces */
	bool estimated;         /* some port's bytes are packets x MTU */
	int top_port, top_if;   /* the most bytes; -1: none moved */
};

/* The command and how it ended. */
struct watch_cmd {
	char *const *argv;
	bool out_to_stderr;     /* its stdout to stderr (--json - holds stdout) */
	int status;             /* waitpid's */
	int stopped;            /* SIGINT/SIGTERM that reached ib_doctor, 0 */
	uint64_t ns;            /* how long it ran */
};

/* Every port of c->inv that -d leaves in and every netdev, now. 0 or
 * -ENOENT (no class/net: no sysfs of this netns here). */
int watch_snap_read(const struct chk_ctx *c, struct watch_snap *s);

/* after - before, into *r (counters_moved's arithmetic). */
void watch_diff(const struct watch_snap *before,
		const struct watch_snap *after, struct watch_result *r);

/* The findings: the command, each port, each interface that moved, the
 * verdict (its sentence the detail: the same on screen and in JSON). */
void watch_judge(struct chk_ctx *c, const struct watch_result *r,
		 const struct watch_cmd *cmd, enum watch_expect e);

/*
 * Run argv (fork, execvp) and wait for it: SIGINT/SIGTERM that another
 * process sends ib_doctor are passed on to it (a terminal's Ctrl-C
 * reaches it already; one still running 10 s later is killed);
 * cmd->stopped says one came. 0, or -errno when
 * it could not start (the child exits 127 when execvp fails).
 */
int watch_run(struct watch_cmd *cmd);

/* The whole of --watch: snapshots around watch_run, then watch_judge.
 * 0 or -errno (said on stderr). */
int watch_go(struct chk_ctx *c, struct watch_cmd *cmd, enum watch_expect e);

#endif
