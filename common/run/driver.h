/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * driver - the state of one run (struct bench_ctx), shared by the files
 * of run/, and record.c's entry points. Functions live below driver.c:
 * session.c (the rendezvous), setup.c, measure.c, place_glue.c, record.c.
 */
#ifndef RDMABENCH_DRIVER_H
#define RDMABENCH_DRIVER_H

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
	double last_gbps;           /* record_bw's last figure, this side's */
	/* client, before the first size: NULL, or --rails' start barrier */
	void (*start_wait)(void *arg);
	void *start_arg;
	struct results_doc *keep_doc; /* NULL, or record_end() copies it */
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

/*
 * record.c: the run's results document (JSON, JUnit, Prometheus) and its
 * gates. record_begin() before anything connects; record_dev_collect() once the
 * data connections are up (device, placement, expected line rate);
 * bench_record_*() per size; record_end() always, with the run's error (0
 * or -errno): it writes the files asked for (a run that failed midway
 * still leaves valid JSON, verdict "error") and returns the exit code.
 */
struct record;
int record_begin(struct bench_ctx *b);
void record_dev_collect(struct bench_ctx *b);
int record_end(struct bench_ctx *b, int err, int exit_code);

/* d into every results file c asks for (--json, --junit, --prom). */
int record_save(const struct bench_cfg *c, const struct results_doc *d);

/*
 * The options were refused (exit 2) before the run began: still the
 * documents asked for (verdict "error", the reason), so that "--json - |
 * jq" reads JSON; b->argc/argv set. Nothing when no file was asked for.
 */
void record_refused(struct bench_ctx *b, const char *why);

/*
 * A size's figures for the results document and the gates (record.c).
 * peak (this side's, NULL: not measured) and peer may be NULL. Returns 0
 * or -errno.
 */
int record_bw(struct bench_ctx *b, uint64_t size, const struct stats_bw *bw,
	      const struct stats_bw *peak, const struct stats_bw *peer);
int record_lat(struct bench_ctx *b, uint64_t size, uint64_t iters,
		     const struct stats_lat *lat, const struct stats_lat *peer);

#endif
