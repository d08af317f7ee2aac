/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * trust - whom a server's data path may reach (docs/trust.md).
 * Pure: addresses and GIDs as bytes, no verbs.
 *
 * Over a TCP control channel (--oob tcp, --oob auto) the client names its
 * data QP's GID itself, and the server would send there: a client could
 * aim the server's traffic at a third host. A RoCEv2 GID is an IP address
 * (IPv4 as ::ffff:a.b.c.d), so the rule is that the GID must be the
 * control connection's own source address. An InfiniBand GID (subnet
 * prefix and port GUID) and a RoCEv1 GID (from the MAC) name no IP: they
 * cannot be checked this way, and the caller says so instead. The rule
 * holds for a client that proved --auth-key-file's key too (a key holder
 * could aim traffic as well as a stranger), and the client holds the
 * server's data GID to the address it reached in the same way.
 */
#ifndef RDMABENCH_SPEC_TRUST_H
#define RDMABENCH_SPEC_TRUST_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define TRUST_GID_BYTES 16
#define TRUST_GID_STR 46 /* INET6_ADDRSTRLEN */

/*
 * The RoCEv2 GID of the address sa (AF_INET: ::ffff:a.b.c.d; AF_INET6:
 * the address itself, an IPv4-mapped one included). 0, or -EAFNOSUPPORT.
 */
int trust_gid_of_addr(const struct sockaddr *sa, uint8_t gid[TRUST_GID_BYTES]);

/* gid as text ("::ffff:10.0.0.5", "fe80::1"), into buf of len bytes. */
const char *trust_gid_str(const uint8_t gid[TRUST_GID_BYTES], char *buf,
			  size_t len);

/*
 * Does the client at ctrl_peer own gid? 0 when gid is its address; else
 * -EPERM with why: the GID, the address and --allow-foreign-gid.
 */
int trust_check_gid(const struct sockaddr *ctrl_peer,
		    const uint8_t gid[TRUST_GID_BYTES], char *why, size_t len);

/*
 * The client's side: is gid, the data GID the server named, the address
 * reached (the control connection's peer)? 0; else -EPERM with why: the
 * GID, the address and --allow-foreign-gid (a server whose data network
 * is not its control one, or --rails, needs it).
 */
int trust_check_server_gid(const struct sockaddr *reached,
			   const uint8_t gid[TRUST_GID_BYTES], char *why,
			   size_t len);

/*
 * A QP number a client may name: 24 bits, and neither QP0 (SMI) nor QP1
 * (GSI), which every port has. 0, or -EPERM with why.
 */
int trust_check_qpn(uint32_t qpn, char *why, size_t len);

/*
 * --bind: the IPv4 or IPv6 address text (IPv6 may be in brackets) with
 * port, into *sa and *len; "" is every address (AF_UNSPEC, *len 0).
 * 0, or -EINVAL with why (names the text and what to give).
 */
int trust_bind_addr(const char *text, uint16_t port,
		    struct sockaddr_storage *sa, socklen_t *len, char *why,
		    size_t why_len);

#endif
