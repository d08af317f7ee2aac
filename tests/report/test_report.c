// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/report/report.c: the tables, byte for byte, against golden
 * files in tests/golden/ (found under $TEST_SRCDIR, default "."), and the
 * column order scripts rely on (awk '{print $4}' is BW average).
 *
 * TEST_UPDATE_GOLDEN=1 rewrites the golden files from the current output
 * instead of comparing; review the diff before committing it.
 */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <stdlib.h>

#include "report/report.h"
#include "tests/test.h"
#include "tests/golden.h"

/* One rendering into memory. */
struct capture {
	char *text;
	size_t len;
	FILE *out;
};

static FILE *capture_open(struct capture *c)
{
	c->text = NULL;
	c->len = 0;
	c->out = open_memstream(&c->text, &c->len);
	EXPECT_TRUE(c->out != NULL);
	return c->out;
}

static void capture_close(struct capture *c)
{
	fclose(c->out);
	c->out = NULL;
}


/* Whitespace-separated field n (1-based, as awk counts) of line; "" if none. */
static const char *awk_field(const char *line, int n, char *buf, size_t len)
{
	const char *p = line;
	int i;

	buf[0] = '\0';
	for (i = 1;; i++) {
		size_t w;

		p += strspn(p, " \t");
		if (!*p || *p == '\n')
			return buf;
		w = strcspn(p, " \t\n");
		if (i == n) {
			snprintf(buf, len, "%.*s", (int)w, p);
			return buf;
		}
		p += w;
	}
}

static const struct report_info bw_info = {
	.title = "RDMA_Write BW Test", .role = "client", .dev_name = "rxe0",
	.fw_ver = "0.0.0", .transport = "RoCE", .port_state = "ACTIVE",
	.port = 1, .mtu_bytes = 1024, .numa_node = -1,
	.local = "198.18.0.1:41234", .peer = "198.18.0.2:18515",
	.tx_depth = 128, .cq_mod = 100, .max_inline = 0, .qps = 1,
	.lat_note = NULL,
};

static const struct report_info lat_info = {
	.title = "RDMA_Write Latency Test", .role = "server",
	.dev_name = "mlx5_0", .fw_ver = "28.39.1002", .transport = "IB",
	.port_state = "ACTIVE", .port = 2, .mtu_bytes = 4096, .numa_node = 0,
	.local = "10.0.0.2:18515", .peer = "10.0.0.1:50000", .tx_depth = 1,
	.cq_mod = 1, .max_inline = 220, .qps = 1,
	.lat_note = "half of a ping-pong round trip",
	.warm_up = "128 iterations of each size first, not measured "
	"(--perform_warm_up)",
	.no_effect = "--flows/--flows_burst (raw Ethernet flows)",
};

static void test_header(void)
{
	struct capture c;

	if (!capture_open(&c))
		return;
	report_header(c.out, &bw_info);
	report_header(c.out, &lat_info);
	capture_close(&c);
	EXPECT_TRUE(strstr(c.text, "RDMA_Write BW Test (rdmabench, client)")
		    != NULL);
	EXPECT_TRUE(strstr(c.text, " Memory          : host, not pinned\n")
		    != NULL);
	EXPECT_TRUE(strstr(c.text, " Memory          : host, node 0\n")
		    != NULL);
	EXPECT_TRUE(strstr(c.text, " Latency         : half of a ping-pong")
		    != NULL);
	/* sizes carry perftest's [B]: a grep for a size never hits them */
	EXPECT_TRUE(strstr(c.text, " Mtu             : 1024[B]\n") != NULL);
	EXPECT_TRUE(strstr(c.text, " Max inline data : 220[B]\n") != NULL);
	/* issue 26: perftest flags honoured, or accepted with why */
	EXPECT_TRUE(strstr(c.text, " Warm-up         : 128 iterations")
		    != NULL);
	EXPECT_TRUE(strstr(c.text, " Changes nothing : --flows/") != NULL);
	expect_golden(c.text, c.len, "report_header.txt");
	free(c.text);

	if (!capture_open(&c))
		return;
	report_rule(c.out);
	capture_close(&c);
	EXPECT_EQ_U64(c.len, 88);
	EXPECT_EQ_U64(strspn(c.text, "-"), 87);
	free(c.text);
}

/* Fields of a line as awk counts them. */
static int awk_nf(const char *line)
{
	char buf[64];
	int n = 0;

	while (awk_field(line, n + 1, buf, sizeof(buf))[0])
		n++;
	return n;
}

struct bw_case {
	uint64_t size, iters;
	struct stats_bw bw, peak, peer;
};

static const struct bw_case bw_cases[] = {
	{ 2, 5000, { .gbps = 0.0123, .mibps = 1.4663, .mpps = 0.768123 },
	  { .gbps = 0.0150, .mibps = 1.7881, .mpps = 0.9375 },
	  { .gbps = 0.0122, .mibps = 1.4543, .mpps = 0.76 } },
	{ 65536, 5000,
	  { .gbps = 21.2336, .mibps = 2531.25, .mpps = 0.0405 },
	  { .gbps = 26.2144, .mibps = 3125.0, .mpps = 0.05 },
	  { .gbps = 21.1406, .mibps = 2520.16, .mpps = 0.040323 } },
	{ 8388608, 1000000,
	  { .gbps = 391.987654, .mibps = 46728.5551, .mpps = 0.005841 },
	  { .gbps = 399.999, .mibps = 47683.6, .mpps = 0.00596 },
	  { .gbps = 390.005, .mibps = 46492.3, .mpps = 0.005811 } },
};

#define N_BW (sizeof(bw_cases) / sizeof(bw_cases[0]))

/*
 * A data row's fields as awk sees them: perftest's 5, $4 the average;
 * Gb/sec below 0.1: six decimals, as perftest's REPORT_FMT_EXT.
 */
static void expect_bw_fields(const char *line, const struct bw_case *k,
			     int gbits)
{
	double avg = gbits ? k->bw.gbps : k->bw.mibps;
	int dec = gbits && avg < 0.1 ? 6 : 2;
	char want[5][64], field[64];
	int f;

	snprintf(want[0], sizeof(want[0]), "%llu",
		 (unsigned long long)k->size);
	snprintf(want[1], sizeof(want[1]), "%llu",
		 (unsigned long long)k->iters);
	snprintf(want[2], sizeof(want[2]), "%.*f", dec,
		 gbits ? k->peak.gbps : k->peak.mibps);
	snprintf(want[3], sizeof(want[3]), "%.*f", dec, avg);
	snprintf(want[4], sizeof(want[4]), "%.6f", k->bw.mpps);
	for (f = 0; f < 5; f++)
		EXPECT_STREQ(awk_field(line, f + 1, field, sizeof(field)),
			     want[f]);
	EXPECT_EQ_INT(awk_nf(line), 5);
}

/* The tables as stdout shows them: rows only, the notes go to stderr
 * (perftest_out_notes; test_notes checks their text). */
static void test_bw(void)
{
	struct capture c;
	char line[512];
	size_t i;
	int gbits;

	if (!capture_open(&c))
		return;
	for (gbits = 0; gbits <= 1; gbits++) {
		report_bw_head(c.out, gbits);
		for (i = 0; i < N_BW; i++) {
			report_bw_row(c.out, gbits, bw_cases[i].size,
				      bw_cases[i].iters, &bw_cases[i].bw,
				      &bw_cases[i].peak);
		}
	}
	capture_close(&c);
	expect_golden(c.text, c.len, "report_bw.txt");
	free(c.text);

	/* perftest's column header, byte for byte */
	for (gbits = 0; gbits <= 1; gbits++) {
		if (!capture_open(&c))
			return;
		report_bw_head(c.out, gbits);
		capture_close(&c);
		EXPECT_STREQ(c.text, gbits ?
			" #bytes     #iterations    BW peak[Gb/sec]    "
			"BW average[Gb/sec]   MsgRate[Mpps]\n" :
			" #bytes     #iterations    BW peak[MiB/sec]    "
			"BW average[MiB/sec]   MsgRate[Mpps]\n");
		free(c.text);
	}

	for (i = 0; i < N_BW; i++) {
		for (gbits = 0; gbits <= 1; gbits++) {
			const struct bw_case *k = &bw_cases[i];

			if (!capture_open(&c))
				return;
			report_bw_row(c.out, gbits, k->size, k->iters, &k->bw,
				      &k->peak);
			capture_close(&c);
			snprintf(line, sizeof(line), "%s", c.text);
			free(c.text);
			expect_bw_fields(line, k, gbits);
		}
	}
}

/* -b: the row's figures are the sum of both directions, as perftest's. */
static void test_bw_sum(void)
{
	const struct stats_bw a = { .bytes = 10, .msgs = 5, .elapsed_ns = 7,
				    .gbps = 1.5, .mibps = 178.8, .mpps = 2 };
	const struct stats_bw b = { .bytes = 4, .msgs = 2, .elapsed_ns = 9,
				    .gbps = 0.5, .mibps = 59.6, .mpps = 1 };
	struct stats_bw s;

	report_bw_add(&a, &b, &s);
	EXPECT_EQ_U64(s.bytes, 14);
	EXPECT_EQ_U64(s.msgs, 7);
	EXPECT_EQ_U64(s.elapsed_ns, 9);
	EXPECT_TRUE(s.gbps == 2.0 && s.mpps == 3.0);
	EXPECT_TRUE(s.mibps > 238.39 && s.mibps < 238.41);
	EXPECT_TRUE(report_bw_value(true, &s) == s.gbps);
	EXPECT_TRUE(report_bw_value(false, &s) == s.mibps);
}

struct lat_case {
	uint64_t size, iters;
	struct stats_lat lat;
};

static const struct lat_case lat_cases[] = {
	{ 2, 1000, { .samples = 1000, .min_us = 1.23, .p50_us = 1.5,
		     .avg_us = 1.6049, .stdev_us = 0.2, .p90_us = 1.9,
		     .p99_us = 2.5, .p999_us = 7.75, .max_us = 12.5 } },
	{ 4096, 100000, { .samples = 100000, .min_us = 3.004, .p50_us = 3.5,
			  .avg_us = 3.61, .stdev_us = 0.0149,
			  .p90_us = 3.9, .p99_us = 4.25, .p999_us = 19.994,
			  .max_us = 1234.5678 } },
};

#define N_LAT (sizeof(lat_cases) / sizeof(lat_cases[0]))

static void test_lat_golden(void)
{
	struct capture c;
	size_t i;

	if (!capture_open(&c))
		return;
	report_lat_head(c.out, false);
	for (i = 0; i < N_LAT; i++) {
		report_lat_row(c.out, lat_cases[i].size, lat_cases[i].iters,
			       &lat_cases[i].lat);
	}
	report_lat_head(c.out, true);
	for (i = 0; i < N_LAT; i++) {
		report_lat_dur_row(c.out, lat_cases[i].size,
				   lat_cases[i].iters, lat_cases[i].lat.avg_us,
				   1e6 / (2 * lat_cases[i].lat.avg_us), -1);
	}
	capture_close(&c);
	expect_golden(c.text, c.len, "report_lat.txt");
	free(c.text);
}

static void test_lat(void)
{
	struct capture c;
	char line[512], field[64], want[64];
	size_t i;

	test_lat_golden();
	/* Fields as awk sees them: $3 min, $4 max, $5 typical (median). */
	for (i = 0; i < N_LAT; i++) {
		const struct stats_lat *l = &lat_cases[i].lat;
		const double want_v[] = { l->min_us, l->max_us, l->p50_us,
					  l->avg_us, l->stdev_us, l->p99_us,
					  l->p999_us };
		int f;

		if (!capture_open(&c))
			return;
		report_lat_row(c.out, lat_cases[i].size, lat_cases[i].iters,
			       l);
		capture_close(&c);
		snprintf(line, sizeof(line), "%s", c.text);
		free(c.text);
		for (f = 0; f < 7; f++) {
			snprintf(want, sizeof(want), "%.2f", want_v[f]);
			EXPECT_STREQ(awk_field(line, f + 3, field,
					       sizeof(field)), want);
		}
		EXPECT_EQ_INT(awk_nf(line), 9);
	}
	/* -D: #bytes #iterations t_avg tps, perftest's 4 */
	if (!capture_open(&c))
		return;
	report_lat_dur_row(c.out, 2, 123456, 1.6049, 311546.2, -1);
	capture_close(&c);
	EXPECT_EQ_INT(awk_nf(c.text), 4);
	EXPECT_STREQ(awk_field(c.text, 3, field, sizeof(field)), "1.60");
	EXPECT_STREQ(awk_field(c.text, 4, field, sizeof(field)), "311546.20");
	free(c.text);
}

/* Note lines start with " # ": awk's $1 is "#", never a number. */
static void test_notes(void)
{
	struct capture c;

	if (!capture_open(&c))
		return;
	report_bw_note(c.out, true, "server", &bw_cases[1].peer);
	capture_close(&c);
	EXPECT_STREQ(c.text, " # server: BW average[Gb/sec] 21.14, "
			     "MsgRate[Mpps] 0.040323\n");
	free(c.text);
}

int main(void)
{
	test_header();
	test_bw();
	test_bw_sum();
	test_lat();
	test_notes();
	return test_finish("test_report");
}
