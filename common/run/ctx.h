/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ctx - the state of one run (struct bench_ctx): what the rooms of run/
 * share, from the driver that fills it to the record that reports it.
 * Only what more than one room uses lives here; a backend's or a role's
 * own state lives in its own struct, behind its ops.
 */
#ifndef RDMABENCH_RUN_CTX_H
#define RDMABENCH_RUN_CTX_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "spec/bench.h"
#include "rdma/conn.h"
#include "rdma/ctrl.h"
#include "rdma/dev.h"
#include "rdma/route.h"
#include "spec/opts.h"
#include "spec/test.h"
#include "spec/wire.h"
#include "host/place.h"
#include "lib/stats.h"
#include "xfer/xfer.h"

struct results_doc;
struct bench_ctx;

/*
 * What whoever runs the one-link flow hears of it (--rails: each rail),
 * through bench_ctx.hooks; NULL there: nobody. Each op is handed the run
 * it comes from (a rail recovers its own struct with container_of).
 */
struct bench_hooks {
	/* client, connected: before the first size */
	void (*start)(struct bench_ctx *b);
	/* a bandwidth size's figure, this side's (record_bw) */
	void (*bw)(struct bench_ctx *b, double gbps);
	/* the run's results document, final (record_end) */
	void (*end)(struct bench_ctx *b, const struct results_doc *doc);
};

struct session_ops;
struct keyfile;
struct busy;

struct bench_ctx {
	const struct bench_desc *desc;
	struct bench_cfg cfg;
	FILE *out;                  /* the report: stdout; a rail's buffer */
	struct test test;           /* what runs: the client's configuration */
	bool is_server;
	struct cm_ep listener;      /* server, rdma_cm: the listening id */
	int listen_fd;              /* server, --oob tcp: the socket */
	const char *rendezvous;     /* "rdma_cm", "TCP (--oob tcp)" */
	const struct session_ops *via; /* --oob auto: the backend chosen */
	char srv_addr[OPTS_ADDR_MAX]; /* client: where rdma_cm connects */
	uint16_t srv_port;          /* and its port (-p, or the server's) */
	uint16_t cm_port;           /* server, --oob auto: rdma_cm's port */
	struct route route;         /* client, --oob auto: to the server */
	enum wire_data_kind data_kind; /* client, --oob auto: its device's */
	char data_dev[64];          /* and the device's name */
	char ctrl_note[160];        /* header: the control path and why */
	char dev_note[160];         /* header: why this data device */
	struct ctrl ctrl;
	struct conn data;
	struct dev_info dev;
	struct xfer xfer;
	struct hist *hist;          /* latency samples, constant memory */
	char local[80];
	char peer[80];
	const struct bench_hooks *hooks; /* NULL, or --rails' (rails_run.c) */
	struct place_allowed allowed;
	struct place_plan place;    /* where this side runs and allocates */
	struct record *rec;         /* results document and gates (record.c) */
	uint8_t port;               /* the device port in use */
	int gid_index;              /* --oob tcp: the GID used, -1: none */
	uint64_t token;             /* rdma_cm: the session's (HELLO_ACK) */
	bool authed;                /* the peer proved --auth-key-file's key */
	struct keyfile *key;        /* --auth-key-file; NULL: none */
	struct busy *busy;          /* server: answers other clients (busy.c) */
	uint64_t session_end_ns;    /* server: the session's hard end */
	char hard_text[96];         /* server: ctrl.hard_what's text */
	int argc;
	char **argv;
};

#endif
