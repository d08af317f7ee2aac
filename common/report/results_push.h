/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * results_push - the results document out of the pod: a PUT of its
 * Prometheus text (results_prom.c) to a Pushgateway (`--push URL`), and
 * the file name of node_exporter's textfile collector (`--prom-textfile
 * DIR`). Both name the run by the keys a fleet groups by: the node
 * (instance), the tool (test), the side (role), the device (the rail)
 * and the peer's host; the operator's own keys (job, a run's id) are the
 * URL's path, and a key the path names already keeps the path's value
 * (/instance/$(NODE_NAME) in a pod). See docs/metrics.md.
 */
#ifndef RDMABENCH_REPORT_RESULTS_PUSH_H
#define RDMABENCH_REPORT_RESULTS_PUSH_H

#include <stddef.h>

#include "report/results.h"

/* The job when the URL names none: http://pgw:9091 -> /metrics/job/rdmabench */
#define RESULTS_PUSH_JOB "rdmabench"

/*
 * The Pushgateway path of d's group: base (the URL's path: "",
 * "/metrics/job/J[/K/V...]" or a proxy's prefix) with
 * "/metrics/job/rdmabench" when it names no job, then
 * /instance/HOST/test/TOOL/role/ROLE/device/DEV/peer/PEER (a value with
 * other bytes than [A-Za-z0-9._-] as NAME@base64/URL-SAFE-BASE64), less
 * the keys base names itself.
 * Returns 0 or -ENAMETOOLONG.
 */
int results_push_path(const struct results_doc *d, const char *base,
		      char *out, size_t len);

/*
 * PUT d's Prometheus text to url (http://HOST[:PORT][/PATH]) within
 * HTTP_TIMEOUT_MS. Returns 0, or -errno with the reason in why.
 */
int results_push(const struct results_doc *d, const char *url, char *why,
		 size_t why_len);

/*
 * dir/rdmabench_TOOL_ROLE_DEVICE_PEER.prom: one file a link and side, so
 * rails and peers never overwrite each other and a rerun of the same link
 * replaces its own. Bytes other than [A-Za-z0-9.-] become '_'. Returns 0
 * or -ENAMETOOLONG.
 */
int results_textfile_path(const struct results_doc *d, const char *dir,
			  char *out, size_t len);

#endif
