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
#include "spec/opts_refuse.h"
#include "lib/units.h"

enum opt_kind {
	OPT_FLAG,     /* bool, set to true */
	OPT_U64,      /* decimal in [min, max] */
	OPT_SIZE,     /* bytes, K/M/G suffixes, in [min, max] */
	OPT_STR,      /* char array of max bytes */
	OPT_DOUBLE,   /* decimal number >= 0 */
	OPT_ENUM,     /* one of choices[], its index stored as uint64_t */
	OPT_OPT_INT,  /* int64_t, optional argument: absent value = 0 */
	OPT_NOOP,     /* perftest's, already what we do; help says why */
};

/* Which tools an option applies to (perftest's --help of each); 0: all. */
enum opt_only {
	ONLY_BW = 1 << 0, ONLY_LAT = 1 << 1, /* the measure */
	ONLY_WRITE = 1 << 2, ONLY_READ = 1 << 3, ONLY_SEND = 1 << 4,
	ONLY_ATOMIC = 1 << 5,                /* the verb */
};
#define ONLY_MEASURES (ONLY_BW | ONLY_LAT)
#define ONLY_VERBS (ONLY_WRITE | ONLY_READ | ONLY_SEND | ONLY_ATOMIC)

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
	LONG_TCLASS, LONG_HISTOGRM, LONG_COM_RDMA_CM, LONG_DATA_VALIDATION,
	LONG_IPV6_ADDR, LONG_OLD_POST_SEND, LONG_NO_RELAXED,
	LONG_BIND_SOURCE_IP,
	/* opts_refuse_rows[i] gets LONG_REFUSED + i */
	LONG_REFUSED,
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
	unsigned int only;      /* enum opt_only bits; 0: every tool */
};

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
	{ "oob", LONG_OOB, OPT_ENUM, CFG(oob), NO_HAS, 0, 0, "auto", "auto",
	  "cm|tcp|auto", "control channel: auto (TCP to SERVER, any name; "
	  "server: TCP and rdma_cm), cm (rdma_cm), tcp", oob_choices },
	{ "ib-port", 'i', OPT_U64, CFG(ib_port), CFG(has_ib_port), 1, 255, "1",
	  "1", "PORT", "device port; must be the IP's port" },
	{ "gid-index", 'x', OPT_U64, CFG(gid_index), CFG(has_gid_index), 0,
	  255, NULL, NULL, "IDX",
	  "--oob tcp: GID index [best RoCEv2]; rdma_cm: from the IP" },
	{ "port", 'p', OPT_U64, CFG(tcp_port), NO_HAS, 1, 65535, "18515",
	  "18515", "PORT", "port the server listens on (TCP and rdma_cm)" },
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
	  "run until interrupted, a line every -D seconds [5]",
	  .only = ONLY_BW },
	{ "qp", 'q', OPT_U64, CFG(qps), NO_HAS, 1, 256, "1", "1", "N",
	  "queue pairs (bandwidth tests)",
	  .only = ONLY_BW },
	{ "tx-depth", 't', OPT_U64, CFG(tx_depth), NO_HAS, 1, 16384, "128", "1",
	  "N", "operations in flight per QP (bandwidth tests)",
	  .only = ONLY_BW },
	{ "rx-depth", 'r', OPT_U64, CFG(rx_depth), NO_HAS, 1, 16384, "512",
	  "512", "N", "receives posted per QP (send tests)",
	  .only = ONLY_SEND },
	{ "post_list", 'l', OPT_U64, CFG(post_list), NO_HAS, 1, 1024, "1", "1",
	  "N", "chain N work requests per post",
	  .only = ONLY_BW },
	{ "inline_size", 'I', OPT_U64, CFG(inline_bytes), CFG(has_inline), 0,
	  1024, NULL, NULL, "BYTES",
	  "send inline up to BYTES [256, less if the device allows less; 16 "
	  "on rxe and siw]",
	  .only = ONLY_WRITE | ONLY_SEND },
	{ "cq-mod", 'Q', OPT_U64, CFG(cq_mod), NO_HAS, 1, 1024, "100", "1",
	  "N", "request a completion every N operations",
	  .only = ONLY_BW },
	{ "outs", 'o', OPT_U64, CFG(outstanding), NO_HAS, 1, 256, "16", "16",
	  "N", "reads/atomics in flight per QP (capped by the device)",
	  .only = ONLY_READ | ONLY_ATOMIC },
	{ "bidirectional", 'b', OPT_FLAG, CFG(bidir), NO_HAS, 0, 0, NULL, NULL,
	  NULL, "both sides send; each side's figure and the sum",
	  .only = ONLY_BW },
	{ "connection", 'c', OPT_ENUM, CFG(conn_type), NO_HAS, 0, 0, "RC", "RC",
	  "RC|UC", "connection type (UC: over --oob tcp)", conn_choices },
	{ "atomic_type", 'A', OPT_ENUM, CFG(atomic_op), NO_HAS, 0, 0,
	  "FETCH_AND_ADD", "FETCH_AND_ADD", "OP", "the atomic operation",
	  atomic_choices,
	  .only = ONLY_ATOMIC },
	{ "tos", 'T', OPT_U64, CFG(tos), CFG(has_tos), 0, 255, NULL, NULL,
	  "TOS", "traffic class (IP TOS byte) of the QPs [the device's]" },
	{ "tclass", LONG_TCLASS, OPT_U64, CFG(tos), CFG(has_tos), 0, 255, NULL,
	  NULL, "TC", "same as -T" },
	{ "qp-timeout", 'u', OPT_U64, CFG(qp_timeout), CFG(has_qp_timeout), 0,
	  31, "14", "14", "T", "ack timeout 4.096 us * 2^T" },
	{ "retry_count", LONG_RETRY, OPT_U64, CFG(retry_count), NO_HAS, 0, 7,
	  "7", "7", "N", "transport retries before a peer is lost" },
	{ "validate", LONG_VALIDATE, OPT_FLAG, CFG(validate), NO_HAS, 0, 0,
	  NULL, NULL, NULL, "check every byte where the data lands (exit 4)" },
	{ "data_validation", LONG_DATA_VALIDATION, OPT_FLAG, CFG(validate),
	  NO_HAS, 0, 0, NULL, NULL, NULL, "same as --validate" },
	{ "report-histogram", 'H', OPT_FLAG, CFG(histogram), NO_HAS, 0, 0, NULL,
	  NULL, NULL, "print the latency histogram",
	  .only = ONLY_LAT },
	{ "report-histogrm", LONG_HISTOGRM, OPT_FLAG, CFG(histogram), NO_HAS,
	  0, 0, NULL, NULL, NULL, NULL, .only = ONLY_LAT }, /* perftest's */
	{ "output", LONG_OUTPUT, OPT_ENUM, CFG(output), NO_HAS, 0, 0, "table",
	  "table", "WHAT", "print only that figure, a bare number",
	  output_choices },
	{ "connect-timeout", LONG_CONNECT_TIMEOUT, OPT_U64,
	  CFG(connect_timeout_s), NO_HAS, 1, 86400, "30", "30", "SEC",
	  "client: keep retrying the server this long, then fail" },
	{ "timeout", LONG_TIMEOUT, OPT_U64, CFG(io_timeout_s), NO_HAS, 1, 86400,
	  "30", "30", "SEC", "fail when the peer makes no progress this long" },
	{ "report_gbits", LONG_REPORT_GBITS, OPT_FLAG, CFG(report_gbits),
	  NO_HAS, 0, 0, NULL, NULL, NULL,
	  "bandwidth in Gb/sec (10^9 bit/s) instead of MiB/sec",
	  .only = ONLY_BW },
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
	{ "limit_bw", 'w', OPT_DOUBLE, CFG(limit_bw), NO_HAS, 0, 0, NULL, NULL,
	  "BW", "perftest's gate: BW average at least BW (report unit)",
	  .only = ONLY_BW },
	{ "limit_msgrate", 'y', OPT_DOUBLE, CFG(limit_msgrate), NO_HAS, 0, 0,
	  NULL, NULL, "MPPS", "perftest's gate: message rate at least MPPS",
	  .only = ONLY_BW },
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
	{ "rdma_cm", 'R', OPT_FLAG, CFG(rdma_cm), NO_HAS, 0, 0, NULL, NULL,
	  NULL, "connect the QPs with rdma_cm (--oob cm)" },
	ACCEPTED("CPU-freq", 'F', NULL,
		 "no cpufreq warning: figures use CLOCK_MONOTONIC_RAW"),
	ACCEPTED("comm_rdma_cm", 'z', NULL,
		 "the control channel follows --oob (rdma_cm with -R)"),
	{ "com_rdma_cm", LONG_COM_RDMA_CM, OPT_NOOP, NOOP, NO_HAS, 0, 0, NULL,
	  NULL, NULL, NULL }, /* perftest's --help spells -z so */
	ACCEPTED("ipv6", LONG_IPV6, NULL,
		 "the address family follows the address given"),
	ACCEPTED("ipv6-addr", LONG_IPV6_ADDR, NULL,
		 "the address family follows the address given"),
	ACCEPTED("use_old_post_send", LONG_OLD_POST_SEND, NULL,
		 "work requests are always posted with ibv_post_send"),
	{ "disable_pcie_relaxed", LONG_NO_RELAXED, OPT_NOOP, NOOP, NO_HAS, 0, 0,
	  NULL, NULL, NULL, "buffers are never registered with relaxed "
	  "ordering", .only = ONLY_BW },
	{ "noPeak", 'N', OPT_FLAG, CFG(no_peak), NO_HAS, 0, 0, NULL, NULL,
	  NULL, "no peak: BW peak prints 0.00 as in perftest",
	  .only = ONLY_BW },
	{ "report-both", LONG_REPORT_BOTH, OPT_FLAG, CFG(report_both), NO_HAS,
	  0, 0, NULL, NULL, NULL,
	  "-b: each side's figure apart (what -b prints)", .only = ONLY_BW },
	{ "perform_warm_up", LONG_WARMUP, OPT_FLAG, CFG(warm_up), NO_HAS, 0,
	  0, NULL, NULL, NULL, "-D: measure after the -f warm-up margin",
	  .only = ONLY_BW },
	{ "cuda_mem_type", LONG_CUDA_MEM_TYPE, OPT_U64, CFG(cuda_mem_type),
	  NO_HAS, 0, 4, NULL, NULL, "T",
	  "--use_cuda memory: 0 = device (cuMemAlloc), the only one" },
	{ "mtu", 'm', OPT_U64, CFG(mtu), CFG(has_mtu), 256, 4096, NULL, NULL,
	  "MTU", "--oob tcp: path MTU 256..4096 [the port's active MTU]" },
	{ "sl", 'S', OPT_U64, CFG(sl), CFG(has_sl), 0, 15, NULL, NULL, "SL",
	  "--oob tcp: service level [0]" },
	{ "source_ip", 'j', OPT_STR, CFG(source_ip), NO_HAS, 0, OPTS_ADDR_MAX,
	  "", "", "IP", "client, rdma_cm: connect from this local IP" },
	{ "bind_source_ip", LONG_BIND_SOURCE_IP, OPT_STR, CFG(source_ip),
	  NO_HAS, 0, OPTS_ADDR_MAX, "", "", "IP", NULL }, /* perftest's */
	{ "hop_limit", 'L', OPT_U64, CFG(hop_limit), CFG(has_hop_limit), 0,
	  255, NULL, NULL, "N", "--oob tcp: GRH hop limit [64]" },
	{ "help", 'h', OPT_FLAG, CFG(show_help), NO_HAS, 0, 0, NULL, NULL, NULL,
	  "show this help" },
	{ "version", 'V', OPT_FLAG, CFG(show_version), NO_HAS, 0, 0, NULL,
	  NULL, NULL, "show the version" },
};

#define OPT_COUNT (sizeof(opt_table) / sizeof(opt_table[0]))

void opts_err(char *err, size_t err_len, const char *fmt, ...)
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
			opts_err(err, err_len, "%s '%s': must be a number >= 0",
				 label, value);
		return ret;
	case OPT_ENUM:
		ret = opt_enum(o, value, &num);
		if (ret)
			opts_err(err, err_len, "%s '%s': must be one of %s",
				 label, value, o->arg);
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
		opts_err(err, err_len, "%s %s: must be in [%llu, %llu]", label,
			 value, (unsigned long long)o->min,
			 (unsigned long long)o->max);
	else if (ret && o->kind != OPT_ENUM)
		opts_err(err, err_len, "%s '%s': not a number%s", label, value,
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
	case OPT_STR:
		if (!value[0]) {
			opts_err(err, err_len,
				 "%s: the value must not be empty", label);
			return -EINVAL;
		}
		if (strlen(value) >= o->max) {
			opts_err(err, err_len, "%s '%.40s...': at most %llu "
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

/* getopt's view of a refused option (code LONG_REFUSED + i). */
static struct option refusal_option(size_t i)
{
	const struct opts_refusal *r = &opts_refuse_rows[i];

	return (struct option){ r->long_name, r->has_arg ? required_argument :
				no_argument, NULL, (int)(LONG_REFUSED + i) };
}

static char *add_short(char *shorts, int code, int has_arg)
{
	if (code <= 0 || code >= 256)
		return shorts;
	*shorts++ = (char)code;
	if (has_arg == required_argument)
		*shorts++ = ':';
	return shorts;
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
		shorts = add_short(shorts, o->code, has_arg);
	}
	for (i = 0; i < opts_refuse_count; i++) {
		longs[OPT_COUNT + i] = refusal_option(i);
		shorts = add_short(shorts, opts_refuse_rows[i].short_name,
				   longs[OPT_COUNT + i].has_arg);
	}
	longs[OPT_COUNT + opts_refuse_count] = (struct option){ 0 };
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

/* The refused perftest option getopt returned as code, or NULL. */
static const struct opts_refusal *refusal_find(int code)
{
	size_t i;

	if (code >= LONG_REFUSED)
		return &opts_refuse_rows[code - LONG_REFUSED];
	for (i = 0; i < opts_refuse_count; i++)
		if (opts_refuse_rows[i].short_name == code)
			return &opts_refuse_rows[i];
	return NULL;
}

/* A refused perftest option: why, and what to do instead. */
static int opt_refuse(const struct opts_refusal *r, char *err, size_t err_len)
{
	if (!r) /* cannot happen: every code getopt returns is a row's */
		opts_err(err, err_len, "unknown option (--help lists them)");
	else if (r->short_name)
		opts_err(err, err_len,
			 "-%c/--%s is not supported by rdmabench: %s; %s",
			 r->short_name, r->long_name, r->why, r->instead);
	else
		opts_err(err, err_len,
			 "--%s is not supported by rdmabench: %s; %s",
			 r->long_name, r->why, r->instead);
	return -EINVAL;
}

/* The verb names of ONLY_WRITE, ONLY_READ, ... in that order. */
static const char *const only_verbs[] = { "write", "read", "send", "atomic" };
#define ONLY_VERB_COUNT (sizeof(only_verbs) / sizeof(only_verbs[0]))

/* The ONLY_* bits of a tool: its measure and its verb. */
static unsigned int only_mine(const struct bench_desc *d)
{
	unsigned int bits = d->measure == BENCH_MEASURE_BW ? ONLY_BW : ONLY_LAT;
	size_t i;

	for (i = 0; i < ONLY_VERB_COUNT; i++)
		if (!strcmp(bench_verb_name(d->verb), only_verbs[i]))
			bits |= ONLY_WRITE << i;
	return bits;
}

/* Does o apply to tool d? */
static bool only_applies(const struct opt_def *o, const struct bench_desc *d)
{
	unsigned int mine = only_mine(d);

	return (!(o->only & ONLY_MEASURES) || (o->only & mine)) &&
	       (!(o->only & ONLY_VERBS) || (o->only & mine & ONLY_VERBS));
}

/* The tools of an ONLY_* mask, for messages: "ib_read_*, ib_atomic_*". */
static void only_tools(unsigned int only, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < ONLY_VERB_COUNT; i++)
		if (only & (ONLY_WRITE << i))
			n += snprintf(buf + n, n < len ? len - n : 0,
				      "%sib_%s_*", n ? ", " : "", only_verbs[i]);
}

/* Options of some tools only (perftest's --help of each): refused. */
static int opt_applies(const struct opt_def *o, const struct bench_desc *d,
		       char *err, size_t err_len)
{
	char label[64], tools[64];

	if (only_applies(o, d))
		return 0;
	opt_label(o, label, sizeof(label));
	if ((o->only & ONLY_MEASURES) && !(o->only & only_mine(d))) {
		bool bw = o->only & ONLY_BW;

		opts_err(err, err_len, "%s is for %s tests, not %s: use the "
			 "ib_*_%s tool", label, bw ? "bandwidth" : "latency",
			 d->name, bw ? "bw" : "lat");
		return -EINVAL;
	}
	only_tools(o->only, tools, sizeof(tools));
	opts_err(err, err_len, "%s is for %s, not %s: use one of those or drop "
		 "it", label, tools, d->name);
	return -EINVAL;
}

/*
 * An optional argument given as the next word ("--use_cuda 0", as perftest
 * users write it): taken when it is a value of the option, so that it is
 * not read as the server address.
 */
static const char *opt_next_value(const struct opt_def *o, int argc,
				  char **argv)
{
	uint64_t num;

	if (o->kind != OPT_OPT_INT || optarg || optind >= argc ||
	    units_parse_u64(argv[optind], o->min, o->max, &num))
		return optarg;
	return argv[optind++];
}

static int opts_positional(struct bench_cfg *cfg, int argc, char **argv,
			   char *err, size_t err_len)
{
	if (optind >= argc)
		return 0;
	if (argc - optind > 1) {
		opts_err(err, err_len,
			 "unexpected argument '%s': give one server address at most",
			 argv[optind + 1]);
		return -EINVAL;
	}
	if (strlen(argv[optind]) >= OPTS_ADDR_MAX || !argv[optind][0]) {
		opts_err(err, err_len, "server address '%s' is not valid",
			 argv[optind]);
		return -EINVAL;
	}
	strcpy(cfg->server_addr, argv[optind]);
	return 0;
}

/* getopt's error codes into a message naming the option. */
static int opt_getopt_error(int code, char **argv, char *err, size_t err_len)
{
	/* an unknown short option inside a cluster ("-Za"): getopt has
	 * not advanced optind yet, so name the character itself */
	if (code == '?' && optopt > 0 && optopt < 256)
		opts_err(err, err_len,
			 "unknown option '-%c' (--help lists them)", optopt);
	else
		opts_err(err, err_len, "%s option '%s'%s",
			 code == '?' ? "unknown" : "missing value for",
			 argv[optind - 1],
			 code == '?' ? " (--help lists them)" : "");
	return -EINVAL;
}

int opts_parse(struct bench_cfg *cfg, const struct bench_desc *desc,
	       int argc, char **argv, char *err, size_t err_len)
{
	struct option longs[OPT_COUNT + OPTS_REFUSE_MAX + 1];
	char shorts[2 * (OPT_COUNT + OPTS_REFUSE_MAX) + 2];
	int code, ret;

	ret = opts_defaults(cfg, desc, err, err_len);
	if (ret)
		return ret;
	build_getopt(longs, shorts);
	optind = 0; /* 0, not 1: makes glibc re-initialise getopt fully */
	opterr = 0; /* we word the messages ourselves */
	while ((code = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct opt_def *o = opt_find(code);

		if (code == '?' || code == ':')
			return opt_getopt_error(code, argv, err, err_len);
		if (!o)
			return opt_refuse(refusal_find(code), err, err_len);
		ret = opt_applies(o, desc, err, err_len);
		if (!ret)
			ret = opt_store(o, cfg, opt_next_value(o, argc, argv),
					err, err_len);
		if (ret)
			return ret;
	}
	return opts_positional(cfg, argc, argv, err, err_len);
}

/* An enum's choices for this tool, perftest's way: "<RC/UC>". */
static void usage_choices(const struct opt_def *o, const struct bench_desc *d,
			  char *buf, size_t len)
{
	size_t i, n = snprintf(buf, len, "=<");

	for (i = 0; o->choices[i] && n < len; i++) {
		if (o->choices == conn_choices && i == OPTS_CONN_UC &&
		    !bench_verb(d->verb)->uc_ok)
			continue; /* the verb table says who can do UC */
		n += snprintf(buf + n, len - n, "%s%s", n > 2 ? "/" : "",
			      o->choices[i]);
	}
	if (n < len)
		snprintf(buf + n, len - n, ">");
}

static void opts_usage_row(const struct opt_def *o, const char *def,
			   const struct bench_desc *d, FILE *out)
{
	char flag[96], arg[64] = "";

	if (o->kind == OPT_ENUM)
		usage_choices(o, d, arg, sizeof(arg));
	else if (o->arg) /* "[=N]": an optional argument takes no space */
		snprintf(arg, sizeof(arg), "%s%s", o->arg[0] == '[' ? "" : " ",
			 o->arg);
	if (o->code < 256)
		snprintf(flag, sizeof(flag), "-%c, --%s%s", o->code,
			 o->long_name, arg);
	else
		snprintf(flag, sizeof(flag), "    --%s%s", o->long_name, arg);
	fprintf(out, "  %-30s %s", flag, o->help);
	if (def && def[0] && strcmp(def, "-1"))
		fprintf(out, " [%s]", def);
	fputc('\n', out);
}

/* The refused perftest options by name, wrapped. */
static void opts_usage_refused(FILE *out)
{
	size_t i, col = 0;

	fprintf(out, "\nperftest options refused (exit 2; the message says "
		"why and what to use instead):\n");
	for (i = 0; i < opts_refuse_count; i++) {
		const struct opts_refusal *r = &opts_refuse_rows[i];
		int w = (int)strlen(r->long_name) + 3;

		if (col + w > 78) {
			fputc('\n', out);
			col = 0;
		}
		col += fprintf(out, " --%s", r->long_name);
	}
	fputc('\n', out);
}

/* Aliases (no help), other tools' options, -s/-a of a fixed size. */
static bool usage_hidden(const struct opt_def *o, const struct bench_desc *d)
{
	return !o->help || !only_applies(o, d) ||
	       (bench_verb(d->verb)->fixed_size &&
		(o->code == 's' || o->code == 'a'));
}

/* The rows of one --help section: perftest's no-ops or the rest. */
static void opts_usage_rows(const struct bench_desc *desc, bool noop,
			    FILE *out)
{
	bool is_bw = desc->measure == BENCH_MEASURE_BW;
	char num[32];
	size_t i;

	for (i = 0; i < OPT_COUNT; i++) {
		const struct opt_def *o = &opt_table[i];
		const char *def = is_bw ? o->def_bw : o->def_lat;

		if ((o->kind == OPT_NOOP) != noop || usage_hidden(o, desc))
			continue;
		if (o->code == 's' || o->code == 'n') {
			snprintf(num, sizeof(num), "%llu", o->code == 's' ?
				 desc->default_size : desc->default_iters);
			def = num;
		}
		opts_usage_row(o, noop ? NULL : def, desc, out);
	}
}

void opts_usage(const struct bench_desc *desc, FILE *out)
{
	fprintf(out, "%s - %s (rdmabench %s)\n\n", desc->name, desc->summary,
		RDMABENCH_VERSION);
	fprintf(out, "Usage:\n  %s [options]              "
		"server: wait for a client\n  %s [options] SERVER       "
		"client: run the test against SERVER\n  (a hostname or any "
		"IP of it; the data device: -d, else the one that\n  owns "
		"the route, else the first active one)\n\n", desc->name,
		desc->name);
	fprintf(out, "The client sends the whole test configuration; the "
		"server needs only -d/-i/-p.\n\nOptions:\n");
	opts_usage_rows(desc, false, out);
	fprintf(out, "\nperftest options that are what rdmabench does "
		"anyway:\n");
	opts_usage_rows(desc, true, out);
	opts_usage_refused(out);
	fprintf(out, "\nExit codes: 0 ok, 1 runtime error, 2 usage, "
		"3 below expectation,\n4 data corruption, 5 peer unreachable, "
		"lost or timed out, 130 stopped by\nSIGINT/SIGTERM (a second "
		"signal ends it at once).\n");
}
