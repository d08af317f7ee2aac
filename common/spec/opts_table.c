// SPDX-License-Identifier: BSD-2-Clause
/*
 * opts_table - the option rows (see opts_table.h for what a row fills) and
 * the questions asked of a row: which tools it applies to, its label.
 */
#include <stdio.h>
#include <string.h>

#include "spec/opts.h"
#include "spec/opts_table.h"

#define CFG(field) offsetof(struct bench_cfg, field)
#define NO_HAS 0
#define NOOP CFG(noop_seen)

static const char *const conn_choices[] = { "RC", "UC", NULL };
static const char *const atomic_choices[] = { "FETCH_AND_ADD", "CMP_AND_SWAP",
					       NULL };
static const char *const oob_choices[] = { "cm", "tcp", "auto", NULL };
static const char *const output_choices[] = { "table", "bandwidth",
					       "message_rate", "latency", NULL };

/* Rows of the same shape: perftest's options that are what we do anyway. */
#define ACCEPTED(name, code, arg, why) \
	{ name, code, OPT_NOOP, NOOP, NO_HAS, 0, 0, NULL, NULL, arg, why, \
	  .group = OPT_G_PERFTEST }
/* the expectations (gates) */
#define DOUBLE(name, code, field, arg, tools, help) \
	{ name, code, OPT_DOUBLE, CFG(field), NO_HAS, 0, 0, NULL, NULL, arg, \
	  help, .only = (tools) | ONLY_LISTED, .group = OPT_G_GATES }
/* the output files */
#define PATH(name, code, field, help) \
	{ name, code, OPT_STR, CFG(field), NO_HAS, 0, OPTS_PATH_MAX, NULL, \
	  NULL, "FILE", help, .group = OPT_G_OUTPUTS }

/*
 * -s and -n take their defaults from the executable's descriptor (perftest:
 * 65536 B x 5000 for write bandwidth, 2 B x 1000 for latency).
 */
const struct opt_def opts_table_rows[] = {
	{ "ib-dev", 'd', OPT_STR, CFG(dev_name), NO_HAS, 0, OPTS_NAME_MAX,
	  "", "", "DEV", "RDMA device; must own the IP in use",
	  .group = OPT_G_CONN },
	{ "netdev", LONG_NETDEV, OPT_STR, CFG(netdev), NO_HAS, 0, OPTS_NAME_MAX,
	  "", "", "IF", "use the RDMA device behind this interface (pods)",
	  .group = OPT_G_CONN },
	{ "rails", LONG_RAILS, OPT_STR, CFG(rails), NO_HAS, 0, OPTS_PATH_MAX,
	  "", "", "auto|LIST",
	  "a thread per rail: every ACTIVE port, or DEV[:PORT][@NODE],...",
	  .only = ONLY_BW, .group = OPT_G_CONN },
	{ "oob", LONG_OOB, OPT_ENUM, CFG(oob), NO_HAS, 0, 0, "auto", "auto",
	  "cm|tcp|auto", "control channel: auto (TCP to SERVER, any name; "
	  "server: TCP and rdma_cm), cm (rdma_cm), tcp", oob_choices,
	  .group = OPT_G_CONN },
	{ "ib-port", 'i', OPT_U64, CFG(ib_port), CFG(has_ib_port), 1, 255, "1",
	  "1", "PORT", "device port; must be the IP's port",
	  .group = OPT_G_CONN },
	{ "gid-index", 'x', OPT_U64, CFG(gid_index), CFG(has_gid_index), 0,
	  255, NULL, NULL, "IDX",
	  "TCP control: GID index [best RoCEv2]; rdma_cm: from the IP",
	  .group = OPT_G_CONN },
	{ "port", 'p', OPT_U64, CFG(tcp_port), NO_HAS, 1, 65535, "18515",
	  "18515", "PORT", "port the server listens on (TCP and rdma_cm)",
	  .group = OPT_G_CONN },
	{ "size", 's', OPT_SIZE, CFG(size_bytes), NO_HAS, 1, 1ULL << 31, NULL,
	  NULL, "BYTES", "message size (K/M/G suffixes)", .group = OPT_G_TEST },
	{ "all", 'a', OPT_FLAG, CFG(all_sizes), NO_HAS, 0, 0, NULL, NULL, NULL,
	  "sweep sizes 2 B .. 8 MiB, powers of two, one row each",
	  .group = OPT_G_TEST },
	{ "iters", 'n', OPT_U64, CFG(iters), CFG(has_iters), 1, 1ULL << 40,
	  NULL, NULL, "N", "iterations per size (per QP)",
	  .group = OPT_G_TEST },
	{ "duration", 'D', OPT_U64, CFG(duration_s), NO_HAS, 1, 31536000,
	  NULL, NULL, "SEC", "run for SEC seconds instead of -n iterations",
	  .group = OPT_G_TEST },
	{ "interval", LONG_INTERVAL, OPT_DOUBLE, CFG(interval_s), NO_HAS, 0, 0,
	  NULL, NULL, "SEC",
	  "a row every SEC s: that interval's Gb/s or p50 (iperf3's -i)",
	  .group = OPT_G_OUTPUTS },
	{ "margin", 'f', OPT_U64, CFG(margin_s), CFG(has_margin), 0, 3600,
	  NULL, NULL, "SEC", "-D: warm-up and cool-down left out [D/4]",
	  .group = OPT_G_TEST },
	{ "run_infinitely", LONG_RUN_INF, OPT_FLAG, CFG(run_infinitely),
	  NO_HAS, 0, 0, NULL, NULL, NULL,
	  "run until interrupted, a line every -D seconds [5]",
	  .only = ONLY_BW, .group = OPT_G_TEST },
	{ "qp", 'q', OPT_U64, CFG(qps), NO_HAS, 1, 256, "1", "1", "N",
	  "queue pairs (bandwidth tests)",
	  .only = ONLY_BW, .group = OPT_G_TEST },
	{ "tx-depth", 't', OPT_U64, CFG(tx_depth), NO_HAS, 1, 16384, "128", "1",
	  "N", "operations in flight per QP (bandwidth tests)",
	  .only = ONLY_BW, .group = OPT_G_TEST },
	{ "rx-depth", 'r', OPT_U64, CFG(rx_depth), NO_HAS, 1, 16384, "512",
	  "512", "N", "receives posted per QP (send tests)",
	  .only = ONLY_SEND, .group = OPT_G_TEST },
	{ "post_list", 'l', OPT_U64, CFG(post_list), NO_HAS, 1, 1024, "1", "1",
	  "N", "chain N work requests per post",
	  .only = ONLY_BW, .group = OPT_G_TEST },
	{ "inline_size", 'I', OPT_U64, CFG(inline_bytes), CFG(has_inline), 0,
	  1024, NULL, NULL, "BYTES",
	  "send inline up to BYTES [256, less if the device allows less; 16 "
	  "on rxe and siw]",
	  .only = ONLY_WRITE | ONLY_SEND, .group = OPT_G_TEST },
	{ "cq-mod", 'Q', OPT_U64, CFG(cq_mod), NO_HAS, 1, 1024, "100", "1",
	  "N", "request a completion every N operations",
	  .only = ONLY_BW, .group = OPT_G_TEST },
	{ "outs", 'o', OPT_U64, CFG(outstanding), NO_HAS, 1, 256, "16", "16",
	  "N", "reads/atomics in flight per QP (capped by the device)",
	  .only = ONLY_READ | ONLY_ATOMIC, .group = OPT_G_TEST },
	{ "bidirectional", 'b', OPT_FLAG, CFG(bidir), NO_HAS, 0, 0, NULL, NULL,
	  NULL, "both sides send; each side's figure and the sum",
	  .only = ONLY_BW, .group = OPT_G_TEST },
	{ "connection", 'c', OPT_ENUM, CFG(conn_type), NO_HAS, 0, 0, "RC", "RC",
	  "RC|UC", "connection type (UC: RoCE/IB, not iWARP)", conn_choices,
	  .group = OPT_G_CONN },
	{ "atomic_type", 'A', OPT_ENUM, CFG(atomic_op), NO_HAS, 0, 0,
	  "FETCH_AND_ADD", "FETCH_AND_ADD", "OP", "the atomic operation",
	  atomic_choices,
	  .only = ONLY_ATOMIC, .group = OPT_G_TEST },
	{ "tos", 'T', OPT_U64, CFG(tos), CFG(has_tos), 0, 255, NULL, NULL,
	  "TOS", "traffic class (IP TOS byte) of the QPs [the device's]",
	  .group = OPT_G_CONN },
	{ "tclass", LONG_TCLASS, OPT_U64, CFG(tos), CFG(has_tos), 0, 255, NULL,
	  NULL, "TC", "same as -T", .group = OPT_G_CONN },
	{ "qp-timeout", 'u', OPT_U64, CFG(qp_timeout), CFG(has_qp_timeout), 0,
	  31, "14", "14", "T", "ack timeout 4.096 us * 2^T",
	  .group = OPT_G_CONN },
	{ "retry_count", LONG_RETRY, OPT_U64, CFG(retry_count), NO_HAS, 0, 7,
	  "7", "7", "N", "transport retries before a peer is lost",
	  .group = OPT_G_CONN },
	{ "validate", LONG_VALIDATE, OPT_FLAG, CFG(validate), NO_HAS, 0, 0,
	  NULL, NULL, NULL, "check every byte where the data lands (exit 4)",
	  .group = OPT_G_TEST },
	{ "data_validation", LONG_DATA_VALIDATION, OPT_FLAG, CFG(validate),
	  NO_HAS, 0, 0, NULL, NULL, NULL, "same as --validate",
	  .group = OPT_G_TEST },
	{ "report-histogram", 'H', OPT_FLAG, CFG(histogram), NO_HAS, 0, 0, NULL,
	  NULL, NULL, "print the latency histogram",
	  .only = ONLY_LAT, .group = OPT_G_OUTPUTS },
	{ "report-histogrm", LONG_HISTOGRM, OPT_FLAG, CFG(histogram), NO_HAS,
	  0, 0, NULL, NULL, NULL, NULL, .only = ONLY_LAT,
	  .group = OPT_G_OUTPUTS }, /* perftest's */
	{ "output", LONG_OUTPUT, OPT_ENUM, CFG(output), NO_HAS, 0, 0, "table",
	  "table", "WHAT", "print only that figure, a bare number",
	  output_choices, .group = OPT_G_OUTPUTS },
	{ "connect-timeout", LONG_CONNECT_TIMEOUT, OPT_U64,
	  CFG(connect_timeout_s), NO_HAS, 1, 86400, "30", "30", "SEC",
	  "client: keep retrying the server this long, then fail",
	  .group = OPT_G_CONN },
	{ "timeout", LONG_TIMEOUT, OPT_U64, CFG(io_timeout_s), NO_HAS, 1, 86400,
	  "30", "30", "SEC", "fail when the peer makes no progress this long",
	  .group = OPT_G_CONN },
	{ "report_gbits", LONG_REPORT_GBITS, OPT_FLAG, CFG(report_gbits),
	  NO_HAS, 0, 0, NULL, NULL, NULL,
	  "bandwidth in Gb/sec (10^9 bit/s) instead of MiB/sec",
	  .only = ONLY_BW, .group = OPT_G_OUTPUTS },
	PATH("json", LONG_JSON, json_path, "write the run's JSON document"),
	{ "out_json", LONG_OUT_JSON, OPT_FLAG, CFG(out_json), NO_HAS, 0, 0,
	  NULL, NULL, NULL, "perftest's JSON to ./perftest_out.json",
	  .group = OPT_G_OUTPUTS },
	PATH("out_json_file", LONG_OUT_JSON_FILE, out_json_path,
	     "perftest's JSON to FILE (implies --out_json)"),
	PATH("junit", LONG_JUNIT, junit_path, "write JUnit XML, a case a gate"),
	PATH("prom", LONG_PROM, prom_path, "write a Prometheus textfile"),
	DOUBLE("expect-gbps", LONG_EXP_GBPS, expect_gbps, "GBPS", ONLY_BW,
	       "gate: every size at least GBPS (exit 3)"),
	DOUBLE("expect-node-gbps", LONG_EXP_NODE, expect_node_gbps, "GBPS",
	       ONLY_BW, "gate: --rails' sum at least GBPS (exit 3)"),
	DOUBLE("expect-line-rate", LONG_EXP_LINE, expect_line_rate, "F",
	       ONLY_BW,
	       "gate: at least F x the achievable line rate"),
	DOUBLE("expect-mpps", LONG_EXP_MPPS, expect_mpps, "MPPS", ONLY_BW,
	       "gate: message rate at least MPPS"),
	DOUBLE("expect-p50-us", LONG_EXP_P50, expect_p50_us, "US", ONLY_LAT,
	       "gate: latency p50 at most US"),
	DOUBLE("expect-p99-us", LONG_EXP_P99, expect_p99_us, "US", ONLY_LAT,
	       "gate: latency p99 at most US"),
	{ "limit_bw", 'w', OPT_DOUBLE, CFG(limit_bw), NO_HAS, 0, 0, NULL, NULL,
	  "BW", "perftest's gate: BW average at least BW (report unit)",
	  .only = ONLY_BW, .group = OPT_G_GATES },
	{ "limit_msgrate", 'y', OPT_DOUBLE, CFG(limit_msgrate), NO_HAS, 0, 0,
	  NULL, NULL, "MPPS", "perftest's gate: message rate at least MPPS",
	  .only = ONLY_BW, .group = OPT_G_GATES },
	{ "strict", LONG_STRICT, OPT_FLAG, CFG(strict), NO_HAS, 0, 0, NULL,
	  NULL, NULL, "a downtrained link fails the run",
	  .group = OPT_G_GATES },
	{ "expect-no-errors", LONG_EXP_NOERR, OPT_FLAG, CFG(expect_no_errors),
	  NO_HAS, 0, 0, NULL, NULL, NULL, "fail when port error counters move",
	  .group = OPT_G_GATES },
	{ "numa", LONG_NUMA, OPT_STR, CFG(numa), NO_HAS, 0, OPTS_NAME_MAX,
	  "auto", "auto", "auto|off|N", "pin CPUs and memory to a NUMA node",
	  .group = OPT_G_PLACE },
	{ "cpu", LONG_CPU, OPT_STR, CFG(cpu_list), NO_HAS, 0, OPTS_NAME_MAX,
	  "", "", "LIST", "run on these CPUs (within those allowed)",
	  .group = OPT_G_PLACE },
	{ "pin_cores", LONG_PIN_CORES, OPT_STR, CFG(cpu_list), NO_HAS, 0,
	  OPTS_NAME_MAX, NULL, NULL, "LIST", "perftest's name for --cpu",
	  .group = OPT_G_PLACE },
	{ "numa_node", LONG_NUMA_NODE, OPT_U64, CFG(numa_node),
	  CFG(has_numa_node), 0, 1023, NULL, NULL, "N", "same as --numa N",
	  .group = OPT_G_PLACE },
	{ "disable_numa", LONG_DISABLE_NUMA, OPT_FLAG, CFG(disable_numa),
	  NO_HAS, 0, 0, NULL, NULL, NULL, "same as --numa off",
	  .group = OPT_G_PLACE },
	{ "use_cuda", LONG_CUDA, OPT_OPT_INT, CFG(use_cuda), NO_HAS, 0, 1023,
	  "-1", "-1", "[=N|auto]", "buffers in GPU N's memory (cudaMalloc); "
	  "auto: the GPU nearest each rail's NIC",
	  .only = ONLY_BW | ONLY_LISTED,
	  .group = OPT_G_GPU },
	{ "use_cuda_bus_id", LONG_CUDA_BUS, OPT_STR, CFG(cuda_bus_id), NO_HAS,
	  0, OPTS_NAME_MAX, NULL, NULL, "BDF", "the GPU at this PCI address",
	  .only = ONLY_BW | ONLY_LISTED,
	  .group = OPT_G_GPU },
	{ "use_cuda_dmabuf", LONG_CUDA_DMABUF, OPT_FLAG, CFG(use_cuda_dmabuf),
	  NO_HAS, 0, 0, NULL, NULL, NULL, "register GPU memory through dmabuf",
	  .only = ONLY_BW | ONLY_LISTED,
	  .group = OPT_G_GPU },
	{ "persistent", LONG_PERSISTENT, OPT_FLAG, CFG(persistent), NO_HAS, 0,
	  0, NULL, NULL, NULL, "server: serve clients one after another",
	  .group = OPT_G_SERVER },
	{ "max-size", LONG_MAX_SIZE, OPT_SIZE, CFG(max_size_bytes), NO_HAS, 1,
	  1ULL << 31, "2G", "2G", "BYTES", "server: largest message a client "
	  "may ask for", .group = OPT_G_SERVER },
	{ "max-qps", LONG_MAX_QPS, OPT_U64, CFG(max_qps), NO_HAS, 1, 256, "256",
	  "256", "N", "server: most QPs a client may ask for",
	  .group = OPT_G_SERVER },
	{ "max-duration", LONG_MAX_DURATION, OPT_U64, CFG(max_duration_s),
	  NO_HAS, 1, 31536000, "86400", "86400", "SEC",
	  "server: longest -D a client may ask for", .group = OPT_G_SERVER },
	{ "max-mem", LONG_MAX_MEM, OPT_SIZE, CFG(max_mem_bytes),
	  CFG(has_max_mem), 1, 1ULL << 40, "8G", "8G", "BYTES", "server: most "
	  "memory (buffers, rings) a client may make it allocate; default: "
	  "half the cgroup limit, within ulimit -l, else",
	  .group = OPT_G_SERVER },
	{ "allow-foreign-gid", LONG_ALLOW_FOREIGN_GID, OPT_FLAG,
	  CFG(allow_foreign_gid), NO_HAS, 0, 0, NULL, NULL, NULL,
	  "server: connect TCP clients' QPs to a GID not of their own "
	  "address (else refused: a reflector)", .group = OPT_G_SERVER },
	{ "bind", LONG_BIND, OPT_STR, CFG(bind_addr), NO_HAS, 0, OPTS_ADDR_MAX,
	  "", "", "ADDR", "server: listen (TCP and rdma_cm) on this local "
	  "address only", .group = OPT_G_SERVER },
	{ "auth-key-file", LONG_AUTH_KEY_FILE, OPT_STR, CFG(auth_key_file),
	  NO_HAS, 0, OPTS_PATH_MAX, "", "", "FILE", "a shared key (>= 16 "
	  "bytes): mutual HMAC-SHA256 challenge before any test; env "
	  "RDMABENCH_AUTH_KEY_FILE", .group = OPT_G_CONN },
	{ "rdma_cm", 'R', OPT_FLAG, CFG(rdma_cm), NO_HAS, 0, 0, NULL, NULL,
	  NULL, "connect the QPs with rdma_cm (--oob cm)",
	  .group = OPT_G_CONN },
	ACCEPTED("CPU-freq", 'F', NULL,
		 "no cpufreq warning: figures use CLOCK_MONOTONIC_RAW"),
	ACCEPTED("comm_rdma_cm", 'z', NULL,
		 "the control channel follows --oob (rdma_cm with -R)"),
	{ "com_rdma_cm", LONG_COM_RDMA_CM, OPT_NOOP, NOOP, NO_HAS, 0, 0, NULL,
	  NULL, NULL, NULL,
	  .group = OPT_G_PERFTEST }, /* perftest's --help spells -z so */
	ACCEPTED("ipv6", LONG_IPV6, NULL,
		 "the address family follows the address given"),
	ACCEPTED("ipv6-addr", LONG_IPV6_ADDR, NULL,
		 "the address family follows the address given"),
	ACCEPTED("use_old_post_send", LONG_OLD_POST_SEND, NULL,
		 "work requests are always posted with ibv_post_send"),
	{ "disable_pcie_relaxed", LONG_NO_RELAXED, OPT_NOOP, NOOP, NO_HAS, 0, 0,
	  NULL, NULL, NULL, "buffers are never registered with relaxed "
	  "ordering", .only = ONLY_BW, .group = OPT_G_PERFTEST },
	{ "noPeak", 'N', OPT_FLAG, CFG(no_peak), NO_HAS, 0, 0, NULL, NULL,
	  NULL, "no peak: BW peak prints 0.00 as in perftest",
	  .only = ONLY_BW, .group = OPT_G_OUTPUTS },
	{ "report-both", LONG_REPORT_BOTH, OPT_FLAG, CFG(report_both), NO_HAS,
	  0, 0, NULL, NULL, NULL,
	  "-b: each side's figure apart (what -b prints)", .only = ONLY_BW,
	  .group = OPT_G_OUTPUTS },
	{ "perform_warm_up", LONG_WARMUP, OPT_FLAG, CFG(warm_up), NO_HAS, 0,
	  0, NULL, NULL, NULL, "-D: measure after the -f warm-up margin",
	  .only = ONLY_BW, .group = OPT_G_TEST },
	{ "cuda_mem_type", LONG_CUDA_MEM_TYPE, OPT_U64, CFG(cuda_mem_type),
	  NO_HAS, 0, 4, NULL, NULL, "T",
	  "--use_cuda memory: 0 = device (cuMemAlloc), the only one",
	  .only = ONLY_BW | ONLY_LISTED,
	  .group = OPT_G_GPU },
	{ "mtu", 'm', OPT_U64, CFG(mtu), CFG(has_mtu), 256, 4096, NULL, NULL,
	  "MTU", "TCP control: path MTU 256..4096 [the port's active MTU]",
	  .group = OPT_G_CONN },
	{ "sl", 'S', OPT_U64, CFG(sl), CFG(has_sl), 0, 15, NULL, NULL, "SL",
	  "TCP control: service level [0]", .group = OPT_G_CONN },
	{ "source_ip", 'j', OPT_STR, CFG(source_ip), NO_HAS, 0, OPTS_ADDR_MAX,
	  "", "", "IP", "client, rdma_cm: connect from this local IP",
	  .group = OPT_G_CONN },
	{ "bind_source_ip", LONG_BIND_SOURCE_IP, OPT_STR, CFG(source_ip),
	  NO_HAS, 0, OPTS_ADDR_MAX, "", "", "IP", NULL,
	  .group = OPT_G_CONN }, /* perftest's */
	{ "hop_limit", 'L', OPT_U64, CFG(hop_limit), CFG(has_hop_limit), 0,
	  255, NULL, NULL, "N", "TCP control: GRH hop limit [64]",
	  .group = OPT_G_CONN },
	{ "help", 'h', OPT_FLAG, CFG(show_help), NO_HAS, 0, 0, NULL, NULL, NULL,
	  "show this help", .group = OPT_G_HELP },
	{ "version", 'V', OPT_FLAG, CFG(show_version), NO_HAS, 0, 0, NULL,
	  NULL, NULL, "show the version", .group = OPT_G_HELP },
};
const size_t opts_table_count = sizeof(opts_table_rows) /
				sizeof(opts_table_rows[0]);
_Static_assert(sizeof(opts_table_rows) / sizeof(opts_table_rows[0]) <=
	       OPTS_TABLE_MAX, "raise OPTS_TABLE_MAX");

/* The verb names of ONLY_WRITE, ONLY_READ, ... in that order. */
static const char *const only_verbs[] = { "write", "read", "send", "atomic" };
#define ONLY_VERB_COUNT (sizeof(only_verbs) / sizeof(only_verbs[0]))

unsigned int opts_table_mine(const struct bench_desc *d)
{
	unsigned int bits = d->measure == BENCH_MEASURE_BW ? ONLY_BW : ONLY_LAT;
	size_t i;

	for (i = 0; i < ONLY_VERB_COUNT; i++)
		if (!strcmp(bench_verb_name(d->verb), only_verbs[i]))
			bits |= ONLY_WRITE << i;
	return bits;
}

void opts_table_tools(unsigned int only, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < ONLY_VERB_COUNT; i++)
		if (only & (ONLY_WRITE << i))
			n += snprintf(buf + n, n < len ? len - n : 0,
				      "%sib_%s_*", n ? ", " : "",
				      only_verbs[i]);
}

bool opts_table_only_ok(unsigned int only, const struct bench_desc *d)
{
	unsigned int mine = opts_table_mine(d);

	return (!(only & ONLY_MEASURES) || (only & mine & ONLY_MEASURES)) &&
	       (!(only & ONLY_VERBS) || (only & mine & ONLY_VERBS));
}

bool opts_table_applies(const struct opt_def *o, const struct bench_desc *d)
{
	return opts_table_only_ok(o->only, d);
}

bool opts_table_choice_ok(const struct opt_def *o, size_t i,
			  const struct bench_desc *d)
{
	/* the verb table says who can do UC */
	return o->choices != conn_choices || i != OPTS_CONN_UC ||
	       bench_verb(d->verb)->uc_ok;
}

bool opts_table_listed(const struct opt_def *o, const struct bench_desc *d)
{
	return o->help && opts_table_applies(o, d) &&
	       !(bench_verb(d->verb)->fixed_size &&
		 (o->code == 's' || o->code == 'a'));
}

const char *opts_table_label(const struct opt_def *o, char *buf, size_t len)
{
	if (o->code < 256)
		snprintf(buf, len, "-%c/--%s", o->code, o->long_name);
	else
		snprintf(buf, len, "--%s", o->long_name);
	return buf;
}
