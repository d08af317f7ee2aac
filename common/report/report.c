// SPDX-License-Identifier: BSD-2-Clause
#include <inttypes.h>
#include <stdarg.h>

#include "report/report.h"

/* perftest's layouts (perftest_parameters.h RESULT_FMT* / REPORT_FMT*). */
#define BW_HEAD_FMT " #bytes     #iterations    BW peak[%s]    " \
		    "BW average[%s]   MsgRate[Mpps]"
#define BW_ROW_FMT " %-7" PRIu64 "    %-10" PRIu64 "       %-7.2f" \
		   "            %-7.2f\t\t     %-7.6f"
#define BW_ROW_FINE_FMT " %-7" PRIu64 "    %" PRIu64 "           %-7.6f" \
			"            %-7.6f            %-7.6f"
#define LAT_HEAD " #bytes #iterations    t_min[usec]    t_max[usec]  " \
		 "t_typical[usec]    t_avg[usec]    t_stdev[usec]   " \
		 "99% percentile[usec]   99.9% percentile[usec] \n"
#define LAT_ROW_FMT " %-7" PRIu64 " %" PRIu64 "          %-7.2f        " \
		    "%-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t" \
		    "%-7.2f \t\t%-7.2f\n"
#define LAT_DUR_HEAD " #bytes        #iterations       t_avg[usec]    " \
		     "tps average"
#define LAT_DUR_ROW_FMT " %-7" PRIu64 "       %" PRIu64 "            " \
			"%-7.2f        %-7.2f"
/* --cpu_util: perftest's RESULT_EXT_CPU_UTIL and REPORT_EXT_CPU_UTIL */
#define CPU_HEAD_EXT "    CPU_Util[%%]\n"
#define CPU_ROW_EXT "\t    %-3.2f\n"

void report_rule(FILE *out)
{
	fprintf(out, "-------------------------------------------------------"
		     "--------------------------------\n");
}

/* One " Label           : value" line of the header. */
#define report_kv report_header_line

void report_header_line(FILE *out, const char *label, const char *fmt, ...)
{
	va_list ap;

	fprintf(out, " %-16s: ", label);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
}

static void report_header_link(FILE *out, const struct report_info *ri)
{
	report_kv(out, "Device", "%s", ri->dev_name);
	report_kv(out, "Firmware", "%s", ri->fw_ver);
	report_kv(out, "Port", "%u", ri->port);
	report_kv(out, "Port state", "%s", ri->port_state);
	report_kv(out, "Transport type", "%s", ri->transport);
	report_kv(out, "Connection type", "%s",
		  ri->conn_type ? ri->conn_type : "RC");
	report_kv(out, "Rendezvous", "%s",
		  ri->rendezvous ? ri->rendezvous : "rdma_cm");
	if (ri->ctrl_path)
		report_kv(out, "Control path", "%s", ri->ctrl_path);
	if (ri->data_dev)
		report_kv(out, "Data device", "%s", ri->data_dev);
	report_kv(out, "Number of qps", "%llu", (unsigned long long)ri->qps);
	report_kv(out, "Local address", "%s", ri->local);
	report_kv(out, "Peer address", "%s", ri->peer);
}

void report_header_body(FILE *out, const struct report_info *ri)
{
	char numa[32];

	if (ri->numa_node >= 0)
		snprintf(numa, sizeof(numa), "node %d", ri->numa_node);
	else
		snprintf(numa, sizeof(numa), "not pinned");
	report_rule(out);
	fprintf(out, "                    %s (rdmabench, %s)\n", ri->title,
		ri->role);
	report_header_link(out, ri);
	report_kv(out, "TX depth", "%llu", (unsigned long long)ri->tx_depth);
	report_kv(out, "CQ Moderation", "%llu",
		  (unsigned long long)ri->cq_mod);
	report_kv(out, "Mtu", "%u[B]", ri->mtu_bytes);
	report_kv(out, "Max inline data", "%u[B]", ri->max_inline);
	report_kv(out, "Memory", "%s, %s", ri->memory ? ri->memory : "host",
		  numa);
	if (ri->placement && ri->placement[0])
		report_kv(out, "NUMA node", "%s", ri->placement);
	if (ri->lat_note)
		report_kv(out, "Latency", "%s", ri->lat_note);
	if (ri->qp_attr)
		report_kv(out, "QP attributes", "%s", ri->qp_attr);
	if (ri->warm_up)
		report_kv(out, "Warm-up", "%s", ri->warm_up);
	if (ri->no_effect)
		report_kv(out, "Changes nothing", "%s", ri->no_effect);
}

void report_header(FILE *out, const struct report_info *ri)
{
	report_header_body(out, ri);
	report_rule(out);
}

void report_note(FILE *out, const char *fmt, ...)
{
	va_list ap;

	fputs(" # ", out);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
}

static const char *report_bw_unit(bool gbits)
{
	return gbits ? "Gb/sec" : "MiB/sec";
}

/* The end of a head line: perftest's CPU column (cpu) or none. */
static void report_head_end(FILE *out, bool cpu)
{
	fprintf(out, cpu ? CPU_HEAD_EXT : "\n");
}

/* The end of a row: the CPU use in percent (cpu_pct >= 0) or none. */
static void report_row_end(FILE *out, double cpu_pct)
{
	if (cpu_pct >= 0)
		fprintf(out, CPU_ROW_EXT, cpu_pct);
	else
		fputc('\n', out);
}

void report_bw_head(FILE *out, bool gbits)
{
	report_bw_head_cpu(out, gbits, false);
}

void report_bw_head_cpu(FILE *out, bool gbits, bool cpu)
{
	fprintf(out, BW_HEAD_FMT, report_bw_unit(gbits), report_bw_unit(gbits));
	report_head_end(out, cpu);
}

void report_bw_add(const struct stats_bw *a, const struct stats_bw *b,
		   struct stats_bw *sum)
{
	*sum = (struct stats_bw){
		.bytes = a->bytes + b->bytes, .msgs = a->msgs + b->msgs,
		.elapsed_ns = a->elapsed_ns > b->elapsed_ns ? a->elapsed_ns
							    : b->elapsed_ns,
		.gbps = a->gbps + b->gbps, .mibps = a->mibps + b->mibps,
		.mpps = a->mpps + b->mpps,
	};
}

double report_bw_value(bool gbits, const struct stats_bw *bw)
{
	return gbits ? bw->gbps : bw->mibps;
}

/* perftest: more decimals where two would read 0.0x Gb/sec */
int report_bw_decimals(bool gbits, const struct stats_bw *bw)
{
	return gbits && report_bw_value(gbits, bw) < 0.1 ? 6 : 2;
}

void report_bw_row(FILE *out, bool gbits, uint64_t size, uint64_t iters,
		   const struct stats_bw *bw, const struct stats_bw *peak)
{
	report_bw_row_cpu(out, gbits, size, iters, bw, peak, -1);
}

void report_bw_row_cpu(FILE *out, bool gbits, uint64_t size, uint64_t iters,
		       const struct stats_bw *bw, const struct stats_bw *peak,
		       double cpu_pct)
{
	fprintf(out, report_bw_decimals(gbits, bw) == 6 ? BW_ROW_FINE_FMT
							: BW_ROW_FMT,
		size, iters, report_bw_value(gbits, peak),
		report_bw_value(gbits, bw), bw->mpps);
	report_row_end(out, cpu_pct);
}

void report_bw_note(FILE *out, bool gbits, const char *who,
		    const struct stats_bw *bw)
{
	report_note(out, "%s: BW average[%s] %.*f, MsgRate[Mpps] %.6f", who,
		    report_bw_unit(gbits), report_bw_decimals(gbits, bw),
		    report_bw_value(gbits, bw), bw->mpps);
}

void report_lat_head(FILE *out, bool duration)
{
	report_lat_head_cpu(out, duration, false);
}

void report_lat_head_cpu(FILE *out, bool duration, bool cpu)
{
	if (!duration) {
		fputs(LAT_HEAD, out);
		return;
	}
	fputs(LAT_DUR_HEAD, out);
	report_head_end(out, cpu);
}

void report_lat_row(FILE *out, uint64_t size, uint64_t iters,
		    const struct stats_lat *lat)
{
	fprintf(out, LAT_ROW_FMT, size, iters, lat->min_us, lat->max_us,
		lat->p50_us, lat->avg_us, lat->stdev_us, lat->p99_us,
		lat->p999_us);
}

void report_lat_dur_row(FILE *out, uint64_t size, uint64_t iters,
			double t_avg_us, double tps, double cpu_pct)
{
	fprintf(out, LAT_DUR_ROW_FMT, size, iters, t_avg_us, tps);
	report_row_end(out, cpu_pct);
}

void report_lat_note(FILE *out, const char *who, const struct stats_lat *lat)
{
	report_note(out, "%s%st_min %.2f, t_typical %.2f, t_max %.2f, "
		    "99%% %.2f, 99.9%% %.2f, 99.99%% %.2f [usec]", who,
		    who[0] ? ": " : "", lat->min_us, lat->p50_us, lat->max_us,
		    lat->p99_us, lat->p999_us, lat->p9999_us);
}
