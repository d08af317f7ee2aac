// SPDX-License-Identifier: BSD-2-Clause
/*
 * http - one HTTP/1.1 PUT over a plain TCP socket, under a deadline. See
 * http.h. The socket is non-blocking and every wait is a poll(2) on what
 * is left of the deadline, so a peer that accepts and never answers
 * costs timeout_ms, never more.
 */
#define _GNU_SOURCE /* strcasestr */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "lib/http.h"
#include "lib/resolve.h"

#define HTTP_ANSWER_LEN 2048

static int64_t http_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Printable ASCII without space, '?' and '#' (a query means nothing here) */
static bool http_path_ok(const char *p)
{
	for (; *p; p++)
		if (*p <= ' ' || *p >= 0x7f || *p == '?' || *p == '#')
			return false;
	return true;
}

/* "HOST" or "[V6]", then ":PORT" or nothing; rest points at the path */
static int http_split_host(const char *s, struct http_url *u,
			   const char **rest)
{
	const char *end;
	size_t n;

	if (*s == '[') {
		end = strchr(++s, ']');
		if (!end)
			return -EINVAL;
		n = (size_t)(end++ - s);
	} else {
		n = strcspn(s, ":/");
		end = s + n;
	}
	if (!n || n >= sizeof(u->host))
		return -EINVAL;
	memcpy(u->host, s, n);
	u->host[n] = '\0';
	n = *end == ':' ? strspn(end + 1, "0123456789") : 0;
	if (*end == ':' && (!n || n > 5 || atoi(end + 1) < 1 ||
			    atoi(end + 1) > 65535))
		return -EINVAL;
	snprintf(u->port, sizeof(u->port), "%.*s", n ? (int)n : 2,
		 n ? end + 1 : "80");
	*rest = end + (n ? n + 1 : 0);
	return **rest && **rest != '/' ? -EINVAL : 0;
}

int http_url_parse(const char *url, struct http_url *u, char *why,
		   size_t why_len)
{
	const char *rest;

	memset(u, 0, sizeof(*u));
	if (!strncmp(url, "https://", 8)) {
		snprintf(why, why_len, "%s: https is not supported (no TLS "
			 "here): push to the Pushgateway's plain http port "
			 "inside the cluster, or through a TLS proxy on "
			 "localhost (stunnel, a sidecar): http://127.0.0.1:"
			 "PORT", url);
		return -EINVAL;
	}
	if (strncmp(url, "http://", 7) ||
	    http_split_host(url + 7, u, &rest) || !http_path_ok(rest) ||
	    strlen(rest) >= sizeof(u->path)) {
		snprintf(why, why_len, "%s: not a URL this can push to: write "
			 "http://HOST[:PORT][/PATH] (e.g. http://pushgateway:"
			 "9091), printable, no spaces, no ?query", url);
		return -EINVAL;
	}
	snprintf(u->path, sizeof(u->path), "%s", rest);
	return 0;
}

/* Wait for ev on fd until deadline: 0, or -ETIMEDOUT / -errno. */
static int http_wait(int fd, short ev, int64_t deadline)
{
	struct pollfd p = { .fd = fd, .events = ev };
	int64_t left;
	int n;

	for (;;) {
		left = deadline - http_now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		n = poll(&p, 1, (int)left);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

/* A connected non-blocking socket to one address, or -errno. */
static int http_connect_one(const struct addrinfo *ai, int64_t deadline)
{
	int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK |
			SOCK_CLOEXEC, ai->ai_protocol);
	int err = 0, ret;
	socklen_t len = sizeof(err);

	if (fd < 0)
		return -errno;
	if (!connect(fd, ai->ai_addr, ai->ai_addrlen))
		return fd;
	ret = errno == EINPROGRESS ? http_wait(fd, POLLOUT, deadline) : -errno;
	if (!ret && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len))
		ret = -errno;
	if (!ret && err)
		ret = -err;
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

static int http_connect(const struct http_url *u, int64_t deadline,
			char *why, size_t why_len)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	int eai = resolve_addr(u->host, u->port, &hints, &res);
	int fd = -ENOENT;

	if (eai) {
		snprintf(why, why_len, "cannot resolve %s: %s", u->host,
			 gai_strerror(eai));
		return -EHOSTUNREACH;
	}
	for (ai = res; ai && fd < 0 && fd != -ETIMEDOUT; ai = ai->ai_next)
		fd = http_connect_one(ai, deadline);
	freeaddrinfo(res);
	if (fd < 0)
		snprintf(why, why_len, "cannot connect to %s port %s: %s",
			 u->host, u->port, strerror(-fd));
	return fd;
}

static int http_send_all(int fd, const char *p, size_t len, int64_t deadline)
{
	ssize_t n;
	int ret;

	while (len) {
		n = send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		if (n < 0) {
			ret = http_wait(fd, POLLOUT, deadline);
			if (ret)
				return ret;
			continue;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Is the answer whole: its head, and as many body bytes as its
 * Content-Length says? (A server or proxy that keeps the connection open
 * despite "Connection: close" is then not waited for.)
 */
static bool http_answer_done(const char *buf, size_t used)
{
	const char *end = strstr(buf, "\r\n\r\n"), *cl;
	unsigned long want;

	if (!end)
		return false;
	cl = strcasestr(buf, "\r\ncontent-length:");
	if (!cl || cl > end)
		return false;
	want = strtoul(cl + strlen("\r\ncontent-length:"), NULL, 10);
	return used >= (size_t)(end + 4 - buf) + want;
}

/* What the server answered, until it is whole, closed, or buf is full. */
static int http_read_answer(int fd, char *buf, size_t len, int64_t deadline)
{
	size_t used = 0;
	ssize_t n;
	int ret;

	buf[0] = '\0';
	while (used + 1 < len && !http_answer_done(buf, used)) {
		n = recv(fd, buf + used, len - 1 - used, 0);
		if (n == 0)
			break;
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		if (n < 0) {
			ret = http_wait(fd, POLLIN, deadline);
			if (ret)
				return ret;
			continue;
		}
		used += (size_t)n;
		buf[used] = '\0';
	}
	return 0;
}

/* "HTTP/1.1 400 Bad Request\r\n...\r\n\r\nBODY": 0 for 2xx, why for others */
static int http_judge(const char *a, char *why, size_t why_len)
{
	const char *body = strstr(a, "\r\n\r\n");
	int code = 0;
	size_t n;

	if (sscanf(a, "HTTP/1.%*d %d", &code) != 1) {
		snprintf(why, why_len, "no HTTP answer (the port is not a "
			 "Pushgateway's?)");
		return -EPROTO;
	}
	if (code >= 200 && code < 300)
		return 0;
	body = body ? body + 4 : "";
	n = strcspn(body, "\r\n");
	n = n > 200 ? 200 : n;
	snprintf(why, why_len, "HTTP %d%s%.*s", code, n ? ": " : "", (int)n,
		 body);
	for (n = 0; why[n]; n++)
		if (why[n] < ' ' || why[n] >= 0x7f)
			why[n] = '?';
	return -EPROTO;
}

int http_put(const struct http_url *u, const char *path_tail,
	     const char *ctype, const char *body, size_t len,
	     unsigned int timeout_ms, char *why, size_t why_len)
{
	int64_t deadline = http_now_ms() + timeout_ms;
	char head[HTTP_PATH_LEN * 2 + HTTP_HOST_LEN + 256];
	char answer[HTTP_ANSWER_LEN];
	int fd, ret;

	snprintf(head, sizeof(head), "PUT %s%s HTTP/1.1\r\nHost: %s%s%s:%s\r\n"
		 "User-Agent: rdmabench\r\nContent-Type: %s\r\nContent-Length:"
		 " %zu\r\nConnection: close\r\n\r\n", u->path[0] ? u->path : "",
		 path_tail, strchr(u->host, ':') ? "[" : "", u->host,
		 strchr(u->host, ':') ? "]" : "", u->port, ctype, len);
	fd = http_connect(u, deadline, why, why_len);
	if (fd < 0)
		return fd;
	ret = http_send_all(fd, head, strlen(head), deadline);
	if (!ret)
		ret = http_send_all(fd, body, len, deadline);
	if (!ret)
		ret = http_read_answer(fd, answer, sizeof(answer), deadline);
	close(fd);
	if (ret == -ETIMEDOUT)
		snprintf(why, why_len, "no answer from %s port %s within %u ms",
			 u->host, u->port, timeout_ms);
	else if (ret)
		snprintf(why, why_len, "%s port %s: %s", u->host, u->port,
			 strerror(-ret));
	return ret ? ret : http_judge(answer, why, why_len);
}
