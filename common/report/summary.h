/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * summary - the verdict summary of a run (--summary FILE): one line of
 * JSON, small enough for a Kubernetes termination message (the kubelet
 * keeps 4096 bytes), made from the results document's JSON. The
 * container entrypoint writes it as the pod's termination message and
 * scripts/k8s/collect.py reads it back:
 *
 *   {"rdmabench_summary":1,"verdict":"fail","exit_code":3,
 *    "tool":"ib_write_bw","server":"srv","host":"pod-1",
 *    "device":"mlx5_0","peer_addr":"198.18.0.2:18515","memory":"host",
 *    "measure":"bw","rows":[{"size":65536,"gbps":192.05,
 *    "server_gbps":191.32}],"failed_gates":["size 65536: ..."],
 *    "truncated":false,"error":"...","errno_name":null}
 *
 * rows: each size's client figure (bandwidth: gbps and server_gbps;
 * latency: p50_us and p99_us), 2 decimals; failed_gates: each failed
 * gate's reason. Past SUMMARY_MAX_BYTES whole items are dropped, in this
 * order, and truncated says so: failed gates but the first, the smallest
 * sizes, the error. "rdmabench_summary":1 comes first: readers (and the
 * entrypoint, which adds the pod's own keys after it) find it there.
 * Pure: text in, text out.
 */
#ifndef RDMABENCH_REPORT_SUMMARY_H
#define RDMABENCH_REPORT_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include "report/results.h"

/* The summary's bound; the entrypoint adds at most ~600 bytes (pod,
 * node, a ring's keys) and Kubernetes keeps 4096. */
#define SUMMARY_MAX_BYTES 3300

/*
 * The summary of the results document json[0..len) into out, one line
 * ending in a newline. server: the server as the client named it (NULL:
 * none, a server's own document). Returns 0; -EINVAL when json is no
 * results document (no "verdict"), -ENOMEM, or -EIO from out.
 */
int summary_write(const char *json, size_t len, const char *server,
		  FILE *out);

/* A results renderer (results_save()'s kind): d's summary, its server
 * the one d->server names. */
int results_summary_write(const struct results_doc *d, FILE *out);

#endif
