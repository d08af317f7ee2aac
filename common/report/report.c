// SPDX-License-Identifier: BSD-2-Clause
#include "report/report.h"

void report_rule(FILE *out)
{
	fprintf(out, "-------------------------------------------------------"
		     "--------------------------------\n");
}

void report_header(FILE *out, const struct report_info *ri)
{
	char numa[32];

	if (ri->numa_node >= 0)
		snprintf(numa, sizeof(numa), "node %d", ri->numa_node);
	else
		snprintf(numa, sizeof(numa), "not pinned");
	report_rule(out);
	fprintf(out, "                    %s (rdmabench, %s)\n", ri->title,
		ri->role);
	fprintf(out, " Device         : %-16s Firmware       : %s\n",
		ri->dev_name, ri->fw_ver);
	fprintf(out, " Port           : %-16u Port state     : %s\n", ri->port,
		ri->port_state);
	fprintf(out, " Transport type : %-16s Active MTU     : %u\n",
		ri->transport, ri->mtu_bytes);
	fprintf(out, " Connection type: %-16s Rendezvous     : %s\n",
		ri->conn_type ? ri->conn_type : "RC",
		ri->rendezvous ? ri->rendezvous : "rdma_cm");
	if (ri->qps > 1)
		fprintf(out, " Number of QPs  : %llu\n",
			(unsigned long long)ri->qps);
	fprintf(out, " Local address  : %-16s Peer address   : %s\n", ri->local,
		ri->peer);
	fprintf(out, " TX depth       : %-16llu CQ moderation  : %llu\n",
		(unsigned long long)ri->tx_depth,
		(unsigned long long)ri->cq_mod);
	fprintf(out, " Max inline     : %-16u Memory         : %s, %s\n",
		ri->max_inline, ri->memory ? ri->memory : "host", numa);
	if (ri->placement && ri->placement[0])
		fprintf(out, " NUMA node      : %s\n", ri->placement);
	if (ri->lat_note)
		fprintf(out, " Latency        : %s\n", ri->lat_note);
	if (ri->qp_attr)
		fprintf(out, " QP attributes  : %s\n", ri->qp_attr);
	report_rule(out);
}

void report_bw_head(FILE *out, bool gbits, bool with_peer, bool bidir)
{
	const char *u = gbits ? "Gb/sec" : "MiB/sec";

	fprintf(out, " #bytes     #iterations    BW peak[%s]    "
		     "BW average[%s]   MsgRate[Mpps]", u, u);
	if (with_peer)
		fprintf(out, "   Server BW average[%s]", u);
	if (with_peer && bidir)
		fprintf(out, "   Sum BW average[%s]", u);
	fputc('\n', out);
}

static double report_bw_value(bool gbits, const struct stats_bw *bw)
{
	return gbits ? bw->gbps : bw->mibps;
}

void report_bw_row(FILE *out, bool gbits, uint64_t size, uint64_t iters,
		   const struct stats_bw *bw, const struct stats_bw *peak,
		   const struct stats_bw *peer, bool bidir)
{
	fprintf(out, " %-10llu %-14llu %-18.2f %-20.2f %-*.6f",
		(unsigned long long)size, (unsigned long long)iters,
		report_bw_value(gbits, peak), report_bw_value(gbits, bw),
		peer ? 15 : 0, bw->mpps);
	if (peer)
		fprintf(out, "  %-*.2f", bidir ? 24 : 0,
			report_bw_value(gbits, peer));
	if (peer && bidir)
		fprintf(out, "%.2f", report_bw_value(gbits, bw) +
				     report_bw_value(gbits, peer));
	fputc('\n', out);
}

void report_lat_head(FILE *out, bool with_peer)
{
	fprintf(out, " #bytes #iterations    t_min[usec]    t_max[usec]  "
		     "t_typical[usec]    t_avg[usec]    t_stdev[usec]   "
		     "99%% percentile[usec]   99.9%% percentile[usec]");
	if (with_peer)
		fprintf(out, "   server t_typical[usec]");
	fputc('\n', out);
}

void report_lat_row(FILE *out, uint64_t size, uint64_t iters,
		    const struct stats_lat *lat, const struct stats_lat *peer)
{
	if (!lat->samples) { /* the passive side of a round-trip verb */
		fprintf(out, " %-7llu %-14llu (passive side: the client times "
			"each round trip)\n", (unsigned long long)size,
			(unsigned long long)iters);
		return;
	}
	fprintf(out, " %-7llu %-14llu %-14.2f %-12.2f %-18.2f %-14.2f "
		     "%-15.2f %-22.2f %-*.2f",
		(unsigned long long)size, (unsigned long long)iters,
		lat->min_us, lat->max_us, lat->p50_us, lat->avg_us,
		lat->stdev_us, lat->p99_us, peer ? 22 : 0, lat->p999_us);
	if (peer && peer->samples)
		fprintf(out, "   %.2f", peer->p50_us);
	else if (peer)
		fprintf(out, "   -");
	fputc('\n', out);
}
