// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/results*.c: four sample runs (bandwidth with both
 * sides, latency, a run that failed midway, an -a sweep with one failing
 * gate) rendered as JSON, JUnit and Prometheus text and compared byte for
 * byte with tests/golden/results_<sample>.{json,xml,prom} (found under
 * $TEST_SRCDIR, default "."); tests/report/test_results_validate.sh then checks
 * those goldens against the schemas. Also: atomic save, file names, caps.
 *
 * TEST_UPDATE_GOLDEN=1 rewrites the golden files from the current output
 * instead of comparing; review the diff before committing it.
 */
#define _GNU_SOURCE /* open_memstream */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/results.h"
#include "report/results_junit.h"
#include "report/results_prom.h"
#include "lib/hist.h"
#include "lib/stats.h"
#include "tests/test.h"
#include "tests/golden.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* 2026-11-29T19:35:01.123Z */
#define T0_NS (1795980901ULL * 1000000000ULL + 123000000ULL)

typedef int (*render_fn)(const struct results_doc *, FILE *);

/* Render into memory; NULL when the renderer failed. */
static char *render_text(render_fn render, const struct results_doc *d,
			 size_t *len)
{
	char *text = NULL;
	FILE *out = open_memstream(&text, len);
	int ret;

	EXPECT_TRUE(out != NULL);
	if (!out)
		return NULL;
	ret = render(d, out);
	fclose(out);
	EXPECT_EQ_INT(ret, 0);
	if (ret) {
		free(text);
		return NULL;
	}
	return text;
}


/* The three renderings of d against results_<sample>.{json,xml,prom}. */
static void expect_goldens(const struct results_doc *d, const char *sample)
{
	static const struct {
		render_fn render;
		const char *ext;
	} kinds[] = {
		{ results_write_json, "json" },
		{ results_junit_write, "xml" },
		{ results_prom_write, "prom" },
	};
	char name[128];
	size_t i, len;
	char *text;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		text = render_text(kinds[i].render, d, &len);
		if (!text)
			continue;
		snprintf(name, sizeof(name), "results_%s.%s", sample,
			 kinds[i].ext);
		expect_golden(text, len, name);
		free(text);
	}
}

/* ---- sample documents ---- */

static const char *const bw_argv[] = {
	"ib_write_bw", "-d", "mlx5_0", "--report_gbits", "-s", "65536",
	"--expect-gbps", "180", "--json", "results/run.json", "198.18.0.2",
};

/* What every sample shares: a client on mlx5_0, 200G HDR RoCE. */
static void fill_common(struct results_doc *d, const char *tool,
			const char *measure)
{
	results_init(d);
	results_copy(d->tool, sizeof(d->tool), tool);
	results_copy(d->tool_version, sizeof(d->tool_version), "0.1.0");
	d->argc = (int)ARRAY_SIZE(bw_argv);
	d->argv = bw_argv;
	d->start_unix_ns = T0_NS;
	d->end_unix_ns = T0_NS + 2345000000ULL;
	results_copy(d->host, sizeof(d->host), "node-a");
	d->role = RESULTS_ROLE_CLIENT;
	results_copy(d->device.name, RESULTS_NAME_LEN, "mlx5_0");
	results_copy(d->device.firmware, RESULTS_NAME_LEN, "28.39.1002");
	results_copy(d->device.driver, RESULTS_NAME_LEN, "mlx5_core");
	results_copy(d->software.kernel, RESULTS_NAME_LEN, "6.8.0-45-generic");
	results_copy(d->software.rdma_core, RESULTS_NAME_LEN, "50.0");
	results_copy(d->device.pci_addr, RESULTS_NAME_LEN, "0000:17:00.0");
	results_copy(d->device.link_layer, RESULTS_NAME_LEN, "Ethernet");
	results_copy(d->device.transport, RESULTS_NAME_LEN, "RoCE");
	d->device.port = 1;
	results_copy(d->device.port_state, RESULTS_NAME_LEN, "PORT_ACTIVE");
	d->device.active_mtu_bytes = 4096;
	results_copy(d->device.speed_width, RESULTS_NAME_LEN, "4X HDR");
	results_copy(d->device.rate, RESULTS_NAME_LEN, "200 Gb/sec (4X HDR)");
	results_copy(d->device.gid, RESULTS_NAME_LEN, "::ffff:198.18.0.1");
	results_copy(d->device.gid_type, RESULTS_NAME_LEN, "RoCE v2");
	results_copy(d->device.local_addr, RESULTS_NAME_LEN,
		     "198.18.0.1:41234");
	results_copy(d->device.peer_addr, RESULTS_NAME_LEN,
		     "198.18.0.2:18515");
	d->placement.numa_node = 0;
	results_copy(d->placement.cpus, RESULTS_NAME_LEN, "0-15");
	results_copy(d->placement.mem_policy, RESULTS_NAME_LEN, "bind:0");
	results_copy(d->test.verb, RESULTS_NAME_LEN, "write");
	results_copy(d->test.measure, RESULTS_NAME_LEN, measure);
	results_copy(d->test.connection, RESULTS_NAME_LEN, "RC");
	results_copy(d->test.rendezvous, RESULTS_NAME_LEN, "rdma_cm");
	d->test.qps = 1;
	d->line_rate.achievable_gbps = 193.93939393939394;
	results_copy(d->line_rate.formula, RESULTS_TEXT_LEN,
		     "4 lanes x 50 Gb/s x 4096 / (4096 + 128) header bytes");
}

/* Both sides of a bandwidth row from totals, as the driver will. */
static void fill_bw_row(struct results_doc *d, uint64_t size, uint64_t iters,
			uint64_t client_ns, uint64_t server_ns)
{
	struct results_row *r = results_add_row(d, size, iters);
	struct stats_bw bw, peak;

	EXPECT_TRUE(r != NULL);
	if (!r)
		return;
	stats_bw_compute(size * iters, iters, client_ns, &bw);
	stats_bw_compute(size * iters / 16, iters / 16, client_ns / 17, &peak);
	results_side_set_bw(&r->client, &bw, &peak);
	stats_bw_compute(size * iters, iters, server_ns, &bw);
	results_side_set_bw(&r->server, &bw, NULL);
}

static void add_gate(struct results_doc *d, const char *name, uint64_t size,
		     double figure, double expected, const char *unit,
		     bool passed, const char *reason)
{
	struct results_gate *g = &d->gates[d->n_gates++];

	results_copy(g->name, sizeof(g->name), name);
	g->size_bytes = size;
	g->figure = figure;
	g->expected = expected;
	results_copy(g->unit, sizeof(g->unit), unit);
	g->passed = passed;
	results_copy(g->reason, sizeof(g->reason), reason);
}

static void add_counter(struct results_doc *d, const char *name, int64_t v)
{
	struct counters_delta *c = &d->counters[d->n_counters++];

	d->has_counters = true;
	results_copy(c->name, sizeof(c->name), name);
	c->delta = v;
}

/* ib_write_bw -s 65536 --expect-gbps 180: passes. */
static void sample_bw(struct results_doc *d)
{
	fill_common(d, "ib_write_bw", "bw");
	d->test.sizes_bytes[d->test.n_sizes++] = 65536;
	d->test.iterations = 5000;
	d->test.tx_depth = 128;
	fill_bw_row(d, 65536, 5000, 13650000, 13702000);
	add_gate(d, "bw_gbps", 65536, d->rows[0].client.bw_gbps, 180, "Gb/s",
		 true, "");
	add_counter(d, "port_xmit_data", 81920000 + 1234);
	add_counter(d, "port_rcv_data", 4321);
	add_counter(d, "out_of_sequence", 0);
	d->verdict = RESULTS_PASS;
	d->exit_code = 0;
}

/* A latency summary in microseconds, fixed so the golden stays put. */
static const struct stats_lat lat_client = {
	.samples = 1000, .min_us = 1.62, .p50_us = 1.71, .avg_us = 1.7342,
	.stdev_us = 0.2236, .p90_us = 1.79, .p99_us = 2.05, .p999_us = 3.9,
	.p9999_us = 4.4, .max_us = 4.4,
};

static const struct stats_lat lat_server = {
	.samples = 999, .min_us = 1.6, .p50_us = 1.7, .avg_us = 1.7291,
	.stdev_us = 0.1, .p90_us = 1.78, .p99_us = 2.01, .p999_us = 3.5,
	.p9999_us = 3.5, .max_us = 3.5,
};

/*
 * -H on the client: 1000 round trips of 3.24 .. 4.0 us, halved (1.62 ..
 * 2.0 us), so the buckets up to 1.6 us are 0 and from 2 us all 1000.
 */
static void add_hist(struct results_side *s)
{
	struct hist *h = hist_create();
	unsigned int i;

	EXPECT_TRUE(h != NULL);
	if (!h)
		return;
	for (i = 0; i < 1000; i++)
		hist_add(h, 3240 + (i % 20) * 40);
	EXPECT_EQ_INT(results_side_set_hist(s, h, 2), 0);
	EXPECT_EQ_INT(results_side_set_hist(s, NULL, 2), -EINVAL);
	EXPECT_TRUE(!s->hist.present);
	EXPECT_EQ_INT(results_side_set_hist(s, h, 2), 0);
	hist_destroy(h);
}

/* ib_write_lat -s 2 --expect-p99-us 5 -H: passes, no counters, no peak. */
static void sample_lat(struct results_doc *d)
{
	struct results_row *r;

	fill_common(d, "ib_write_lat", "lat");
	d->test.sizes_bytes[d->test.n_sizes++] = 2;
	d->test.iterations = 1000;
	d->test.tx_depth = 1;
	d->memory.type = RESULTS_MEM_CUDA_DMABUF;
	results_copy(d->memory.gpu, RESULTS_NAME_LEN, "0 (0000:1b:00.0)");
	r = results_add_row(d, 2, 1000);
	results_side_set_lat(&r->client, &lat_client, RESULTS_LAT_HALF_RT);
	results_side_set_lat(&r->server, &lat_server, RESULTS_LAT_HALF_RT);
	add_hist(&r->client);
	add_gate(d, "p99_us", 2, 2.05, 5, "us", true, "");
	d->verdict = RESULTS_PASS;
	d->exit_code = 0;
}

/*
 * -a sweep planned, the peer vanished after the first size: verdict error,
 * exit 5, no end time, a message with characters every format escapes.
 */
static void sample_error(struct results_doc *d)
{
	fill_common(d, "ib_write_bw", "bw");
	d->test.sizes_bytes[d->test.n_sizes++] = 2;
	d->test.sizes_bytes[d->test.n_sizes++] = 4;
	d->test.sizes_bytes[d->test.n_sizes++] = 8;
	d->test.iterations = 5000;
	d->test.tx_depth = 128;
	d->end_unix_ns = 0;
	d->line_rate.achievable_gbps = NAN;
	d->line_rate.formula[0] = '\0';
	results_copy(d->line_rate.warnings[d->line_rate.n_warnings++],
		     RESULTS_TEXT_LEN, "port speed unknown: no line rate");
	fill_bw_row(d, 2, 5000, 5000000, 5100000);
	d->rows[0].server.present = false;	/* its RESULT never came */
	d->verdict = RESULTS_ERROR;
	d->exit_code = 5;
	results_copy(d->error, sizeof(d->error), "size 4: peer "
		     "\"198.18.0.2:18515\" lost <no progress for 30 s> & "
		     "closed\n\tcm event: RDMA_CM_EVENT_DISCONNECTED");
	d->error_errno = ECONNRESET; /* apart from the sentence: "errno" */
}

/* -a: 2 B .. 8 MiB, a gate at 64 KiB (pass) and at 8 MiB (fail). */
static void sample_sweep(struct results_doc *d)
{
	char reason[RESULTS_TEXT_LEN];
	uint64_t size;

	fill_common(d, "ib_write_bw", "bw");
	d->test.iterations = 5000;
	d->test.tx_depth = 128;
	d->test.bidirectional = true;
	d->test.duration_s = 0;
	/* firmware strings come from the device: not trusted to be tame */
	results_copy(d->device.firmware, RESULTS_NAME_LEN,
		     "28.39 \"beta\" <x> & y\\z \xff");
	for (size = 2; size <= 8u << 20; size *= 2) {
		/* a plausible curve: per-message cost, then the link */
		uint64_t ns = 5000 * (280 + size * 8 * 1000 / 192000);

		d->test.sizes_bytes[d->test.n_sizes++] = size;
		fill_bw_row(d, size, 5000, ns, ns + 40000);
	}
	add_gate(d, "bw_gbps", 65536, d->rows[15].client.bw_gbps, 150, "Gb/s",
		 true, "");
	snprintf(reason, sizeof(reason), "size 8388608: %.2f Gb/s < expected "
		 "195.00", d->rows[22].client.bw_gbps);
	add_gate(d, "bw_gbps", 8u << 20, d->rows[22].client.bw_gbps, 195,
		 "Gb/s", false, reason);
	d->verdict = RESULTS_FAIL;
	d->exit_code = 3;
}

/* --rails: two rails, the node's sum gated; rail 0 on its PIX GPU. */
static void sample_rails(struct results_doc *d)
{
	static const char *const names[] = { "mlx5_0", "mlx5_1" };
	unsigned int i;

	sample_bw(d);
	for (i = 0; i < 2; i++) {
		struct results_rail *r = &d->rails[d->n_rails++];

		memset(r, 0, sizeof(*r));
		results_copy(r->device, sizeof(r->device), names[i]);
		r->tcp_port = 18515 + i;
		r->numa_node = (int)i;
		results_copy(r->cpus, sizeof(r->cpus), i ? "16-31" : "0-15");
		r->bw_gbps = i ? 190.5 : 191.25;
		r->verdict = RESULTS_PASS;
		r->gpu = i ? -1 : 0;
		r->has_gpu = !i;
		results_copy(r->gpu_bus_id, sizeof(r->gpu_bus_id),
			     i ? "" : "0000:15:00.0");
		results_copy(r->gpu_pcie, sizeof(r->gpu_pcie), i ? "" : "PIX");
	}
	add_gate(d, "node_bw_gbps", 65536, 381.75, 300, "Gb/s", true, "");
}

static void test_goldens(void)
{
	struct results_doc *d = calloc(1, sizeof(*d));

	EXPECT_TRUE(d != NULL);
	if (!d)
		return;
	sample_bw(d);
	expect_goldens(d, "bw");
	sample_lat(d);
	expect_goldens(d, "lat");
	sample_error(d);
	expect_goldens(d, "error");
	sample_sweep(d);
	EXPECT_EQ_INT(d->n_rows, 23);
	expect_goldens(d, "sweep");
	memset(d, 0, sizeof(*d));
	sample_rails(d);
	expect_goldens(d, "rails");
	free(d);
}

/* Substring check with the text shown on failure. */
static void expect_contains(const char *text, const char *needle)
{
	bool ok = text && strstr(text, needle);

	TEST_CHECK_(ok, "expect_contains", "\"%s\" not in the output", needle);
}

/* What CI reads: error element, failure per gate, verdict 0. */
static void test_semantics(void)
{
	struct results_doc *d = calloc(1, sizeof(*d));
	size_t len;
	char *t;

	if (!d)
		return;
	sample_error(d);
	t = render_text(results_junit_write, d, &len);
	expect_contains(t, "name=\"ib_write_bw.run (node-a -&gt; 198.18.0.2");
	expect_contains(t, "<error message=\"size 4: peer &quot;198.18.0.2");
	expect_contains(t, "errors=\"1\"");
	free(t);
	t = render_text(results_prom_write, d, &len);
	expect_contains(t,
			"\nrdmabench_verdict{device=\"mlx5_0\",test=\""
			"ib_write_bw\",role=\"client\",peer=\"198.18.0.2\","
			"verdict=\"error\"} "
			"0\n");
	expect_contains(t, "} 5\n");	/* exit code */
	free(t);
	sample_sweep(d);
	t = render_text(results_junit_write, d, &len);
	expect_contains(t, "name=\"ib_write_bw.8388608.bw_gbps (node-a");
	expect_contains(t, "failures=\"1\" errors=\"0\"");
	free(t);
	/* a host's dots would split CI's package.class tree: '_' */
	results_copy(d->host, sizeof(d->host), "node-a.rack1.example");
	t = render_text(results_junit_write, d, &len);
	expect_contains(t, "<testcase classname=\"rdmabench.ib_write_bw."
			   "node-a_rack1_example\" name=\"ib_write_bw.run "
			   "(node-a.rack1.example -&gt; ");
	free(t);
	/* a fail verdict whose gate is missing still fails in JUnit */
	d->n_gates = 0;
	t = render_text(results_junit_write, d, &len);
	expect_contains(t, "tests=\"24\" failures=\"1\"");
	free(t);
	/* the QP attributes read back: -T 106, -u 20, --retry_count 3 */
	d->qp_attr = (struct results_qp_attr){ .known = true,
		.traffic_class = 106, .timeout = 20, .retry_count = 3,
		.rnr_retry = 7 };
	t = render_text(results_write_json, d, &len);
	expect_contains(t, "\"qp_attr\": {\n    \"traffic_class\": 106,\n"
			"    \"sl\": 0,\n    \"timeout\": 20,\n"
			"    \"retry_count\": 3,\n    \"rnr_retry\": 7\n  },");
	EXPECT_TRUE(t && !strstr(t, "report_counters"));
	free(t);
	/* -W's counters: after port_counters, by the names it was given */
	d->n_named = 2;
	results_copy(d->named[0].name, sizeof(d->named[0].name),
		     "hw_counters/sent_pkts");
	d->named[0].delta = 6807;
	results_copy(d->named[1].name, sizeof(d->named[1].name),
		     "counters/port_xmit_data");
	d->named[1].delta = 1638400;
	t = render_text(results_write_json, d, &len);
	expect_contains(t, "\"report_counters\": {\n    "
			   "\"hw_counters/sent_pkts\": 6807,\n    "
			   "\"counters/port_xmit_data\": 1638400\n  },");
	free(t);
	d->n_named = RESULTS_MAX_NAMED + 1;
	EXPECT_EQ_INT(results_check(d), -EINVAL);
	free(d);
}

/* Counts beyond the caps are refused by every renderer. */
static void test_caps(void)
{
	struct results_doc *d = calloc(1, sizeof(*d));
	FILE *out = fopen("/dev/null", "w");
	char small[8];
	int i;

	if (!d || !out)
		goto out;
	results_init(d);
	for (i = 0; i < RESULTS_MAX_SIZES; i++)
		EXPECT_TRUE(results_add_row(d, 2, 1) != NULL);
	EXPECT_TRUE(results_add_row(d, 2, 1) == NULL);
	EXPECT_EQ_INT(results_check(d), 0);
	d->n_gates = RESULTS_MAX_GATES + 1;
	EXPECT_EQ_INT(results_write_json(d, out), -EINVAL);
	EXPECT_EQ_INT(results_junit_write(d, out), -EINVAL);
	EXPECT_EQ_INT(results_prom_write(d, out), -EINVAL);
	d->n_gates = 0;
	d->argc = 2;	/* argv missing */
	EXPECT_EQ_INT(results_check(d), -EINVAL);
	EXPECT_EQ_INT(results_copy(small, sizeof(small), "123456789"), -E2BIG);
	EXPECT_STREQ(small, "1234567");
	EXPECT_EQ_INT(results_copy(small, sizeof(small), NULL), 0);
	EXPECT_STREQ(small, "");
	/* defaults of a fresh document: an unfinished run is an error */
	results_init(d);
	EXPECT_EQ_INT(d->verdict, RESULTS_ERROR);
	EXPECT_EQ_INT(d->exit_code, 1);
	EXPECT_EQ_INT(d->placement.numa_node, -1);
	EXPECT_TRUE(isnan(d->line_rate.achievable_gbps));
out:
	if (out)
		fclose(out);
	free(d);
}

/* Write errors surface as -EIO (/dev/full refuses every write). */
static void test_write_errors(void)
{
	struct results_doc *d = calloc(1, sizeof(*d));
	FILE *out = fopen("/dev/full", "w");

	if (!d || !out) {
		fprintf(stderr, "  no /dev/full, write errors not tested\n");
		goto out;
	}
	sample_sweep(d);
	EXPECT_EQ_INT(results_write_json(d, out), -EIO);
	clearerr(out);
	EXPECT_EQ_INT(results_junit_write(d, out), -EIO);
	clearerr(out);
	EXPECT_EQ_INT(results_prom_write(d, out), -EIO);
out:
	if (out)
		fclose(out);
	free(d);
}

/* Entries of dir other than . and ..; -1 when it cannot be read. */
static int count_entries(const char *dir, const char *needle)
{
	DIR *dh = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!dh)
		return -1;
	while ((e = readdir(dh)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    (!needle || strstr(e->d_name, needle)))
			n++;
	closedir(dh);
	return n;
}

/* A renderer that dies halfway, as a full disk would make one. */
static int render_half(const struct results_doc *d, FILE *out)
{
	(void)d;
	fputs("{\"schema_version\": 1,", out);
	return -EIO;
}

static void test_save_atomic(const char *dir, struct results_doc *d)
{
	char path[1024], bad[1024];
	size_t len_file, len_mem;
	char *file, *mem;
	struct stat st;

	snprintf(path, sizeof(path), "%s/run.json", dir);
	EXPECT_EQ_INT(results_save_atomic(path, results_write_json, d), 0);
	file = read_file(path, &len_file);
	mem = render_text(results_write_json, d, &len_mem);
	EXPECT_TRUE(file && mem && len_file == len_mem &&
		    !memcmp(file, mem, len_mem));
	free(file);
	EXPECT_TRUE(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);
	EXPECT_EQ_INT(count_entries(dir, NULL), 1);

	/* a failed render leaves the old file whole and no temporary */
	fprintf(stderr, "  (one expected error message follows)\n");
	EXPECT_EQ_INT(results_save_atomic(path, render_half, d), -EIO);
	file = read_file(path, &len_file);
	EXPECT_TRUE(file && mem && len_file == len_mem &&
		    !memcmp(file, mem, len_mem));
	free(file);
	free(mem);
	EXPECT_EQ_INT(count_entries(dir, ".tmp."), 0);

	/* replacing works, in another format */
	EXPECT_EQ_INT(results_save_atomic(path, results_prom_write, d), 0);
	file = read_file(path, &len_file);
	EXPECT_TRUE(file && !strncmp(file, "# HELP rdmabench_info", 21));
	free(file);
	EXPECT_EQ_INT(count_entries(dir, NULL), 1);

	fprintf(stderr, "  (two expected error messages follow)\n");
	snprintf(bad, sizeof(bad), "%s/no/such/dir/run.json", dir);
	EXPECT_EQ_INT(results_save_atomic(bad, results_write_json, d),
		      -ENOENT);
	snprintf(bad, sizeof(bad), "%s/run.json/x.json", dir);
	EXPECT_EQ_INT(results_save_atomic(bad, results_write_json, d),
		      -ENOTDIR);
	EXPECT_EQ_INT(results_save_atomic("", results_write_json, d),
		      -EINVAL);
	unlink(path);
}

/*
 * "-" is standard output: the document goes to the stream given, whole,
 * and no file named "-" appears; any other name is a file.
 */
static void test_save_stdout(const char *dir, struct results_doc *d)
{
	size_t len_std = 0, len_mem;
	char *std = NULL, *mem;
	char cwd[1024];
	FILE *out;

	EXPECT_TRUE(results_is_stdout("-"));
	EXPECT_TRUE(!results_is_stdout("--") && !results_is_stdout("") &&
		    !results_is_stdout("./-") && !results_is_stdout(NULL));
	EXPECT_TRUE(getcwd(cwd, sizeof(cwd)) != NULL);
	EXPECT_EQ_INT(chdir(dir), 0);
	out = open_memstream(&std, &len_std);
	EXPECT_TRUE(out != NULL);
	if (out) {
		EXPECT_EQ_INT(results_save("-", results_write_json, d, out), 0);
		fclose(out);
	}
	mem = render_text(results_write_json, d, &len_mem);
	EXPECT_TRUE(std && mem && len_std == len_mem &&
		    !memcmp(std, mem, len_mem));
	EXPECT_EQ_INT(count_entries(".", NULL), 0);
	free(std);
	free(mem);
	/* no stream to write to: refused, not a crash */
	EXPECT_EQ_INT(results_save("-", results_write_json, d, NULL), -EINVAL);
	EXPECT_EQ_INT(chdir(cwd), 0);
}

static void test_files(void)
{
	struct results_doc *d = calloc(1, sizeof(*d));
	const char *tmpdir = getenv("TMPDIR");
	char dir[256];

	if (!d)
		return;
	snprintf(dir, sizeof(dir), "%s/test_results.XXXXXX",
		 tmpdir && tmpdir[0] ? tmpdir : "/tmp");
	EXPECT_TRUE(mkdtemp(dir) != NULL);
	sample_bw(d);
	test_save_atomic(dir, d);
	test_save_stdout(dir, d);
	EXPECT_EQ_INT(count_entries(dir, NULL), 0);
	EXPECT_EQ_INT(rmdir(dir), 0);
	free(d);
}

/*
 * An error before any device was opened: no label may be empty (a
 * missing label and an empty one read the same; "" is noise), and JUnit
 * still carries its system-out and a plain timestamp.
 */
static void test_no_empty_labels(void)
{
	struct results_doc *d = calloc(1, sizeof(*d));
	size_t len;
	char *t;

	if (!d)
		return;
	results_init(d);
	results_copy(d->tool, sizeof(d->tool), "ib_write_bw");
	d->start_unix_ns = T0_NS;
	t = render_text(results_prom_write, d, &len);
	EXPECT_TRUE(t && !strstr(t, "=\"\""));
	expect_contains(t, "rdmabench_info{test=\"ib_write_bw\",role=\""
			   "client\",memory_type=\"host\"} 1\n");
	expect_contains(t, "rdmabench_verdict{test=\"ib_write_bw\",role=\""
			   "client\",verdict=\"error\"} 0\n");
	free(t);
	t = render_text(results_junit_write, d, &len);
	expect_contains(t, " timestamp=\"2026-11-29T19:35:01\"");
	expect_contains(t, "<system-out/>");
	free(t);
	free(d);
}

/* The peer as JUnit names it: no port, no transport note. */
static void test_peer_host(void)
{
	static const char *const cases[][2] = {
		{ "198.18.0.2:18515 (TCP)", "198.18.0.2" },
		{ "198.18.0.2:18515", "198.18.0.2" },
		{ "198.18.0.2", "198.18.0.2" },
		{ "[fe80::1]:18515 (TCP)", "fe80::1" },
		{ "fe80::1", "fe80::1" },
		{ "node-b:18515", "node-b" },
		{ "", "" },
	};
	char got[RESULTS_NAME_LEN];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		results_peer_host(got, sizeof(got), cases[i][0]);
		EXPECT_STREQ(got, cases[i][1]);
	}
}

int main(void)
{
	/* JUnit's timestamp is local time: the goldens' is UTC's */
	setenv("TZ", "UTC", 1);
	tzset();
	test_goldens();
	test_semantics();
	test_peer_host();
	test_no_empty_labels();
	test_caps();
	test_write_errors();
	test_files();
	return test_finish("test_results");
}
