// SPDX-License-Identifier: BSD-2-Clause
/*
 * opts_table - the option rows (see opts_table.h for what a row fills) and
 * the questions asked of a row: which tools it applies to, its label.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/tick.h"
#include "spec/opts.h"
#include "spec/opts_table.h"

#define CFG(field) offsetof(struct bench_cfg, field)
#define NOOP CFG(noop_seen)
/* A row of perftest's other tools: every bench tool takes it and ignores
 * it (opts_table.h's ONLY_NO_TOOL | IGNORED_ELSEWHERE). */
#define IGNORED_ROW(n, c, k, lo, hi, a)                                  \
	{ .name = (n), .code = (c), .kind = (k), .off = NOOP, .min = (lo), \
	  .max = (hi), .arg = (a), .only = ONLY_NO_TOOL | IGNORED_ELSEWHERE, \
	  .group = OPT_G_PERFTEST }

static const char *const conn_choices[] = { "RC", "UC", "UD", "DC", "SRD",
					   "XRC", NULL };
static const char *const atomic_choices[] = { "FETCH_AND_ADD", "CMP_AND_SWAP",
					       NULL };
static const char *const oob_choices[] = { "cm", "tcp", "auto", NULL };
/* enum opts_rate_unit and enum opts_rate (perftest's words) */
static const char *const rate_unit_choices[] = { "g", "M", "p", NULL };
static const char *const rate_type_choices[] = { "HW", "SW", "PP", NULL };
static const char *const output_choices[] = { "table", "bandwidth",
					       "message_rate", "latency", NULL };

/*
 * -s and -n take their defaults from the executable's descriptor (perftest:
 * 65536 B x 5000 for write bandwidth, 2 B x 1000 for latency).
 */
/* One row an option: kept a few fields a line (clang-format off), so the
 * table reads as a table. */
/* clang-format off */
const struct opt_def opts_table_rows[] = {
	{ .name = "ib-dev", .code = 'd', .kind = OPT_STR, .off = CFG(dev_name),
	  .max = OPTS_NAME_MAX, .arg = "DEV",
	  .help = "RDMA device; must own the IP in use",
	  .group = OPT_G_CONN },
	{ .name = "netdev", .code = LONG_NETDEV, .kind = OPT_STR,
	  .off = CFG(netdev), .max = OPTS_NAME_MAX, .arg = "IF",
	  .help = "use the RDMA device behind this interface (pods)",
	  .group = OPT_G_CONN },
	{ .name = "rails", .code = LONG_RAILS, .kind = OPT_STR,
	  .off = CFG(rails), .max = OPTS_PATH_MAX, .arg = "auto|LIST",
	  .help = "a thread per rail: every ACTIVE port, or "
	  "DEV[:PORT][@NODE],...",
	  .only = ONLY_BW, .group = OPT_G_CONN },
	{ .name = "oob", .code = LONG_OOB, .kind = OPT_ENUM, .off = CFG(oob),
	  .def = "auto", .arg = "cm|tcp|auto",
	  .help = "control channel: auto (TCP to SERVER, any name; server: "
	  "TCP and rdma_cm), cm (rdma_cm), tcp",
	  .choices = oob_choices, .group = OPT_G_CONN },
	{ .name = "ib-port", .code = 'i', .kind = OPT_U64, .off = CFG(ib_port),
	  .has_off = CFG(has_ib_port), .min = 1, .max = 255, .def = "1",
	  .arg = "PORT",
	  .help = "device port; must be the IP's port",
	  .group = OPT_G_CONN },
	{ .name = "gid-index", .code = 'x', .kind = OPT_U64,
	  .off = CFG(gid_index), .has_off = CFG(has_gid_index), .max = INT32_MAX,
	  .arg = "IDX",
	  .help = "TCP control: GID index [best RoCEv2]; rdma_cm: from the IP",
	  .group = OPT_G_CONN },
	{ .name = "port", .code = 'p', .kind = OPT_U64, .off = CFG(tcp_port),
	  .max = INT32_MAX, .def = "18515", .arg = "PORT",
	  .help = "port the server listens on (TCP and rdma_cm)",
	  .group = OPT_G_CONN },
	{ .name = "size", .code = 's', .kind = OPT_SIZE, .off = CFG(size_bytes),
	  .min = 1, .max = 1ULL << 31, .arg = "BYTES",
	  .help = "message size (K/M/G suffixes)",
	  .group = OPT_G_TEST },
	{ .name = "all", .code = 'a', .kind = OPT_FLAG, .off = CFG(all_sizes),
	  .help = "sweep sizes 2 B .. 8 MiB, powers of two, one row each",
	  .group = OPT_G_TEST },
	{ .name = "iters", .code = 'n', .kind = OPT_U64, .off = CFG(iters),
	  .has_off = CFG(has_iters), .min = 1, .max = 1ULL << 40, .arg = "N",
	  .help = "iterations per size (per QP)",
	  .group = OPT_G_TEST },
	{ .name = "duration", .code = 'D', .kind = OPT_U64,
	  .off = CFG(duration_s), .min = 1, .max = 31536000, .arg = "SEC",
	  .help = "run for SEC seconds instead of -n iterations",
	  .group = OPT_G_TEST },
	{ .name = "interval", .code = LONG_INTERVAL, .kind = OPT_DOUBLE,
	  .off = CFG(interval_s), .arg = "SEC",
	  .help = "a row every SEC s: that interval's Gb/s or p50 (iperf3's "
	  "-i)",
	  .group = OPT_G_OUTPUTS },
	{ .name = "margin", .code = 'f', .kind = OPT_U64, .off = CFG(margin_s),
	  .has_off = CFG(has_margin), .max = 3600, .arg = "SEC",
	  .help = "-D: warm-up and cool-down left out [D/4]",
	  .group = OPT_G_TEST },
	{ .name = "run_infinitely", .code = LONG_RUN_INF, .kind = OPT_FLAG,
	  .off = CFG(run_infinitely),
	  .help = "run until interrupted, a line every -D seconds [5]",
	  .only = ONLY_BW, .group = OPT_G_TEST },
	{ .name = "qp", .code = 'q', .kind = OPT_U64, .off = CFG(qps), .min = 1,
	  .max = 256, .def = "1", .arg = "N",
	  .help = "queue pairs (bandwidth tests)",
	  .only = ONLY_BW, .group = OPT_G_TEST },
	{ .name = "tx-depth", .code = 't', .kind = OPT_U64,
	  .off = CFG(tx_depth), .min = 1, .max = 16384, .def = "128",
	  .def_lat = "1", .arg = "N",
	  .help = "operations in flight per QP (bandwidth tests)",
	  .only = ONLY_BW | IGNORED_ELSEWHERE, .group = OPT_G_TEST },
	{ .name = "rx-depth", .code = 'r', .kind = OPT_U64,
	  .off = CFG(rx_depth), .min = 1, .max = 16384, .def = "512",
	  .arg = "N",
	  .help = "receives posted per QP (send tests)",
	  .only = ONLY_SEND, .group = OPT_G_TEST },
	{ .name = "dualport", .code = 'O', .kind = OPT_FLAG,
	  .off = CFG(dualport),
	  .help = "perftest's dual-port mode: taken, and refused at the "
	  "run's start (not built): run one pair per port, -i 1 and -i 2",
	  .only = ONLY_BW, .group = OPT_G_PERFTEST },
	{ .name = "report-per-port", .code = LONG_REPORT_PER_PORT,
	  .kind = OPT_FLAG, .off = CFG(report_per_port),
	  .help = "with -O and -D, as perftest's: taken (-O is not built)",
	  .only = ONLY_BW, .group = OPT_G_PERFTEST },
	{ .name = "mcg", .code = 'g', .kind = OPT_FLAG, .off = CFG(mcg),
	  .help = "perftest's multicast send: taken, and refused at the "
	  "run's start (not built): use -c UD for one peer",
	  .only = ONLY_SEND, .group = OPT_G_PERFTEST },
	{ .name = "post_list", .code = 'l', .kind = OPT_U64,
	  .off = CFG(post_list), .has_off = CFG(has_post_list), .max = 1024,
	  .def = "1", .arg = "N",
	  .help = "chain N work requests per post (0: 1, as perftest); "
	  "without -Q one completion a list (-Q N), as perftest",
	  .only = ONLY_BW | ONLY_LISTED, .group = OPT_G_TEST },
	{ .name = "recv_post_list", .code = LONG_RECV_POST_LIST,
	  .kind = OPT_U64, .off = CFG(recv_post_list),
	  .has_off = CFG(has_recv_post_list), .max = 16384, .arg = "N",
	  .help = "post receives in lists of N (send tests; -n a multiple "
	  "of N, as perftest; 0: 1)",
	  .only = ONLY_BW | ONLY_LISTED, .group = OPT_G_TEST },
	{ .name = "inline_size", .code = 'I', .kind = OPT_U64,
	  .off = CFG(inline_bytes), .has_off = CFG(has_inline), .max = 1024,
	  .arg = "BYTES",
	  .help = "send inline up to BYTES [256, less if the device allows "
	  "less; 16 on rxe and siw]",
	  .only = ONLY_WRITE | ONLY_SEND, .group = OPT_G_TEST },
	{ .name = "cq-mod", .code = 'Q', .kind = OPT_U64, .off = CFG(cq_mod),
	  .has_off = CFG(has_cq_mod), .min = 1, .max = 1024, .def = "100", .def_lat = "1", .arg = "N",
	  .help = "request a completion every N operations",
	  .only = ONLY_BW | IGNORED_ELSEWHERE, .group = OPT_G_TEST },
	{ .name = "outs", .code = 'o', .kind = OPT_U64, .off = CFG(outstanding),
	  .min = 1, .max = 256, .def = "255", .arg = "N",
	  .help = "reads/atomics on the wire per QP, as perftest's out_reads "
	  "(capped by the device: 255 is its most); -t bounds the posts",
	  .only = ONLY_READ | ONLY_ATOMIC, .group = OPT_G_TEST },
	{ .name = "bidirectional", .code = 'b', .kind = OPT_FLAG,
	  .off = CFG(bidir),
	  .help = "both sides send; each side's figure and the sum",
	  .only = ONLY_BW, .group = OPT_G_TEST },
	{ .name = "reversed", .code = LONG_REVERSED, .kind = OPT_FLAG,
	  .off = CFG(reversed),
	  .help = "bandwidth tools: the server sends, the client receives "
	  "(perftest's; the client's travels in its request)",
	  .group = OPT_G_TEST },
	{ .name = "connection", .code = 'c', .kind = OPT_ENUM,
	  .off = CFG(conn_type), .def = "RC", .arg = "RC|UC|UD",
	  .help = "connection type (UC, UD: RoCE/IB, not iWARP; UD: "
		  "ib_send_*, messages up to the MTU)",
	  .choices = conn_choices, .group = OPT_G_CONN },
	{ .name = "atomic_type", .code = 'A', .kind = OPT_ENUM,
	  .off = CFG(atomic_op), .def = "FETCH_AND_ADD", .arg = "OP",
	  .help = "the atomic operation",
	  .choices = atomic_choices, .only = ONLY_ATOMIC, .group = OPT_G_TEST },
	{ .name = "tos", .code = 'T', .kind = OPT_U64, .off = CFG(tos),
	  .has_off = CFG(has_tos), .max = 255, .arg = "TOS",
	  .help = "traffic class (IP TOS byte) of the QPs [the device's]",
	  .group = OPT_G_CONN },
	{ .name = "tclass", .code = LONG_TCLASS, .kind = OPT_U64,
	  .off = CFG(tos), .has_off = CFG(has_tos), .max = 255, .arg = "TC",
	  .help = "same as -T",
	  .group = OPT_G_CONN },
	{ .name = "qp-timeout", .code = 'u', .kind = OPT_U64,
	  .off = CFG(qp_timeout), .has_off = CFG(has_qp_timeout), .max = 31,
	  .def = "14", .arg = "T",
	  .help = "ack timeout 4.096 us * 2^T",
	  .group = OPT_G_CONN },
	{ .name = "retry_count", .code = LONG_RETRY, .kind = OPT_U64,
	  .off = CFG(retry_count), .max = 7, .def = "7", .arg = "N",
	  .help = "transport retries before a peer is lost",
	  .group = OPT_G_CONN },
	{ .name = "validate", .code = LONG_VALIDATE, .kind = OPT_FLAG,
	  .off = CFG(validate),
	  .help = "check every byte where the data lands (exit 4)",
	  .group = OPT_G_TEST },
	{ .name = "data_validation", .code = LONG_DATA_VALIDATION,
	  .kind = OPT_FLAG, .off = CFG(validate),
	  .help = "same as --validate",
	  .group = OPT_G_TEST },
	{ .name = "report-cycles", .code = 'C', .kind = OPT_FLAG,
	  .off = CFG(report_cycles),
	  .help = "latency rows (and -U) in CPU cycles, as perftest; the "
	  "header says how the cycle rate was measured",
	  .only = ONLY_LAT, .group = OPT_G_OUTPUTS },
	{ .name = "report-histogram", .code = 'H', .kind = OPT_FLAG,
	  .off = CFG(histogram),
	  .help = "print the latency histogram",
	  .only = ONLY_LAT, .group = OPT_G_OUTPUTS },
	{ .name = "report-unsorted", .code = 'U', .kind = OPT_FLAG,
	  .off = CFG(unsorted),
	  .help = "-n: print each size's samples in the order taken, "
	  "before its row (the first 1048576)",
	  .only = ONLY_LAT, .group = OPT_G_OUTPUTS },
	/* perftest's spelling: no help, not listed */
	{ .name = "report-histogrm", .code = LONG_HISTOGRM, .kind = OPT_FLAG,
	  .off = CFG(histogram), .only = ONLY_LAT, .group = OPT_G_OUTPUTS },
	{ .name = "output", .code = LONG_OUTPUT, .kind = OPT_ENUM,
	  .off = CFG(output), .def = "table", .arg = "WHAT",
	  .help = "print only that figure, a bare number",
	  .choices = output_choices, .group = OPT_G_OUTPUTS },
	{ .name = "connect-timeout", .code = LONG_CONNECT_TIMEOUT,
	  .kind = OPT_U64, .off = CFG(connect_timeout_s), .min = 1,
	  .max = 86400, .def = "30", .arg = "SEC",
	  .help = "client: keep retrying the server this long, then fail",
	  .group = OPT_G_CONN },
	{ .name = "timeout", .code = LONG_TIMEOUT, .kind = OPT_U64,
	  .off = CFG(io_timeout_s), .min = 1, .max = 86400, .def = "30",
	  .arg = "SEC",
	  .help = "fail when the peer makes no progress this long",
	  .group = OPT_G_CONN },
	{ .name = "report_gbits", .code = LONG_REPORT_GBITS, .kind = OPT_FLAG,
	  .off = CFG(report_gbits),
	  .help = "bandwidth in Gb/sec (10^9 bit/s) instead of MiB/sec",
	  .only = ONLY_BW | IGNORED_ELSEWHERE, .group = OPT_G_OUTPUTS },
	{ .name = "report-counters", .code = 'W', .kind = OPT_STR,
	  .off = CFG(report_counters), .max = OPTS_PATH_MAX, .arg = "LIST",
	  .help = "after each row, the change of these port counters (files "
	  "under /sys/class/infiniband/DEV/ports/N/: "
	  "counters/port_xmit_data,hw_counters/...), as perftest",
	  .group = OPT_G_OUTPUTS },
	{ .name = "json", .code = LONG_JSON, .kind = OPT_STR,
	  .off = CFG(json_path), .max = OPTS_PATH_MAX, .arg = "FILE",
	  .help = "write the run's JSON document",
	  .group = OPT_G_OUTPUTS },
	{ .name = "out_json", .code = LONG_OUT_JSON, .kind = OPT_FLAG,
	  .off = CFG(out_json),
	  .help = "perftest's JSON to ./perftest_out.json",
	  .group = OPT_G_OUTPUTS },
	{ .name = "out_json_file", .code = LONG_OUT_JSON_FILE, .kind = OPT_STR,
	  .off = CFG(out_json_path), .max = OPTS_PATH_MAX, .arg = "FILE",
	  .help = "perftest's JSON to FILE (implies --out_json)",
	  .group = OPT_G_OUTPUTS },
	{ .name = "junit", .code = LONG_JUNIT, .kind = OPT_STR,
	  .off = CFG(junit_path), .max = OPTS_PATH_MAX, .arg = "FILE",
	  .help = "write JUnit XML, a case a gate",
	  .group = OPT_G_OUTPUTS },
	{ .name = "prom", .code = LONG_PROM, .kind = OPT_STR,
	  .off = CFG(prom_path), .max = OPTS_PATH_MAX, .arg = "FILE",
	  .help = "write a Prometheus textfile",
	  .group = OPT_G_OUTPUTS },
	{ .name = "push", .code = LONG_PUSH, .kind = OPT_STR,
	  .off = CFG(push_url), .max = OPTS_PATH_MAX, .arg = "URL",
	  .help = "PUT the Prometheus text to a Pushgateway, grouped by "
		  "node, tool, side, device and peer (http only; 5 s)",
	  .group = OPT_G_OUTPUTS },
	{ .name = "prom-textfile", .code = LONG_PROM_TEXTFILE,
	  .kind = OPT_STR, .off = CFG(prom_textfile), .max = OPTS_PATH_MAX,
	  .arg = "DIR", .help = "write the Prometheus text into node_exporter's "
		  "textfile directory, one file a link and side",
	  .group = OPT_G_OUTPUTS },
	{ .name = "summary", .code = LONG_SUMMARY, .kind = OPT_STR,
	  .off = CFG(summary_path), .max = OPTS_PATH_MAX, .arg = "FILE",
	  .help = "write the verdict summary: one line of JSON under 4 KiB "
		  "(a pod's termination message)",
	  .group = OPT_G_OUTPUTS },
	{ .name = "expect-gbps", .code = LONG_EXP_GBPS, .kind = OPT_DOUBLE,
	  .off = CFG(expect_gbps), .arg = "GBPS",
	  .help = "gate: every size at least GBPS (exit 3)",
	  .only = ONLY_BW | ONLY_LISTED, .group = OPT_G_GATES },
	{ .name = "expect-node-gbps", .code = LONG_EXP_NODE, .kind = OPT_DOUBLE,
	  .off = CFG(expect_node_gbps), .arg = "GBPS",
	  .help = "gate: --rails' sum at least GBPS (exit 3)",
	  .only = ONLY_BW | ONLY_LISTED, .group = OPT_G_GATES },
	{ .name = "expect-line-rate", .code = LONG_EXP_LINE, .kind = OPT_DOUBLE,
	  .off = CFG(expect_line_rate), .arg = "F",
	  .help = "gate: at least F x the achievable line rate",
	  .only = ONLY_BW | ONLY_LISTED, .group = OPT_G_GATES },
	{ .name = "expect-mpps", .code = LONG_EXP_MPPS, .kind = OPT_DOUBLE,
	  .off = CFG(expect_mpps), .arg = "MPPS",
	  .help = "gate: message rate at least MPPS",
	  .only = ONLY_BW | ONLY_LISTED, .group = OPT_G_GATES },
	{ .name = "expect-p50-us", .code = LONG_EXP_P50, .kind = OPT_DOUBLE,
	  .off = CFG(expect_p50_us), .arg = "US",
	  .help = "gate: latency p50 at most US",
	  .only = ONLY_LAT | ONLY_LISTED, .group = OPT_G_GATES },
	{ .name = "expect-p99-us", .code = LONG_EXP_P99, .kind = OPT_DOUBLE,
	  .off = CFG(expect_p99_us), .arg = "US",
	  .help = "gate: latency p99 at most US",
	  .only = ONLY_LAT | ONLY_LISTED, .group = OPT_G_GATES },
	{ .name = "limit_bw", .code = 'w', .kind = OPT_DOUBLE,
	  .off = CFG(limit_bw), .arg = "BW",
	  .help = "perftest's gate: BW average at least BW (report unit)",
	  .only = ONLY_BW | IGNORED_ELSEWHERE, .group = OPT_G_GATES },
	{ .name = "limit_msgrate", .code = 'y', .kind = OPT_DOUBLE,
	  .off = CFG(limit_msgrate), .arg = "MPPS",
	  .help = "perftest's gate: message rate at least MPPS",
	  .only = ONLY_BW | IGNORED_ELSEWHERE, .group = OPT_G_GATES },
	{ .name = "strict", .code = LONG_STRICT, .kind = OPT_FLAG,
	  .off = CFG(strict),
	  .help = "a downtrained link fails the run",
	  .group = OPT_G_GATES },
	{ .name = "expect-no-errors", .code = LONG_EXP_NOERR, .kind = OPT_FLAG,
	  .off = CFG(expect_no_errors),
	  .help = "fail when port error counters move",
	  .group = OPT_G_GATES },
	{ .name = "expect-max-pause", .code = LONG_EXP_MAX_PAUSE,
	  .kind = OPT_STR, .off = CFG(expect_max_pause), .max = OPTS_NAME_MAX,
	  .arg = "N/s|N/GB",
	  .help = "gate: PFC/pause frames (ethtool) at most N a second or "
		  "a GB moved",
	  .group = OPT_G_GATES },
	{ .name = "expect-max-cnp", .code = LONG_EXP_MAX_CNP, .kind = OPT_STR,
	  .off = CFG(expect_max_cnp), .max = OPTS_NAME_MAX, .arg = "N/s|N/GB",
	  .help = "gate: CNPs sent and handled at most N a second or a GB",
	  .group = OPT_G_GATES },
	{ .name = "expect-max-ecn", .code = LONG_EXP_MAX_ECN, .kind = OPT_STR,
	  .off = CFG(expect_max_ecn), .max = OPTS_NAME_MAX, .arg = "N/s|N/GB",
	  .help = "gate: ECN-marked packets at most N a second or a GB",
	  .group = OPT_G_GATES },
	{ .name = "expect-max-out-of-buffer", .code = LONG_EXP_MAX_OOB,
	  .kind = OPT_STR, .off = CFG(expect_max_oob), .max = OPTS_NAME_MAX,
	  .arg = "N/s|N/GB",
	  .help = "gate: out_of_buffer drops at most N a second or a GB",
	  .group = OPT_G_GATES },
	{ .name = "numa", .code = LONG_NUMA, .kind = OPT_STR, .off = CFG(numa),
	  .max = OPTS_NAME_MAX, .def = "auto", .arg = "auto|off|N",
	  .help = "pin CPUs and memory to a NUMA node",
	  .group = OPT_G_PLACE },
	{ .name = "cpu", .code = LONG_CPU, .kind = OPT_STR,
	  .off = CFG(cpu_list), .max = OPTS_NAME_MAX, .arg = "LIST",
	  .help = "run on these CPUs (within those allowed)",
	  .group = OPT_G_PLACE },
	{ .name = "pin_cores", .code = LONG_PIN_CORES, .kind = OPT_STR,
	  .off = CFG(cpu_list), .max = OPTS_NAME_MAX, .arg = "LIST",
	  .help = "perftest's name for --cpu",
	  .group = OPT_G_PLACE },
	{ .name = "numa_node", .code = LONG_NUMA_NODE, .kind = OPT_U64,
	  .off = CFG(numa_node), .has_off = CFG(has_numa_node), .max = 1023,
	  .arg = "N",
	  .help = "same as --numa N",
	  .group = OPT_G_PLACE },
	{ .name = "disable_numa", .code = LONG_DISABLE_NUMA, .kind = OPT_FLAG,
	  .off = CFG(disable_numa),
	  .help = "same as --numa off",
	  .group = OPT_G_PLACE },
	{ .name = "use_cuda", .code = LONG_CUDA, .kind = OPT_OPT_INT,
	  .off = CFG(use_cuda), .max = 1023, .def = "-1", .bare = "0",
	  .arg = "[=N|auto]",
	  .help = "buffers in GPU N's memory (cudaMalloc); auto: the GPU "
	  "nearest each rail's NIC",
	  .only = ONLY_BW | ONLY_LISTED, .group = OPT_G_GPU },
	{ .name = "use_cuda_bus_id", .code = LONG_CUDA_BUS, .kind = OPT_STR,
	  .off = CFG(cuda_bus_id), .max = OPTS_NAME_MAX, .arg = "BDF",
	  .help = "the GPU at this PCI address",
	  .only = ONLY_BW | ONLY_LISTED, .group = OPT_G_GPU },
	{ .name = "use_cuda_dmabuf", .code = LONG_CUDA_DMABUF, .kind = OPT_FLAG,
	  .off = CFG(use_cuda_dmabuf),
	  .help = "register GPU memory through dmabuf",
	  .only = ONLY_BW | ONLY_LISTED, .group = OPT_G_GPU },
	{ .name = "use_hugepages", .code = LONG_USE_HUGEPAGES,
	  .kind = OPT_FLAG, .off = CFG(use_hugepages),
	  .help = "buffers in huge pages (MAP_HUGETLB, /proc/sys/vm/"
	  "nr_hugepages) on the NUMA node; this side's only",
	  .group = OPT_G_PLACE },
	{ .name = "mmap", .code = LONG_MMAP, .kind = OPT_STR,
	  .off = CFG(mmap_path), .max = OPTS_PATH_MAX, .arg = "FILE",
	  .help = "buffers in this regular file's pages (MAP_SHARED, written "
	  "over, never created); this side's only",
	  .group = OPT_G_PLACE },
	{ .name = "mmap-offset", .code = LONG_MMAP_OFFSET, .kind = OPT_U64,
	  .off = CFG(mmap_offset), .has_off = CFG(has_mmap_offset),
	  .max = INT64_MAX, .def = "0", .arg = "BYTES",
	  .help = "--mmap: from this offset in the file (a page multiple)",
	  .group = OPT_G_PLACE },
	{ .name = "odp", .code = LONG_ODP, .kind = OPT_FLAG, .off = CFG(odp),
	  .help = "register the buffers on demand (ODP: nothing pinned), "
	  "where the device pages on demand; this side's only",
	  .only = ONLY_WRITE | ONLY_READ | ONLY_SEND, .group = OPT_G_PLACE },
	{ .name = "persistent", .code = LONG_PERSISTENT, .kind = OPT_FLAG,
	  .off = CFG(persistent),
	  .help = "server: serve clients one after another",
	  .group = OPT_G_SERVER },
	{ .name = "max-size", .code = LONG_MAX_SIZE, .kind = OPT_SIZE,
	  .off = CFG(max_size_bytes), .min = 1, .max = 1ULL << 31, .def = "2G",
	  .arg = "BYTES",
	  .help = "server: largest message a client may ask for",
	  .group = OPT_G_SERVER },
	{ .name = "max-qps", .code = LONG_MAX_QPS, .kind = OPT_U64,
	  .off = CFG(max_qps), .min = 1, .max = 256, .def = "256", .arg = "N",
	  .help = "server: most QPs a client may ask for",
	  .group = OPT_G_SERVER },
	{ .name = "max-duration", .code = LONG_MAX_DURATION, .kind = OPT_U64,
	  .off = CFG(max_duration_s), .min = 1, .max = 31536000, .def = "600",
	  .arg = "SEC",
	  .help = "server: longest -D a client may ask for",
	  .group = OPT_G_SERVER },
	{ .name = "max-mem", .code = LONG_MAX_MEM, .kind = OPT_SIZE,
	  .off = CFG(max_mem_bytes), .has_off = CFG(has_max_mem), .min = 1,
	  .max = 1ULL << 40, .def = "8G", .arg = "BYTES",
	  .help = "server: most memory (buffers, rings) a client may make it "
	  "allocate; default: half the cgroup limit, within ulimit -l, else",
	  .group = OPT_G_SERVER },
	{ .name = "allow-foreign-gid", .code = LONG_ALLOW_FOREIGN_GID,
	  .kind = OPT_FLAG, .off = CFG(allow_foreign_gid),
	  .help = "server: connect TCP clients' QPs to a GID not of their own "
	  "address (else refused: a reflector); client: take a server data "
	  "GID not the address reached",
	  .group = OPT_G_SERVER },
	{ .name = "bind", .code = LONG_BIND, .kind = OPT_STR,
	  .off = CFG(bind_addr), .max = OPTS_ADDR_MAX, .arg = "ADDR",
	  .help = "server: listen (TCP and rdma_cm) on this local address only",
	  .group = OPT_G_SERVER },
	{ .name = "auth-key-file", .code = LONG_AUTH_KEY_FILE, .kind = OPT_STR,
	  .off = CFG(auth_key_file), .max = OPTS_PATH_MAX, .arg = "FILE",
	  .help = "a shared key (>= 32 random bytes): mutual HMAC-SHA256 "
	  "challenge, the client proving first, before any test; env "
	  "RDMABENCH_AUTH_KEY_FILE",
	  .group = OPT_G_CONN },
	{ .name = "rdma_cm", .code = 'R', .kind = OPT_FLAG, .off = CFG(rdma_cm),
	  .help = "connect the QPs with rdma_cm (--oob cm)",
	  .group = OPT_G_CONN },
	{ .name = "CPU-freq", .code = 'F', .kind = OPT_NOOP, .off = NOOP,
	  .help = "no cpufreq warning: figures use CLOCK_MONOTONIC_RAW",
	  .group = OPT_G_PERFTEST },
	{ .name = "comm_rdma_cm", .code = 'z', .kind = OPT_NOOP,
	  .off = CFG(comm_rdma_cm),
	  .help = "the control channel follows --oob (rdma_cm with -R)",
	  .group = OPT_G_PERFTEST },
	/* perftest's --help spells -z so: no help, not listed */
	{ .name = "com_rdma_cm", .code = LONG_COM_RDMA_CM, .kind = OPT_NOOP,
	  .off = CFG(comm_rdma_cm), .group = OPT_G_PERFTEST },
	{ .name = "ipv6", .code = LONG_IPV6, .kind = OPT_NOOP, .off = NOOP,
	  .help = "the address family follows the address given",
	  .group = OPT_G_PERFTEST },
	{ .name = "ipv6-addr", .code = LONG_IPV6_ADDR, .kind = OPT_NOOP,
	  .off = NOOP,
	  .help = "the address family follows the address given",
	  .group = OPT_G_PERFTEST },
	{ .name = "use_old_post_send", .code = LONG_OLD_POST_SEND,
	  .kind = OPT_NOOP, .off = CFG(old_post_send),
	  .help = "work requests are always posted with ibv_post_send",
	  .group = OPT_G_PERFTEST },
	{ .name = "disable_pcie_relaxed", .code = LONG_NO_RELAXED,
	  .kind = OPT_NOOP, .off = NOOP,
	  .help = "buffers are never registered with relaxed ordering",
	  .only = ONLY_BW | IGNORED_ELSEWHERE, .group = OPT_G_PERFTEST },
	{ .name = "noPeak", .code = 'N', .kind = OPT_FLAG, .off = CFG(no_peak),
	  .help = "no peak: BW peak prints 0.00 as in perftest",
	  .only = ONLY_BW, .group = OPT_G_OUTPUTS },
	{ .name = "report-both", .code = LONG_REPORT_BOTH, .kind = OPT_FLAG,
	  .off = CFG(report_both),
	  .help = "-b: each side's figure apart (what -b prints)",
	  .only = ONLY_BW | IGNORED_ELSEWHERE, .group = OPT_G_OUTPUTS },
	{ .name = "events", .code = 'e', .kind = OPT_FLAG, .off = CFG(events),
	  .help = "sleep for completions on a completion channel, both sides "
	  "(busy polling without)",
	  .only = ONLY_READ | ONLY_SEND | ONLY_ATOMIC, .group = OPT_G_TEST },
	{ .name = "use-srq", .code = LONG_USE_SRQ, .kind = OPT_FLAG,
	  .off = CFG(use_srq),
	  .help = "one shared receive queue (SRQ) that every QP's messages "
	  "land from, both sides (the client's travels)",
	  .only = ONLY_SEND, .group = OPT_G_TEST },
	{ .name = "mr_per_qp", .code = LONG_MR_PER_QP, .kind = OPT_FLAG,
	  .off = CFG(mr_per_qp),
	  .help = "a buffer and memory region (MR) per QP instead of one for "
	  "all, both sides (the client's travels)",
	  .only = ONLY_BW | IGNORED_ELSEWHERE, .group = OPT_G_TEST },
	{ .name = "latency_gap", .code = LONG_LATENCY_GAP, .kind = OPT_U64,
	  .off = CFG(latency_gap_us), .max = INT32_MAX, .arg = "US",
	  .help = "client: wait US microseconds before each sample's post "
	  "(not in the sample)",
	  .only = ONLY_LAT, .group = OPT_G_TEST },
	{ .name = "clock", .code = LONG_CLOCK, .kind = OPT_ENUM,
	  .off = CFG(clock), .def = "auto", .arg = "auto|tsc|monotonic",
	  .help = "the latency samples' clock: the invariant TSC, calibrated "
	  "against CLOCK_MONOTONIC_RAW over each size (auto, where the CPU "
	  "has one), or CLOCK_MONOTONIC_RAW",
	  .choices = tick_src_names, .only = ONLY_LAT, .group = OPT_G_TEST },
	{ .name = "cpu_util", .code = LONG_CPU_UTIL, .kind = OPT_FLAG,
	  .off = CFG(cpu_util),
	  .help = "-D: a CPU_Util[%] column, user time of all CPUs over each "
	  "size's run (/proc/stat, as perftest)",
	  .group = OPT_G_OUTPUTS },
	{ .name = "wait_destroy", .code = LONG_WAIT_DESTROY, .kind = OPT_U64,
	  .off = CFG(wait_destroy_s), .max = UINT32_MAX, .arg = "SEC",
	  .help = "after the run, wait SEC seconds before releasing the QPs, "
	  "CQs and buffers (this side)",
	  .only = ONLY_BW | IGNORED_ELSEWHERE, .group = OPT_G_TEST },
	{ .name = "perform_warm_up", .code = LONG_WARMUP, .kind = OPT_FLAG,
	  .off = CFG(warm_up),
	  .help = "a warm-up pass of each size, not measured, before it",
	  .group = OPT_G_TEST },
	/* a note on the header's " Changes nothing" line (opts_check) */
	{ .name = "dont_xchg_versions", .code = LONG_NO_XCHG_VERSIONS,
	  .kind = OPT_NOOP, .off = CFG(noop_xchg),
	  .help = "changes nothing: the HELLO always carries and checks "
	  "rdmabench's wire version",
	  .group = OPT_G_PERFTEST },
	{ .name = "inline_recv", .code = LONG_INLINE_RECV, .kind = OPT_U64,
	  .off = CFG(inline_recv), .has_off = CFG(has_inline_recv),
	  .max = UINT32_MAX, .arg = "SIZE",
	  .help = "changes nothing: no inline receive is requested, "
	  "receives land in the registered buffer (a header note)",
	  .group = OPT_G_PERFTEST },
	{ .name = "cuda_mem_type", .code = LONG_CUDA_MEM_TYPE, .kind = OPT_U64,
	  .off = CFG(cuda_mem_type), .max = 4, .arg = "T",
	  .help = "--use_cuda memory: 0 = device (cuMemAlloc), the only one",
	  .only = ONLY_BW | ONLY_LISTED, .group = OPT_G_GPU },
	{ .name = "mtu", .code = 'm', .kind = OPT_U64, .off = CFG(mtu),
	  .has_off = CFG(has_mtu), .max = INT32_MAX, .arg = "MTU",
	  .help = "TCP control: path MTU 256..4096 [the port's active MTU; "
	  "also for any other value, as perftest]",
	  .group = OPT_G_CONN },
	{ .name = "sl", .code = 'S', .kind = OPT_U64, .off = CFG(sl),
	  .has_off = CFG(has_sl), .max = 15, .arg = "SL",
	  .help = "TCP control: service level [0]",
	  .group = OPT_G_CONN },
	{ .name = "source_ip", .code = 'j', .kind = OPT_STR,
	  .off = CFG(source_ip), .max = OPTS_ADDR_MAX, .arg = "IP",
	  .help = "client, rdma_cm: connect from this local IP",
	  .group = OPT_G_CONN },
	/* perftest's spelling: no help, not listed */
	{ .name = "bind_source_ip", .code = LONG_BIND_SOURCE_IP,
	  .kind = OPT_STR, .off = CFG(source_ip), .max = OPTS_ADDR_MAX,
	  .arg = "IP", .group = OPT_G_CONN },
	{ .name = "flow_label", .code = LONG_FLOW_LABEL, .kind = OPT_U64,
	  .off = CFG(flow_label), .has_off = CFG(has_flow_label),
	  .max = INT32_MAX, .arg = "N",
	  .help = "TCP control: GRH flow label (its low 20 bits) [0]",
	  .group = OPT_G_CONN },
	{ .name = "pkey_index", .code = LONG_PKEY_INDEX, .kind = OPT_U64,
	  .off = CFG(pkey_index), .has_off = CFG(has_pkey_index),
	  .max = UINT16_MAX, .arg = "N",
	  .help = "TCP control: the QP's P_Key table index [0]",
	  .group = OPT_G_CONN },
	{ .name = "dlid",
	  .code = LONG_DLID,
	  .kind = OPT_U64,
	  .off = CFG(dlid),
	  .max = INT32_MAX,
	  .arg = "LID",
	  .help = "TCP control, InfiniBand: this LID as the QPs' destination, "
		  "not the peer's (its low 16 bits; 0: the peer's)",
	  .group = OPT_G_CONN },
	{ .name = "rate_limit",
	  .code = LONG_RATE_LIMIT,
	  .kind = OPT_STR,
	  .off = CFG(rate_limit),
	  .max = sizeof(((struct bench_cfg *)0)->rate_limit),
	  .arg = "RATE",
	  .help = "client, bandwidth: post at most RATE (--rate_units; HW "
		  "unless --rate_limit_type says)",
	  .group = OPT_G_TEST },
	{ .name = "rate_units",
	  .code = LONG_RATE_UNITS,
	  .kind = OPT_ENUM,
	  .off = CFG(rate_units),
	  .has_off = CFG(has_rate_units),
	  .def = "g",
	  .arg = "g|M|p",
	  .help = "--rate_limit's unit: Gb/s, MiB/s or messages/s",
	  .choices = rate_unit_choices,
	  .group = OPT_G_TEST },
	{ .name = "rate_limit_type",
	  .code = LONG_RATE_LIMIT_TYPE,
	  .kind = OPT_ENUM,
	  .off = CFG(rate_limit_type),
	  .has_off = CFG(has_rate_limit_type),
	  .arg = "HW|SW|PP",
	  .help = "the limiter: HW (the QP's static rate, InfiniBand), SW "
		  "(paced posts) or PP (raw Ethernet: refused)",
	  .choices = rate_type_choices,
	  .group = OPT_G_TEST },
	{ .name = "burst_size",
	  .code = LONG_BURST_SIZE,
	  .kind = OPT_U64,
	  .off = CFG(burst_size),
	  .max = INT32_MAX,
	  .arg = "N",
	  .help = "SW limiter: messages posted at once [-t]",
	  .group = OPT_G_TEST },
	{ .name = "typical_pkt_size",
	  .code = LONG_TYPICAL_PKT_SIZE,
	  .kind = OPT_U64,
	  .off = CFG(typical_pkt_size),
	  .max = UINT16_MAX,
	  .arg = "B",
	  .help = "PP limiter's packet size (raw Ethernet: refused)",
	  .group = OPT_G_TEST },
	{ .name = "hop_limit", .code = 'L', .kind = OPT_U64,
	  .off = CFG(hop_limit), .has_off = CFG(has_hop_limit), .max = 255,
	  .arg = "N",
	  .help = "TCP control: GRH hop limit [64]",
	  .group = OPT_G_CONN },
	/*
	 * perftest's options of its other tools, which its parser takes on
	 * these and ignores (the role follows from the address; raw
	 * Ethernet's packet fields; a multicast GID without -g; AES-XTS
	 * parameters without --aes_xts): taken,
	 * checked, not used, named in the header's " Changes nothing".
	 * Hidden: not in --help, man or completion (docs/options.md lists them).
	 */
	IGNORED_ROW("server", 'Z', OPT_FLAG, 0, 0, NULL),
	IGNORED_ROW("client", 'P', OPT_FLAG, 0, 0, NULL),
	IGNORED_ROW("MGID", 'M', OPT_STR, 0, OPTS_NAME_MAX, "GID"),
	IGNORED_ROW("dest_port", 'K', OPT_U64, 0, UINT32_MAX, "PORT"),
	IGNORED_ROW("source_port", 'k', OPT_U64, 0, UINT32_MAX, "PORT"),
	IGNORED_ROW("local_port", LONG_LOCAL_PORT, OPT_U64, 0, UINT32_MAX,
		    "PORT"),
	IGNORED_ROW("remote_port", LONG_REMOTE_PORT, OPT_U64, 0, UINT32_MAX,
		    "PORT"),
	IGNORED_ROW("mac_fwd", 'v', OPT_FLAG, 0, 0, NULL),
	IGNORED_ROW("tcp", LONG_TCP, OPT_FLAG, 0, 0, NULL),
	/* raw Ethernet flows; perftest checks no more than a number here */
	IGNORED_ROW("flows", LONG_FLOWS, OPT_STR, 0, OPTS_NAME_MAX, "N"),
	IGNORED_ROW("flows_burst", LONG_FLOWS_BURST, OPT_STR, 0, OPTS_NAME_MAX,
		    "N"),
	IGNORED_ROW("promiscuous", LONG_PROMISCUOUS, OPT_FLAG, 0, 0, NULL),
	IGNORED_ROW("sniffer", LONG_SNIFFER, OPT_FLAG, 0, 0, NULL),
	IGNORED_ROW("raw_mcast", LONG_RAW_MCAST, OPT_FLAG, 0, 0, NULL),
	IGNORED_ROW("raw_ipv6", LONG_RAW_IPV6, OPT_FLAG, 0, 0, NULL),
	IGNORED_ROW("vlan_en", LONG_VLAN_EN, OPT_FLAG, 0, 0, NULL),
	IGNORED_ROW("vlan_pcp", LONG_VLAN_PCP, OPT_U64, 0, 8, "PCP"),
	IGNORED_ROW("reply_every", LONG_REPLY_EVERY, OPT_U64, 1, UINT32_MAX,
		    "N"),
	/* read only with --aes_xts (refused: rdmabench does not encrypt) */
	IGNORED_ROW("aes_block_size", LONG_AES_BLOCK_SIZE, OPT_U64, 0,
		    UINT16_MAX, "N"),
	IGNORED_ROW("data_enc_keys_number", LONG_DATA_ENC_KEYS, OPT_U64, 0,
		    UINT16_MAX, "N"),
	OPT_ROWS_HELP(CFG(show_help), CFG(show_version), OPT_G_HELP),
};
/* clang-format on */
const size_t opts_table_count = sizeof(opts_table_rows) /
				sizeof(opts_table_rows[0]);

/* The sections of --help and of the man page's OPTIONS, by group. */
static const char *const table_groups[OPT_G_COUNT] = {
	[OPT_G_CONN] = "Connection",
	[OPT_G_TEST] = "Test",
	[OPT_G_GATES] = "Gates (exit 3 when one is missed)",
	[OPT_G_OUTPUTS] = "Outputs",
	[OPT_G_PLACE] = "Placement",
	[OPT_G_GPU] = "GPU memory",
	[OPT_G_SERVER] = "Server (what a client may ask for)",
	[OPT_G_HELP] = "Help",
	[OPT_G_PERFTEST] = "perftest options that are what rdmabench does "
			   "anyway",
};

static const struct opt_usage table_usage[] = {
	{ .args = "[options]", .what = "server: wait for a client" },
	{ .args = "[options] SERVER",
	  .what = "client: run the test against SERVER" },
	{ 0 },
};

static const char *const table_about[] = {
	"Without SERVER it is the server: it waits for a client. SERVER is "
	"a hostname or any IP of the server; the data device is -d, else "
	"the one that owns the route, else the first active one. The "
	"client sends the whole test configuration; the server needs only "
	"-d/-i/-p.",
	NULL,
};

#define NOT_ATOMIC (ONLY_WRITE | ONLY_READ | ONLY_SEND)

/* In this order; a tool shows the first three that apply. */
static const struct opt_example table_examples[] = {
	{ .args = "", .what = "server: wait for a client (start it first)" },
	{ .args = "-a --report_gbits 192.0.2.1",
	  .what = "client: every size 2 B .. 8 MiB, in Gb/s",
	  .only = ONLY_BW | NOT_ATOMIC },
	{ .args = "-A CMP_AND_SWAP -q 4 192.0.2.1",
	  .what = "client: compare-and-swap over 4 QPs",
	  .only = ONLY_BW | ONLY_ATOMIC },
	{ .args = "-D 10 --expect-gbps 90 --json run.json 192.0.2.1",
	  .what = "client: 10 s; exit 3 below 90 Gb/s; the run as JSON",
	  .only = ONLY_BW },
	{ .args = "-a -H 192.0.2.1",
	  .what = "client: every size, with the latency histogram",
	  .only = ONLY_LAT | NOT_ATOMIC },
	{ .args = "-A CMP_AND_SWAP -H 192.0.2.1",
	  .what = "client: compare-and-swap, with the latency histogram",
	  .only = ONLY_LAT | ONLY_ATOMIC },
	{ .args = "-n 100000 --expect-p99-us 10 --junit lat.xml 192.0.2.1",
	  .what = "client: exit 3 when p99 is above 10 us; a JUnit file",
	  .only = ONLY_LAT },
	{ 0 },
};

/* The one operand: the server's address (none: we are the server). */
static int table_operands(void *cfg, int argc, char **argv, int first,
			  char *err, size_t err_len)
{
	char *addr = ((struct bench_cfg *)cfg)->server_addr;

	if (first >= argc)
		return 0;
	if (argc - first > 1) {
		snprintf(err, err_len, "unexpected argument '%s': give one "
			 "server address at most", argv[first + 1]);
		return -EINVAL;
	}
	if (strlen(argv[first]) >= OPTS_ADDR_MAX || !argv[first][0]) {
		snprintf(err, err_len, "server address '%s' is not valid",
			 argv[first]);
		return -EINVAL;
	}
	strcpy(addr, argv[first]);
	return 0;
}

const struct opt_prog opts_table_prog = {
	.rows = opts_table_rows,
	.count = sizeof(opts_table_rows) / sizeof(opts_table_rows[0]),
	.cfg_size = sizeof(struct bench_cfg),
	.groups = table_groups,
	.group_count = OPT_G_COUNT,
	.usage = table_usage,
	.about = table_about,
	.lead = ", a drop-in for perftest's tool of the same name.",
	.examples = table_examples,
	.exit_codes = "Exit codes: 0 ok, 1 runtime error, 2 usage, 3 below "
		      "expectation, 4 data corruption, 5 peer unreachable, "
		      "lost or timed out, 130 stopped by SIGINT/SIGTERM (a "
		      "second signal ends it at once).",
	.refused = opts_refuse_rows,
	.operands = table_operands,
	.ignored_off = CFG(noop_ignored),
	.ignored_len = sizeof(((struct bench_cfg *)0)->noop_ignored),
};



const char *opts_prog_name(const struct opt_prog *p,
			   const struct bench_desc *d)
{
	return p->name ? p->name : d->name;
}

const char *opts_prog_summary(const struct opt_prog *p,
			      const struct bench_desc *d)
{
	return p->summary ? p->summary : d->summary;
}

bool opts_table_choice_ok(const struct opt_def *o, size_t i,
			  const struct bench_desc *d)
{
	/* the verb table says who can do UC; UD carries sends only; DC,
	 * SRD and XRC are taken as perftest takes them, never listed */
	if (o->choices != conn_choices)
		return true;
	if (i > OPTS_CONN_UD)
		return false;
	if (!d)
		return true;
	if (i == OPTS_CONN_UC)
		return bench_verb(d->verb)->uc_ok;
	return i != OPTS_CONN_UD || d->verb == BENCH_VERB_SEND;
}
