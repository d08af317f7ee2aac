/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * driver - private to driver.c and run.c: the state of one run.
 */
#ifndef RDMABENCH_DRIVER_H
#define RDMABENCH_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#include "spec/bench.h"
#include "rdma/conn.h"
#include "rdma/ctrl.h"
#include "rdma/device.h"
#include "spec/opts.h"
#include "spec/wire.h"
#include "host/place.h"
#include "lib/stats.h"
#include "xfer/xfer.h"

struct bench_ctx {
	const struct bench_desc *desc;
	struct bench_cfg cfg;
	struct wire_hello test;     /* what runs: the client's configuration */
	bool is_server;
	struct cm_ep listener;      /* server only */
	struct ctrl ctrl;
	struct conn data;
	struct dev_info dev;
	struct xfer xfer;
	struct hist *hist;          /* latency samples, constant memory */
	char local[80];
	char peer[80];
	int exit_code;              /* a verdict beyond the error (gates) */
	struct place_req place_req; /* --numa, --cpu */
	struct place_allowed allowed;
	struct place_plan place;    /* where this side runs and allocates */
	struct record *rec;         /* results document and gates (record.c) */
	uint8_t port;               /* the device port in use */
	int gid_index;              /* --oob tcp: the GID used, -1: none */
	int argc;
	char **argv;
};

/* What differs between bandwidth and latency runs. */
struct measure_ops {
	/* send queue slots the data QP needs */
	uint32_t (*send_depth)(const struct wire_hello *test);
	void (*head)(const struct bench_ctx *b);
	int (*client_size)(struct bench_ctx *b, uint64_t size);
	int (*server_size)(struct bench_ctx *b, const struct wire_sync *sync);
};

/* The ops of a measure (run.c). */
const struct measure_ops *run_measure_ops(enum bench_measure measure);

/* Shared by the sessions (driver.c). */
int bench_check_device(const struct bench_ctx *b, struct rdma_cm_id *id);
void bench_sizes(const struct wire_hello *t, uint64_t *first, uint64_t *last);
void bench_build_test(struct bench_ctx *b);
int bench_check_test(const struct bench_ctx *b, char *why, size_t len);
int bench_data_init(struct bench_ctx *b);
int bench_data_qp(struct bench_ctx *b, unsigned int i);

/* The inline size to ask the data QPs for (-I, or the device default). */
uint32_t bench_inline_bytes(const struct bench_ctx *b);
int bench_xchg_bufs(struct bench_ctx *b);
void bench_print_header(struct bench_ctx *b);
/* Free one client's resources (connections, buffers); ready for another. */
void bench_release(struct bench_ctx *b);

/* Placement and GPU checks before anything connects (place_glue.c). */
int bench_preflight(struct bench_ctx *b);
/* Once the device is known: decide, log and apply the NUMA placement. */
int bench_place(struct bench_ctx *b);

/*
 * record.c: the run's results document (JSON, JUnit, Prometheus) and its
 * gates. record_begin() before anything connects; record_device() once the
 * data connections are up (device, placement, expected line rate);
 * bench_record_*() per size; record_end() always, with the run's error (0
 * or -errno): it writes the files asked for (a run that failed midway
 * still leaves valid JSON, verdict "error") and returns the exit code.
 */
struct record;
int record_begin(struct bench_ctx *b);
void record_device(struct bench_ctx *b);
int record_end(struct bench_ctx *b, int err, int exit_code);

/*
 * A size's figures for the results document and the gates (record.c).
 * peer may be NULL. Returns 0 or -errno.
 */
int bench_record_bw(struct bench_ctx *b, uint64_t size,
		    const struct stats_bw *bw, const struct stats_bw *peer);
int bench_record_lat(struct bench_ctx *b, uint64_t size, uint64_t iters,
		     const struct stats_lat *lat, const struct stats_lat *peer);

#endif
