// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/lib/http.c: the URLs --push takes and refuses (https
 * with what to do instead), and the PUT against a stand-in server on
 * loopback (a forked child, not a Pushgateway: tests/scripts/
 * test_metrics_e2e.sh pushes to the real one) that answers 200 (and
 * closes, or keeps the connection open: the answer is whole by its
 * Content-Length), answers 400 with a reason, or accepts and never
 * answers (the deadline), and a port where nothing listens.
 */
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/http.h"
#include "tests/test.h"

static const struct {
	const char *url, *host, *port, *path;
} good[] = {
	{ "http://pgw:9091", "pgw", "9091", "" },
	{ "http://pgw.monitoring.svc:9091/metrics/job/acc/run/7",
	  "pgw.monitoring.svc", "9091", "/metrics/job/acc/run/7" },
	{ "http://10.0.0.1/", "10.0.0.1", "80", "/" },
	{ "http://[fd00::1]:9091/x", "fd00::1", "9091", "/x" },
};

static const char *const bad[] = {
	"https://pgw:9091", "pgw:9091", "http://", "http://:9091",
	"http://pgw:0", "http://pgw:65536", "http://pgw:x", "http://[::1",
	"http://pgw:9091/a b", "http://pgw:9091/a?b=1", "http://pgw9091x/\n",
};

static void test_parse(void)
{
	struct http_url u;
	char why[512];
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		EXPECT_EQ_INT(http_url_parse(good[i].url, &u, why,
					     sizeof(why)), 0);
		EXPECT_STREQ(u.host, good[i].host);
		EXPECT_STREQ(u.port, good[i].port);
		EXPECT_STREQ(u.path, good[i].path);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		EXPECT_EQ_INT(http_url_parse(bad[i], &u, why, sizeof(why)),
			      -EINVAL);
		EXPECT_TRUE(why[0] != '\0');
	}
	http_url_parse("https://pgw:9091", &u, why, sizeof(why));
	EXPECT_TRUE(strstr(why, "no TLS") && strstr(why, "stunnel"));
}

/* A listener on a free loopback port; its number in *port. */
static int listener(char *port, size_t len)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t al = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(fd, 4) || getsockname(fd, (struct sockaddr *)&a, &al))
		return -1;
	snprintf(port, len, "%u", ntohs(a.sin_port));
	return fd;
}

/* The stand-in: one request read, then answer (NULL: never answer). */
static pid_t serve(int lfd, const char *answer)
{
	char req[4096] = "";
	size_t used = 0;
	ssize_t n;
	pid_t pid = fork();
	int fd;

	if (pid)
		return pid;
	fd = accept(lfd, NULL, NULL);
	while (fd >= 0 && used < sizeof(req) - 1 &&
	       (n = read(fd, req + used, sizeof(req) - 1 - used)) > 0) {
		used += (size_t)n;
		req[used] = '\0';
		if (strstr(req, "\r\n\r\nbody"))
			break;
	}
	if (!answer)
		pause();
	/* the request as sent: method, path, length, body */
	if (!strstr(req, "PUT /metrics/job/t/instance/h HTTP/1.1\r\n") ||
	    !strstr(req, "Content-Length: 4\r\n"))
		answer = "HTTP/1.1 418 wrong request\r\n\r\nwrong request";
	/* an answer whole by its Content-Length: the connection stays open */
	if (!strncmp(answer, "keep:", 5)) {
		answer += 5;
		if (write(fd, answer, strlen(answer)) < 0)
			_exit(1);
		pause();
	}
	if (write(fd, answer, strlen(answer)) < 0)
		_exit(1);
	_exit(0);
}

static int put(const char *port, unsigned int ms, char *why, size_t len)
{
	struct http_url u;

	http_url_parse("http://127.0.0.1/metrics/job/t", &u, why, len);
	snprintf(u.port, sizeof(u.port), "%s", port);
	return http_put(&u, "/instance/h", "text/plain", "body", 4, ms, why,
			len);
}

static void test_put(void)
{
	char port[8], why[512];
	int lfd = listener(port, sizeof(port)), ret;
	struct timespec t0, t1;
	pid_t pid;

	EXPECT_TRUE(lfd >= 0);
	pid = serve(lfd, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
	EXPECT_EQ_INT(put(port, 2000, why, sizeof(why)), 0);
	waitpid(pid, NULL, 0);
	pid = serve(lfd, "keep:HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
	EXPECT_EQ_INT(put(port, 2000, why, sizeof(why)), 0);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	pid = serve(lfd, "HTTP/1.1 400 Bad Request\r\n\r\npushed metrics "
		    "are invalid\nmore");
	EXPECT_EQ_INT(put(port, 2000, why, sizeof(why)), -EPROTO);
	EXPECT_STREQ(why, "HTTP 400: pushed metrics are invalid");
	waitpid(pid, NULL, 0);
	pid = serve(lfd, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = put(port, 300, why, sizeof(why));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	EXPECT_EQ_INT(ret, -ETIMEDOUT);
	EXPECT_TRUE(strstr(why, "within 300 ms") != NULL);
	EXPECT_TRUE(t1.tv_sec - t0.tv_sec < 2);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(lfd);
	/* the port just closed: nothing listens there */
	EXPECT_EQ_INT(put(port, 2000, why, sizeof(why)), -ECONNREFUSED);
	EXPECT_TRUE(strstr(why, "cannot connect") != NULL);
}

int main(void)
{
	test_parse();
	test_put();
	return test_finish("test_http");
}
