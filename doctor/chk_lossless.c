// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_lossless - step 3 of ib_doctor for RoCE ports: the lossless class.
 * A pair of nodes reaches line rate with none of this set (nothing
 * congests); incast and all-to-all then drop packets, and RoCE's
 * go-back-N turns each drop into a collapse. Checked against the class
 * in c->lossless (chk.h: priority 3, ToS 106 = DSCP 26, RoCE v2):
 *   pfc        PFC on the priority (DCB_CMD_IEEE_GET, any dcbnl driver)
 *   trust      DSCP trust: the APP table maps the class's DSCP to it
 *   ecn        DCQCN on the priority (mlx5's sysfs ecn/, the only source)
 *   roce_tos   rdma_cm's default ToS (configfs, any RoCE device)
 *   roce_mode  rdma_cm's default RoCE mode (configfs)
 * What Linux does not show is SKIP, "unknown", with the reason. IB and
 * iWARP ports get one SKIP: they need no lossless Ethernet.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "doctor/chk.h"

#define LL_CM "/sys/kernel/config/rdma_cm"

static const struct chk_lossless ll_default = {
	.prio = CHK_LOSSLESS_PRIO, .tos = CHK_ROCE_TOS,
};

/* "0,0,0,1,0,0,0,0": mlnx_qos --pfc's list with prio on. */
static void ll_pfc_list(char *out, size_t len, unsigned int prio)
{
	unsigned int i;
	size_t n = 0;

	for (i = 0; i < 8 && n + 2 < len; i++)
		n += (size_t)snprintf(out + n, len - n, "%s%d", i ? "," : "",
				      i == prio);
}

static void ll_dcb_unknown(struct chk_ctx *c, const char *sub,
			   const char *ifname, int err)
{
	static const char *const checks[] = { "pfc", "trust" };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		if (err == -EOPNOTSUPP)
			findings_add(&c->rep, 3, checks[i], sub, VERDICT_SKIP,
				   "unknown: %s's driver has no DCB (dcbnl) "
				   "ops, Linux shows PFC and trust nowhere else "
				   "(mlx5, bnxt_en, ice, i40e, qede have them; "
				   "rxe and siw ride netdevs without)", ifname);
		else
			findings_add(&c->rep, 3, checks[i], sub, VERDICT_SKIP,
				   "unknown: DCB_CMD_IEEE_GET on %s: %s",
				   ifname, strerror(-err));
	}
}

static void ll_pfc(struct chk_ctx *c, const char *sub, const char *ifname,
		   const struct probe_dcb *dcb, const struct chk_lossless *k)
{
	char list[24];

	if (!dcb->has_pfc) {
		findings_add(&c->rep, 3, "pfc", sub, VERDICT_SKIP,
			   "unknown: %s's DCB answer has no IEEE PFC", ifname);
		return;
	}
	if (dcb->pfc_en & 1u << k->prio) {
		findings_add(&c->rep, 3, "pfc", sub, VERDICT_PASS,
			   "PFC on priority %u of %s (pfc_en 0x%02x)", k->prio,
			   ifname, dcb->pfc_en);
		return;
	}
	ll_pfc_list(list, sizeof(list), k->prio);
	findings_add(&c->rep, 3, "pfc", sub, VERDICT_WARN,
		   "PFC is off on priority %u of %s (pfc_en 0x%02x): under "
		   "incast the switch drops RoCE packets instead of pausing, "
		   "and each drop costs a go-back-N retransmission", k->prio,
		   ifname, dcb->pfc_en);
	findings_fix(&c->rep, "enable PFC on priority %u here and on the "
		   "switch port: mlnx_qos -i %s --pfc %s (or lldptool -T -i %s "
		   "-V PFC enabled=%u)", k->prio, ifname, list, ifname, k->prio);
}

static void ll_trust(struct chk_ctx *c, const char *sub, const char *ifname,
		     const struct probe_dcb *dcb, const struct chk_lossless *k)
{
	unsigned int dscp = k->tos >> 2;

	if (!dcb->dscp_set) {
		findings_add(&c->rep, 3, "trust", sub, VERDICT_WARN,
			   "%s trusts PCP (no DSCP entry in its DCB APP "
			   "table): untagged RoCE v2 packets (DSCP %u) land "
			   "on priority 0, outside the lossless class", ifname,
			   dscp);
		findings_fix(&c->rep, "trust DSCP: mlnx_qos -i %s --trust dscp "
			   "(mlx5); elsewhere map it: dcb app add dev %s "
			   "dscp-prio %u:%u", ifname, ifname, dscp, k->prio);
	} else if (!(dcb->dscp_set >> dscp & 1) ||
		   dcb->dscp_prio[dscp] != k->prio) {
		findings_add(&c->rep, 3, "trust", sub, VERDICT_WARN,
			   "%s trusts DSCP, but DSCP %u maps to %s%u, not the "
			   "lossless priority %u", ifname, dscp,
			   dcb->dscp_set >> dscp & 1 ? "priority " : "none: ",
			   dcb->dscp_set >> dscp & 1 ? dcb->dscp_prio[dscp] : 0,
			   k->prio);
		findings_fix(&c->rep, "dcb app replace dev %s dscp-prio %u:%u "
			   "(mlx5: mlnx_qos -i %s --dscp2prio set,%u,%u)", ifname,
			   dscp, k->prio, ifname, dscp, k->prio);
	} else {
		findings_add(&c->rep, 3, "trust", sub, VERDICT_PASS,
			   "%s trusts DSCP: DSCP %u -> priority %u", ifname,
			   dscp, k->prio);
	}
}

static void ll_dcb(struct chk_ctx *c, const char *sub,
		   const struct inv_port *p, const struct chk_lossless *k)
{
	const struct probe *pr = c->probe;
	struct probe_dcb dcb;
	int ret = -EOPNOTSUPP;

	if (pr->dcb)
		ret = pr->dcb(pr->priv, p->netdev, &dcb);
	if (ret) {
		ll_dcb_unknown(c, sub, p->netdev, ret);
		return;
	}
	ll_pfc(c, sub, p->netdev, &dcb, k);
	ll_trust(c, sub, p->netdev, &dcb, k);
}

/* mlx5's ecn/roce_np (sends CNPs) and roce_rp (slows down on them). */
static void ll_ecn(struct chk_ctx *c, const char *sub, const char *ifname,
		   const struct chk_lossless *k)
{
	long np = -1, rp = -1;
	int e1 = fs_read_long(c->root, &np,
			      "/sys/class/net/%s/ecn/roce_np/enable/%u",
			      ifname, k->prio);
	int e2 = fs_read_long(c->root, &rp,
			      "/sys/class/net/%s/ecn/roce_rp/enable/%u",
			      ifname, k->prio);

	if (e1 && e2) {
		findings_add(&c->rep, 3, "ecn", sub, VERDICT_SKIP,
			   "unknown: %s has no ecn/ in sysfs (only mlx5 shows "
			   "DCQCN per priority there; other drivers: their own "
			   "tools)", ifname);
	} else if (np == 1 && rp == 1) {
		findings_add(&c->rep, 3, "ecn", sub, VERDICT_PASS,
			   "DCQCN on priority %u of %s (roce_np and roce_rp "
			   "enabled)", k->prio, ifname);
	} else {
		findings_add(&c->rep, 3, "ecn", sub, VERDICT_WARN,
			   "ECN (DCQCN) is off on priority %u of %s: roce_np "
			   "%ld (answers ECN marks with CNPs), roce_rp %ld "
			   "(slows down on CNPs); congestion then runs on PFC "
			   "pauses alone, which spread", k->prio, ifname, np,
			   rp);
		findings_fix(&c->rep, "echo 1 > /sys/class/net/%s/ecn/roce_np/"
			   "enable/%u; echo 1 > /sys/class/net/%s/ecn/roce_rp/"
			   "enable/%u (and ECN marking of the class on the "
			   "switch)", ifname, k->prio, ifname, k->prio);
	}
}

static void ll_cm_unknown(struct chk_ctx *c, const char *check,
			  const char *sub, const struct inv_dev *d,
			  const char *dflt)
{
	findings_add(&c->rep, 3, check, sub, VERDICT_SKIP,
		   "unknown: no " LL_CM "/%s (to read it: modprobe configfs; "
		   "mount -t configfs none /sys/kernel/config; mkdir "
		   LL_CM "/%s); never set, the kernel's default is %s",
		   d->name, d->name, dflt);
}

static void ll_cm_tos(struct chk_ctx *c, const char *sub,
		      const struct inv_dev *d, const struct inv_port *p,
		      const struct chk_lossless *k)
{
	long tos = -1;

	if (fs_read_long(c->root, &tos, LL_CM "/%s/ports/%u/default_roce_tos",
			 d->name, p->num)) {
		ll_cm_unknown(c, "roce_tos", sub, d, "ToS 0");
		return;
	}
	if (tos == (long)k->tos) {
		findings_add(&c->rep, 3, "roce_tos", sub, VERDICT_PASS,
			   "rdma_cm's default ToS %ld (DSCP %ld)", tos, tos >> 2);
		return;
	}
	findings_add(&c->rep, 3, "roce_tos", sub, VERDICT_WARN,
		   "rdma_cm's default ToS %ld (DSCP %ld), not the lossless "
		   "class's %u (DSCP %u): rdma_cm connections that set no ToS "
		   "(perftest -R, rping, MPI and NVMe-oF over rdma_cm) ride "
		   "outside it", tos, tos >> 2, k->tos, k->tos >> 2);
	findings_fix(&c->rep, "echo %u > " LL_CM "/%s/ports/%u/"
		   "default_roce_tos (what NVIDIA's cma_roce_tos -d %s -t %u "
		   "does)", k->tos, d->name, p->num, d->name, k->tos);
}

static void ll_cm_mode(struct chk_ctx *c, const char *sub,
		       const struct inv_dev *d, const struct inv_port *p)
{
	char mode[32];

	if (fs_read(c->root, mode, sizeof(mode),
		    LL_CM "/%s/ports/%u/default_roce_mode", d->name, p->num)) {
		ll_cm_unknown(c, "roce_mode", sub, d, "RoCE v2");
		return;
	}
	if (!strcmp(mode, "RoCE v2")) {
		findings_add(&c->rep, 3, "roce_mode", sub, VERDICT_PASS,
			   "rdma_cm's default RoCE mode: RoCE v2");
		return;
	}
	findings_add(&c->rep, 3, "roce_mode", sub, VERDICT_WARN,
		   "rdma_cm's default RoCE mode is %s: RoCE v1 has no IP "
		   "header (no DSCP, no ECN, not routed), so rdma_cm's "
		   "connections leave the lossless class", mode);
	findings_fix(&c->rep, "echo 'RoCE v2' > " LL_CM "/%s/ports/%u/"
		   "default_roce_mode (cma_roce_mode -d %s -p %u -m 2)",
		   d->name, p->num, d->name, p->num);
}

static void ll_other(struct chk_ctx *c, const char *sub,
		     const struct inv_port *p)
{
	findings_add(&c->rep, 3, "pfc", sub, VERDICT_SKIP, "%s",
		   p->xport == INV_XPORT_IB ?
		   "InfiniBand: credit-based link flow control is lossless "
		   "by design (no PFC, DSCP or ECN to set)" :
		   "iWARP runs over TCP, which recovers loss itself: no "
		   "lossless class needed");
}

static void ll_port(struct chk_ctx *c, const struct inv_dev *d,
		    const struct inv_port *p)
{
	const struct chk_lossless *k = c->lossless ? c->lossless : &ll_default;
	char sub[FINDING_SUBJECT_LEN];

	chk_dev_port_subject(sub, sizeof(sub), d, p);
	if (p->xport != INV_XPORT_ROCE) {
		ll_other(c, sub, p);
		return;
	}
	if (p->netdev[0]) {
		ll_dcb(c, sub, p, k);
		ll_ecn(c, sub, p->netdev, k);
	} else {
		findings_add(&c->rep, 3, "pfc", sub, VERDICT_SKIP,
			   "no netdev found for the port (see netdev_map)");
	}
	ll_cm_tos(c, sub, d, p, k);
	ll_cm_mode(c, sub, d, p);
}

static void ll_dev(struct chk_ctx *c, const struct inv_dev *d)
{
	unsigned int p;

	for (p = 0; p < d->nports; p++)
		ll_port(c, d, &d->ports[p]);
}

void chk_lossless_check(struct chk_ctx *c)
{
	chk_dev_each(c, ll_dev);
}
