// SPDX-License-Identifier: BSD-2-Clause
/*
 * opts - one table drives getopt_long, defaults, range checks and --help.
 * Defaults are parsed through the same path as user input, so a bad default
 * fails a unit test instead of a user.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "spec/opts.h"
#include "lib/units.h"

enum opt_kind {
	OPT_FLAG,     /* bool, set to true */
	OPT_U64,      /* decimal in [min, max] */
	OPT_SIZE,     /* bytes, K/M/G suffixes, in [min, max] */
	OPT_STR,      /* char array of max bytes */
	OPT_DOUBLE,   /* decimal number >= 0 */
	OPT_ENUM,     /* one of choices[], its index stored as uint64_t */
	OPT_OPT_INT,  /* int64_t, optional argument: absent value = 0 */
	OPT_NOOP,     /* accepted for perftest compatibility; help says why */
	OPT_REFUSE,   /* perftest's, meaningless here: refused with help */
};

/* Long-only options get codes above any char. */
enum {
	LONG_FIRST = 256,
	LONG_REPORT_GBITS = LONG_FIRST, LONG_CONNECT_TIMEOUT, LONG_TIMEOUT,
	LONG_VERSION, LONG_RUN_INF, LONG_VALIDATE, LONG_OUTPUT, LONG_RETRY,
	LONG_JSON, LONG_OUT_JSON, LONG_OUT_JSON_FILE, LONG_JUNIT, LONG_PROM,
	LONG_EXP_GBPS, LONG_EXP_LINE, LONG_EXP_MPPS, LONG_EXP_P50,
	LONG_EXP_P99, LONG_STRICT, LONG_EXP_NOERR, LONG_NUMA, LONG_CPU,
	LONG_PIN_CORES, LONG_NUMA_NODE, LONG_DISABLE_NUMA, LONG_CUDA,
	LONG_CUDA_BUS, LONG_CUDA_DMABUF, LONG_PERSISTENT, LONG_REPORT_BOTH,
	LONG_IPV6, LONG_WARMUP, LONG_CUDA_MEM_TYPE, LONG_OOB, LONG_NETDEV,
	LONG_MAX_SIZE, LONG_MAX_QPS, LONG_MAX_DURATION, LONG_MAX_MEM,
	/* refused */
	LONG_R_SRQ, LONG_R_ODP, LONG_R_HUGE, LONG_R_MMAP, LONG_R_MR_PER_QP,
	LONG_R_NULL_MR, LONG_R_REVERSED, LONG_R_CPU_UTIL, LONG_R_RATE,
	LONG_R_LAT_GAP, LONG_R_WAIT_DESTROY, LONG_R_PAYLOAD, LONG_R_DONT_XCHG,
	LONG_R_WIMM, LONG_R_SIMM, LONG_R_TCLASS, LONG_R_FLOW, LONG_R_FORCE_LINK,
	LONG_R_DLID, LONG_R_PKEY, LONG_R_BIND_SRC, LONG_R_RECV_PL,
	LONG_R_CUDA_PCIE, LONG_R_ROCM, LONG_R_DATA_VALIDATION,
};

struct opt_def {
	const char *long_name;
	int code;               /* short option char or LONG_* */
	enum opt_kind kind;
	size_t offset;          /* into struct bench_cfg */
	size_t has_offset;      /* bool set when given; 0: none */
	uint64_t min, max;      /* OPT_U64/OPT_SIZE range; OPT_STR: max bytes */
	const char *def_bw;     /* default for bandwidth tests, NULL: none */
	const char *def_lat;    /* default for latency tests */
	const char *arg;        /* argument name in --help, NULL: no argument */
	const char *help;
	const char *const *choices; /* OPT_ENUM, NULL-terminated */
};

#define CFG(field) offsetof(struct bench_cfg, field)
#define NO_HAS 0
#define NOOP CFG(noop_seen)

static const char *const conn_choices[] = { "RC", "UC", NULL };
static const char *const atomic_choices[] = { "FETCH_AND_ADD", "CMP_AND_SWAP",
					       NULL };
static const char *const oob_choices[] = { "cm", "tcp", NULL };
static const char *const output_choices[] = { "table", "bandwidth",
					       "message_rate", "latency", NULL };

/* Rows of the same shape: a refused perftest option, with or without value. */
#define REFUSED(name, code, arg, why) \
	{ name, code, OPT_REFUSE, NOOP, NO_HAS, 0, 0, NULL, NULL, arg, why }
#define ACCEPTED(name, code, arg, why) \
	{ name, code, OPT_NOOP, NOOP, NO_HAS, 0, 0, NULL, NULL, arg, why }
#define DOUBLE(name, code, field, arg, help) \
	{ name, code, OPT_DOUBLE, CFG(field), NO_HAS, 0, 0, NULL, NULL, arg, \
	  help }
#define PATH(name, code, field, help) \
	{ name, code, OPT_STR, CFG(field), NO_HAS, 0, OPTS_PATH_MAX, NULL, \
	  NULL, "FILE", help }

/*
 * -s and -n take their defaults from the executable's descriptor (perftest:
 * 65536 B x 5000 for write bandwidth, 2 B x 1000 for latency).
 */
static const struct opt_def opt_table[] = {
	{ "ib-dev", 'd', OPT_STR, CFG(dev_name), NO_HAS, 0, OPTS_NAME_MAX,
	  "", "", "DEV", "RDMA device; must own the IP in use" },
	{ "netdev", LONG_NETDEV, OPT_STR, CFG(netdev), NO_HAS, 0, OPTS_NAME_MAX,
	  "", "", "IF", "use the RDMA device behind this interface (pods)" },
	{ "oob", LONG_OOB, OPT_ENUM, CFG(oob), NO_HAS, 0, 0, "cm", "cm",
	  "cm|tcp", "control channel: rdma_cm, or TCP to SERVER (any name)",
	  oob_choices },
	{ "ib-port", 'i', OPT_U64, CFG(ib_port), CFG(has_ib_port), 1, 255, "1",
	  "1", "PORT", "device port; must be the IP's port" },
	{ "gid-index", 'x', OPT_U64, CFG(gid_index), CFG(has_gid_index), 0,
	  255, NULL, NULL, "IDX",
	  "--oob tcp: GID index [best RoCEv2]; rdma_cm: from the IP" },
	{ "port", 'p', OPT_U64, CFG(tcp_port), NO_HAS, 1, 65535, "18515",
	  "18515", "PORT", "rdma_cm port the server listens on" },
	{ "size", 's', OPT_SIZE, CFG(size_bytes), NO_HAS, 1, 1ULL << 31, NULL,
	  NULL, "BYTES", "message size (K/M/G suffixes)" },
	{ "all", 'a', OPT_FLAG, CFG(all_sizes), NO_HAS, 0, 0, NULL, NULL, NULL,
	  "sweep sizes 2 B .. 8 MiB, powers of two, one row each" },
	{ "iters", 'n', OPT_U64, CFG(iters), CFG(has_iters), 1, 1ULL << 40,
	  NULL, NULL, "N", "iterations per size (per QP)" },
	{ "duration", 'D', OPT_U64, CFG(duration_s), NO_HAS, 1, 31536000,
	  NULL, NULL, "SEC", "run for SEC seconds instead of -n iterations" },
	{ "margin", 'f', OPT_U64, CFG(margin_s), CFG(has_margin), 0, 3600,
	  NULL, NULL, "SEC", "-D: warm-up and cool-down left out [D/4]" },
	{ "run_infinitely", LONG_RUN_INF, OPT_FLAG, CFG(run_infinitely),
	  NO_HAS, 0, 0, NULL, NULL, NULL,
	  "run until interrupted, a line every -D seconds [5]" },
	{ "qp", 'q', OPT_U64, CFG(qps), NO_HAS, 1, 256, "1", "1", "N",
	  "queue pairs (bandwidth tests)" },
	{ "tx-depth", 't', OPT_U64, CFG(tx_depth), NO_HAS, 1, 16384, "128", "1",
	  "N", "operations in flight per QP (bandwidth tests)" },
	{ "rx-depth", 'r', OPT_U64, CFG(rx_depth), NO_HAS, 1, 16384, "512",
	  "512", "N", "receives posted per QP (send tests)" },
	{ "post_list", 'l', OPT_U64, CFG(post_list), NO_HAS, 1, 1024, "1", "1",
	  "N", "chain N work requests per post" },
	{ "inline_size", 'I', OPT_U64, CFG(inline_bytes), CFG(has_inline), 0,
	  1024, NULL, NULL, "BYTES",
	  "send inline up to BYTES [256, less if the device allows less; 16 "
	  "on rxe and siw]" },
	{ "cq-mod", 'Q', OPT_U64, CFG(cq_mod), NO_HAS, 1, 1024, "100", "1",
	  "N", "request a completion every N operations" },
	{ "outs", 'o', OPT_U64, CFG(outstanding), NO_HAS, 1, 256, "16", "16",
	  "N", "reads/atomics in flight per QP (capped by the device)" },
	{ "bidirectional", 'b', OPT_FLAG, CFG(bidir), NO_HAS, 0, 0, NULL, NULL,
	  NULL, "both sides send; each side's figure and the sum" },
	{ "connection", 'c', OPT_ENUM, CFG(conn_type), NO_HAS, 0, 0, "RC", "RC",
	  "RC|UC", "transport (UC: write and send only)", conn_choices },
	{ "atomic_type", 'A', OPT_ENUM, CFG(atomic_op), NO_HAS, 0, 0,
	  "FETCH_AND_ADD", "FETCH_AND_ADD", "OP", "FETCH_AND_ADD|CMP_AND_SWAP",
	  atomic_choices },
	{ "tos", 'T', OPT_U64, CFG(tos), CFG(has_tos), 0, 255, NULL, NULL,
	  "TOS", "IP type of service for rdma_cm" },
	{ "qp-timeout", 'u', OPT_U64, CFG(qp_timeout), CFG(has_qp_timeout), 0,
	  31, NULL, NULL, "T", "ack timeout 4.096 us * 2^T" },
	{ "retry_count", LONG_RETRY, OPT_U64, CFG(retry_count), NO_HAS, 0, 7,
	  "7", "7", "N", "transport retries before a peer is lost" },
	{ "validate", LONG_VALIDATE, OPT_FLAG, CFG(validate), NO_HAS, 0, 0,
	  NULL, NULL, NULL, "check every byte where the data lands (exit 4)" },
	{ "report-histogram", 'H', OPT_FLAG, CFG(histogram), NO_HAS, 0, 0, NULL,
	  NULL, NULL, "print the latency histogram" },
	{ "output", LONG_OUTPUT, OPT_ENUM, CFG(output), NO_HAS, 0, 0, "table",
	  "table", "WHAT", "print only bandwidth|message_rate|latency",
	  output_choices },
	{ "connect-timeout", LONG_CONNECT_TIMEOUT, OPT_U64,
	  CFG(connect_timeout_s), NO_HAS, 1, 86400, "30", "30", "SEC",
	  "client: keep retrying the server this long, then fail" },
	{ "timeout", LONG_TIMEOUT, OPT_U64, CFG(io_timeout_s), NO_HAS, 1, 86400,
	  "30", "30", "SEC", "fail when the peer makes no progress this long" },
	{ "report_gbits", LONG_REPORT_GBITS, OPT_FLAG, CFG(report_gbits),
	  NO_HAS, 0, 0, NULL, NULL, NULL,
	  "bandwidth in Gb/sec (10^9 bit/s) instead of MiB/sec" },
	PATH("json", LONG_JSON, json_path, "write the run's JSON document"),
	{ "out_json", LONG_OUT_JSON, OPT_FLAG, CFG(out_json), NO_HAS, 0, 0,
	  NULL, NULL, NULL, "perftest's JSON to ./perftest_out.json" },
	PATH("out_json_file", LONG_OUT_JSON_FILE, out_json_path,
	     "perftest's JSON to FILE (implies --out_json)"),
	PATH("junit", LONG_JUNIT, junit_path, "write JUnit XML, a case a gate"),
	PATH("prom", LONG_PROM, prom_path, "write a Prometheus textfile"),
	DOUBLE("expect-gbps", LONG_EXP_GBPS, expect_gbps, "GBPS",
	       "gate: every size at least GBPS (exit 3)"),
	DOUBLE("expect-line-rate", LONG_EXP_LINE, expect_line_rate, "F",
	       "gate: at least F x the achievable line rate"),
	DOUBLE("expect-mpps", LONG_EXP_MPPS, expect_mpps, "MPPS",
	       "gate: message rate at least MPPS"),
	DOUBLE("expect-p50-us", LONG_EXP_P50, expect_p50_us, "US",
	       "gate: latency p50 at most US"),
	DOUBLE("expect-p99-us", LONG_EXP_P99, expect_p99_us, "US",
	       "gate: latency p99 at most US"),
	DOUBLE("limit_bw", 'w', limit_bw, "BW",
	       "perftest's gate: BW average at least BW (report unit)"),
	DOUBLE("limit_msgrate", 'y', limit_msgrate, "MPPS",
	       "perftest's gate: message rate at least MPPS"),
	{ "strict", LONG_STRICT, OPT_FLAG, CFG(strict), NO_HAS, 0, 0, NULL,
	  NULL, NULL, "a downtrained link fails the run" },
	{ "expect-no-errors", LONG_EXP_NOERR, OPT_FLAG, CFG(expect_no_errors),
	  NO_HAS, 0, 0, NULL, NULL, NULL, "fail when port error counters move" },
	{ "numa", LONG_NUMA, OPT_STR, CFG(numa), NO_HAS, 0, OPTS_NAME_MAX,
	  "auto", "auto", "auto|off|N", "pin CPUs and memory to a NUMA node" },
	{ "cpu", LONG_CPU, OPT_STR, CFG(cpu_list), NO_HAS, 0, OPTS_NAME_MAX,
	  "", "", "LIST", "run on these CPUs (within those allowed)" },
	{ "pin_cores", LONG_PIN_CORES, OPT_STR, CFG(cpu_list), NO_HAS, 0,
	  OPTS_NAME_MAX, NULL, NULL, "LIST", "perftest's name for --cpu" },
	{ "numa_node", LONG_NUMA_NODE, OPT_U64, CFG(numa_node),
	  CFG(has_numa_node), 0, 1023, NULL, NULL, "N", "same as --numa N" },
	{ "disable_numa", LONG_DISABLE_NUMA, OPT_FLAG, CFG(disable_numa),
	  NO_HAS, 0, 0, NULL, NULL, NULL, "same as --numa off" },
	{ "use_cuda", LONG_CUDA, OPT_OPT_INT, CFG(use_cuda), NO_HAS, 0, 1023,
	  "-1", "-1", "[=N]", "buffers in GPU N's memory (cudaMalloc)" },
	{ "use_cuda_bus_id", LONG_CUDA_BUS, OPT_STR, CFG(cuda_bus_id), NO_HAS,
	  0, OPTS_NAME_MAX, NULL, NULL, "BDF", "the GPU at this PCI address" },
	{ "use_cuda_dmabuf", LONG_CUDA_DMABUF, OPT_FLAG, CFG(use_cuda_dmabuf),
	  NO_HAS, 0, 0, NULL, NULL, NULL, "register GPU memory through dmabuf" },
	{ "persistent", LONG_PERSISTENT, OPT_FLAG, CFG(persistent), NO_HAS, 0,
	  0, NULL, NULL, NULL, "server: serve clients one after another" },
	{ "max-size", LONG_MAX_SIZE, OPT_SIZE, CFG(max_size_bytes), NO_HAS, 1,
	  1ULL << 31, "2G", "2G", "BYTES", "server: largest message a client "
	  "may ask for" },
	{ "max-qps", LONG_MAX_QPS, OPT_U64, CFG(max_qps), NO_HAS, 1, 256, "256",
	  "256", "N", "server: most QPs a client may ask for" },
	{ "max-duration", LONG_MAX_DURATION, OPT_U64, CFG(max_duration_s),
	  NO_HAS, 1, 31536000, "86400", "86400", "SEC",
	  "server: longest -D a client may ask for" },
	{ "max-mem", LONG_MAX_MEM, OPT_SIZE, CFG(max_mem_bytes), NO_HAS, 1,
	  1ULL << 40, "8G", "8G", "BYTES",
	  "server: most buffer memory a client may make it register" },
	{ "rdma_cm", 'R', OPT_NOOP, NOOP, NO_HAS, 0, 0, NULL, NULL, NULL,
	  "accepted; rdma_cm is always used" },
	ACCEPTED("CPU-freq", 'F', NULL,
		 "accepted; timing uses CLOCK_MONOTONIC_RAW, no CPU MHz"),
	ACCEPTED("comm_rdma_cm", 'z', NULL, "accepted; rdma_cm is always used"),
	ACCEPTED("report-both", LONG_REPORT_BOTH, NULL,
		 "accepted; both sides are always reported"),
	ACCEPTED("noPeak", 'N', NULL, "accepted; the peak costs nothing here"),
	ACCEPTED("ipv6", LONG_IPV6, NULL,
		 "accepted; the address family follows the address given"),
	ACCEPTED("hop_limit", 'L', "N", "accepted; rdma_cm sets the hop limit"),
	ACCEPTED("perform_warm_up", LONG_WARMUP, NULL,
		 "accepted; -D leaves out a warm-up margin (-f)"),
	ACCEPTED("cuda_mem_type", LONG_CUDA_MEM_TYPE, "T",
		 "accepted; device memory (cudaMalloc) is always used"),
	REFUSED("mtu", 'm', "MTU", "with rdma_cm the path MTU is the port's "
		"active MTU: set the netdev's MTU instead"),
	REFUSED("sl", 'S', "SL", "with rdma_cm on RoCE the priority comes "
		"from -T (TOS)"),
	REFUSED("events", 'e', NULL, "completions are always polled"),
	REFUSED("vector", 'X', "N", "completions are always polled"),
	REFUSED("report-cycles", 'C', NULL,
		"no cycle counts: figures are in us from CLOCK_MONOTONIC_RAW"),
	REFUSED("report-unsorted", 'U', NULL,
		"latency samples are binned (constant memory): use -H"),
	REFUSED("dualport", 'O', NULL, "dual-port mode is not supported"),
	REFUSED("mcg", 'g', NULL, "multicast (UD) is not supported"),
	REFUSED("use-srq", LONG_R_SRQ, NULL, "SRQ is not supported"),
	REFUSED("odp", LONG_R_ODP, NULL, "ODP is not supported"),
	REFUSED("use_hugepages", LONG_R_HUGE, NULL,
		"buffers are page-aligned NUMA-local memory"),
	REFUSED("mmap", LONG_R_MMAP, "FILE", "buffers cannot be mmapped files"),
	REFUSED("mr_per_qp", LONG_R_MR_PER_QP, NULL, "one MR serves all QPs"),
	REFUSED("use-null-mr", LONG_R_NULL_MR, NULL, "null MRs not supported"),
	REFUSED("reversed", LONG_R_REVERSED, NULL,
		"the client always initiates; swap the roles instead"),
	REFUSED("cpu_util", LONG_R_CPU_UTIL, NULL, "CPU use is not reported"),
	REFUSED("rate_limit", LONG_R_RATE, "RATE", "no rate limiter"),
	REFUSED("latency_gap", LONG_R_LAT_GAP, "US", "no gap between pings"),
	REFUSED("wait_destroy", LONG_R_WAIT_DESTROY, "SEC",
		"resources are freed at once"),
	REFUSED("payload_file_path", LONG_R_PAYLOAD, "FILE",
		"the payload is our own pattern (see --validate)"),
	REFUSED("dont_xchg_versions", LONG_R_DONT_XCHG, NULL,
		"versions are always checked"),
	REFUSED("write_with_imm", LONG_R_WIMM, NULL, "not supported"),
	REFUSED("send_with_imm", LONG_R_SIMM, NULL, "not supported"),
	REFUSED("tclass", LONG_R_TCLASS, "TC", "use -T (TOS) with rdma_cm"),
	REFUSED("flow_label", LONG_R_FLOW, "FL", "not supported"),
	REFUSED("force-link", LONG_R_FORCE_LINK, "LINK",
		"the link layer follows from the device"),
	REFUSED("dlid", LONG_R_DLID, "LID", "rdma_cm resolves the path"),
	REFUSED("pkey_index", LONG_R_PKEY, "IDX", "rdma_cm resolves the path"),
	REFUSED("bind_source_ip", LONG_R_BIND_SRC, "IP",
		"the route to the server picks the source"),
	REFUSED("recv_post_list", LONG_R_RECV_PL, "N", "not supported"),
	REFUSED("use_cuda_pcie_mapping", LONG_R_CUDA_PCIE, NULL,
		"use --use_cuda_dmabuf"),
	REFUSED("use_rocm", LONG_R_ROCM, "N", "ROCm is not supported"),
	REFUSED("data_validation", LONG_R_DATA_VALIDATION, NULL,
		"use --validate (every verb, every size)"),
	{ "help", 'h', OPT_FLAG, CFG(show_help), NO_HAS, 0, 0, NULL, NULL, NULL,
	  "show this help" },
	{ "version", 'V', OPT_FLAG, CFG(show_version), NO_HAS, 0, 0, NULL,
	  NULL, NULL, "show the version" },
};

#define OPT_COUNT (sizeof(opt_table) / sizeof(opt_table[0]))

static void set_err(char *err, size_t err_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
}

static const char *opt_label(const struct opt_def *o, char *buf, size_t len)
{
	if (o->code < 256)
		snprintf(buf, len, "-%c/--%s", o->code, o->long_name);
	else
		snprintf(buf, len, "--%s", o->long_name);
	return buf;
}

static int opt_enum(const struct opt_def *o, const char *value,
		    uint64_t *index_out)
{
	uint64_t i;

	for (i = 0; o->choices[i]; i++) {
		if (!strcasecmp(value, o->choices[i])) {
			*index_out = i;
			return 0;
		}
	}
	return -EINVAL;
}

static int opt_double(const char *value, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (errno || end == value || *end || !(v >= 0) || v > 1e12)
		return -EINVAL;
	*out = v;
	return 0;
}

/* Numbers, sizes, enums, doubles: parse and range-check value. */
static int opt_parse_value(const struct opt_def *o, const char *value,
			   char *base, const char *label, char *err,
			   size_t err_len)
{
	uint64_t num = 0;
	int ret;

	switch (o->kind) {
	case OPT_DOUBLE:
		ret = opt_double(value, (double *)(base + o->offset));
		if (ret)
			set_err(err, err_len, "%s '%s': must be a number >= 0",
				label, value);
		return ret;
	case OPT_ENUM:
		ret = opt_enum(o, value, &num);
		if (ret)
			set_err(err, err_len, "%s '%s': must be one of %s", label,
				value, o->arg);
		break;
	case OPT_U64:
	case OPT_OPT_INT:
		ret = units_parse_u64(value, o->min, o->max, &num);
		break;
	default: /* OPT_SIZE */
		ret = units_parse_size(value, &num);
		if (!ret && (num < o->min || num > o->max))
			ret = -ERANGE;
		break;
	}
	if (ret == -ERANGE)
		set_err(err, err_len, "%s %s: must be in [%llu, %llu]", label,
			value, (unsigned long long)o->min,
			(unsigned long long)o->max);
	else if (ret && o->kind != OPT_ENUM)
		set_err(err, err_len, "%s '%s': not a number%s", label, value,
			o->kind == OPT_SIZE ? " (e.g. 65536, 64K, 1M)" : "");
	if (!ret && o->kind == OPT_OPT_INT)
		*(int64_t *)(base + o->offset) = (int64_t)num;
	else if (!ret)
		*(uint64_t *)(base + o->offset) = num;
	return ret;
}

/* Store one value; value may be NULL for flags and optional arguments. */
static int opt_store(const struct opt_def *o, struct bench_cfg *cfg,
		     const char *value, char *err, size_t err_len)
{
	char *base = (char *)cfg;
	char label[64];
	int ret = 0;

	opt_label(o, label, sizeof(label));
	switch (o->kind) {
	case OPT_FLAG:
	case OPT_NOOP:
		*(bool *)(base + o->offset) = true;
		break;
	case OPT_REFUSE:
		set_err(err, err_len, "%s is not supported by rdmabench: %s",
			label, o->help);
		return -EINVAL;
	case OPT_STR:
		if (!value[0]) {
			set_err(err, err_len, "%s: the value must not be empty",
				label);
			return -EINVAL;
		}
		if (strlen(value) >= o->max) {
			set_err(err, err_len, "%s '%.40s...': at most %llu "
				"characters", label, value,
				(unsigned long long)o->max - 1);
			return -EINVAL;
		}
		strcpy(base + o->offset, value);
		break;
	case OPT_OPT_INT:
		if (!value || !strcmp(value, "-1")) { /* absent / default */
			*(int64_t *)(base + o->offset) = value ? -1 : 0;
			break;
		}
		/* fall through */
	default:
		ret = opt_parse_value(o, value, base, label, err, err_len);
		break;
	}
	if (!ret && o->has_offset)
		*(bool *)(base + o->has_offset) = true;
	return ret;
}

static int opts_defaults(struct bench_cfg *cfg, const struct bench_desc *desc,
			 char *err, size_t err_len)
{
	bool is_bw = desc->measure == BENCH_MEASURE_BW;
	size_t i;
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	for (i = 0; i < OPT_COUNT; i++) {
		const struct opt_def *o = &opt_table[i];
		const char *def = is_bw ? o->def_bw : o->def_lat;

		if (!def || (o->kind == OPT_STR && !def[0]))
			continue;
		ret = opt_store(o, cfg, def, err, err_len);
		if (ret)
			return ret;
		if (o->has_offset) /* a default does not count as given */
			*(bool *)((char *)cfg + o->has_offset) = false;
	}
	cfg->size_bytes = desc->default_size;
	cfg->iters = desc->default_iters;
	return 0;
}

static void build_getopt(struct option *longs, char *shorts)
{
	size_t i;

	*shorts++ = ':'; /* report a missing argument as ':' */
	for (i = 0; i < OPT_COUNT; i++) {
		const struct opt_def *o = &opt_table[i];
		int has_arg = o->kind == OPT_OPT_INT ? optional_argument :
			      o->arg ? required_argument : no_argument;

		longs[i] = (struct option){ o->long_name, has_arg, NULL,
					    o->code };
		if (o->code < 256) {
			*shorts++ = (char)o->code;
			if (has_arg == required_argument)
				*shorts++ = ':';
		}
	}
	longs[OPT_COUNT] = (struct option){ 0 };
	*shorts = '\0';
}

static const struct opt_def *opt_find(int code)
{
	size_t i;

	for (i = 0; i < OPT_COUNT; i++)
		if (opt_table[i].code == code)
			return &opt_table[i];
	return NULL;
}

static int opts_positional(struct bench_cfg *cfg, int argc, char **argv,
			   char *err, size_t err_len)
{
	if (optind >= argc)
		return 0;
	if (argc - optind > 1) {
		set_err(err, err_len,
			"unexpected argument '%s': give one server address at most",
			argv[optind + 1]);
		return -EINVAL;
	}
	if (strlen(argv[optind]) >= OPTS_ADDR_MAX || !argv[optind][0]) {
		set_err(err, err_len, "server address '%s' is not valid",
			argv[optind]);
		return -EINVAL;
	}
	strcpy(cfg->server_addr, argv[optind]);
	return 0;
}

int opts_parse(struct bench_cfg *cfg, const struct bench_desc *desc,
	       int argc, char **argv, char *err, size_t err_len)
{
	struct option longs[OPT_COUNT + 1];
	char shorts[2 * OPT_COUNT + 2];
	int code, ret;

	ret = opts_defaults(cfg, desc, err, err_len);
	if (ret)
		return ret;
	build_getopt(longs, shorts);
	optind = 0; /* 0, not 1: makes glibc re-initialise getopt fully */
	opterr = 0; /* we word the messages ourselves */
	while ((code = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct opt_def *o = opt_find(code);

		/* an unknown short option inside a cluster ("-Za"): getopt has
		 * not advanced optind yet, so name the character itself */
		if (code == '?' && optopt > 0 && optopt < 256) {
			set_err(err, err_len, "unknown option '-%c'", optopt);
			return -EINVAL;
		}
		if (code == '?' || code == ':') {
			set_err(err, err_len, "%s option '%s'",
				code == '?' ? "unknown" : "missing value for",
				argv[optind - 1]);
			return -EINVAL;
		}
		ret = o ? opt_store(o, cfg, optarg, err, err_len) : -EINVAL;
		if (ret)
			return ret;
	}
	return opts_positional(cfg, argc, argv, err, err_len);
}

static void opts_usage_row(const struct opt_def *o, const char *def,
			   FILE *out)
{
	char flag[64];
	const char *sep = o->arg && o->arg[0] != '[' ? " " : "";

	if (o->code < 256)
		snprintf(flag, sizeof(flag), "-%c, --%s%s%s", o->code,
			 o->long_name, sep, o->arg ? o->arg : "");
	else
		snprintf(flag, sizeof(flag), "    --%s%s%s", o->long_name, sep,
			 o->arg ? o->arg : "");
	fprintf(out, "  %-30s %s", flag, o->help);
	if (def && def[0] && strcmp(def, "-1"))
		fprintf(out, " [%s]", def);
	fputc('\n', out);
}

void opts_usage(const struct bench_desc *desc, FILE *out)
{
	bool is_bw = desc->measure == BENCH_MEASURE_BW;
	char num[32];
	size_t i;

	fprintf(out, "%s - %s (rdmabench %s)\n\n", desc->name, desc->summary,
		RDMABENCH_VERSION);
	fprintf(out, "Usage:\n  %s [options]              "
		"server: wait for a client\n  %s [options] SERVER_IP  "
		"client: run the test against SERVER_IP\n\n", desc->name,
		desc->name);
	fprintf(out, "The client sends the whole test configuration; the "
		"server needs only -d/-i/-p.\n\nOptions:\n");
	for (i = 0; i < OPT_COUNT; i++) {
		const struct opt_def *o = &opt_table[i];
		const char *def = is_bw ? o->def_bw : o->def_lat;

		if (o->kind == OPT_NOOP || o->kind == OPT_REFUSE)
			continue;
		if (o->code == 's' || o->code == 'n') {
			snprintf(num, sizeof(num), "%llu", o->code == 's' ?
				 desc->default_size : desc->default_iters);
			def = num;
		}
		opts_usage_row(o, def, out);
	}
	fprintf(out, "\nperftest options accepted with nothing to do, or "
		"refused (exit 2) with why:\n");
	for (i = 0; i < OPT_COUNT; i++)
		if (opt_table[i].kind == OPT_NOOP ||
		    opt_table[i].kind == OPT_REFUSE)
			opts_usage_row(&opt_table[i], NULL, out);
	fprintf(out, "\nExit codes: 0 ok, 1 runtime error, 2 usage, "
		"3 below expectation,\n4 data corruption, 5 peer unreachable, "
		"lost or timed out, 130 stopped by\nSIGINT/SIGTERM (a second "
		"signal ends it at once).\n");
}

/* Placement options into one spelling: --numa auto|off|N. */
static int opts_check_numa(struct bench_cfg *cfg, char *err, size_t err_len)
{
	uint64_t node;

	if (cfg->disable_numa)
		snprintf(cfg->numa, sizeof(cfg->numa), "off");
	else if (cfg->has_numa_node)
		snprintf(cfg->numa, sizeof(cfg->numa), "%llu",
			 (unsigned long long)cfg->numa_node);
	if (!strcmp(cfg->numa, "auto") || !strcmp(cfg->numa, "off") ||
	    !units_parse_u64(cfg->numa, 0, 1023, &node))
		return 0;
	set_err(err, err_len, "--numa '%s': must be auto, off or a node number",
		cfg->numa);
	return -EINVAL;
}

/* What only bandwidth or only latency tests can do. */
static int opts_check_measure(const struct bench_cfg *cfg, bool is_bw,
			      char *err, size_t err_len)
{
	const char *what = NULL;

	if (!is_bw && cfg->qps > 1)
		what = "-q (several QPs)";
	else if (!is_bw && cfg->bidir)
		what = "-b (bidirectional)";
	else if (!is_bw && cfg->use_cuda >= 0)
		what = "--use_cuda (latency tests poll the buffer from the CPU)";
	else if (is_bw && cfg->histogram)
		what = "-H (a latency histogram)";
	else if (is_bw && cfg->output == OPTS_OUTPUT_LATENCY)
		what = "--output latency";
	else if (!is_bw && (cfg->output == OPTS_OUTPUT_BW ||
			    cfg->output == OPTS_OUTPUT_MSGRATE))
		what = "--output bandwidth/message_rate";
	if (!what)
		return 0;
	set_err(err, err_len, "%s is for %s tests: use the ib_*_%s tool",
		what, is_bw ? "latency" : "bandwidth", is_bw ? "lat" : "bw");
	return -EINVAL;
}

/* What the verb cannot do (the verb table's columns). */
static int opts_check_verb(struct bench_cfg *cfg, const struct bench_desc *d,
			   char *err, size_t err_len)
{
	const struct bench_verb_info *v = bench_verb(d->verb);

	if (cfg->conn_type == OPTS_CONN_UC && !v->uc_ok) {
		set_err(err, err_len, "-c UC: %s needs RC (UC has no %s)",
			d->name, v->name);
		return -EINVAL;
	}
	if (v->fixed_size && (cfg->all_sizes ||
			      cfg->size_bytes != d->default_size)) {
		set_err(err, err_len, "%s moves %u bytes per operation: drop "
			"-s/-a", d->name, v->fixed_size);
		return -EINVAL;
	}
	if (cfg->has_inline && v->region == BENCH_REGION_SEND) {
		set_err(err, err_len, "-I: %s sends no data to inline", d->name);
		return -EINVAL;
	}
	return 0;
}

/* Duration modes: -D, -f, --run_infinitely. */
static int opts_check_duration(struct bench_cfg *cfg, char *err,
			       size_t err_len)
{
	if (cfg->run_infinitely && !cfg->duration_s)
		cfg->duration_s = 5; /* perftest: a line every 5 s */
	if (!cfg->duration_s)
		return 0;
	if (cfg->all_sizes) {
		set_err(err, err_len, "-a and -D do not mix: give -s with -D");
		return -EINVAL;
	}
	if (!cfg->has_margin)
		cfg->margin_s = cfg->run_infinitely ? 0 : cfg->duration_s / 4;
	if (cfg->duration_s <= 2 * cfg->margin_s) {
		set_err(err, err_len, "-D %llu with -f %llu leaves nothing to "
			"measure: -D must exceed twice the margin",
			(unsigned long long)cfg->duration_s,
			(unsigned long long)cfg->margin_s);
		return -EINVAL;
	}
	return 0;
}

int opts_check(struct bench_cfg *cfg, const struct bench_desc *desc,
	       char *err, size_t err_len)
{
	bool is_bw = desc->measure == BENCH_MEASURE_BW;
	int ret;

	ret = opts_check_numa(cfg, err, err_len);
	if (!ret && !opts_is_server(cfg))
		ret = opts_check_measure(cfg, is_bw, err, err_len);
	if (!ret && !opts_is_server(cfg))
		ret = opts_check_verb(cfg, desc, err, err_len);
	if (!ret)
		ret = opts_check_duration(cfg, err, err_len);
	if (ret)
		return ret;
	if (cfg->conn_type == OPTS_CONN_UC && cfg->oob != OPTS_OOB_TCP &&
	    !opts_is_server(cfg)) {
		set_err(err, err_len, "-c UC: rdma_cm connects RC QPs only: add "
			"--oob tcp (on both sides) for UC");
		return -EINVAL;
	}
	if (cfg->post_list > cfg->tx_depth) {
		set_err(err, err_len, "-l %llu exceeds -t %llu: a post list "
			"must fit in the send queue",
			(unsigned long long)cfg->post_list,
			(unsigned long long)cfg->tx_depth);
		return -EINVAL;
	}
	/* perftest's -w is in the report's unit: MiB/s unless --report_gbits */
	if (cfg->limit_bw > 0) {
		double gbps = cfg->report_gbits ? cfg->limit_bw :
			      cfg->limit_bw * 1048576.0 * 8 / 1e9;

		if (gbps > cfg->expect_gbps)
			cfg->expect_gbps = gbps;
	}
	if (cfg->limit_msgrate > cfg->expect_mpps)
		cfg->expect_mpps = cfg->limit_msgrate;
	return 0;
}
