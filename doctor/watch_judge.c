// SPDX-License-Identifier: BSD-2-Clause
/*
 * watch_judge - the byte proof's findings: the command, each RDMA port,
 * each interface that moved, and the verdict (see watch.h). One sentence
 * each, the same in the table and in the JSON document.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "doctor/watch.h"

#define CMD_TEXT 160

/* argv joined by blanks, cut with "..." past CMD_TEXT bytes. */
static void judge_cmd_text(char *const *argv, char *out, size_t len)
{
	size_t used = 0;
	int w;

	out[0] = '\0';
	for (; *argv && used < len; argv++) {
		w = snprintf(out + used, len - used, "%s%s", used ? " " : "",
			     *argv);
		used += w > 0 ? (size_t)w : 0;
	}
	if (used >= len && len > 4)
		memcpy(out + len - 4, "...", 4);
}

static void judge_cmd(struct chk_ctx *c, const struct watch_cmd *cmd)
{
	char text[CMD_TEXT];
	double s = (double)cmd->ns / 1e9;
	int st = cmd->status;

	judge_cmd_text(cmd->argv, text, sizeof(text));
	if (WIFEXITED(st) && !WEXITSTATUS(st) && !cmd->stopped) {
		findings_add(&c->rep, WATCH_STEP, "watch_cmd", "command",
			     VERDICT_PASS, "'%s' exited 0 after %.2f s", text,
			     s);
		return;
	}
	if (WIFEXITED(st))
		findings_add(&c->rep, WATCH_STEP, "watch_cmd", "command",
			     VERDICT_FAIL, "'%s' exited %d after %.2f s%s",
			     text, WEXITSTATUS(st), s,
			     WEXITSTATUS(st) == 127 ? " (could not run it)" :
			     "");
	else
		findings_add(&c->rep, WATCH_STEP, "watch_cmd", "command",
			     VERDICT_FAIL, "'%s' was killed by signal %d "
			     "after %.2f s", text, WTERMSIG(st), s);
	if (cmd->stopped)
		findings_fix(&c->rep, "ib_doctor was stopped (signal %d) and "
			     "passed it on: run it again to the end",
			     cmd->stopped);
	else
		findings_fix(&c->rep, "the command failed: its own output "
			     "above says why");
}

/* " (estimated: 6464 packets x MTU 1024)" for one direction. */
static void judge_dir(const struct watch_dir *d, unsigned int mtu,
		      char *out, size_t len)
{
	if (!d->src)
		snprintf(out, len, "unknown bytes (%" PRIu64 " packets%s)",
			 d->packets, d->reset ? ", a counter reset" : "");
	else if (d->estimated)
		snprintf(out, len, "%" PRIu64 " bytes (estimated: %" PRIu64
			 " packets x MTU %u)", d->bytes, d->packets, mtu);
	else
		snprintf(out, len, "%" PRIu64 " bytes (%s, %" PRIu64
			 " packets)", d->bytes, d->src, d->packets);
}

static void judge_port(struct chk_ctx *c, const struct watch_port *p)
{
	char x[160], r[160];

	if (!p->has) {
		/* siw has none; a pod may not show them (docs/doctor.md) */
		findings_add(&c->rep, WATCH_STEP, "watch_port", p->subject,
			     VERDICT_SKIP, "no counters/ or hw_counters/ "
			     "readable: the bytes it moved cannot be told");
		return;
	}
	if (!p->xmit.src && !p->rcv.src) {
		findings_add(&c->rep, WATCH_STEP, "watch_port", p->subject,
			     VERDICT_SKIP, "no data or packet counter with an "
			     "MTU: bytes cannot be told; moved: %s",
			     p->moved[0] ? p->moved : "nothing");
		return;
	}
	judge_dir(&p->xmit, p->mtu, x, sizeof(x));
	judge_dir(&p->rcv, p->mtu, r, sizeof(r));
	findings_add(&c->rep, WATCH_STEP, "watch_port", p->subject,
		     VERDICT_PASS, "sent %s, received %s; moved: %s", x, r,
		     p->moved[0] ? p->moved : "nothing");
}

static void judge_if(struct chk_ctx *c, const struct watch_if *w)
{
	char role[96];

	if (!w->reset && !w->tx_bytes && !w->rx_bytes)
		return;
	if (!w->port[0])
		snprintf(role, sizeof(role), "a TCP interface");
	else
		snprintf(role, sizeof(role), "%s's netdev, %s", w->port,
			 w->tcp ? "counted as TCP: its port moved no RDMA "
			 "bytes" : w->port_counts ? "not counted as TCP: its "
			 "port moved RDMA bytes" : "not counted as TCP: its "
			 "port counts no bytes (iWARP rides TCP)");
	if (w->reset)
		findings_add(&c->rep, WATCH_STEP, "watch_if", w->name,
			     VERDICT_WARN, "its counters went back (reset, or "
			     "the interface was recreated); %s", role);
	else
		findings_add(&c->rep, WATCH_STEP, "watch_if", w->name,
			     VERDICT_PASS, "sent %" PRIu64 " bytes, received %"
			     PRIu64 " bytes; %s", w->tx_bytes, w->rx_bytes,
			     role);
}

/* The busiest port's and TCP interface's names ("none"). */
struct judge_tops {
	const char *port, *ifname;
	uint64_t port_bytes, if_bytes;
};

static void judge_tops(const struct watch_result *r, struct judge_tops *t)
{
	const struct watch_port *p = r->top_port < 0 ? NULL :
				     &r->ports[r->top_port];
	const struct watch_if *w = r->top_if < 0 ? NULL : &r->ifs[r->top_if];

	t->port = p ? p->subject : "none";
	t->port_bytes = p ? p->crossed : 0;
	t->ifname = w ? w->name : "none";
	t->if_bytes = w ? w->crossed : 0;
}

/* Has any port a byte count (exact or estimated)? */
static bool judge_any_bytes(const struct watch_result *r)
{
	unsigned int i;

	for (i = 0; i < r->nports; i++)
		if (r->ports[i].xmit.src || r->ports[i].rcv.src)
			return true;
	return false;
}

/* --expect rdma: a fall back to TCP fails, naming the interface. */
static void judge_rdma(struct chk_ctx *c, const struct watch_result *r,
		       const struct judge_tops *t, const char *est)
{
	uint64_t R = r->rdma_bytes, T = r->tcp_bytes;

	if (T >= WATCH_FLOOR_BYTES && T > R) {
		findings_add(&c->rep, WATCH_STEP, "watch", "bytes",
			     VERDICT_FAIL, "the command's bytes took TCP, not "
			     "RDMA: %" PRIu64 " bytes crossed %s (TCP "
			     "interfaces %" PRIu64 " in all), the RDMA ports "
			     "%" PRIu64 "%s", t->if_bytes, t->ifname, T, R,
			     est);
		findings_fix(&c->rep, "make it use RDMA: an address on the "
			     "RDMA netdev (ib_doctor --peer IP), -d DEV; for "
			     "NCCL, ib_doctor --nccl-log says why it chose "
			     "Socket");
	} else if (T >= WATCH_FLOOR_BYTES && T >= R / 10) {
		findings_add(&c->rep, WATCH_STEP, "watch", "bytes",
			     VERDICT_WARN, "a tenth or more took TCP: %" PRIu64
			     " bytes crossed %s (TCP interfaces %" PRIu64 " in "
			     "all), the RDMA ports %" PRIu64 "%s", t->if_bytes,
			     t->ifname, T, R, est);
	} else if (!R) {
		findings_add(&c->rep, WATCH_STEP, "watch", "bytes",
			     judge_any_bytes(r) ? VERDICT_WARN : VERDICT_SKIP,
			     "no bytes crossed the RDMA ports%s; the TCP "
			     "interfaces %" PRIu64 "%s%s%s",
			     judge_any_bytes(r) ? "" : " (none counts them)",
			     T, T ? " (" : "", T ? t->ifname : "",
			     T ? " the most)" : "");
	} else {
		findings_add(&c->rep, WATCH_STEP, "watch", "bytes",
			     VERDICT_PASS, "the bytes took RDMA: %" PRIu64
			     " bytes crossed the RDMA ports (%s %" PRIu64 "%s), "
			     "the TCP interfaces %" PRIu64 "%s%s%s", R, t->port,
			     t->port_bytes, r->estimated ? ", estimated" : "",
			     T, T ? " (" : "", T ? t->ifname : "",
			     T ? " the most)" : "");
	}
}

/* --expect tcp: RDMA traffic fails (a TCP baseline that was not). */
static void judge_tcp(struct chk_ctx *c, const struct watch_result *r,
		      const struct judge_tops *t, const char *est)
{
	uint64_t R = r->rdma_bytes, T = r->tcp_bytes;

	if (R >= WATCH_FLOOR_BYTES && R > T)
		findings_add(&c->rep, WATCH_STEP, "watch", "bytes",
			     VERDICT_FAIL, "the command's bytes took RDMA, not "
			     "TCP: %" PRIu64 " bytes crossed %s (the RDMA ports "
			     "%" PRIu64 " in all%s), the TCP interfaces %" PRIu64,
			     t->port_bytes, t->port, R, est, T);
	else if (!T)
		findings_add(&c->rep, WATCH_STEP, "watch", "bytes",
			     VERDICT_WARN, "no bytes crossed the TCP interfaces;"
			     " the RDMA ports %" PRIu64 "%s", R, est);
	else
		findings_add(&c->rep, WATCH_STEP, "watch", "bytes",
			     VERDICT_PASS, "the bytes took TCP: %" PRIu64
			     " bytes crossed the TCP interfaces (%s %" PRIu64
			     "), the RDMA ports %" PRIu64 "%s", T, t->ifname,
			     t->if_bytes, R, est);
}

void watch_judge(struct chk_ctx *c, const struct watch_result *r,
		 const struct watch_cmd *cmd, enum watch_expect e)
{
	const char *est = r->estimated ? " (estimated)" : "";
	struct judge_tops t;
	unsigned int i;

	judge_cmd(c, cmd);
	for (i = 0; i < r->nports; i++)
		judge_port(c, &r->ports[i]);
	for (i = 0; i < r->nifs; i++)
		judge_if(c, &r->ifs[i]);
	judge_tops(r, &t);
	if (e == WATCH_EXPECT_TCP)
		judge_tcp(c, r, &t, est);
	else
		judge_rdma(c, r, &t, est);
}
