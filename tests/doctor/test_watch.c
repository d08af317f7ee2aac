// SPDX-License-Identifier: BSD-2-Clause
/*
 * ib_doctor --watch (doctor/watch*.c) through its command line, over a
 * scratch copy of tests/fixtures/doctor/healthy (mlx5_0 port 1, its
 * netdev ens1np0, eth0): a STAND-IN for a host's sysfs. Counters are
 * planted before the run and the watched command (sh SCRIPT) writes their
 * after values, so the snapshots, the arithmetic (4-byte words, 64- and
 * 32-bit wraps, a reset, packets x MTU where only hw_counters count, a
 * port without counters) and the verdict with its exit code are the
 * real code's. The real proof, on rxe's own counters, is the lab's
 * tests/lab/cases/watch.sh.
 */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doctor/doctor.h"
#include "tests/test.h"
#include "tests/tree.h"

#define PORT "sys/class/infiniband/mlx5_0/ports/1/"
#define ETH0 "sys/class/net/eth0/statistics/"
#define ENS1 "sys/class/net/ens1np0/statistics/"

/* A counter file, its value before the run and after it (NULL: the
 * command leaves it). */
struct ctr {
	const char *rel, *before, *after;
};

/* The netdevs' other counters, still: every interface reads whole. */
static const struct ctr quiet[] = {
	{ ETH0 "rx_bytes", "0", NULL },	   { ETH0 "tx_bytes", "0", NULL },
	{ ETH0 "rx_packets", "0", NULL },  { ETH0 "tx_packets", "0", NULL },
	{ ENS1 "rx_bytes", "0", NULL },	   { ENS1 "tx_bytes", "0", NULL },
	{ ENS1 "rx_packets", "0", NULL },  { ENS1 "tx_packets", "0", NULL },
};

struct run {
	char root[256];
	char *out;      /* the table */
	size_t len;
	int code;
};

/* The scratch tree: the fixture copied, the counters planted, the
 * command's script written. */
static void run_tree(struct run *r, const struct ctr *c, size_t n,
		     const char *tail)
{
	const char *src = getenv("TEST_SRCDIR");
	char cmd[PATH_MAX * 3], line[PATH_MAX + 512], *script = NULL;
	size_t i, slen = 0;
	FILE *s = open_memstream(&script, &slen);

	snprintf(r->root, sizeof(r->root), "/tmp/test_watch.XXXXXX");
	EXPECT_TRUE(mkdtemp(r->root) != NULL);
	/* without the port's counters/ (the healthy root's zeroed error
	 * counters, for link_errors): each test plants the ones it reads */
	snprintf(cmd, sizeof(cmd), "cp -a '%s/tests/fixtures/doctor/healthy/.' "
		 "'%s/' && rm -rf '%s/" PORT "counters'",
		 src && src[0] ? src : ".", r->root, r->root);
	EXPECT_EQ_INT(system(cmd), 0);
	for (i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++)
		tree_put(r->root, quiet[i].rel, quiet[i].before);
	for (i = 0; i < n; i++) {
		tree_put(r->root, c[i].rel, c[i].before);
		if (!c[i].after)
			continue;
		snprintf(line, sizeof(line), "printf %s > '%s/%s'\n",
			 c[i].after, r->root, c[i].rel);
		fputs(line, s);
	}
	fputs(tail ? tail : "", s);
	fclose(s);
	tree_put(r->root, "after.sh", script);
	free(script);
}

/* ib_doctor --root TREE [extra] --watch -- sh TREE/after.sh */
static void run_watch(struct run *r, const char *extra1, const char *extra2)
{
	char script[300];
	char *argv[12] = { (char *)"ib_doctor", (char *)"--root", r->root };
	int argc = 3;
	FILE *out = open_memstream(&r->out, &r->len);

	snprintf(script, sizeof(script), "%s/after.sh", r->root);
	if (extra1)
		argv[argc++] = (char *)extra1;
	if (extra2)
		argv[argc++] = (char *)extra2;
	argv[argc++] = (char *)"--watch";
	argv[argc++] = (char *)"--";
	argv[argc++] = (char *)"sh";
	argv[argc++] = script;
	r->code = doctor_cli(argc, argv, NULL, NULL, out);
	fclose(out);
}

static void run_free(struct run *r)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", r->root);
	EXPECT_EQ_INT(system(cmd), 0);
	free(r->out);
}

/* The table holds text (a line of it, or a part). */
#define EXPECT_HAS(r, text)                                                  \
	do {                                                                 \
		TEST_CHECK_(strstr((r)->out, (text)) != NULL,               \
			    "EXPECT_HAS(" #text ")", "not in:\n%s", (r)->out); \
	} while (0)

/* 10 MiB written through mlx5_0/1: its PMA counters count 4-byte words. */
static void test_rdma(void)
{
	static const struct ctr c[] = {
		{ PORT "counters/port_xmit_data", "1000", "2622440" },
		{ PORT "counters/port_rcv_data", "7", "7" },
		{ PORT "counters/port_xmit_packets", "10", "2570" },
		{ PORT "counters/port_rcv_packets", "0", "40" },
		{ ETH0 "tx_bytes", "100", "5100" },
	};
	struct run r;

	run_tree(&r, c, sizeof(c) / sizeof(c[0]), NULL);
	run_watch(&r, NULL, NULL);
	EXPECT_EQ_INT(r.code, 0);
	EXPECT_HAS(&r, "watch_port    mlx5_0/1        sent 10485760 bytes "
		   "(counters/port_xmit_data, 2560 packets), received 0 bytes "
		   "(counters/port_rcv_data, 40 packets); moved: "
		   "counters/port_rcv_packets +40, counters/port_xmit_data "
		   "+2621440, counters/port_xmit_packets +2560");
	EXPECT_HAS(&r, "watch_if      eth0            sent 5000 bytes, "
		   "received 0 bytes; a TCP interface");
	EXPECT_HAS(&r, "PASS   11   watch         bytes           the bytes "
		   "took RDMA: 10485760 bytes crossed the RDMA ports (mlx5_0/1 "
		   "10485760), the TCP interfaces 5000 (eth0 the most)");
	run_free(&r);
	/* the same run, said to be a TCP baseline */
	run_tree(&r, c, sizeof(c) / sizeof(c[0]), NULL);
	run_watch(&r, "--expect", "tcp");
	EXPECT_EQ_INT(r.code, 7);
	EXPECT_HAS(&r, "FAIL   11   watch         bytes           the "
		   "command's bytes took RDMA, not TCP: 10485760 bytes crossed "
		   "mlx5_0/1 (the RDMA ports 10485760 in all), the TCP "
		   "interfaces 5000");
	run_free(&r);
}

/* 8 MiB over eth0 while the port stood still: the fall back fails,
 * naming eth0; ens1np0 (the port's own netdev) counts as TCP too. */
static void test_tcp(void)
{
	static const struct ctr c[] = {
		{ PORT "counters/port_xmit_data", "5", "5" },
		{ PORT "counters/port_rcv_data", "5", "5" },
		{ ETH0 "tx_bytes", "0", "8388608" },
		{ ETH0 "rx_bytes", "0", "70000" },
		{ ENS1 "tx_bytes", "0", "3000" },
	};
	struct run r;

	run_tree(&r, c, sizeof(c) / sizeof(c[0]), NULL);
	run_watch(&r, NULL, NULL);
	EXPECT_EQ_INT(r.code, 7);
	EXPECT_HAS(&r, "sent 3000 bytes, received 0 bytes; mlx5_0/1's netdev, "
		   "counted as TCP: its port moved no RDMA bytes");
	EXPECT_HAS(&r, "FAIL   11   watch         bytes           the "
		   "command's bytes took TCP, not RDMA: 8388608 bytes crossed "
		   "eth0 (TCP interfaces 8391608 in all), the RDMA ports 0\n");
	EXPECT_HAS(&r, "fix: make it use RDMA");
	run_free(&r);
}

/* Wraps: eth0's tx past 2^64 - 1, its rx a 32-bit counter past 2^32 - 1;
 * ens1np0 reset (went back); no counters/: rxe's hw_counters, packets x
 * the active MTU (4096 in the tree's probe file), said estimated. */
static void test_wrap_estimate(void)
{
	static const struct ctr c[] = {
		{ PORT "hw_counters/sent_pkts", "100", "356" },
		{ PORT "hw_counters/rcvd_pkts", "100", "612" },
		{ PORT "hw_counters/rdma_sends", "0", "3" },
		{ ETH0 "tx_bytes", "18446744073709551000", "1000" },
		{ ETH0 "rx_bytes", "4294967000", "200" },
		{ ENS1 "rx_bytes", "900000000000", "12" },
	};
	struct run r;

	run_tree(&r, c, sizeof(c) / sizeof(c[0]), NULL);
	run_watch(&r, NULL, NULL);
	EXPECT_EQ_INT(r.code, 6); /* ens1np0's reset warns */
	EXPECT_HAS(&r, "mlx5_0/1        sent 1048576 bytes (estimated: 256 "
		   "packets x MTU 4096), received 2097152 bytes (estimated: 512 "
		   "packets x MTU 4096); moved: hw_counters/rcvd_pkts +512, "
		   "hw_counters/rdma_sends +3, hw_counters/sent_pkts +256");
	EXPECT_HAS(&r, "eth0            sent 1616 bytes, received 496 bytes");
	EXPECT_HAS(&r, "WARN   11   watch_if      ens1np0         its counters "
		   "went back");
	EXPECT_HAS(&r, "the bytes took RDMA: 2097152 bytes crossed the RDMA "
		   "ports (mlx5_0/1 2097152, estimated), the TCP interfaces "
		   "1616 (eth0 the most)");
	run_free(&r);
}

/* A port without any counters (siw; a pod without the device's sysfs). */
static void test_no_counters(void)
{
	static const struct ctr c[] = { { ETH0 "tx_bytes", "0", "2000000" } };
	struct run r;

	run_tree(&r, c, sizeof(c) / sizeof(c[0]), NULL);
	run_watch(&r, NULL, NULL);
	EXPECT_EQ_INT(r.code, 7);
	EXPECT_HAS(&r, "SKIP   11   watch_port    mlx5_0/1        no counters/ "
		   "or hw_counters/ readable");
	EXPECT_HAS(&r, "2000000 bytes crossed eth0");
	run_free(&r);
}

/* The command's exit code is in the report and fails the run. */
static void test_cmd_fails(void)
{
	static const struct ctr c[] = { { PORT "counters/port_xmit_data", "0",
					  "0" } };
	struct run r;

	run_tree(&r, c, sizeof(c) / sizeof(c[0]), "exit 3\n");
	run_watch(&r, NULL, NULL);
	EXPECT_EQ_INT(r.code, 7);
	EXPECT_HAS(&r, "FAIL   11   watch_cmd     command         'sh ");
	EXPECT_HAS(&r, "after.sh' exited 3 after ");
	run_free(&r);
}

/* ib_doctor ARGS... with the output thrown away: its exit code. */
static int cli(int argc, char **argv)
{
	FILE *out = fopen("/dev/null", "w");
	int code = doctor_cli(argc, argv, NULL, NULL, out);

	fclose(out);
	return code;
}

/* A literal as argv's words (the parser takes char *). */
#define W(text) ((char *)(text))

/* The command goes after "--", alone; --expect needs --watch. */
static void test_usage(void)
{
	char *stray[] = { W("ib_doctor"), W("--watch"), W("ls"), W("--"),
			  W("-l") };
	char *none[] = { W("ib_doctor"), W("--watch"), W("--") };
	char *alone[] = { W("ib_doctor"), W("--expect"), W("tcp") };
	char *both[] = { W("ib_doctor"), W("--watch"), W("--nccl-log"),
			 W("x"), W("--"), W("ls") };
	char *bad[] = { W("ib_doctor"), W("--watch"), W("--expect"),
			W("udp"), W("--"), W("ls") };

	EXPECT_EQ_INT(cli(5, stray), 2);
	EXPECT_EQ_INT(cli(3, none), 2);
	EXPECT_EQ_INT(cli(3, alone), 2);
	EXPECT_EQ_INT(cli(6, both), 2);
	EXPECT_EQ_INT(cli(6, bad), 2);
}

int main(void)
{
	test_rdma();
	test_tcp();
	test_wrap_estimate();
	test_no_counters();
	test_cmd_fails();
	test_usage();
	return test_finish("test_watch");
}
