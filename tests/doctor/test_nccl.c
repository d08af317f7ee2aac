// SPDX-License-Identifier: BSD-2-Clause
/*
 * ib_doctor --nccl-log: the parser of NCCL_DEBUG=INFO logs
 * (doctor/nccl_log.c) line by line, and the verdicts of step 10
 * (doctor/chk_nccl*.c) on the logs in tests/fixtures/nccl/ against the
 * fake roots of tests/fixtures/doctor/ (found through TEST_SRCDIR).
 *
 * Stand-ins: the files named stand-in-*.log are hand-written, line for
 * line in the formats of NCCL's source at the version in their name
 * (src/transport/net.cc, net_ib.cc, net_socket.cc, p2p.cc, shm.cc,
 * init.cc, plugin/net.cc, misc/param.cc), since no lab here has several
 * GPUs or an RDMA NIC with a GPU. The files named real-h200-*.log are
 * real: NCCL 2.28.9 (PyTorch 2.11's nvidia-nccl-cu13 wheel) on the lent
 * H200, captured by results/nccl-h200/capture.sh; they are the proof of
 * the Socket fall back, the stand-ins of the other outcomes. The
 * stand-in-2.28-2rank-*.log files are two ranks of one host built from
 * the real nccl-tests log's lines, channels changed, until the two-GPU
 * machine gives real ones.
 */
#define _GNU_SOURCE /* open_memstream */
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "doctor/chk_nccl.h"
#include "doctor/doctor.h"
#include "lib/json_read.h"
#include "tests/test.h"
#include "tests/doctor/expect.h"

static const char *src_path(const char *rel, char *buf, size_t len)
{
	const char *src = getenv("TEST_SRCDIR");
	int n = snprintf(buf, len, "%s/tests/fixtures/%s",
			 src && src[0] ? src : ".", rel);

	if (n < 0 || (size_t)n >= len)
		buf[0] = '\0'; /* too long: the test that opens it fails */
	return buf;
}

struct scenario {
	char root[PATH_MAX];
	struct probe probe;
	struct chk_ctx c;
};

/* Step 10 on one or two logs (nccl/NAME) against a doctor tree, as
 * host (NULL: the trees' gpu-node-1). Returns the run's status. */
static int run(struct scenario *s, const char *tree, const char *host,
	       const char *log1, const char *log2)
{
	char p1[PATH_MAX], p2[PATH_MAX], rel[PATH_MAX], *more[1] = { p2 };

	snprintf(rel, sizeof(rel), "doctor/%s", tree);
	src_path(rel, s->root, sizeof(s->root));
	fake_probe(s->root, &s->probe);
	s->c = (struct chk_ctx){ .root = s->root, .probe = &s->probe };
	snprintf(rel, sizeof(rel), "nccl/%s", log1);
	src_path(rel, p1, sizeof(p1));
	if (log2) {
		snprintf(rel, sizeof(rel), "nccl/%s", log2);
		src_path(rel, p2, sizeof(p2));
	}
	return chk_nccl_files(&s->c, p1, more, log2 ? 1 : 0,
			      host ? host : "gpu-node-1");
}

#define EXIT(s) findings_exit_code(&(s)->c.rep)

static void done(struct scenario *s)
{
	cli_ctx_free(&s->c);
}

/* The formats, one line each, of 2.18 to 2.28. */
static void test_parse_lines(void)
{
	struct nccl_log l;

	nccl_log_init(&l);
	nccl_log_line(&l, "h:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB "
		      "[1]mlx5_1:1/RoCE [RO]; OOB ib0:10.0.0.1<0>\n");
	nccl_log_line(&l, "h:1:1 [0] NCCL INFO NCCL_IB_GID_INDEX set by "
		      "environment to 3.");
	nccl_log_line(&l, "h:1:1 [0] NCCL INFO NCCL_IB_GID_INDEX set by "
		      "environment to 5.");
	nccl_log_line(&l, "h:1:1 [0] NCCL INFO Channel 00/0 : 0[18000] -> "
		      "1[19000] [send] via NET/IB/0(1)/GDRDMA");
	nccl_log_line(&l, "h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] "
		      "[send] via NET/IB/1/GDRDMA(PCI)/Shared");
	nccl_log_line(&l, "h:1:1 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[1] "
		      "via P2P/CUMEM/read");
	nccl_log_line(&l, "h:1:1 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[1] "
		      "via P2P/indirect/2[2]");
	nccl_log_line(&l, "h:1:1 [0] NCCL INFO Channel 02/0 : 0[0] -> 2[2] "
		      "via SHM/direct/direct");
	nccl_log_line(&l, "h:1:1 [0] NCCL INFO Channel 03/0 : 0[0] -> 2[2] "
		      "[receive] via NET/Socket/0");
	nccl_log_line(&l, "not NCCL's: via NET/Socket/0 Using network Socket");
	EXPECT_STREQ(l.host, "h");
	EXPECT_EQ_INT((int)l.n_hca, 2);
	EXPECT_STREQ(l.hcas[1].name, "mlx5_1");
	EXPECT_EQ_INT((int)l.hcas[1].port, 1);
	EXPECT_STREQ(l.hcas[1].link, "RoCE");
	EXPECT_STREQ(nccl_log_var(&l, "NCCL_IB_GID_INDEX"), "3");
	EXPECT_EQ_INT((int)l.n_var, 1);
	EXPECT_EQ_U64(l.paths[NCCL_PATH_IB_GDR], 2);
	EXPECT_EQ_U64(l.paths[NCCL_PATH_P2P], 2);
	EXPECT_EQ_U64(l.paths[NCCL_PATH_SHM], 1);
	EXPECT_EQ_U64(l.paths[NCCL_PATH_SOCKET], 1);
	EXPECT_EQ_INT(l.net, NCCL_NET_NONE);
	EXPECT_EQ_U64(l.lines, 10);
	EXPECT_EQ_U64(l.nccl_lines, 9);
}

static void test_parse_plugins(void)
{
	struct nccl_log l;

	nccl_log_init(&l);
	nccl_log_line(&l, "a:1:1 [0] NCCL INFO NET/Plugin: Loaded net plugin "
		      "AWS Libfabric (v7)");
	nccl_log_line(&l, "a:1:1 [0] NCCL INFO NET/Plugin: Loaded coll "
		      "plugin SHARP (v5)");
	nccl_log_line(&l, "a:1:1 [0] NCCL INFO Using network AWS Libfabric");
	nccl_log_line(&l, "a:1:1 [0] NCCL INFO comm 0x1 rank 3 nranks 16 "
		      "cudaDev 3 busId 1000 - Init START");
	EXPECT_STREQ(l.plugin, "AWS Libfabric");
	EXPECT_STREQ(l.collnet, "SHARP");
	EXPECT_EQ_INT(l.net, NCCL_NET_PLUGIN);
	EXPECT_EQ_INT(l.rank, 3);
	EXPECT_EQ_INT(l.nranks, 16);
}

/* IB with GDRDMA on this host's RoCE port: every finding passes. */
static void test_ib_gdrdma_pass(void)
{
	struct scenario s;
	const char *f = "stand-in-2.28-ib-gdrdma.log";

	EXPECT_EQ_INT(run(&s, "healthy", NULL, f, NULL), 0);
	EXPECT_VERDICT(&s.c.rep, "nccl_net", f, VERDICT_PASS);
	EXPECT_VERDICT(&s.c.rep, "nccl_hca", f, VERDICT_PASS);
	EXPECT_VERDICT(&s.c.rep, "nccl_ib_hca", f, VERDICT_PASS);
	EXPECT_VERDICT(&s.c.rep, "nccl_path", f, VERDICT_PASS);
	EXPECT_TEXT(&s.c.rep, "nccl_path", f, 0, "3 NET/IB/GDRDMA, 2 P2P, 1 SHM");
	EXPECT_TEXT(&s.c.rep, "nccl_env", f, 0, "NCCL_IB_GID_INDEX=3");
	EXPECT_EQ_INT(EXIT(&s), FINDINGS_EXIT_OK);
	done(&s);
}

/* NET/IB without GDRDMA where the pair allows it (PIX, nvidia_peermem). */
static void test_ib_no_gdrdma(void)
{
	struct scenario s;
	const char *f = "stand-in-2.18-ib-no-gdrdma.log";

	EXPECT_EQ_INT(run(&s, "healthy", NULL, f, NULL), 0);
	EXPECT_VERDICT(&s.c.rep, "nccl_net", f, VERDICT_PASS);
	EXPECT_VERDICT(&s.c.rep, "nccl_path", f, VERDICT_FAIL);
	EXPECT_TEXT(&s.c.rep, "nccl_path", f, 0, "although this host allows");
	EXPECT_EQ_INT(EXIT(&s), FINDINGS_EXIT_FAIL);
	done(&s);
	/* the same log where the GPU sits across the sockets: a WARN */
	EXPECT_EQ_INT(run(&s, "numa", NULL, f, NULL), 0);
	EXPECT_VERDICT(&s.c.rep, "nccl_path", f, VERDICT_WARN);
	EXPECT_TEXT(&s.c.rep, "nccl_path", f, 0, "SYS");
	EXPECT_EQ_INT(EXIT(&s), FINDINGS_EXIT_WARN);
	done(&s);
	/* no GPU module, no peermem: GPU memory cannot be registered */
	EXPECT_EQ_INT(run(&s, "nodevices", NULL, f, NULL), 0);
	EXPECT_TEXT(&s.c.rep, "nccl_path", f, 0,
		    "nvidia-peermem not loaded and no dmabuf");
	EXPECT_VERDICT(&s.c.rep, "nccl_hca", f, VERDICT_FAIL);
	done(&s);
}

static void test_socket(void)
{
	struct scenario s;
	const char *f = "stand-in-2.21-socket.log";

	EXPECT_EQ_INT(run(&s, "nodevices", NULL, f, NULL), 0);
	EXPECT_VERDICT(&s.c.rep, "nccl_net", f, VERDICT_FAIL);
	EXPECT_TEXT(&s.c.rep, "nccl_net", f, 0, "NCCL found no IB device: "
		    "this pod has no /dev/infiniband/uverbs*");
	EXPECT_VERDICT(&s.c.rep, "nccl_path", f, VERDICT_FAIL);
	EXPECT_TEXT(&s.c.rep, "nccl_path", f, 0, "4 NET/Socket");
	EXPECT_EQ_INT(EXIT(&s), FINDINGS_EXIT_FAIL);
	done(&s);
}

/* Some channels with GDRDMA, some without; a log of another host. */
static void test_mixed(void)
{
	struct scenario s;
	const char *f = "stand-in-2.23-mixed.log";

	EXPECT_EQ_INT(run(&s, "healthy", NULL, f, NULL), 0);
	EXPECT_VERDICT(&s.c.rep, "nccl_path", f, VERDICT_FAIL);
	EXPECT_TEXT(&s.c.rep, "nccl_path", f, 0, "2 of 4 net channel(s) "
		    "NET/IB without GDRDMA (mixed)");
	EXPECT_TEXT(&s.c.rep, "nccl_path", f, 0, "'mlx5_1'");
	EXPECT_TEXT(&s.c.rep, "nccl_path", f, 1, "run ib_doctor on node-c");
	EXPECT_VERDICT(&s.c.rep, "nccl_hca", f, VERDICT_SKIP);
	done(&s);
}

static void test_plugins(void)
{
	struct scenario s;
	const char *ofi = "stand-in-2.19-plugin-ofi.log";
	const char *sharp = "stand-in-2.27-plugin-sharp.log";

	EXPECT_EQ_INT(run(&s, "healthy", NULL, ofi, sharp), 0);
	EXPECT_VERDICT(&s.c.rep, "nccl_net", ofi, VERDICT_PASS);
	EXPECT_TEXT(&s.c.rep, "nccl_net", ofi, 0,
		    "net plugin 'AWS Libfabric'");
	EXPECT_TEXT(&s.c.rep, "nccl_net", sharp, 0, "collnet plugin SHARP");
	EXPECT_VERDICT(&s.c.rep, "nccl_path", sharp, VERDICT_PASS);
	EXPECT_EQ_INT(EXIT(&s), FINDINGS_EXIT_OK);
	done(&s);
}

static void test_ib_hca_missing(void)
{
	struct scenario s;
	const char *f = "stand-in-2.26-ib-hca-missing.log";

	EXPECT_EQ_INT(run(&s, "healthy", NULL, f, NULL), 0);
	EXPECT_VERDICT(&s.c.rep, "nccl_ib_hca", f, VERDICT_FAIL);
	EXPECT_TEXT(&s.c.rep, "nccl_net", f, 0,
		    "NCCL_IB_HCA names mlx5_9, which this host lacks");
	EXPECT_EQ_INT(EXIT(&s), FINDINGS_EXIT_FAIL);
	done(&s);
}

/* Two ranks' logs, the second bad: the run fails, naming that file. */
static void test_ranks_one_bad(void)
{
	struct scenario s;
	const char *good = "stand-in-2.28-ib-gdrdma.log";
	const char *bad = "stand-in-2.21-socket.log";

	EXPECT_EQ_INT(run(&s, "healthy", NULL, good, bad), 0);
	EXPECT_VERDICT(&s.c.rep, "nccl_net", good, VERDICT_PASS);
	EXPECT_VERDICT(&s.c.rep, "nccl_net", bad, VERDICT_FAIL);
	EXPECT_EQ_INT(EXIT(&s), FINDINGS_EXIT_FAIL);
	done(&s);
}

/* The real H200 captures: NCCL 2.28.9 fell back to Socket. As that host
 * ("vm", which has /dev/infiniband/rdma_cm but no uverbs) and as
 * another host's log. */
static void test_real_h200(void)
{
	static const char *const logs[] = {
		"real-h200-pytorch-2.28.9-1rank.log",
		"real-h200-pytorch-2.28.9-1rank-subsys-all.log",
		"real-h200-nccl-tests-2.28.9-all_reduce.log",
	};
	struct scenario s;
	size_t i;

	for (i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		EXPECT_EQ_INT(run(&s, "nodevices", "vm", logs[i], NULL), 0);
		EXPECT_VERDICT(&s.c.rep, "nccl_net", logs[i], VERDICT_FAIL);
		EXPECT_TEXT(&s.c.rep, "nccl_net", logs[i], 0,
			    "NCCL fell back to Socket: NCCL found no IB "
			    "device");
		EXPECT_TEXT(&s.c.rep, "nccl_net", logs[i], 0,
			    "Socket on [0]eth0:192.0.2.2<0>)");
		EXPECT_TEXT(&s.c.rep, "nccl_net", logs[i], 0, "this pod has "
			    "no /dev/infiniband/uverbs*");
		EXPECT_TEXT(&s.c.rep, "nccl_log", logs[i], 0, "NCCL 2.28.9");
		EXPECT_EQ_INT(EXIT(&s), FINDINGS_EXIT_FAIL);
		done(&s);
		EXPECT_EQ_INT(run(&s, "healthy", NULL, logs[i], NULL), 0);
		EXPECT_TEXT(&s.c.rep, "nccl_net", logs[i], 0,
			    "NCCL found no usable IB device on vm");
		done(&s);
	}
}

/*
 * Two ranks of one host with P2P (STAND-IN): nccl_net still fails (what
 * NCCL would use across nodes is Socket) and says the log's traffic
 * crossed no network; the channels pass. With P2P and SHM off: no clause.
 */
static void test_two_rank_intra(void)
{
	struct scenario s;
	const char *f = "stand-in-2.28-2rank-p2p-r0.log";
	const char *g = "stand-in-2.28-2rank-socket-r0.log";

	EXPECT_EQ_INT(run(&s, "nodevices", "vm", f, NULL), 0);
	EXPECT_VERDICT(&s.c.rep, "nccl_net", f, VERDICT_FAIL);
	EXPECT_TEXT(&s.c.rep, "nccl_net", f, 0, "NCCL fell back to Socket");
	EXPECT_TEXT(&s.c.rep, "nccl_net", f, 0, "; this log's traffic "
		    "crossed no network (every channel inside the node: 24 "
		    "P2P, 0 SHM)");
	EXPECT_VERDICT(&s.c.rep, "nccl_path", f, VERDICT_PASS);
	EXPECT_TEXT(&s.c.rep, "nccl_path", f, 0, "24 P2P");
	done(&s);
	EXPECT_EQ_INT(run(&s, "nodevices", "vm", g, NULL), 0);
	EXPECT_VERDICT(&s.c.rep, "nccl_net", g, VERDICT_FAIL);
	EXPECT_VERDICT(&s.c.rep, "nccl_path", g, VERDICT_FAIL);
	EXPECT_TEXT(&s.c.rep, "nccl_path", g, 0, "8 NET/Socket");
	{
		const struct finding *x = findings_find(&s.c.rep, "nccl_net", g);

		EXPECT_TRUE(x && !strstr(x->detail, "crossed no network"));
	}
	done(&s);
}

/* A log's text reaches the output cleaned. */
static void test_hostile_text(void)
{
	struct scenario s;
	const char *f = "stand-in-hostile-text.log";
	const struct finding *x;

	EXPECT_EQ_INT(run(&s, "healthy", NULL, f, NULL), 0);
	x = findings_find(&s.c.rep, "nccl_net", f);
	EXPECT_TRUE(x && !strchr(x->detail, '\033') && !strchr(x->detail, 7));
	EXPECT_TEXT(&s.c.rep, "nccl_net", f, 0, "\\x1b[31mIB");
	done(&s);
}

/* The whole program: --json FILE, exit codes, a missing file, usage. */
static int cli(const char *a, const char *b, const char *c, const char *d)
{
	char root[PATH_MAX], *argv[10] = { (char *)"ib_doctor",
					   (char *)"--root", root };
	const char *extra[] = { a, b, c, d };
	FILE *out = fopen("/dev/null", "w");
	int argc = 3, code;
	size_t i;

	src_path("doctor/healthy", root, sizeof(root));
	for (i = 0; i < 4 && extra[i]; i++)
		argv[argc++] = (char *)extra[i];
	code = doctor_cli(argc, argv, NULL, NULL, out ? out : stdout);
	if (out)
		fclose(out);
	return code;
}

static void test_cli(void)
{
	char good[PATH_MAX], bad[PATH_MAX], json[] = "/tmp/test_nccl.XXXXXX";
	char buf[16384];
	struct json_read_tok tok[1024];
	int fd = mkstemp(json), v, n;
	FILE *f;

	src_path("nccl/stand-in-2.28-ib-gdrdma.log", good, sizeof(good));
	src_path("nccl/stand-in-2.21-socket.log", bad, sizeof(bad));
	EXPECT_EQ_INT(cli("--nccl-log", good, NULL, NULL), 0);
	EXPECT_EQ_INT(cli("--nccl-log", good, bad, NULL), 7);
	EXPECT_EQ_INT(cli("--nccl-log", good, "--json", json), 0);
	f = fopen(json, "r");
	n = f ? (int)fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n > 0 ? n : 0] = '\0';
	n = json_read_parse(buf, (size_t)n, tok, 1024);
	EXPECT_TRUE(n > 0);
	v = n > 0 ? json_read_get(buf, tok, n, 0, "exit_code") : -1;
	EXPECT_TRUE(v > 0 && !strncmp(buf + tok[v].start, "0", 1));
	EXPECT_TRUE(strstr(buf, "\"nccl_path\"") != NULL);
	EXPECT_EQ_INT(cli("--nccl-log", "/nonexistent/rank0.log", NULL, NULL),
		      1);
	EXPECT_EQ_INT(cli(good, NULL, NULL, NULL), 2);
	if (fd >= 0)
		close(fd);
	unlink(json);
}

int main(void)
{
	test_parse_lines();
	test_parse_plugins();
	test_ib_gdrdma_pass();
	test_ib_no_gdrdma();
	test_socket();
	test_mixed();
	test_plugins();
	test_ib_hca_missing();
	test_ranks_one_bad();
	test_real_h200();
	test_two_rank_intra();
	test_hostile_text();
	test_cli();
	return test_finish("test_nccl");
}
