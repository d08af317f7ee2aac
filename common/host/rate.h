/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rate - the payload rate a link can carry at best, and the formula that
 * gets there, so a gate such as "--expect-line-rate 0.95" states what
 * 100% is. Pure maths: the caller brings the verbs and sysfs values.
 *
 * All rates are 10^9 bit/s (Gb/s). A lane's rate is its DATA rate, after
 * line encoding: SDR/DDR/QDR lanes signal 2.5/5/10 Gbaud with 8b/10b and
 * carry 2/4/8 Gb/s; FDR10/FDR/EDR use 64b/66b (10.3125, 14.0625,
 * 25.78125 Gbaud carry 10, 13.64, 25 Gb/s); HDR/NDR/XDR (PAM4 with FEC)
 * carry 50/100/200 Gb/s. The kernel's sysfs "rate" file prints the
 * signalling figure for SDR..QDR and 14 per FDR lane (sysfs_gbps below).
 */
#ifndef RDMABENCH_HOST_RATE_H
#define RDMABENCH_HOST_RATE_H

#include <stdbool.h>

/* ibv_port_attr.active_speed / active_speed_ex values (IB spec bits). */
#define RATE_SPEED_SDR 1u
#define RATE_SPEED_DDR 2u
#define RATE_SPEED_QDR 4u
#define RATE_SPEED_FDR10 8u
#define RATE_SPEED_FDR 16u
#define RATE_SPEED_EDR 32u
#define RATE_SPEED_HDR 64u
#define RATE_SPEED_NDR 128u
#define RATE_SPEED_XDR 256u	/* only in active_speed_ex (not rdma-core 44) */

/* ibv_port_attr.active_width values. */
#define RATE_WIDTH_1X 1u
#define RATE_WIDTH_4X 2u
#define RATE_WIDTH_8X 4u
#define RATE_WIDTH_12X 8u
#define RATE_WIDTH_2X 16u

enum rate_transport {
	RATE_IB,	/* InfiniBand link layer */
	RATE_ROCE_V2,	/* RoCEv2 over IPv4, untagged Ethernet */
};

struct rate_link {
	double lane_gbps;	/* data rate of one lane, after encoding */
	unsigned lanes;
	double link_gbps;	/* lane_gbps * lanes */
	const char *speed_name;	/* "HDR" */
	const char *width_name;	/* "4X" */
	double sysfs_gbps;	/* what ports/N/rate prints for this link */
};

/*
 * The port's link from verbs' active_speed, active_speed_ex (0 when the
 * rdma-core in use lacks it; when non-zero it wins, XDR is only there)
 * and active_width. Returns 0, or -EINVAL for an unknown value.
 * 400GbE is reported by mlx5 as 8X HDR (or 4X NDR), 200GbE as 4X HDR,
 * 100GbE as 4X EDR: the figures come out right for those too.
 */
int rate_from_port(unsigned active_speed, unsigned active_speed_ex,
		   unsigned active_width, struct rate_link *out);

/*
 * The number the kernel prints in ports/N/rate ("400 Gb/sec (4X NDR)"
 * gives 400). Returns 0, or -EINVAL when text is not in that format.
 */
int rate_parse_sysfs_gbps(const char *text, double *gbps_out);

/*
 * The link named in a ports/N/rate text ("(4X NDR)"), with data rates as
 * rate_from_port() gives them. Returns 0, or -EINVAL when the text is
 * not in the kernel's format or names an unknown width or speed.
 */
int rate_parse_sysfs(const char *text, struct rate_link *out);

/*
 * Payload ceiling of a PCIe link in Gb/s: GT/s x lanes x encoding, where
 * the encoding is 8/10 for 2.5 and 5 GT/s, 128/130 for 8..32 GT/s and
 * 242/256 (FLIT, the FEC and CRC share) from 64 GT/s. This is the raw
 * link before TLP headers, DLLPs and descriptor traffic: an upper bound.
 * Returns 0.0 when gt_per_s <= 0 or width == 0 (unknown).
 */
double rate_pcie_gbps(double gt_per_s, unsigned width);

/*
 * Estimated share of a PCIe link left for payload by TLP framing, for
 * writes of max_payload_bytes (MaxPayload, e.g. 256): each TLP adds
 * RATE_PCIE_TLP_OVERHEAD_BYTES. A separate factor, because MaxPayload is
 * not in sysfs (lspci -vv shows it as DevCtl MaxPayload). 0.0 when 0.
 */
double rate_pcie_tlp_efficiency(unsigned max_payload_bytes);

/*
 * 24 B a TLP with a 4-DW header (64-bit address): 16 header + 4 LCRC +
 * 4 framing (Gen3+ STP token with the sequence number; Gen1/2 STP 1 +
 * sequence 2 + END 1). ECRC (4 more) is rare; DLLPs (ACK, flow-control
 * updates) cost a further 1-3% that is not counted.
 */
#define RATE_PCIE_TLP_OVERHEAD_BYTES 24u

/*
 * Per-packet bytes on the wire besides the payload (see rate.c):
 * IB 26 = LRH 8 + BTH 12 + ICRC 4 + VCRC 2 (no GRH: same subnet);
 * RoCEv2 82 = preamble+SFD 8 + inter-frame gap 12 + Ethernet 14 + FCS 4
 * + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 (no VLAN tag: +4 with one).
 */
#define RATE_IB_OVERHEAD_BYTES 26u
#define RATE_ROCE_V2_OVERHEAD_BYTES 82u

/*
 * Payload share of the wire for full packets of mtu_bytes on transport t:
 * mtu / (mtu + overhead). The 16-byte RETH on the first packet of an RDMA
 * write (and ACKs, which flow the other way) are left out: < 0.03% at
 * 64 KiB. A ceiling for large messages. 0.0 for mtu 0 or an unknown t.
 */
double rate_wire_efficiency(unsigned mtu_bytes, enum rate_transport t);

/* Short transport name for formulas: "IB", "RoCEv2". */
const char *rate_transport_name(enum rate_transport t);

struct rate_inputs {
	unsigned active_speed;	  /* ibv_port_attr; all three 0 = unknown */
	unsigned active_speed_ex; /* 0 = absent (rdma-core 44 has none) */
	unsigned active_width;
	const char *sysfs_rate;	  /* ports/N/rate text; NULL or "" = none */
	int netdev_speed_mbps;	  /* RoCE: class/net/IF/speed; <= 0 unknown */
	double pcie_gts;	  /* current PCIe speed; 0 = none (virtual) */
	unsigned pcie_width;	  /* current PCIe width; 0 = none */
	unsigned pcie_max_payload_bytes; /* 0 = raw PCIe ceiling only */
	unsigned mtu_bytes;	  /* active MTU of the path */
	enum rate_transport transport;
};

#define RATE_TEXT_LEN 400

struct rate_result {
	struct rate_link link;	  /* the port's, else from sysfs; lanes 0 if
				   * only the netdev speed was known */
	double line_gbps;	  /* link_gbps, or the netdev's rate (RoCE) */
	double wire_efficiency;	  /* rate_wire_efficiency(mtu, transport) */
	double wire_payload_gbps; /* line_gbps * wire_efficiency */
	double pcie_gbps;	  /* PCIe payload ceiling; 0 = no PCIe */
	double achievable_gbps;	  /* min(wire_payload_gbps, pcie_gbps) */
	bool is_pcie_bound;	  /* PCIe is the smaller of the two */
	char formula[RATE_TEXT_LEN]; /* how achievable_gbps was reached */
	char warning[RATE_TEXT_LEN]; /* sources that disagree; "" if none */
};

/*
 * Achievable payload rate: the line rate (verbs port, else sysfs text;
 * on RoCE the netdev speed wins when it disagrees, see rate.c) times the
 * wire efficiency, capped by the PCIe ceiling (which carries payload, not
 * wire headers). Fills out->formula, e.g. "4X HDR: 4 × 50 Gb/s = 200 Gb/s
 * × 0.9804 (RoCEv2, MTU 4096) = 196.1 Gb/s; PCIe Gen4 x16: 16 GT/s × 16
 * × 128/130 = 252.1 Gb/s; achievable = min(196.1, 252.1) = 196.1 Gb/s
 * payload". Returns 0; -EINVAL for bad values (unknown speed, width or
 * transport, mtu 0); -ENODATA when no line rate is known at all.
 */
int rate_achievable(const struct rate_inputs *in, struct rate_result *out);

#endif
