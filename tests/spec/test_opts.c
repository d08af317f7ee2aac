// SPDX-License-Identifier: BSD-2-Clause
/* Tests for common/spec/opts.c: defaults, parsing, messages and --help. */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <stdlib.h>

#include "spec/opts.h"
#include "spec/opts_doc.h"
#include "spec/opts_table.h"
#include "tests/test.h"

static const struct bench_desc bw_desc = {
	.name = "ib_write_bw",
	.summary = "RDMA write bandwidth",
	.verb = BENCH_VERB_WRITE,
	.measure = BENCH_MEASURE_BW,
	.default_size = 65536,
	.default_iters = 5000,
};

static const struct bench_desc lat_desc = {
	.name = "ib_write_lat",
	.summary = "RDMA write latency",
	.verb = BENCH_VERB_WRITE,
	.measure = BENCH_MEASURE_LAT,
	.default_size = 2,
	.default_iters = 1000,
};

#define MAX_ARGS 16

static char err[256];

/*
 * Run opts_parse on a NULL-terminated list of arguments (the program name
 * is added). getopt permutes argv, so it gets fresh writable copies.
 */
static int parse(struct bench_cfg *cfg, const struct bench_desc *desc,
		 const char *const *args)
{
	static char store[MAX_ARGS][OPTS_ADDR_MAX + 16];
	char *argv[MAX_ARGS + 1];
	int argc = 0;

	snprintf(store[argc], sizeof(store[argc]), "%s", desc->name);
	argv[argc] = store[argc];
	argc++;
	for (; *args && argc < MAX_ARGS; args++, argc++) {
		snprintf(store[argc], sizeof(store[argc]), "%s", *args);
		argv[argc] = store[argc];
	}
	argv[argc] = NULL;
	memset(err, 0, sizeof(err));
	return opts_parse(cfg, desc, argc, argv, err, sizeof(err));
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define NO_ARGS ((const char *const[]){ NULL })

/* The error message mentions needle; print it when it does not. */
#define EXPECT_ERR_HAS(needle)						\
	do {								\
		bool has_ = strstr(err, (needle)) != NULL;		\
		if (!has_)						\
			fprintf(stderr, "  message: \"%s\"\n", err);	\
		EXPECT_TRUE(has_);					\
	} while (0)

/* The defaults both kinds share, and those the descriptor sets. */
static void check_defaults(struct bench_cfg *cfg, const struct bench_desc *d,
			   uint64_t tx_depth, uint64_t cq_mod)
{
	EXPECT_EQ_INT(parse(cfg, d, NO_ARGS), 0);
	EXPECT_EQ_U64(cfg->size_bytes, d->default_size);
	EXPECT_EQ_U64(cfg->iters, d->default_iters);
	EXPECT_EQ_U64(cfg->tx_depth, tx_depth);
	EXPECT_EQ_U64(cfg->cq_mod, cq_mod);
	EXPECT_EQ_U64(cfg->tcp_port, 18515);
	EXPECT_EQ_U64(cfg->ib_port, 1);
	EXPECT_EQ_U64(cfg->connect_timeout_s, 30);
	EXPECT_EQ_U64(cfg->io_timeout_s, 30);
	EXPECT_TRUE(!cfg->has_gid_index);
	EXPECT_TRUE(opts_is_server(cfg));
}

static void test_defaults(void)
{
	struct bench_cfg cfg;

	check_defaults(&cfg, &lat_desc, 1, 1);
	check_defaults(&cfg, &bw_desc, 128, 100);
	EXPECT_EQ_U64(cfg.size_bytes, 65536);
	EXPECT_EQ_U64(cfg.iters, 5000);
	EXPECT_EQ_U64(cfg.gid_index, 0);
	EXPECT_TRUE(!cfg.all_sizes);
	EXPECT_TRUE(!cfg.report_gbits);
	EXPECT_TRUE(!cfg.noop_seen);
	EXPECT_TRUE(!cfg.show_help);
	EXPECT_TRUE(!cfg.show_version);
	EXPECT_STREQ(cfg.dev_name, "");
	EXPECT_STREQ(cfg.server_addr, "");
}

static void test_values(void)
{
	struct bench_cfg cfg;

	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-s", "64K")), 0);
	EXPECT_EQ_U64(cfg.size_bytes, 65536);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--size=1M")), 0);
	EXPECT_EQ_U64(cfg.size_bytes, 1ULL << 20);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--size", "4096")), 0);
	EXPECT_EQ_U64(cfg.size_bytes, 4096);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-s2G")), 0);
	EXPECT_EQ_U64(cfg.size_bytes, 2ULL << 30);

	EXPECT_EQ_INT(parse(&cfg, &bw_desc,
			    ARGS("-n", "77", "-t", "64", "-Q", "8", "-p",
				 "20000", "-i", "2", "-d", "mlx5_0",
				 "--connect-timeout", "5", "--timeout=7")), 0);
	EXPECT_EQ_U64(cfg.iters, 77);
	EXPECT_EQ_U64(cfg.tx_depth, 64);
	EXPECT_EQ_U64(cfg.cq_mod, 8);
	EXPECT_EQ_U64(cfg.tcp_port, 20000);
	EXPECT_EQ_U64(cfg.ib_port, 2);
	EXPECT_STREQ(cfg.dev_name, "mlx5_0");
	EXPECT_EQ_U64(cfg.connect_timeout_s, 5);
	EXPECT_EQ_U64(cfg.io_timeout_s, 7);
	/* Untouched ones keep their defaults. */
	EXPECT_EQ_U64(cfg.size_bytes, 65536);

	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-p", "1")), 0);
	EXPECT_EQ_U64(cfg.tcp_port, 1);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-p", "65535")), 0);
	EXPECT_EQ_U64(cfg.tcp_port, 65535);
}

static void test_flags(void)
{
	struct bench_cfg cfg;

	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-R", "-F")), 0);
	EXPECT_TRUE(cfg.noop_seen);
	EXPECT_TRUE(cfg.noop_seen);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--rdma_cm", "--CPU-freq")),
		      0);
	EXPECT_TRUE(cfg.noop_seen);
	EXPECT_TRUE(cfg.noop_seen);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--report_gbits")), 0);
	EXPECT_TRUE(cfg.report_gbits);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-a")), 0);
	EXPECT_TRUE(cfg.all_sizes);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--all")), 0);
	EXPECT_TRUE(cfg.all_sizes);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-x", "3")), 0);
	EXPECT_TRUE(cfg.has_gid_index);
	EXPECT_EQ_U64(cfg.gid_index, 3);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--gid-index=0")), 0);
	EXPECT_TRUE(cfg.has_gid_index);
	EXPECT_EQ_U64(cfg.gid_index, 0);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-h")), 0);
	EXPECT_TRUE(cfg.show_help);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--help")), 0);
	EXPECT_TRUE(cfg.show_help);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--version")), 0);
	EXPECT_TRUE(cfg.show_version);
	/* Clustered short flags. */
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-aRF")), 0);
	EXPECT_TRUE(cfg.all_sizes && cfg.noop_seen && cfg.noop_seen);
}

static void test_errors(void)
{
	struct bench_cfg cfg;

	/* -p as perftest: an int, its low 16 bits the port; 0 taken (the
	 * server picks one, a client is told at run time) */
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-p", "0")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), 0);
	EXPECT_EQ_INT((int)cfg.tcp_port, 0);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-p", "65536")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), 0);
	EXPECT_EQ_INT((int)cfg.tcp_port, 0);
	EXPECT_TRUE(strstr(cfg.noop_notes, "-p/--port 65536 (TCP port 0") !=
		    NULL);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--port=70000")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), 0);
	EXPECT_EQ_U64(cfg.tcp_port, 4464);
	EXPECT_TRUE(strstr(cfg.noop_notes, "-p/--port 70000 (TCP port 4464") !=
		    NULL);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-p", "2147483648")),
		      -ERANGE);
	EXPECT_ERR_HAS("-p/--port");

	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-n", "12Q")), -EINVAL);
	EXPECT_ERR_HAS("-n/--iters");
	EXPECT_ERR_HAS("12Q");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-n", "0")), -ERANGE);
	EXPECT_ERR_HAS("-n/--iters");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-s", "12Q")), -EINVAL);
	EXPECT_ERR_HAS("-s/--size");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-s", "0")), -ERANGE);
	EXPECT_ERR_HAS("-s/--size");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-s", "4G")), -ERANGE);
	EXPECT_ERR_HAS("-s/--size");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-t", "16385")), -ERANGE);
	EXPECT_ERR_HAS("-t/--tx-depth");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--connect-timeout", "0")),
		      -ERANGE);
	EXPECT_ERR_HAS("--connect-timeout");
	/* perftest's parser takes any int: past 255 is refused at run time */
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-x", "300")), 0);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-x", "2147483648")),
		      -ERANGE);
	EXPECT_ERR_HAS("-x/--gid-index");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-d", "")), -EINVAL);
	EXPECT_ERR_HAS("-d/--ib-dev");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc,
			    ARGS("-d", "0123456789012345678901234567890123456"
				 "789012345678901234567890123")), -EINVAL);
	EXPECT_ERR_HAS("-d/--ib-dev");

	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--bogus")), -EINVAL);
	EXPECT_ERR_HAS("--bogus");
	EXPECT_ERR_HAS("unknown");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-G")), -EINVAL);
	EXPECT_ERR_HAS("-G");
	EXPECT_ERR_HAS("unknown");
	/* A flag given a value is refused, not ignored. */
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--report_gbits=1")), -EINVAL);
	EXPECT_ERR_HAS("--report_gbits");

	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-s")), -EINVAL);
	EXPECT_ERR_HAS("missing value");
	EXPECT_ERR_HAS("-s");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-a", "--size")), -EINVAL);
	EXPECT_ERR_HAS("missing value");
	EXPECT_ERR_HAS("--size");

	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("10.0.0.1", "10.0.0.2")),
		      -EINVAL);
	EXPECT_ERR_HAS("10.0.0.2");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("")), -EINVAL);
}

static void test_positional(void)
{
	struct bench_cfg cfg;

	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("198.18.0.1")), 0);
	EXPECT_STREQ(cfg.server_addr, "198.18.0.1");
	EXPECT_TRUE(!opts_is_server(&cfg));
	/* GNU order: options may follow the address. */
	EXPECT_EQ_INT(parse(&cfg, &bw_desc,
			    ARGS("-s", "8K", "198.18.0.1", "-n", "10")), 0);
	EXPECT_STREQ(cfg.server_addr, "198.18.0.1");
	EXPECT_EQ_U64(cfg.size_bytes, 8192);
	EXPECT_EQ_U64(cfg.iters, 10);
	/* "--" ends the options. */
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--", "fe80::1")), 0);
	EXPECT_STREQ(cfg.server_addr, "fe80::1");
}

/* getopt's state must not leak from one call into the next. */
static void test_reparse(void)
{
	struct bench_cfg cfg;

	/* Stop half way through a cluster of short options. */
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-aGR")), -EINVAL);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-n", "12Q", "-s", "1K")),
		      -EINVAL);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-s", "1K", "10.1.1.1")), 0);
	EXPECT_EQ_U64(cfg.size_bytes, 1024);
	EXPECT_STREQ(cfg.server_addr, "10.1.1.1");
	EXPECT_EQ_INT(parse(&cfg, &lat_desc, ARGS("-n", "3")), 0);
	EXPECT_EQ_U64(cfg.iters, 3);
	EXPECT_EQ_U64(cfg.size_bytes, 2);
	/* Nothing from the earlier calls survives. */
	EXPECT_STREQ(cfg.server_addr, "");
	EXPECT_TRUE(!cfg.all_sizes);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-aF")), 0);
	EXPECT_TRUE(cfg.all_sizes && cfg.noop_seen);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, NO_ARGS), 0);
	EXPECT_TRUE(!cfg.all_sizes && !cfg.noop_seen);
	EXPECT_EQ_U64(cfg.size_bytes, 65536);
}

/* The message for an unknown option inside a cluster names that option. */
static void test_cluster_message(void)
{
	struct bench_cfg cfg;

	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-aG")), -EINVAL);
	EXPECT_ERR_HAS("G");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-Ga")), -EINVAL);
	EXPECT_ERR_HAS("'-G'");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-a", "-n")), -EINVAL);
	EXPECT_ERR_HAS("-n");
}

/* --help of d, in memory (free it); NULL when it could not be made. */
static char *usage_text(const struct bench_desc *d, size_t *len)
{
	char *text = NULL;
	FILE *out = open_memstream(&text, len);

	EXPECT_TRUE(out != NULL);
	if (!out)
		return NULL;
	opts_doc_usage(d, out);
	fclose(out);
	return text;
}

static void test_usage(void)
{
	static const char *const longs[] = {
		"--ib-dev", "--ib-port", "--gid-index", "--port", "--size",
		"--all", "--iters", "--tx-depth", "--cq-mod",
		"--connect-timeout", "--timeout", "--report_gbits",
		"--rdma_cm", "--CPU-freq", "--help", "--version",
	};
	size_t len = 0, i;
	char *text = usage_text(&bw_desc, &len);

	if (!text)
		return;
	for (i = 0; i < sizeof(longs) / sizeof(longs[0]); i++) {
		bool has = strstr(text, longs[i]) != NULL;

		if (!has)
			fprintf(stderr, "  usage lacks %s\n", longs[i]);
		EXPECT_TRUE(has);
	}
	EXPECT_TRUE(strstr(text, "-s, --size BYTES") != NULL);
	EXPECT_TRUE(strstr(text, "ib_write_bw") != NULL);
	EXPECT_TRUE(strstr(text, "[65536]") != NULL);
	EXPECT_TRUE(strstr(text, "[5000]") != NULL);
	EXPECT_TRUE(strstr(text, "[18515]") != NULL);
	EXPECT_TRUE(strstr(text, "[128]") != NULL);
	EXPECT_TRUE(strstr(text, "Exit codes: 0 ok, 1 runtime error, 2 usage")
		    != NULL);
	EXPECT_TRUE(strstr(text, "5 peer unreachable") != NULL);
	EXPECT_TRUE(len > 0 && text[len - 1] == '\n');
	free(text);

	text = usage_text(&lat_desc, &len);
	if (!text)
		return;
	EXPECT_TRUE(strstr(text, "ib_write_lat") != NULL);
	EXPECT_TRUE(strstr(text, "[1000]") != NULL);
	EXPECT_TRUE(strstr(text, "message size (K/M/G suffixes) [2]") != NULL);
	/* only the options of latency tools */
	EXPECT_TRUE(strstr(text, "--report_gbits") == NULL);
	EXPECT_TRUE(strstr(text, "--tx-depth") == NULL);
	EXPECT_TRUE(strstr(text, "-c, --connection=<RC/UC>") != NULL);
	free(text);
}

static const struct bench_desc read_desc = {
	.name = "ib_read_bw",
	.summary = "RDMA read bandwidth",
	.verb = BENCH_VERB_READ,
	.measure = BENCH_MEASURE_BW,
	.default_size = 65536,
	.default_iters = 1000,
};

/* perftest's optional-argument options take "--opt N" with a space too. */
static void test_optional_value(void)
{
	struct bench_cfg cfg;

	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--use_cuda", "0")), 0);
	EXPECT_EQ_U64(cfg.use_cuda, 0);
	EXPECT_TRUE(opts_is_server(&cfg));
	EXPECT_EQ_INT(parse(&cfg, &bw_desc,
			    ARGS("--use_cuda", "3", "198.18.0.1")), 0);
	EXPECT_EQ_U64(cfg.use_cuda, 3);
	EXPECT_STREQ(cfg.server_addr, "198.18.0.1");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("198.18.0.1", "--use_cuda",
						 "1", "-s", "8")), 0);
	EXPECT_EQ_U64(cfg.use_cuda, 1);
	EXPECT_STREQ(cfg.server_addr, "198.18.0.1");
	EXPECT_EQ_U64(cfg.size_bytes, 8);
	/* no value: GPU 0; the next word an address, not a value */
	EXPECT_EQ_INT(parse(&cfg, &bw_desc,
			    ARGS("--use_cuda", "198.18.0.1")), 0);
	EXPECT_EQ_U64(cfg.use_cuda, 0);
	EXPECT_STREQ(cfg.server_addr, "198.18.0.1");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--use_cuda=2")), 0);
	EXPECT_EQ_U64(cfg.use_cuda, 2);
	/* auto: the GPU nearest each rail's NIC (run/cuda_auto.c) */
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--use_cuda", "auto",
						 "--rails", "auto", "h")), 0);
	EXPECT_EQ_INT((int)cfg.use_cuda, OPTS_CUDA_AUTO);
	EXPECT_STREQ(cfg.server_addr, "h");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--use_cuda=auto")), 0);
	EXPECT_EQ_INT((int)cfg.use_cuda, OPTS_CUDA_AUTO);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--use_cuda=near")), -EINVAL);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--use_cuda", "auto",
				"--use_cuda_bus_id", "0000:3b:00.0")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), -EINVAL);
	EXPECT_ERR_HAS("--use_cuda auto picks the GPU itself");
	EXPECT_EQ_INT(parse(&cfg, &lat_desc, ARGS("--use_cuda=auto", "h")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &lat_desc, err, sizeof(err)), -EINVAL);
	EXPECT_ERR_HAS("--use_cuda (latency tests");
}

/*
 * What perftest 4.5 accepts (its binary the oracle, issue 26): a warm-up
 * with -n and on the latency tools; flags that change nothing for us.
 */
static void test_perftest_accepts(void)
{
	const char *const *const argvs[] = {
		ARGS("-n", "20", "--perform_warm_up", "10.0.0.1"),
		ARGS("-D", "2", "--perform_warm_up", "10.0.0.1"),
		ARGS("--perform_warm_up"),
		ARGS("--dont_xchg_versions", "10.0.0.1"),
		ARGS("--flows", "2", "--flows_burst", "4", "10.0.0.1"),
	};
	const struct bench_desc *descs[] = { &bw_desc, &lat_desc };
	struct bench_cfg cfg;
	size_t i, d;

	for (d = 0; d < 2; d++)
		for (i = 0; i < sizeof(argvs) / sizeof(argvs[0]); i++) {
			EXPECT_EQ_INT(parse(&cfg, descs[d], argvs[i]), 0);
			EXPECT_EQ_INT(opts_check(&cfg, descs[d], err,
						 sizeof(err)), 0);
		}
	EXPECT_EQ_INT(parse(&cfg, &lat_desc, argvs[0]), 0);
	EXPECT_TRUE(cfg.warm_up && cfg.iters == 20);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, argvs[4]), 0);
	EXPECT_TRUE(!cfg.noop_xchg);
	EXPECT_TRUE(strstr(cfg.noop_ignored, "--flows, --flows_burst") != NULL);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, argvs[3]), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), 0);
	EXPECT_TRUE(cfg.noop_xchg && !cfg.noop_ignored[0]);
	EXPECT_TRUE(strstr(cfg.noop_notes, "--dont_xchg_versions (") != NULL);
}

/* The header's " Changes nothing" lists hold what. */
#define IGNORED_HAS(what) EXPECT_TRUE(strstr(cfg.noop_ignored, what) != NULL)
#define NOTES_HAS(what) EXPECT_TRUE(strstr(cfg.noop_notes, what) != NULL)

/*
 * --recv_post_list, perftest's meaning: lists of receives for the send
 * bandwidth test, -n a multiple of the list, a list within -r; taken and
 * ignored (noted) where no list is posted; refused (as perftest) on the
 * latency tools above 1.
 */
static void test_recv_post_list(void)
{
	const struct bench_desc *send_bw = bench_tool(BENCH_TOOL_SEND_BW);
	const struct bench_desc *send_lat = bench_tool(BENCH_TOOL_SEND_LAT);
	struct bench_cfg cfg;

	EXPECT_EQ_INT(parse(&cfg, send_bw, ARGS("--recv_post_list", "4",
						"10.0.0.1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, send_bw, err, sizeof(err)), 0);
	EXPECT_EQ_U64(cfg.recv_post_list, 4);
	EXPECT_EQ_INT(parse(&cfg, send_bw, ARGS("--recv_post_list", "3")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, send_bw, err, sizeof(err)), -EINVAL);
	EXPECT_TRUE(strstr(err, "-n 1000 is not a multiple of "
			   "--recv_post_list 3") != NULL);
	EXPECT_EQ_INT(parse(&cfg, send_bw, ARGS("--recv_post_list", "3", "-D",
						"2")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, send_bw, err, sizeof(err)), 0);
	EXPECT_EQ_INT(parse(&cfg, send_bw, ARGS("--recv_post_list", "8", "-r",
						"4", "-n", "80")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, send_bw, err, sizeof(err)), -EINVAL);
	EXPECT_TRUE(strstr(err, "--recv_post_list 8 exceeds -r 4") != NULL);
	EXPECT_EQ_INT(parse(&cfg, send_bw, ARGS("--recv_post_list", "0")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, send_bw, err, sizeof(err)), 0);
	EXPECT_EQ_U64(cfg.recv_post_list, 1);
	NOTES_HAS("--recv_post_list 0 (one receive a post, as 1)");
	EXPECT_EQ_INT(parse(&cfg, send_lat, ARGS("--recv_post_list", "2")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, send_lat, err, sizeof(err)), -EINVAL);
	EXPECT_TRUE(strstr(err, "perftest's latency tools refuse it") != NULL);
	EXPECT_EQ_INT(parse(&cfg, send_lat, ARGS("--recv_post_list", "1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, send_lat, err, sizeof(err)), 0);
	EXPECT_EQ_U64(cfg.recv_post_list, 0);
	NOTES_HAS("--recv_post_list (a latency sample is one receive)");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--recv_post_list", "1000",
						 "-n", "5000")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), 0);
	EXPECT_EQ_U64(cfg.recv_post_list, 0); /* not sent: no receives */
	NOTES_HAS("--recv_post_list (this tool posts no receives)");
}

/* --mr_per_qp: the bandwidth tools' (each QP its own MR); taken and
 * ignored on the latency tools (one QP), as perftest. */
static void test_mr_per_qp(void)
{
	struct bench_cfg cfg;

	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--mr_per_qp", "-q", "2",
						 "10.0.0.1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), 0);
	EXPECT_TRUE(cfg.mr_per_qp);
	EXPECT_EQ_INT(parse(&cfg, &lat_desc, ARGS("--mr_per_qp",
						  "10.0.0.1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &lat_desc, err, sizeof(err)), 0);
	EXPECT_TRUE(!cfg.mr_per_qp);
	IGNORED_HAS("--mr_per_qp");
}

/*
 * What perftest takes and ignores (issue 26): bandwidth options on the
 * latency tools and the options of perftest's other tools, checked but
 * not used, named in the header; our own rules that perftest has not.
 */
static void test_perftest_ignores(void)
{
	struct bench_cfg cfg;

	EXPECT_EQ_INT(parse(&cfg, &lat_desc, ARGS("-t", "64", "-Q", "8",
		"--report_gbits", "--report-both", "-w", "100", "-y", "1",
		"--disable_pcie_relaxed", "10.0.0.1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &lat_desc, err, sizeof(err)), 0);
	EXPECT_TRUE(cfg.tx_depth == 1 && cfg.cq_mod == 1);
	EXPECT_TRUE(!cfg.report_gbits && !cfg.report_both);
	EXPECT_TRUE(cfg.limit_bw == 0 && cfg.expect_gbps == 0);
	IGNORED_HAS("-t/--tx-depth, -Q/--cq-mod, --report_gbits");
	IGNORED_HAS("-y/--limit_msgrate, --disable_pcie_relaxed");
	/* checked as where it applies */
	EXPECT_EQ_INT(parse(&cfg, &lat_desc, ARGS("-t", "0")), -ERANGE);
	EXPECT_ERR_HAS("-t/--tx-depth 0");
	/* perftest's other tools' options, on every tool */
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--tcp", "-K", "5000", "-k",
		"6000", "--vlan_en", "--vlan_pcp", "3", "-P", "-v", "-M",
		"ff02::1", "--reply_every", "2")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), 0);
	EXPECT_TRUE(opts_is_server(&cfg)); /* -P: the role is the address's */
	IGNORED_HAS("--tcp, -K/--dest_port, -k/--source_port, --vlan_en");
	IGNORED_HAS("-P/--client, -v/--mac_fwd, -M/--MGID, --reply_every");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--aes_block_size", "512",
		"--data_enc_keys_number", "2")), 0);
	IGNORED_HAS("--aes_block_size, --data_enc_keys_number");
	EXPECT_EQ_INT(parse(&cfg, &lat_desc, ARGS("--vlan_pcp", "9")),
		      -ERANGE);
	EXPECT_ERR_HAS("--vlan_pcp 9");
	/* -l: perftest's latency tools take 0 and 1, refuse more */
	EXPECT_EQ_INT(parse(&cfg, &lat_desc, ARGS("-l", "1", "10.0.0.1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &lat_desc, err, sizeof(err)), 0);
	NOTES_HAS("-l/--post_list (a latency sample is one WR)");
	EXPECT_EQ_INT(parse(&cfg, &lat_desc, ARGS("-l", "2", "10.0.0.1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &lat_desc, err, sizeof(err)), -EINVAL);
	EXPECT_ERR_HAS("perftest's latency tools refuse it too");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-l", "0", "10.0.0.1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), 0);
	EXPECT_EQ_U64(cfg.post_list, 1);
	NOTES_HAS("-l/--post_list 0 (one WR a post, as -l 1)");
	test_recv_post_list();
	test_mr_per_qp();
	/* our rules perftest has not: taken, said to change nothing */
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--report-both", "-f", "2",
						 "-S", "3", "-R",
						 "10.0.0.1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), 0);
	EXPECT_TRUE(!cfg.has_sl && cfg.margin_s == 0);
	NOTES_HAS("--report-both (without -b there is one figure); "
		  "-f/--margin (a margin is of a -D run); -S/--sl (rdma_cm");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-j", "10.0.0.1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), 0);
	EXPECT_TRUE(!cfg.source_ip[0] && opts_oob(&cfg) == OPTS_OOB_AUTO);
	NOTES_HAS("-j/--source_ip (the server listens on every address)");
	/* perftest's server takes -a with -D: only its client checks */
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-a", "-D", "5")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), 0);
	EXPECT_TRUE(!cfg.all_sizes);
	NOTES_HAS("-a/--all (the client's request sets the sizes)");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-a", "-D", "5",
						 "10.0.0.1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), -EINVAL);
	EXPECT_ERR_HAS("-a and -D do not mix");
}

/* Options of other tools, and rules between options, refused with why. */
static void test_refusals(void)
{
	struct bench_cfg cfg;

	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-A", "CMP_AND_SWAP")),
		      -EINVAL);
	EXPECT_ERR_HAS("-A/--atomic_type is for ib_atomic_*");
	EXPECT_EQ_INT(parse(&cfg, &lat_desc, ARGS("-q", "2")), -EINVAL);
	EXPECT_ERR_HAS("-q/--qp is for bandwidth tests");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--use-srq")), -EINVAL);
	EXPECT_ERR_HAS("--use-srq is for ib_send_*");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-e")), -EINVAL);
	EXPECT_ERR_HAS("-e/--events");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-m", "1024", "10.0.0.1")),
		      0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), 0);
	/* perftest ignores -m with -R: so do we, saying so (issue 26) */
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-m", "1024", "-R",
						 "10.0.0.1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), 0);
	EXPECT_TRUE(!cfg.has_mtu);
	EXPECT_TRUE(strstr(cfg.noop_notes, "rdma_cm takes the path MTU") !=
		    NULL);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-m", "1024", "-S", "3", "-L",
						 "9", "--oob", "tcp",
						 "10.0.0.1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), 0);
	EXPECT_EQ_U64(cfg.mtu, 1024);
	EXPECT_EQ_U64(cfg.sl, 3);
	EXPECT_EQ_U64(cfg.hop_limit, 9);
	/* perftest's set_mtu(): another value is the port's active MTU */
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-m", "1000", "--oob", "tcp",
						 "10.0.0.1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), 0);
	EXPECT_TRUE(!cfg.has_mtu);
	EXPECT_TRUE(strstr(cfg.noop_notes, "the port's active MTU") != NULL);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-T", "106", "-u", "20",
						 "--retry_count", "3")), 0);
	EXPECT_TRUE(cfg.has_tos);
	EXPECT_EQ_U64(cfg.tos, 106);
	EXPECT_EQ_U64(cfg.qp_timeout, 20);
	EXPECT_EQ_U64(cfg.retry_count, 3);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--tclass", "96")), 0);
	EXPECT_EQ_U64(cfg.tos, 96);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-j", "10.0.0.2", "10.0.0.1")),
		      0);
	EXPECT_STREQ(cfg.source_ip, "10.0.0.2");
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), 0);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--source_ip", "10.0.0.2",
						 "--oob", "tcp", "h1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), -EINVAL);
	EXPECT_ERR_HAS("--source_ip");
}

/* --help: perftest's connection line with this tool's transports. */
static void test_usage_connection(void)
{
	size_t len = 0;
	char *text = usage_text(&read_desc, &len);

	if (!text)
		return;
	EXPECT_TRUE(strstr(text, "-c, --connection=<RC>") != NULL);
	EXPECT_TRUE(strstr(text, "--outs") != NULL);
	EXPECT_TRUE(strstr(text, "--inline_size") == NULL);
	EXPECT_TRUE(strstr(text, "--use-srq") == NULL); /* ib_send_*'s */
	EXPECT_TRUE(strstr(text, "--report-counters") != NULL); /* -W */
	free(text);
}

/* The rendezvous in effect: auto by default; -R and --source_ip are cm. */
static void test_oob(void)
{
	struct bench_cfg cfg;

	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("h1")), 0);
	EXPECT_EQ_INT(opts_oob(&cfg), OPTS_OOB_AUTO);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-R", "h1")), 0);
	EXPECT_EQ_INT(opts_oob(&cfg), OPTS_OOB_CM);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-j", "10.0.0.2", "h1")), 0);
	EXPECT_EQ_INT(opts_oob(&cfg), OPTS_OOB_CM);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--oob", "tcp", "h1")), 0);
	EXPECT_EQ_INT(opts_oob(&cfg), OPTS_OOB_TCP);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--oob=cm", "h1")), 0);
	EXPECT_EQ_INT(opts_oob(&cfg), OPTS_OOB_CM);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-c", "UC", "h1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), 0);
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-c", "UC", "-R", "h1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), -EINVAL);
	EXPECT_ERR_HAS("drop -R/--oob cm for UC");
}

/*
 * Every enumerated option of every tool, given a value it does not take
 * or none: the message names each value the tool takes (issue #24: "must
 * be one of WHAT" named the argument, not the values).
 */
static void test_enum_values(void)
{
	const struct opt_prog *p = &opts_table_prog;
	struct bench_cfg cfg;
	char opt[80];
	size_t i, c;
	int t;

	for (t = 0; t < BENCH_TOOL_COUNT; t++) {
		const struct bench_desc *d = bench_tool((enum bench_tool)t);

		for (i = 0; i < p->count; i++) {
			const struct opt_def *o = &p->rows[i];

			if (o->kind != OPT_ENUM || !opts_table_applies(o, d))
				continue;
			snprintf(opt, sizeof(opt), "--%s=bogus", o->name);
			EXPECT_EQ_INT(parse(&cfg, d, ARGS(opt)), -EINVAL);
			EXPECT_ERR_HAS("must be one of");
			for (c = 0; o->choices[c]; c++)
				if (opts_table_choice_ok(o, c, d))
					EXPECT_ERR_HAS(o->choices[c]);
			snprintf(opt, sizeof(opt), "--%s", o->name);
			EXPECT_EQ_INT(parse(&cfg, d, ARGS(opt)), -EINVAL);
			EXPECT_ERR_HAS("missing value");
			EXPECT_ERR_HAS(o->choices[0]);
		}
	}
	/* the exact words of the two the issue named */
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("--output=bogus")), -EINVAL);
	EXPECT_STREQ(err, "--output 'bogus': must be one of table, bandwidth, "
		     "message_rate, latency");
	EXPECT_EQ_INT(parse(&cfg, bench_tool(BENCH_TOOL_ATOMIC_BW),
			    ARGS("-A", "bogus")), -EINVAL);
	EXPECT_STREQ(err, "-A/--atomic_type 'bogus': must be one of "
		     "FETCH_AND_ADD, CMP_AND_SWAP");
	/* a value this tool cannot take is not offered (read has no UC) */
	EXPECT_EQ_INT(parse(&cfg, bench_tool(BENCH_TOOL_READ_BW),
			    ARGS("-c", "bogus")), -EINVAL);
	EXPECT_STREQ(err, "-c/--connection 'bogus': must be one of RC");
}

/*
 * -O and -g: taken as perftest's parser takes them, with its refusals
 * (-O with -g or -R; -g with -b or -q 2; --report-per-port without -O and
 * -D), then refused at the run's start with the alternative.
 */
static void test_built_modes(void)
{
	static const struct bench_desc send_desc = {
		.name = "ib_send_bw", .verb = BENCH_VERB_SEND,
		.measure = BENCH_MEASURE_BW, .default_size = 65536,
		.default_iters = 1000,
	};
	struct bench_cfg cfg;
	char why[320];

	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("-O", "10.0.0.1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), 0);
	EXPECT_EQ_INT(opts_check_built(&cfg, &bw_desc, why, sizeof(why)),
		      -EOPNOTSUPP);
	EXPECT_TRUE(strstr(why, "run one pair per port") != NULL);
	EXPECT_TRUE(parse(&cfg, &lat_desc, ARGS("-O", "10.0.0.1")) != 0);
	EXPECT_EQ_INT(parse(&cfg, &send_desc, ARGS("-g", "10.0.0.1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &send_desc, err, sizeof(err)), 0);
	EXPECT_EQ_INT(opts_check_built(&cfg, &send_desc, why, sizeof(why)),
		      -EOPNOTSUPP);
	EXPECT_TRUE(strstr(why, "use -c UD for one peer") != NULL);
	EXPECT_TRUE(parse(&cfg, &bw_desc, ARGS("-g", "10.0.0.1")) != 0);
	EXPECT_EQ_INT(parse(&cfg, &send_desc, ARGS("-g", "-b", "10.0.0.1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &send_desc, err, sizeof(err)), -EINVAL);
	EXPECT_ERR_HAS("drop -b");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc,
			    ARGS("--report-per-port", "-O", "10.0.0.1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), -EINVAL);
	EXPECT_ERR_HAS("needs -O and -D");
	EXPECT_EQ_INT(parse(&cfg, &bw_desc, ARGS("10.0.0.1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), 0);
	EXPECT_EQ_INT(opts_check_built(&cfg, &bw_desc, why, sizeof(why)), 0);
	/* perftest's --run_infinitely replaces -a's mode (a note) */
	EXPECT_EQ_INT(parse(&cfg, &bw_desc,
			    ARGS("-a", "--run_infinitely", "10.0.0.1")), 0);
	EXPECT_EQ_INT(opts_check(&cfg, &bw_desc, err, sizeof(err)), 0);
	EXPECT_TRUE(!cfg.all_sizes && strstr(cfg.noop_notes, "-a/--all (") != NULL);
}

int main(void)
{
	test_built_modes();
	test_enum_values();
	test_oob();
	test_optional_value();
	test_perftest_accepts();
	test_perftest_ignores();
	test_refusals();
	test_usage_connection();
	test_defaults();
	test_values();
	test_flags();
	test_errors();
	test_positional();
	test_reparse();
	test_cluster_message();
	test_usage();
	return test_finish("test_opts");
}
