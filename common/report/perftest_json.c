// SPDX-License-Identifier: BSD-2-Clause
#include <math.h>

#include "lib/json.h"
#include "report/perftest_json.h"
#include "report/report.h"

/* A figure as perftest's text shows it: 2 or 6 decimals. */
static int pj_num(struct json_writer *w, const char *key, double v, int dec)
{
	double f = dec == 6 ? 1e6 : 1e2;

	return json_kv_double(w, key, round(v * f) / f);
}

static const char *pj_on(bool on)
{
	return on ? "ON" : "OFF";
}

static void pj_depths(struct json_writer *w,
		      const struct perftest_json_info *in)
{
	if (in->tx_side)
		json_kv_u64(w, "TX_depth", in->tx_depth);
	if (in->post_list > 1)
		json_kv_u64(w, "Post_List", in->post_list);
	if (in->recv_post_list > 1)
		json_kv_u64(w, "Recv_Post_List", in->recv_post_list);
	if (in->rx_side)
		json_kv_u64(w, "RX_depth", in->rx_depth);
	if (in->bw)
		json_kv_u64(w, "CQ_Moderation", in->cq_mod);
}

static void pj_info(struct json_writer *w, const struct perftest_json_info *in)
{
	json_kv_object_begin(w, "test_info");
	json_kv_string(w, "test", in->test);
	json_kv_string(w, "Dual_port", "OFF");
	json_kv_string(w, "Device", in->device);
	json_kv_u64(w, "Number_of_qps", in->qps);
	json_kv_string(w, "Transport_type", in->transport);
	json_kv_string(w, "Connection_type", in->conn_type);
	json_kv_string(w, "Using_SRQ", in->srq ? "ON" : "OFF");
	json_kv_string(w, "PCIe_relax_order", "OFF");
	json_kv_string(w, "ibv_wr_API", "OFF");
	pj_depths(w, in);
	json_kv_u64(w, "Mtu", in->mtu_bytes);
	json_kv_string(w, "Link_type", in->link_type);
	if (in->gid_index >= 0)
		json_kv_i64(w, "GID_index", in->gid_index);
	json_kv_u64(w, in->reads ? "Outstand_reads" : "Max_inline_data",
		    in->inline_or_reads);
	json_kv_string(w, "rdma_cm_QPs", pj_on(in->rdma_cm));
	if (in->cuda_device >= 0)
		json_kv_i64(w, "cuda_device", in->cuda_device);
	json_kv_string(w, "Use_ROCm_memory", "OFF");
	json_kv_string(w, "Use_MUSA_memory", "OFF");
	json_kv_string(w, "Data_ex_method",
		       in->rdma_cm ? "rdma_cm" : "Ethernet");
	json_object_end(w);
}

static void pj_bw(struct json_writer *w, const struct perftest_json_row *r)
{
	int dec = report_bw_decimals(r->gbits, r->bw);

	json_kv_u64(w, "MsgSize", r->size);
	json_kv_u64(w, "n_iterations", r->iters);
	pj_num(w, "BW_peak", report_bw_value(r->gbits, r->peak), dec);
	pj_num(w, "BW_average", report_bw_value(r->gbits, r->bw), dec);
	pj_num(w, "MsgRate", r->bw->mpps, 6);
}

static void pj_lat(struct json_writer *w, const struct perftest_json_row *r)
{
	const struct stats_lat *l = r->lat;

	json_kv_u64(w, "MsgSize", r->size);
	json_kv_u64(w, "n_iterations", r->iters);
	if (r->kind == PERFTEST_JSON_LAT_DUR) {
		pj_num(w, "t_avg", l->avg_us, 2);
		pj_num(w, "tps_average", r->tps, 2);
		return;
	}
	pj_num(w, "t_min", l->min_us, 2);
	pj_num(w, "t_max", l->max_us, 2);
	pj_num(w, "t_typical", l->p50_us, 2);
	pj_num(w, "t_avg", l->avg_us, 2);
	pj_num(w, "t_stdev", l->stdev_us, 2);
	pj_num(w, "percentile_99", l->p99_us, 2);
	pj_num(w, "percentile_99.9", l->p999_us, 2);
}

/* --output: perftest keeps only the one figure in "results". */
static void pj_bare(struct json_writer *w, const struct perftest_json_row *r)
{
	if (r->output == OPTS_OUTPUT_BW)
		json_kv_double(w, "bw_avg", report_bw_value(r->gbits, r->bw));
	else if (r->output == OPTS_OUTPUT_MSGRATE)
		json_kv_double(w, "msgRate_avg", r->bw->mpps);
	else
		json_kv_double(w, r->kind == PERFTEST_JSON_LAT_DUR ? "t_avg"
								   : "avg_lat",
			       r->lat->avg_us);
}

int perftest_json_write(FILE *out, const struct perftest_json_info *in,
			const struct perftest_json_row *row)
{
	struct json_writer w;

	json_init(&w, out, 1);
	json_object_begin(&w);
	pj_info(&w, in);
	json_kv_object_begin(&w, "results");
	if (row->output != OPTS_OUTPUT_TABLE)
		pj_bare(&w, row);
	else if (row->kind == PERFTEST_JSON_BW)
		pj_bw(&w, row);
	else
		pj_lat(&w, row);
	json_object_end(&w);
	json_object_end(&w);
	return json_finish(&w);
}
