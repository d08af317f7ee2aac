/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opts - the command line, driven by one table (parsing, defaults, ranges
 * and --help all come from it). Pure: no verbs headers, never exits.
 *
 * Options are the client's: the server takes only where to listen
 * (-p, -d, -i) and adopts the rest from the client's HELLO message.
 */
#ifndef RDMABENCH_OPTS_H
#define RDMABENCH_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"

#define OPTS_ADDR_MAX 256
#define OPTS_NAME_MAX 64
#define OPTS_PATH_MAX 4096

/* Sizes of an -a sweep: 2 B .. 8 MiB, powers of two (perftest's range). */
#define OPTS_SWEEP_MIN_BYTES 2ULL
#define OPTS_SWEEP_MAX_BYTES (8ULL << 20)

struct bench_cfg {
	char server_addr[OPTS_ADDR_MAX]; /* empty: we are the server */
	char dev_name[OPTS_NAME_MAX];    /* -d; empty: whichever the IP uses */
	uint64_t ib_port;                /* -i */
	uint64_t gid_index;              /* -x; accepted, see has_gid_index */
	bool has_gid_index;
	uint64_t tcp_port;               /* -p: the rdma_cm port */
	uint64_t size_bytes;             /* -s */
	bool all_sizes;                  /* -a */
	uint64_t iters;                  /* -n */
	uint64_t tx_depth;               /* -t */
	uint64_t cq_mod;                 /* -Q: signal one send in cq_mod */
	uint64_t connect_timeout_s;      /* --connect-timeout */
	uint64_t io_timeout_s;           /* --timeout: no progress for this long */
	bool report_gbits;               /* --report_gbits */
	bool use_rdma_cm;                /* -R: accepted, always on */
	bool cpu_freq_f;                 /* -F: accepted, nothing to warn about */
	bool show_help;                  /* -h */
	bool show_version;               /* --version */
};

/*
 * Parse argv into *cfg, defaults first (from the table and desc). Returns 0,
 * or -EINVAL/-ERANGE with a message naming the option and what to do in
 * err. Can be called repeatedly (tests do).
 */
int opts_parse(struct bench_cfg *cfg, const struct bench_desc *desc,
	       int argc, char **argv, char *err, size_t err_len);

/* Write --help for desc to out. */
void opts_usage(const struct bench_desc *desc, FILE *out);

/* True when cfg describes the server side (no address given). */
static inline bool opts_is_server(const struct bench_cfg *cfg)
{
	return cfg->server_addr[0] == '\0';
}

#endif
