// SPDX-License-Identifier: BSD-2-Clause
/*
 * ib_fabric --nccl-test: the reader of nccl-tests' output (fabric/ntest.c)
 * and its gates (fabric/ntest_judge.c), on the files of
 * tests/fixtures/nccl-tests/ and tests/fixtures/nccl/ (TEST_SRCDIR).
 *
 * Stand-ins: tests/fixtures/nccl-tests/stand-in-*.log are generated in
 * nccl-tests 2.19.6's format (src/util.cu's printf formats: the header,
 * preamble, body and footer), two ranks of one GPU each with NCCL 2.28's
 * INFO lines, the first row split by NCCL's lines as a real stdout shows
 * it; no machine here has two GPU nodes. The real proof of the format is
 * tests/fixtures/nccl/real-h200-nccl-tests-2.28.9-all_reduce.log:
 * all_reduce_perf 2.19.6 on the lent H200 (results/nccl-h200/), whose
 * NCCL fell back to Socket. tests/fixtures/nccl/stand-in-2.28-2rank-*.log
 * are STAND-INS too: two ranks of one host (one GPU each), built from that
 * real log's lines with the channels changed, until the two-GPU machine
 * gives real ones.
 */
#define _GNU_SOURCE /* open_memstream */
#include <limits.h>
#include <stdlib.h>

#include "fabric/ntest.h"
#include "fabric/ntest_json.h"
#include "lib/json_read.h"
#include "tests/test.h"

static int read_fixture(struct ntest_out *o, const char *rel)
{
	const char *src = getenv("TEST_SRCDIR");
	char path[PATH_MAX];
	FILE *f;
	int err;

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s",
		 src && src[0] ? src : ".", rel);
	ntest_init(o);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		return -1;
	}
	err = ntest_read(o, f);
	fclose(f);
	return err;
}

static void judge(const struct ntest_out *o, double expect,
		  struct ntest_judgement *j)
{
	struct ntest_expect e = { .busbw = expect, .table_due = true };

	ntest_judge(o, &e, j);
}

static struct ntest_out o;

/* The real H200 capture: 25 rows, Socket, no wrong value. */
static void test_real_h200(void)
{
	struct ntest_judgement j;

	EXPECT_EQ_INT(read_fixture(&o, "nccl/real-h200-nccl-tests-2.28.9-"
				       "all_reduce.log"),
		      0);
	EXPECT_EQ_INT((int)o.nrows, 25);
	EXPECT_EQ_INT((int)o.dropped, 0);
	EXPECT_STREQ(o.version, "2.19.6");
	EXPECT_STREQ(o.test, "all_reduce_perf");
	EXPECT_EQ_INT((int)o.ranks, 1);
	EXPECT_EQ_INT((int)o.ngpus, 1);
	EXPECT_TRUE(o.concluded && o.have_oob && o.oob == 0 && o.have_avg);
	EXPECT_EQ_U64(o.rows[0].size, 8);
	EXPECT_EQ_U64(o.rows[0].count, 2);
	EXPECT_STREQ(o.rows[0].type, "float");
	EXPECT_STREQ(o.rows[0].redop, "sum");
	EXPECT_EQ_INT((int)o.rows[0].root, -1);
	EXPECT_NEAR(o.rows[0].h[NTEST_OOP].time_us, 5.43, 1e-9);
	EXPECT_NEAR(o.rows[24].h[NTEST_OOP].algbw, 2013.9, 1e-9);
	EXPECT_NEAR(o.rows[24].h[NTEST_IP].algbw, 134824, 1e-9);
	EXPECT_NEAR(o.rows[24].h[NTEST_IP].busbw, 0, 1e-9);
	EXPECT_EQ_U64(o.rows[24].size, 134217728);
	judge(&o, 0, &j);
	EXPECT_EQ_INT(j.net, NTEST_NET_SOCKET);
	EXPECT_EQ_INT(j.verdict, NTEST_SOCKET);
	EXPECT_EQ_INT(j.exit_code, 3);
	EXPECT_TRUE(strstr(j.reason, "eth0") != NULL);
	EXPECT_EQ_U64(j.large_from, 134217728 / 8);
}

/* Two ranks over IB with GDRDMA: the split first row joined. */
static void test_pass(void)
{
	struct ntest_judgement j;

	EXPECT_EQ_INT(
		read_fixture(&o, "nccl-tests/stand-in-2.19.6-ib-pass.log"), 0);
	EXPECT_EQ_INT((int)o.nrows, 28);
	EXPECT_EQ_INT((int)o.dropped, 0);
	EXPECT_EQ_U64(o.rows[0].size, 8);
	EXPECT_NEAR(o.rows[0].h[NTEST_OOP].time_us, 372.83, 1e-9);
	EXPECT_NEAR(o.rows[0].h[NTEST_IP].wrong, 0, 1e-9);
	EXPECT_EQ_INT((int)o.ranks, 2);
	EXPECT_EQ_INT((int)o.nccl.paths[NCCL_PATH_IB_GDR], 1);
	judge(&o, 150, &j);
	EXPECT_EQ_INT(j.net, NTEST_NET_IB);
	EXPECT_EQ_INT(j.verdict, NTEST_PASS);
	EXPECT_EQ_INT(j.exit_code, 0);
	EXPECT_NEAR(j.busbw, 180.0, 1e-9);
	EXPECT_EQ_U64(j.at_size, 1ULL << 27);
	/* below the expectation: 3 */
	judge(&o, 190, &j);
	EXPECT_EQ_INT(j.verdict, NTEST_BELOW);
	EXPECT_EQ_INT(j.exit_code, 3);
	EXPECT_TRUE(strstr(j.reason, "below the expected 190.00") != NULL);
}

static void test_wrong(void)
{
	struct ntest_judgement j;

	EXPECT_EQ_INT(
		read_fixture(&o, "nccl-tests/stand-in-2.19.6-ib-wrong.log"), 0);
	judge(&o, 190, &j); /* corrupt wins over below */
	EXPECT_EQ_INT(j.verdict, NTEST_CORRUPT);
	EXPECT_EQ_INT(j.exit_code, 4);
	EXPECT_NEAR(j.wrong, 1, 1e-9);
	EXPECT_TRUE(strstr(j.reason, "below") != NULL);
}

static void test_socket(void)
{
	struct ntest_judgement j;

	EXPECT_EQ_INT(read_fixture(&o, "nccl-tests/stand-in-2.19.6-socket.log"),
		      0);
	EXPECT_EQ_INT((int)o.nccl.paths[NCCL_PATH_SOCKET], 1);
	judge(&o, 0, &j); /* no expectation: Socket fails alone */
	EXPECT_EQ_INT(j.verdict, NTEST_SOCKET);
	EXPECT_EQ_INT(j.exit_code, 3);
}

/* Other forms: N/A, in-place only rows, "error" column, no table. */
static void test_forms(void)
{
	struct ntest_judgement j;
	struct ntest_expect e = { .table_due = true, .exit_status = 0 };

	ntest_init(&o);
	ntest_line(&o,
		   "#       size         count      type   redop    root "
		   "    time   algbw   busbw  #wrong     time   algbw   busbw "
		   " #wrong ");
	ntest_line(&o,
		   "        1024           256     float     sum      -1 "
		   "    7.34  142.89    3.00     N/A     1.28  821.12   2.50 "
		   "    N/A");
	ntest_line(&o,
		   "        2048           512     float     sum      -1 "
		   "                                    0.36  5763.0  1.0e+05 "
		   "      0");
	ntest_line(&o, "rank=1 #wrong=3");
	ntest_end(&o);
	EXPECT_EQ_INT((int)o.nrows, 2);
	EXPECT_NEAR(o.rows[0].h[NTEST_OOP].wrong, -1, 1e-9);
	EXPECT_TRUE(!o.rows[1].h[NTEST_OOP].have && o.rows[1].h[NTEST_IP].have);
	EXPECT_NEAR(o.rows[1].h[NTEST_IP].busbw, 1e5, 1e-9);
	EXPECT_EQ_INT(ntest_transport(&o.nccl), NTEST_NET_UNKNOWN);
	/* a long host name is not cut at a column's end */
	ntest_line(&o, "gpu-node-0001.cluster.example:77:77 [0] NCCL INFO "
		       "Using network IB");
	EXPECT_STREQ(o.nccl.host, "gpu-node-0001.cluster.example");
	EXPECT_EQ_INT(ntest_transport(&o.nccl), NTEST_NET_IB);
	EXPECT_TRUE(!o.pending[0]);
	ntest_init(&o);
	ntest_line(&o,
		   "#       size         count      type   redop    root "
		   "    time   algbw   busbw   error     time   algbw   busbw "
		   "  error");
	ntest_line(&o,
		   "     1048576        262144     float     sum      -1 "
		   "   10.00  104.86  104.86  2e+00    10.00  104.86  104.86 "
		   " 0e+00");
	judge(&o, 0, &j);
	EXPECT_EQ_INT(j.verdict, NTEST_CORRUPT);
	ntest_init(&o);
	ntest_line(&o, "h:1:1 [0] NCCL INFO Using network IB");
	e.exit_status = 1;
	ntest_judge(&o, &e, &j);
	EXPECT_EQ_INT(j.verdict, NTEST_ERROR);
	EXPECT_EQ_INT(j.exit_code, 1);
	e = (struct ntest_expect){ .table_due = false };
	ntest_judge(&o, &e, &j); /* another rank: its log only */
	EXPECT_EQ_INT(j.verdict, NTEST_PASS);
	EXPECT_EQ_INT(j.net, NTEST_NET_IB);
}

/* The derived expectation, and the folklore of docs/fabric.md. */
static void test_derive(void)
{
	struct ntest_nics four = { 4 * 400.0, 400.0, 4 };
	struct ntest_nics eight = { 8 * 400.0, 400.0, 8 };
	char why[256];

	EXPECT_NEAR(ntest_derive(NTEST_BOUND_NODE, &four, 2, 8, 1.0, why,
				 sizeof(why)),
		    200.0, 1e-9);
	EXPECT_NEAR(ntest_derive(NTEST_BOUND_NODE, &eight, 2, 8, 0.8, why,
				 sizeof(why)),
		    320.0, 1e-9);
	EXPECT_TRUE(strstr(why, "8 NIC port(s)") != NULL);
	EXPECT_NEAR(ntest_derive(NTEST_BOUND_NIC, &eight, 2, 8, 1.0, why,
				 sizeof(why)),
		    50.0, 1e-9);
	/* alltoall, 2 nodes of 8: 400 x 15 / 64 */
	EXPECT_NEAR(ntest_derive(NTEST_BOUND_ALLTOALL, &eight, 2, 8, 1.0, why,
				 sizeof(why)),
		    400.0 * 15 / 64, 1e-9);
	EXPECT_NEAR(ntest_derive(NTEST_BOUND_NODE, &eight, 1, 8, 1.0, why,
				 sizeof(why)),
		    0, 1e-9);
	EXPECT_EQ_INT(ntest_bound_of("/opt/nt/all_reduce_perf"),
		      NTEST_BOUND_NODE);
	EXPECT_EQ_INT(ntest_bound_of("sendrecv_perf"), NTEST_BOUND_NIC);
	EXPECT_EQ_INT(ntest_bound_of("alltoall_perf"), NTEST_BOUND_ALLTOALL);
	EXPECT_EQ_INT(ntest_bound_of("broadcast_perf"), NTEST_BOUND_NONE);
}

/* The document parses and carries the verdict. */
static void test_json(void)
{
	struct ntest_judgement j;
	struct ntest_expect e = { .busbw = 150,
				  .from = "--expect-busbw",
				  .table_due = true };
	struct ntest_doc d = { .rank = 0,
			       .ranks_per_node = 2,
			       .node = "node-1",
			       .engine = "mpirun",
			       .program = "all_reduce_perf",
			       .log = "nccl_r0.log",
			       .o = &o,
			       .e = &e,
			       .j = &j };
	struct json_read_tok tok[4096];
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int n, v;

	read_fixture(&o, "nccl-tests/stand-in-2.19.6-ib-pass.log");
	ntest_judge(&o, &e, &j);
	EXPECT_TRUE(f && !ntest_json_write(f, &d));
	if (f)
		fclose(f);
	n = buf ? json_read_parse(buf, len, tok, 4096) : -1;
	EXPECT_TRUE(n > 0);
	v = n > 0 ? json_read_get(buf, tok, n, 0, "verdict") : -1;
	EXPECT_TRUE(v > 0 && !strncmp(buf + tok[v].start, "passed", 6));
	v = n > 0 ? json_read_get(buf, tok, n, 0, "ranks_per_node") : -1;
	EXPECT_TRUE(v > 0 && !strncmp(buf + tok[v].start, "2", 1));
	v = n > 0 ? json_read_get(buf, tok, n, 0, "fabric_nccl_version") : -1;
	EXPECT_TRUE(v > 0 && !strncmp(buf + tok[v].start, "2", 1));
	free(buf);
}

/*
 * Two ranks of one host, P2P allowed (STAND-IN logs): NCCL still says
 * "Using network Socket", but every channel went via P2P/CUMEM: a pass,
 * intra-node, whose reason says so and names the network across nodes.
 */
static void test_two_rank_p2p(void)
{
	struct ntest_judgement j;

	EXPECT_EQ_INT(read_fixture(&o, "nccl/stand-in-2.28-2rank-p2p-r0.log"),
		      0);
	EXPECT_EQ_INT((int)o.nrows, 25);
	EXPECT_EQ_INT((int)o.ranks, 2);
	EXPECT_EQ_INT(o.nccl.net, NCCL_NET_SOCKET);
	EXPECT_EQ_U64(o.nccl.paths[NCCL_PATH_P2P], 24);
	EXPECT_EQ_INT(ntest_transport(&o.nccl), NTEST_NET_INTRA);
	judge(&o, 0, &j);
	EXPECT_EQ_INT(j.net, NTEST_NET_INTRA);
	EXPECT_STREQ(ntest_net_name(j.net), "intra-node");
	EXPECT_EQ_INT(j.verdict, NTEST_PASS);
	EXPECT_EQ_INT(j.exit_code, 0);
	EXPECT_STREQ(j.reason,
		     "no network needed: every channel stayed inside the node "
		     "(24 via P2P: NVLink or PCIe); NCCL's network for other "
		     "nodes: Socket (across nodes it would fall back)");
	/* a gate still applies to an intra-node run */
	judge(&o, 1e5, &j);
	EXPECT_EQ_INT(j.verdict, NTEST_BELOW);
	EXPECT_EQ_INT(read_fixture(&o, "nccl/stand-in-2.28-2rank-p2p-r1.log"),
		      0);
	judge(&o, 0, &j);
	EXPECT_EQ_INT(j.net, NTEST_NET_INTRA);
	EXPECT_EQ_INT(j.exit_code, 0);
}

/* Two ranks of one host, P2P and SHM disabled (STAND-IN logs): Socket. */
static void test_two_rank_socket(void)
{
	struct ntest_judgement j;
	const char *const logs[] = { "nccl/stand-in-2.28-2rank-socket-r0.log",
				     "nccl/stand-in-2.28-2rank-socket-r1.log" };

	for (size_t i = 0; i < 2; i++) {
		EXPECT_EQ_INT(read_fixture(&o, logs[i]), 0);
		EXPECT_EQ_U64(o.nccl.paths[NCCL_PATH_SOCKET], 8);
		EXPECT_EQ_U64(o.nccl.paths[NCCL_PATH_P2P], 0);
		judge(&o, 0, &j);
		EXPECT_EQ_INT(j.net, NTEST_NET_SOCKET);
		EXPECT_EQ_INT(j.verdict, NTEST_SOCKET);
		EXPECT_EQ_INT(j.exit_code, 3);
		EXPECT_TRUE(strstr(j.reason, "NCCL used sockets, not RDMA "
				   "(NET/IB : No device found; ") == j.reason);
	}
}

/* The channels decide: one NET/Socket channel among P2P ones is Socket;
 * P2P with SHM and "Using network IB" is intra-node; none is not. */
static void test_intra_rule(void)
{
	struct nccl_log l;
	char why[256];

	nccl_log_init(&l);
	nccl_log_line(&l, "h:1:1 [0] NCCL INFO Using network IB");
	EXPECT_TRUE(!nccl_log_intra_node(&l, why, sizeof(why)));
	nccl_log_line(&l, "h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] "
		      "via P2P/IPC");
	nccl_log_line(&l, "h:1:1 [0] NCCL INFO Channel 01/0 : 0[0] -> 2[2] "
		      "via SHM/direct/direct");
	EXPECT_TRUE(nccl_log_intra_node(&l, why, sizeof(why)));
	EXPECT_STREQ(why, "no network needed: every channel stayed inside "
		     "the node (1 via P2P: NVLink or PCIe, 1 via SHM: host "
		     "memory); NCCL's network for other nodes: IB");
	EXPECT_EQ_INT(ntest_transport(&l), NTEST_NET_INTRA);
	nccl_log_line(&l, "h:1:1 [0] NCCL INFO Channel 02/0 : 0[0] -> 3[3] "
		      "[send] via NET/Socket/0");
	EXPECT_TRUE(!nccl_log_intra_node(&l, NULL, 0));
	EXPECT_EQ_INT(ntest_transport(&l), NTEST_NET_SOCKET);
}

int main(void)
{
	test_real_h200();
	test_pass();
	test_wrong();
	test_socket();
	test_forms();
	test_derive();
	test_json();
	test_two_rank_p2p();
	test_two_rank_socket();
	test_intra_rule();
	return test_finish("test_fabric_ntest");
}
