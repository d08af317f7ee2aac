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
#include <string.h>

#include "opts.h"
#include "units.h"

enum opt_kind {
	OPT_FLAG,     /* bool, set to true */
	OPT_U64,      /* decimal in [min, max] */
	OPT_SIZE,     /* bytes, K/M/G suffixes, in [min, max] */
	OPT_STR,      /* char array of max bytes */
	OPT_NOOP,     /* accepted for perftest compatibility; help says why */
};

/* Long-only options get codes above any char. */
enum {
	LONG_REPORT_GBITS = 256,
	LONG_CONNECT_TIMEOUT,
	LONG_TIMEOUT,
	LONG_VERSION,
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
};

#define CFG(field) offsetof(struct bench_cfg, field)
#define NO_HAS 0

/*
 * -s and -n take their defaults from the executable's descriptor (perftest:
 * 65536 B x 5000 for bandwidth, 2 B x 1000 for latency).
 */
static const struct opt_def opt_table[] = {
	{ "ib-dev", 'd', OPT_STR, CFG(dev_name), NO_HAS, 0, OPTS_NAME_MAX,
	  "", "", "DEV", "RDMA device to use (default: the one the IP routes to)" },
	{ "ib-port", 'i', OPT_U64, CFG(ib_port), NO_HAS, 1, 255, "1", "1",
	  "PORT", "port of the device" },
	{ "gid-index", 'x', OPT_U64, CFG(gid_index), CFG(has_gid_index), 0,
	  255, NULL, NULL, "IDX",
	  "accepted; with rdma_cm the GID follows from the IP in use" },
	{ "port", 'p', OPT_U64, CFG(tcp_port), NO_HAS, 1, 65535, "18515",
	  "18515", "PORT", "rdma_cm port the server listens on" },
	{ "size", 's', OPT_SIZE, CFG(size_bytes), NO_HAS, 1, 1ULL << 31, NULL,
	  NULL, "BYTES", "message size (K/M/G suffixes)" },
	{ "all", 'a', OPT_FLAG, CFG(all_sizes), NO_HAS, 0, 0, NULL, NULL, NULL,
	  "sweep sizes 2 B .. 8 MiB, powers of two, one row each" },
	{ "iters", 'n', OPT_U64, CFG(iters), NO_HAS, 1, 1ULL << 40, NULL, NULL,
	  "N", "iterations per size" },
	{ "tx-depth", 't', OPT_U64, CFG(tx_depth), NO_HAS, 1, 16384, "128", "1",
	  "N", "sends in flight (bandwidth tests)" },
	{ "cq-mod", 'Q', OPT_U64, CFG(cq_mod), NO_HAS, 1, 1024, "100", "1",
	  "N", "request a completion every N sends" },
	{ "connect-timeout", LONG_CONNECT_TIMEOUT, OPT_U64,
	  CFG(connect_timeout_s), NO_HAS, 1, 86400, "30", "30", "SEC",
	  "client: keep retrying the server this long, then fail" },
	{ "timeout", LONG_TIMEOUT, OPT_U64, CFG(io_timeout_s), NO_HAS, 1, 86400,
	  "30", "30", "SEC", "fail when the peer makes no progress this long" },
	{ "report_gbits", LONG_REPORT_GBITS, OPT_FLAG, CFG(report_gbits),
	  NO_HAS, 0, 0, NULL, NULL, NULL,
	  "bandwidth in Gb/sec (10^9 bit/s) instead of MiB/sec" },
	{ "rdma_cm", 'R', OPT_NOOP, CFG(use_rdma_cm), NO_HAS, 0, 0, NULL, NULL,
	  NULL, "accepted; rdma_cm is always used" },
	{ "CPU-freq", 'F', OPT_NOOP, CFG(cpu_freq_f), NO_HAS, 0, 0, NULL, NULL,
	  NULL, "accepted; timing uses CLOCK_MONOTONIC_RAW, no CPU MHz" },
	{ "help", 'h', OPT_FLAG, CFG(show_help), NO_HAS, 0, 0, NULL, NULL, NULL,
	  "show this help" },
	{ "version", LONG_VERSION, OPT_FLAG, CFG(show_version), NO_HAS, 0, 0,
	  NULL, NULL, NULL, "show the version" },
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

/* Store one value; value may be NULL for flags. */
static int opt_store(const struct opt_def *o, struct bench_cfg *cfg,
		     const char *value, char *err, size_t err_len)
{
	char *base = (char *)cfg;
	char label[64];
	uint64_t num;
	int ret;

	opt_label(o, label, sizeof(label));
	switch (o->kind) {
	case OPT_FLAG:
	case OPT_NOOP:
		*(bool *)(base + o->offset) = true;
		return 0;
	case OPT_STR:
		if (strlen(value) >= o->max || !value[0]) {
			set_err(err, err_len, "%s '%s': must be 1..%llu characters",
				label, value, (unsigned long long)o->max - 1);
			return -EINVAL;
		}
		strcpy(base + o->offset, value);
		return 0;
	case OPT_U64:
		ret = units_parse_u64(value, o->min, o->max, &num);
		break;
	case OPT_SIZE:
		ret = units_parse_size(value, &num);
		if (!ret && (num < o->min || num > o->max))
			ret = -ERANGE;
		break;
	default:
		return -EINVAL;
	}
	if (ret == -ERANGE)
		set_err(err, err_len, "%s %s: must be in [%llu, %llu]", label,
			value, (unsigned long long)o->min,
			(unsigned long long)o->max);
	else if (ret)
		set_err(err, err_len, "%s '%s': not a number%s", label, value,
			o->kind == OPT_SIZE ? " (e.g. 65536, 64K, 1M)" : "");
	if (!ret)
		*(uint64_t *)(base + o->offset) = num;
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
		bool has_arg = o->kind != OPT_FLAG && o->kind != OPT_NOOP;

		longs[i] = (struct option){ o->long_name,
					    has_arg ? required_argument
						    : no_argument,
					    NULL, o->code };
		if (o->code < 256) {
			*shorts++ = (char)o->code;
			if (has_arg)
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

void opts_usage(const struct bench_desc *desc, FILE *out)
{
	bool is_bw = desc->measure == BENCH_MEASURE_BW;
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
		char flag[64];

		if (o->code < 256)
			snprintf(flag, sizeof(flag), "-%c, --%s%s%s", o->code,
				 o->long_name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		else
			snprintf(flag, sizeof(flag), "    --%s%s%s",
				 o->long_name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		fprintf(out, "  %-28s %s", flag, o->help);
		if (o->code == 's')
			fprintf(out, " [%llu]", desc->default_size);
		else if (o->code == 'n')
			fprintf(out, " [%llu]", desc->default_iters);
		else if (def && def[0])
			fprintf(out, " [%s]", def);
		fputc('\n', out);
	}
	fprintf(out, "\nExit codes: 0 ok, 1 runtime error, 2 usage, "
		"3 below expectation,\n4 data corruption, 5 peer unreachable, "
		"lost or timed out.\n");
}
