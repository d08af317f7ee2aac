/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * results - the one data model of a run, and its machine-readable
 * renderers: JSON (results/schema/rdmabench-result-v1.schema.json), JUnit
 * XML (results/schema/junit.xsd) and the Prometheus text format (for
 * node_exporter's textfile collector). Pure: plain structs in, text out
 * to a FILE *; the only system calls are in results_save_atomic().
 *
 * Conventions of the model:
 *   - every unit is in the field name (size_bytes, elapsed_ns, bw_gbps,
 *     p99_us); Gb/s = 10^9 bit/s, MiB/s = 2^20 B/s, Mpps = 10^6 msg/s;
 *   - text fields are fixed arrays, NUL-terminated; "" means unknown and is
 *     rendered as JSON null (fill them with results_copy());
 *   - a double that is NaN means "not measured" and is rendered as null;
 *   - the document is large (tens of KiB): allocate it, do not put it on a
 *     small stack. results_init() gives the defaults.
 */
#ifndef RDMABENCH_REPORT_RESULTS_H
#define RDMABENCH_REPORT_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "host/counters.h"
#include "host/place.h"
#include "lib/hist.h"
#include "lib/stats.h"

/*
 * 2: + results[].{client,server}.histogram (-H); 3: + rails[] (--rails),
 * each rail with its gpu (--use_cuda auto's pairing); 4: + errno and
 * errno_name (the run's error as errno, apart from "error", which is now
 * the sentence the tool printed). 1, 2 and 3 still validate.
 */
#define RESULTS_SCHEMA_VERSION 4

#define RESULTS_MAX_SIZES 32       /* -a sweeps 2 B .. 8 MiB: 23 sizes */
#define RESULTS_MAX_GATES 64
#define RESULTS_MAX_COUNTERS 128
#define RESULTS_MAX_WARNINGS 8
#define RESULTS_MAX_NAMED 32 /* -W's counters */
#define RESULTS_MAX_RAILS 16         /* --rails (spec/rails.h) */

#define RESULTS_NAME_LEN 64
#define RESULTS_TEXT_LEN 256       /* reasons, formulas, warnings */
#define RESULTS_ERROR_LEN 512      /* the sentence an error was printed with */

enum results_role { RESULTS_ROLE_CLIENT, RESULTS_ROLE_SERVER };

enum results_mem {
	RESULTS_MEM_HOST,          /* "host" */
	RESULTS_MEM_CUDA,          /* "cuda": cudaMalloc + peermem */
	RESULTS_MEM_CUDA_DMABUF,   /* "cuda_dmabuf" */
};

enum results_lat_kind {
	RESULTS_LAT_HALF_RT,       /* "half_round_trip": ping-pong / 2 */
	RESULTS_LAT_FULL_RT,       /* "full_round_trip": read, atomic */
};

enum results_verdict {
	RESULTS_PASS,              /* ran to the end, every gate passed */
	RESULTS_FAIL,              /* ran, below an expectation */
	RESULTS_ERROR,             /* did not finish: see error */
	RESULTS_CORRUPT,           /* data validation found a wrong byte */
};

struct results_device {
	char name[RESULTS_NAME_LEN];        /* "mlx5_0" */
	char firmware[RESULTS_NAME_LEN];    /* "28.39.1002" */
	char pci_addr[RESULTS_NAME_LEN];    /* "0000:17:00.0" */
	char link_layer[RESULTS_NAME_LEN];  /* "Ethernet", "InfiniBand" */
	char transport[RESULTS_NAME_LEN];   /* "RoCE", "IB", "iWARP" */
	unsigned int port;                  /* 0: unknown */
	char port_state[RESULTS_NAME_LEN];  /* "PORT_ACTIVE" */
	unsigned int active_mtu_bytes;      /* 0: unknown */
	char speed_width[RESULTS_NAME_LEN]; /* "4X HDR" */
	char rate[RESULTS_NAME_LEN];        /* sysfs: "200 Gb/sec (4X HDR)" */
	char gid[RESULTS_NAME_LEN];         /* "::ffff:198.18.0.1" */
	char gid_type[RESULTS_NAME_LEN];    /* "RoCE v2", "IB/RoCE v1" */
	char local_addr[RESULTS_NAME_LEN];  /* "198.18.0.1:18515" */
	char peer_addr[RESULTS_NAME_LEN];   /* "198.18.0.2:18515" */
	char driver[RESULTS_NAME_LEN];      /* "mlx5_core"; "": software */
	char driver_version[RESULTS_NAME_LEN]; /* its module's; "": in-tree */
};

/* What drifts between nodes besides the firmware (host/sysver.h). */
struct results_software {
	char kernel[RESULTS_NAME_LEN];      /* "6.8.0-45-generic" */
	char rdma_core[RESULTS_NAME_LEN];   /* "50.0" */
	char nvidia_driver[RESULTS_NAME_LEN]; /* "550.54.15": CUDA's */
};

struct results_placement {
	int numa_node;                      /* -1: unknown / not pinned */
	char cpus[RESULTS_NAME_LEN];        /* "0-15" */
	char mem_policy[RESULTS_NAME_LEN];  /* "bind:0", "default" */
};

struct results_memory {
	enum results_mem type;
	char gpu[RESULTS_NAME_LEN];         /* "0 (0000:1b:00.0)"; "": none */
};

/* The data QPs' attributes as ibv_query_qp reads them back (QP 0). */
struct results_qp_attr {
	bool known;                         /* false: rendered as null */
	uint64_t traffic_class;             /* -T/--tclass; 0 without GRH */
	uint64_t sl;                        /* -S */
	uint64_t timeout;                   /* -u: 4.096 us * 2^timeout */
	uint64_t retry_count;               /* --retry_count */
	uint64_t rnr_retry;
};

struct results_test {
	char verb[RESULTS_NAME_LEN];        /* "write" */
	char measure[RESULTS_NAME_LEN];     /* "bw" or "lat" */
	char connection[RESULTS_NAME_LEN];  /* "RC" */
	uint64_t sizes_bytes[RESULTS_MAX_SIZES]; /* planned, in order */
	unsigned int n_sizes;
	uint64_t iterations;                /* -n, per size */
	uint64_t tx_depth;                  /* -t */
	uint64_t qps;                       /* -q */
	double duration_s;                  /* -D; 0: iteration mode */
	bool bidirectional;                 /* -b */
	char rendezvous[RESULTS_NAME_LEN];  /* "rdma_cm" */
};

/* Latency summary; see stats.h for the definitions (nearest rank). */
struct results_lat {
	uint64_t samples;
	double min_us, p50_us, p90_us, p99_us, p999_us, p9999_us;
	double avg_us, stdev_us, max_us;
	enum results_lat_kind kind;
};

/*
 * The -H latency histogram on fixed bounds, the same for every run so
 * that nodes aggregate (Prometheus buckets): 100 ns .. 100 ms, ten a
 * decade (1, 1.25, 1.6, 2, 2.5, 3.2, 4, 5, 6.4, 8 x 10^k ns).
 */
#define RESULTS_HIST_BOUNDS 61
extern const uint64_t results_hist_le_ns[RESULTS_HIST_BOUNDS];

struct results_hist {
	bool present;                       /* false: rendered as null */
	uint64_t le[RESULTS_HIST_BOUNDS];   /* samples <= bound, cumulative */
};

/* One side's figures for one size. */
struct results_side {
	bool present;                       /* false: rendered as null */
	uint64_t bytes;                     /* payload moved */
	uint64_t msgs;
	uint64_t elapsed_ns;
	double bw_gbps, bw_mibps, msg_rate_mpps;
	double peak_gbps;                   /* NaN: not measured */
	bool has_lat;                       /* latency tests */
	struct results_lat lat;
	struct results_hist hist;           /* -H, this side's samples */
};

struct results_row {
	uint64_t size_bytes;
	uint64_t iterations;
	struct results_side client;         /* by role, not local/peer */
	struct results_side server;
};

struct results_line_rate {
	double achievable_gbps;             /* payload ceiling; NaN: unknown */
	char formula[RESULTS_TEXT_LEN];
	char warnings[RESULTS_MAX_WARNINGS][RESULTS_TEXT_LEN];
	unsigned int n_warnings;
};

/* One expectation checked at one size. */
struct results_gate {
	char name[RESULTS_NAME_LEN];        /* the figure's key: "bw_gbps" */
	uint64_t size_bytes;
	double figure;                      /* measured */
	double expected;                    /* the bound */
	char unit[RESULTS_NAME_LEN];        /* "Gb/s", "us", "Mpps" */
	bool passed;                        /* verdict "pass" / "fail" */
	char reason[RESULTS_TEXT_LEN];      /* "size 65536: 195.25 Gb/s <.." */
};

/* One rail of a --rails run: its own verdict and figure. */
struct results_rail {
	char device[RESULTS_NAME_LEN];      /* as named: device or netdev */
	uint64_t tcp_port;                  /* -p + the rail's index */
	int numa_node;                      /* -1: not pinned */
	char cpus[RESULTS_NAME_LEN];        /* "0-3"; "": not pinned */
	double bw_gbps;                     /* last size's; NaN: none */
	enum results_verdict verdict;
	int exit_code;
	char error[RESULTS_ERROR_LEN];
	bool has_gpu;                       /* false: host memory */
	int gpu;                            /* CUDA ordinal; -1: not known */
	char gpu_bus_id[RESULTS_NAME_LEN];  /* "": not known */
	char gpu_pcie[8];                   /* "PIX".."SYS"; "": not known */
};

struct results_doc {
	int schema_version;                 /* RESULTS_SCHEMA_VERSION */
	char tool[RESULTS_NAME_LEN];        /* "ib_write_bw" */
	char tool_version[RESULTS_NAME_LEN];
	int argc;
	const char *const *argv;            /* borrowed: main()'s argv */
	uint64_t start_unix_ns;             /* CLOCK_REALTIME; 0: unknown */
	uint64_t end_unix_ns;
	char host[RESULTS_NAME_LEN];
	enum results_role role;
	struct results_device device;
	struct results_software software;
	struct results_placement placement;
	struct results_memory memory;
	struct results_test test;
	struct results_qp_attr qp_attr;
	struct results_row rows[RESULTS_MAX_SIZES];
	unsigned int n_rows;
	struct results_line_rate line_rate;
	struct results_gate gates[RESULTS_MAX_GATES];
	unsigned int n_gates;
	bool has_counters;                  /* false: not collected (null) */
	struct counters_delta counters[RESULTS_MAX_COUNTERS]; /* host's */
	unsigned int n_counters;
	/* -W: the named counters' change from set-up to the last row (what
	 * the rows' lines added up to); 0: no "report_counters" key */
	struct counters_delta named[RESULTS_MAX_NAMED];
	unsigned int n_named;
	struct results_rail rails[RESULTS_MAX_RAILS]; /* --rails; else none */
	unsigned int n_rails;               /* 0: no "rails" key */
	enum results_verdict verdict;
	int exit_code;                      /* enum bench_exit */
	char error[RESULTS_ERROR_LEN];      /* why a run stopped; "": none */
	int error_errno;                    /* its errno (EHOSTUNREACH...),
					     * kept apart; 0: none */
	char server[RESULTS_NAME_LEN];      /* the server as the client named
					     * it: --summary's, not in the
					     * JSON; "": a server's document */
};

/*
 * Zero *d and set the defaults: schema version, numa_node -1, NaN for
 * achievable_gbps, verdict ERROR with exit code 1 (a run that never
 * reaches its end says so). Pure.
 */
void results_init(struct results_doc *d);

/*
 * Copy src (NULL: "") into a fixed text field of len bytes, always
 * terminated. Returns 0, or -E2BIG when it had to be truncated. Pure.
 */
int results_copy(char *dst, size_t len, const char *src);

/*
 * The placement object from the plan place_decide() made (its node: the
 * NIC's by host/devnode.h's rule, unless --numa said otherwise) and the
 * CPUs the process may use (a's, when the plan pins none). Pure.
 */
void results_set_placement(struct results_placement *out,
			   const struct place_plan *p,
			   const struct place_allowed *a);

/*
 * Append a row with both sides absent (every figure NaN) and return it,
 * or NULL when RESULTS_MAX_SIZES rows exist already. Pure.
 */
struct results_row *results_add_row(struct results_doc *d, uint64_t size_bytes,
				    uint64_t iterations);

/*
 * Mark a side present and copy a bandwidth figure (and, when peak is not
 * NULL, its peak) / a latency summary into it. Pure.
 */
void results_side_set_bw(struct results_side *s, const struct stats_bw *bw,
			 const struct stats_bw *peak);
void results_side_set_lat(struct results_side *s, const struct stats_lat *lat,
			  enum results_lat_kind kind);

/*
 * The side's -H histogram from h (samples in ns, reported / divisor), on
 * results_hist_le_ns. Returns 0 or -EINVAL. Pure.
 */
int results_side_set_hist(struct results_side *s, const struct hist *h,
			  unsigned int divisor);

/* Names used in every rendering: "pass", "client", "cuda_dmabuf", ... */
const char *results_verdict_name(enum results_verdict v);
const char *results_role_name(enum results_role r);
const char *results_mem_name(enum results_mem m);
const char *results_lat_kind_name(enum results_lat_kind k);

/*
 * "2026-11-29T19:35:01.123Z" (UTC, milliseconds) from Unix time in ns.
 * Returns 0, or -ENOSPC when buf is shorter than 25 bytes. Pure.
 */
int results_format_utc(uint64_t unix_ns, char *buf, size_t len);

/*
 * "2026-11-29T20:35:01", local time, no fraction, no zone: what the
 * strict JUnit schema (Ant's) accepts as a timestamp. Returns 0, or
 * -ENOSPC when buf is shorter than 20 bytes. Pure (reads TZ).
 */
int results_format_local(uint64_t unix_ns, char *buf, size_t len);

/*
 * 0 when d can be rendered, -EINVAL when a count is beyond its cap or argv
 * is missing. Pure.
 */
int results_check(const struct results_doc *d);

/* The sum of the latency samples, us (avg x samples). Pure. */
double results_lat_sum_us(const struct results_lat *l);

/* Seconds from start to end of the run; NaN when either is unknown. Pure. */
double results_run_s(const struct results_doc *d);

/*
 * The peer's address without its port or its transport note, what stays
 * the same from run to run: "198.18.0.2:18515 (TCP)" -> "198.18.0.2",
 * "[fe80::1]:18515" -> "fe80::1", "fe80::1" as is. Pure.
 */
void results_peer_host(char *dst, size_t len, const char *addr);

/*
 * Renderers: this one, results_junit_write() (report/results_junit.h) and
 * results_prom_write() (report/results_prom.h). Each writes one complete
 * document and returns 0, -EINVAL for a document it cannot render
 * (results_check()), or -EIO when out reported a write error.
 *
 * JSON: the schema in results/schema/rdmabench-result-v1.schema.json.
 */
int results_write_json(const struct results_doc *d, FILE *out);

/*
 * Render d into path atomically: a temporary file in the same folder,
 * fsync, rename over path, fsync of the folder; readers (node_exporter,
 * CI collectors) see the old file or the new one, never half of one.
 * The file is mode 0644. Returns 0, or -errno after one message on stderr
 * naming the path; the temporary file never stays behind.
 */
int results_save_atomic(const char *path,
			int (*render)(const struct results_doc *, FILE *),
			const struct results_doc *d);

/* Is path "-", the name that means standard output? Pure. */
bool results_is_stdout(const char *path);

/*
 * Render d into path: atomically (results_save_atomic()) for a file, or
 * into std, flushed, when path is "-" (the caller has set std aside from
 * the human text). Returns 0 or -errno after one message on stderr.
 */
int results_save(const char *path,
		 int (*render)(const struct results_doc *, FILE *),
		 const struct results_doc *d, FILE *std);

#endif
