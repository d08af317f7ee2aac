/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pcicfg - a PCI function's configuration space, decoded as `lspci -vvv`
 * decodes it, for the few registers that decide GPUDirect's peer path:
 *   the PCI Express capability (ID 0x10): Device Control's MaxReadReq
 *     (bits 14:12, 128 << n bytes) and relaxed ordering (bit 4, RlxdOrd);
 *   the ACS extended capability (ID 0x000D): its control register
 *     (ACSCtl: SrcValid, TransBlk, ReqRedir, CmpltRedir, UpstreamFwd,
 *     EgressCtrl, DirectTrans);
 *   the ATS extended capability (ID 0x000F): its Enable bit (ATSCtl).
 * Pure: a byte buffer in (the contents of sysfs's `config`, as long as the
 * read gave: 64 bytes for an unprivileged reader, 256 without extended
 * space, 4096 with it), the capabilities out. Multi-byte registers are
 * little-endian, as PCI defines them.
 */
#ifndef RDMABENCH_LIB_PCICFG_H
#define RDMABENCH_LIB_PCICFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PCICFG_HEADER_LEN 64     /* what an unprivileged read returns */
#define PCICFG_LEGACY_LEN 256    /* no extended space beyond this */
#define PCICFG_MAX_LEN 4096

#define PCICFG_CAP_EXP 0x10      /* PCI Express */
#define PCICFG_ECAP_ACS 0x000d
#define PCICFG_ECAP_ATS 0x000f

/* ACS control bits, in lspci's names (PCI_ACS_* in the kernel) */
#define PCICFG_ACS_SV 0x0001     /* SrcValid */
#define PCICFG_ACS_TB 0x0002     /* TransBlk */
#define PCICFG_ACS_RR 0x0004     /* ReqRedir */
#define PCICFG_ACS_CR 0x0008     /* CmpltRedir */
#define PCICFG_ACS_UF 0x0010     /* UpstreamFwd */
#define PCICFG_ACS_EC 0x0020     /* EgressCtrl */
#define PCICFG_ACS_DT 0x0040     /* DirectTrans */

#define PCICFG_DEVCTL_RO 0x0010  /* relaxed ordering enabled */

struct pcicfg {
	size_t len;              /* bytes given */
	bool header_only;        /* len <= 64: the capabilities are unknown */
	uint16_t vendor, device;
	uint8_t header_type;     /* 0 endpoint, 1 bridge */
	bool has_exp;            /* PCI Express capability found */
	uint8_t exp_type;        /* its port type: 0 endpoint, 5 upstream,
				  * 6 downstream, 4 root port, ... */
	uint16_t devctl;         /* its Device Control */
	bool has_ext;            /* extended space given (len > 256) */
	bool has_acs;
	uint16_t acs_cap, acs_ctl;
	bool has_ats;
	bool ats_enabled;
};

/*
 * Decode len bytes of configuration space. 0; -EINVAL when len < 64 or
 * there is no function (vendor 0xffff or 0). A header-only buffer (an
 * unprivileged read) decodes with header_only set and nothing else known.
 * Capability lists are walked with bounds: a loop or a pointer past the
 * buffer ends the walk, never the read.
 */
int pcicfg_decode(const uint8_t *buf, size_t len, struct pcicfg *out);

/* Device Control's MaxReadReq in bytes (128..4096); 0 without PCIe. */
unsigned int pcicfg_maxreadreq(const struct pcicfg *c);

/* Device Control's RlxdOrd bit (false without PCIe). */
bool pcicfg_relaxed_ord(const struct pcicfg *c);

/* ReqRedir or CmpltRedir set: peer requests or completions go up to the
 * root complex instead of across the switch. */
bool pcicfg_acs_redirects(const struct pcicfg *c);

/* "SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl-
 * DirectTrans-": ACS control bits as lspci -vvv prints ACSCtl. */
void pcicfg_acs_str(uint16_t bits, char *out, size_t len);

/* "Endpoint", "Root Port", "Upstream Port", "Downstream Port", ... as
 * lspci names the Express port type; "PCI" without the capability. */
const char *pcicfg_type_name(const struct pcicfg *c);

#endif
