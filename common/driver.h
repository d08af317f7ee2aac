/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * driver - private to driver.c and run.c: the state of one run.
 */
#ifndef RDMABENCH_DRIVER_H
#define RDMABENCH_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#include "bench.h"
#include "conn.h"
#include "ctrl.h"
#include "device.h"
#include "opts.h"
#include "wire.h"
#include "xfer.h"

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
	uint64_t *lat_samples_ns;   /* test.iters entries, latency tests */
	char local[80];
	char peer[80];
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

#endif
