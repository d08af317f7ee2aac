// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/report/perftest_json.c: the file of perftest's
 * --out_json is valid JSON (read back with lib/json_read) with perftest's
 * keys in perftest's order, for bandwidth, latency, -D latency and the
 * bare figures of --output; golden files in tests/golden/.
 */
#define _GNU_SOURCE /* open_memstream */
#include <stdlib.h>
#include <string.h>

#include "lib/json_read.h"
#include "report/perftest_json.h"
#include "tests/test.h"
#include "tests/golden.h"

static const struct stats_bw bw = { .gbps = 21.2336, .mibps = 2531.25,
				    .mpps = 0.0405 };
static const struct stats_bw peak = { .gbps = 26.2144, .mibps = 3125.0 };
static const struct stats_lat lat = { .samples = 1000, .min_us = 1.23,
	.p50_us = 1.5, .avg_us = 1.6049, .stdev_us = 0.2, .p99_us = 2.5,
	.p999_us = 7.75, .max_us = 12.5 };

static const struct perftest_json_info info = {
	.test = "RDMA_Write_BW_Test", .device = "rxe0", .qps = 1,
	.transport = "IB", .conn_type = "RC", .tx_side = true,
	.tx_depth = 128, .bw = true, .cq_mod = 100, .post_list = 1,
	.mtu_bytes = 1024, .link_type = "Ethernet", .gid_index = 1,
	.inline_or_reads = 16,
	.rdma_cm = true, .cuda_device = -1,
};

/* Render; the keys of "results" in order, space-separated, into keys. */
static char *render(const struct perftest_json_row *row, char *keys,
		    size_t len, size_t *text_len)
{
	struct json_read_tok tok[128];
	char *text = NULL;
	FILE *f = open_memstream(&text, text_len);
	int n, res, i, k;

	keys[0] = '\0';
	EXPECT_EQ_INT(perftest_json_write(f, &info, row), 0);
	fclose(f);
	n = json_read_parse(text, *text_len, tok, 128);
	EXPECT_TRUE(n > 0);
	if (n <= 0)
		return text;
	EXPECT_TRUE(json_read_get(text, tok, n, 0, "test_info") > 0);
	res = json_read_get(text, tok, n, 0, "results");
	EXPECT_TRUE(res > 0);
	for (i = res + 1, k = 0; res > 0 && k < (int)tok[res].size; k++) {
		snprintf(keys + strlen(keys), len - strlen(keys), "%s%.*s",
			 k ? " " : "", (int)(tok[i].end - tok[i].start),
			 text + tok[i].start);
		i = json_read_next(tok, n, i + 1);
	}
	return text;
}

static void check(const struct perftest_json_row *row, const char *want,
		  const char *golden)
{
	char keys[256];
	size_t len;
	char *text = render(row, keys, sizeof(keys), &len);

	EXPECT_STREQ(keys, want);
	if (golden)
		expect_golden(text, len, golden);
	free(text);
}

int main(void)
{
	struct perftest_json_row row = {
		.kind = PERFTEST_JSON_BW, .output = OPTS_OUTPUT_TABLE,
		.gbits = true, .size = 65536, .iters = 5000, .bw = &bw,
		.peak = &peak, .lat = &lat,
	};

	check(&row, "MsgSize n_iterations BW_peak BW_average MsgRate",
	      "perftest_json_bw.json");
	row.output = OPTS_OUTPUT_BW;
	check(&row, "bw_avg", NULL);
	row.output = OPTS_OUTPUT_MSGRATE;
	check(&row, "msgRate_avg", NULL);
	row.kind = PERFTEST_JSON_LAT;
	row.output = OPTS_OUTPUT_TABLE;
	check(&row, "MsgSize n_iterations t_min t_max t_typical t_avg t_stdev "
	      "percentile_99 percentile_99.9", "perftest_json_lat.json");
	row.output = OPTS_OUTPUT_LATENCY;
	check(&row, "avg_lat", NULL);
	row.kind = PERFTEST_JSON_LAT_DUR;
	check(&row, "t_avg", NULL);
	row.output = OPTS_OUTPUT_TABLE;
	row.tps = 311546.2;
	check(&row, "MsgSize n_iterations t_avg tps_average", NULL);
	return test_finish("test_perftest_json");
}
