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
#include "spec/opts.h"
#include "spec/test.h"
#include "host/cpuload.h"
#include "host/place.h"
#include "lib/log.h"
#include "lib/samples.h"
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

struct hist;
struct record;
struct portctr;

/*
 * Each member is used by more than one room of run/ (the driver, the
 * session and its backends, setup, measure, progress, perftest_out,
 * place_glue, record, the rails); the notes say who fills it.
 */
struct bench_ctx {
	/* the command line: bench_main() */
	const struct bench_desc *desc;
	struct bench_cfg cfg;
	int argc;
	char **argv;
	FILE *out;                  /* the report: stdout; a rail's buffer */
	const struct bench_hooks *hooks; /* NULL, or --rails' (rails_run.c) */
	bool is_server;
	struct test test;           /* what runs: the client's configuration */
	bool warming;               /* --perform_warm_up's pass: no row */

	/* the connection: the session's backend, then setup.c */
	const char *rendezvous;     /* the header's: "rdma_cm", "TCP", ... */
	char ctrl_note[160];        /* header: the control path and why */
	char dev_note[160];         /* header: why this data device */
	char local[80];             /* this side's address (data path) */
	char peer[80];              /* the peer's, or the server asked for */
	uint8_t port;               /* the device port in use */
	int gid_index;              /* --oob tcp: the GID used, -1: none */
	struct ctrl ctrl;           /* the control channel */
	struct conn data;           /* the data QPs and buffers */
	struct dev_info dev;        /* the data device's facts */
	struct xfer xfer;           /* the hot loops' state */
	struct hist *hist;          /* latency samples, constant memory */
	struct samples raw;         /* -U: the first samples, in order */
	struct cpuload cpu_at;      /* --cpu_util: /proc/stat at the start */
	double cpu_pct;             /* ... and the size's CPU use, percent */
	struct portctr *wctr; /* -W: run/portctr.h; NULL without */
	double cycle_mhz; /* -C (run/cycles.h): a fixed rate, or 0 */
	char cycle_note[160]; /* ... the header's: how it was had */

	/* placement (place_glue.c) and the results document (record.c) */
	struct place_allowed allowed; /* what taskset and cgroups allow */
	struct place_plan place;    /* where this side runs and allocates */
	struct record *rec;         /* results document and gates */
	/* the sentence the run's error was logged with (lib/log.h): whoever
	 * logs an error of this run keeps it here (bench_err_why); record.c
	 * makes it the documents' "error" */
	struct log_why why;
};

#endif
