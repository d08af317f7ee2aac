// SPDX-License-Identifier: BSD-2-Clause
/*
 * pcicfg - decode the PCI configuration space registers of pcicfg.h, as
 * lspci -vvv does: the capability list from 0x34 (when Status bit 4 says
 * there is one), the extended capabilities from 0x100.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/pcicfg.h"

#define CFG_STATUS 0x06
#define CFG_STATUS_CAPS 0x10
#define CFG_HEADER_TYPE 0x0e
#define CFG_CAP_PTR 0x34
#define EXP_FLAGS 0x02           /* in the Express capability */
#define EXP_DEVCTL 0x08
#define CAPS_MAX 48              /* 192 bytes / 4: more is a loop */
#define ECAPS_MAX ((PCICFG_MAX_LEN - PCICFG_LEGACY_LEN) / 8)

static uint16_t cfg_u16(const uint8_t *b, size_t off)
{
	return (uint16_t)(b[off] | b[off + 1] << 8);
}

static uint32_t cfg_u32(const uint8_t *b, size_t off)
{
	return (uint32_t)cfg_u16(b, off) | (uint32_t)cfg_u16(b, off + 2) << 16;
}

static void cfg_exp(const uint8_t *b, size_t len, size_t off,
		    struct pcicfg *out)
{
	if (off + EXP_DEVCTL + 2 > len)
		return;
	out->has_exp = true;
	out->exp_type = (cfg_u16(b, off + EXP_FLAGS) >> 4) & 0xf;
	out->devctl = cfg_u16(b, off + EXP_DEVCTL);
}

static void cfg_caps(const uint8_t *b, size_t len, struct pcicfg *out)
{
	size_t off = b[CFG_CAP_PTR] & 0xfc;
	int n;

	if (!(cfg_u16(b, CFG_STATUS) & CFG_STATUS_CAPS))
		return;
	for (n = 0; n < CAPS_MAX && off >= 0x40 && off + 2 <= len; n++) {
		if (b[off] == PCICFG_CAP_EXP)
			cfg_exp(b, len, off, out);
		off = b[off + 1] & 0xfc;
	}
}

static void cfg_ecap(const uint8_t *b, size_t len, size_t off,
		     unsigned int id, struct pcicfg *out)
{
	if (off + 8 > len)
		return;
	if (id == PCICFG_ECAP_ACS) {
		out->has_acs = true;
		out->acs_cap = cfg_u16(b, off + 4);
		out->acs_ctl = cfg_u16(b, off + 6);
	} else if (id == PCICFG_ECAP_ATS) {
		out->has_ats = true;
		out->ats_enabled = cfg_u16(b, off + 6) & 0x8000;
	}
}

static void cfg_ecaps(const uint8_t *b, size_t len, struct pcicfg *out)
{
	size_t off = PCICFG_LEGACY_LEN;
	uint32_t h;
	int n;

	for (n = 0; n < ECAPS_MAX && off >= PCICFG_LEGACY_LEN &&
		    off + 4 <= len; n++) {
		h = cfg_u32(b, off);
		if (!h || h == 0xffffffffu)
			return;
		cfg_ecap(b, len, off, h & 0xffff, out);
		off = (h >> 20) & 0xffc;
	}
}

int pcicfg_decode(const uint8_t *buf, size_t len, struct pcicfg *out)
{
	memset(out, 0, sizeof(*out));
	if (!buf || len < PCICFG_HEADER_LEN)
		return -EINVAL;
	if (len > PCICFG_MAX_LEN)
		len = PCICFG_MAX_LEN;
	out->len = len;
	out->vendor = cfg_u16(buf, 0);
	out->device = cfg_u16(buf, 2);
	if (out->vendor == 0xffff || !out->vendor)
		return -EINVAL;
	out->header_type = buf[CFG_HEADER_TYPE] & 0x7f;
	out->header_only = len <= PCICFG_HEADER_LEN;
	if (out->header_only)
		return 0;
	cfg_caps(buf, len, out);
	out->has_ext = len > PCICFG_LEGACY_LEN;
	if (out->has_ext)
		cfg_ecaps(buf, len, out);
	return 0;
}

unsigned int pcicfg_maxreadreq(const struct pcicfg *c)
{
	return c->has_exp ? 128u << ((c->devctl >> 12) & 7) : 0;
}

bool pcicfg_relaxed_ord(const struct pcicfg *c)
{
	return c->has_exp && (c->devctl & PCICFG_DEVCTL_RO);
}

bool pcicfg_acs_redirects(const struct pcicfg *c)
{
	return c->has_acs &&
	       (c->acs_ctl & (PCICFG_ACS_RR | PCICFG_ACS_CR));
}

void pcicfg_acs_str(uint16_t bits, char *out, size_t len)
{
	static const char *const names[] = {
		"SrcValid", "TransBlk", "ReqRedir", "CmpltRedir",
		"UpstreamFwd", "EgressCtrl", "DirectTrans",
	};
	size_t i, off = 0;

	if (len)
		out[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]) && off < len; i++)
		off += (size_t)snprintf(out + off, len - off, "%s%s%c",
					i ? " " : "", names[i],
					bits & (1u << i) ? '+' : '-');
}

const char *pcicfg_type_name(const struct pcicfg *c)
{
	static const char *const types[] = {
		[0] = "Endpoint", [1] = "Legacy Endpoint",
		[4] = "Root Port", [5] = "Upstream Port",
		[6] = "Downstream Port", [7] = "PCI-Express to PCI/PCI-X Bridge",
		[8] = "PCI/PCI-X to PCI-Express Bridge",
		[9] = "Root Complex Integrated Endpoint",
		[10] = "Root Complex Event Collector",
	};

	if (!c->has_exp)
		return "PCI";
	if (c->exp_type < sizeof(types) / sizeof(types[0]) &&
	    types[c->exp_type])
		return types[c->exp_type];
	return "Unknown type";
}
