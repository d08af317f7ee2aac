/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http - the one HTTP/1.1 request rdmabench sends: a PUT of a small body
 * (a Prometheus text document to a Pushgateway, `--push`), over a plain
 * TCP socket, with a deadline on the whole exchange. No TLS: an https://
 * URL is refused with what to do instead (a Pushgateway on plain http
 * inside the cluster, or a TLS proxy such as stunnel or a sidecar on
 * localhost). Pure: libc only.
 */
#ifndef RDMABENCH_LIB_HTTP_H
#define RDMABENCH_LIB_HTTP_H

#include <stddef.h>

#define HTTP_HOST_LEN 256
#define HTTP_PATH_LEN 1024
/* the whole exchange: resolve, connect, send, the status line */
#define HTTP_TIMEOUT_MS 5000
#define HTTP_TIMEOUT_TEXT "5 s"

struct http_url {
	char host[HTTP_HOST_LEN];   /* "pgw.monitoring", "10.0.0.1", "::1" */
	char port[8];               /* "9091"; "80" when the URL names none */
	char path[HTTP_PATH_LEN];   /* "/metrics/job/x"; "" when none */
};

/*
 * Split "http://HOST[:PORT][/PATH]" (HOST may be "[v6]"). Returns 0, or
 * -EINVAL with a sentence in why (what was wrong, what to write).
 */
int http_url_parse(const char *url, struct http_url *u, char *why,
		   size_t why_len);

/*
 * PUT body (content type ctype) to u's host, port and path + path_tail.
 * Returns 0 on a 2xx answer; otherwise -errno (-ETIMEDOUT past
 * timeout_ms, -ECONNREFUSED, -EPROTO for an answer other than 2xx) with
 * the reason in why ("HTTP 400: ...", "no answer within 5 s").
 */
int http_put(const struct http_url *u, const char *path_tail,
	     const char *ctype, const char *body, size_t len,
	     unsigned int timeout_ms, char *why, size_t why_len);

#endif
