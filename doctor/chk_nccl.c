// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_nccl - step 10 of ib_doctor, --nccl-log: the transport NCCL chose,
 * from its own NCCL_DEBUG=INFO log (doctor/nccl_log.c), judged against
 * this host's facts when the log comes from this host (its RDMA devices
 * and their ports, /dev/infiniband/uverbs*, whether GPU memory can be
 * registered, the GPU<->NIC pairs of --use_cuda auto: host/gpupair.c).
 * A log from another host is judged from its own lines alone.
 * Findings per log (the subject is the file's name): nccl_log, nccl_env,
 * nccl_ib_hca, nccl_net, nccl_hca, nccl_path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "doctor/chk.h"
#include "doctor/chk_nccl.h"
#include "host/gpupair.h"
#include "lib/log.h"
#include "lib/sanitize.h"

#define STEP 10

struct judge {
	struct chk_ctx *c;
	const struct nccl_log *l;
	const char *subject;
	bool here;              /* the log's host is this host */
	char missing[NCCL_LOG_TEXT]; /* a device NCCL_IB_HCA names, not here */
};

/* The device called name on this host, or NULL. */
static const struct inv_dev *host_dev(const struct chk_ctx *c,
				      const char *name)
{
	size_t i;

	for (i = 0; i < c->inv.ndev; i++)
		if (!strcmp(c->inv.devs[i].name, name))
			return &c->inv.devs[i];
	return NULL;
}

/* How many devices have their /dev/infiniband/uverbsN here. */
static size_t host_uverbs(const struct chk_ctx *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->inv.ndev; i++)
		n += c->inv.devs[i].uverbs[0] &&
		     fs_exists(c->root, "/dev/infiniband/%s",
			       c->inv.devs[i].uverbs);
	return n;
}

/* How many ports here are ACTIVE. */
static size_t host_active_ports(const struct chk_ctx *c)
{
	size_t i, j, n = 0;

	for (i = 0; i < c->inv.ndev; i++)
		for (j = 0; j < c->inv.devs[i].nports; j++)
			n += c->inv.devs[i].ports[j].state == 4;
	return n;
}

/* Is hca one NCCL found (NET/IB : Using)? */
static bool log_has_hca(const struct nccl_log *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->n_hca; i++)
		if (!strcmp(l->hcas[i].name, name))
			return true;
	return false;
}

/* The first device NCCL_IB_HCA names that is not there (this host's
 * devices, or those NCCL found elsewhere) into j->missing. "^" excludes:
 * nothing to miss. "=" asks for exact names; ":port" is cut. */
static void find_missing_hca(struct judge *j, const char *list)
{
	char buf[NCCL_LOG_VALUE], *save = NULL, *tok;

	if (list[0] == '^')
		return;
	snprintf(buf, sizeof(buf), "%s", list + (list[0] == '='));
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		tok[strcspn(tok, ":")] = '\0';
		if (j->here ? !host_dev(j->c, tok) :
		    !log_has_hca(j->l, tok) && (j->l->ib_none ||
						j->l->n_hca)) {
			snprintf(j->missing, sizeof(j->missing), "%s", tok);
			return;
		}
	}
}

static void judge_log(struct judge *j, const char *host)
{
	const struct nccl_log *l = j->l;

	findings_add(&j->c->rep, STEP, "nccl_log", j->subject, VERDICT_PASS,
		     "NCCL %s, rank %d of %d, host %s, %lu NCCL lines; %s",
		     l->version[0] ? l->version : "(version not printed)",
		     l->rank, l->nranks, l->host[0] ? l->host : "?",
		     l->nccl_lines, j->here ? "compared with this host" :
		     "not this host: judged from the log alone");
	(void)host;
}

static void judge_env(struct judge *j)
{
	char line[FINDING_TEXT_LEN] = "";
	size_t i, n = 0;

	for (i = 0; i < j->l->n_var; i++) {
		n = strlen(line);
		snprintf(line + n, sizeof(line) - n, "%s%s=%s", n ? ", " : "",
			 j->l->vars[i].name, j->l->vars[i].value);
	}
	findings_add(&j->c->rep, STEP, "nccl_env", j->subject,
		     j->l->n_var ? VERDICT_PASS : VERDICT_SKIP, "%s",
		     j->l->n_var ? line : "NCCL printed no NCCL_* variable");
}

static void judge_ib_hca(struct judge *j)
{
	const char *list = nccl_log_var(j->l, "NCCL_IB_HCA");

	if (!list)
		return;
	find_missing_hca(j, list);
	if (!j->missing[0]) {
		findings_add(&j->c->rep, STEP, "nccl_ib_hca", j->subject,
			     VERDICT_PASS, "NCCL_IB_HCA=%s: every device named "
			     "is there", list);
		return;
	}
	findings_add(&j->c->rep, STEP, "nccl_ib_hca", j->subject,
		     VERDICT_FAIL, "NCCL_IB_HCA names %s, which %s lacks",
		     j->missing, j->here ? "this host" : "NCCL's host");
	findings_fix(&j->c->rep, "set NCCL_IB_HCA to devices that exist "
		     "(ibv_devices; ib_doctor lists them), or unset it");
}

/* Why NCCL took Socket, and the fix, most certain cause first. */
static void socket_reason(const struct judge *j, char *why, size_t wlen,
			  char *fix, size_t flen)
{
	const char *net = nccl_log_var(j->l, "NCCL_NET");
	const char *off = nccl_log_var(j->l, "NCCL_IB_DISABLE");

	if (net && !strcasecmp(net, "Socket")) {
		snprintf(why, wlen, "NCCL_NET=%s asks for it", net);
		snprintf(fix, flen, "unset NCCL_NET (or set it to IB)");
	} else if (off && strcmp(off, "0")) {
		snprintf(why, wlen, "NCCL_IB_DISABLE=%s turns IB off", off);
		snprintf(fix, flen, "unset NCCL_IB_DISABLE");
	} else if (j->missing[0]) {
		snprintf(why, wlen, "NCCL_IB_HCA names %s, which %s lacks",
			 j->missing, j->here ? "this host" : "NCCL's host");
		snprintf(fix, flen, "set NCCL_IB_HCA to devices that exist "
			 "(ibv_devices), or unset it");
	} else {
		snprintf(fix, flen, "give the pod its RDMA device (the RDMA/"
			 "SR-IOV device plugin's resource) or run where "
			 "ib_doctor passes steps 1-2");
		if (!j->here)
			snprintf(why, wlen, "NCCL found no usable IB device on "
				 "%s (run ib_doctor there for why)",
				 j->l->host[0] ? j->l->host : "its host");
		else if (!host_uverbs(j->c))
			snprintf(why, wlen, "NCCL found no IB device: this "
				 "pod has no /dev/infiniband/uverbs*");
		else if (!host_active_ports(j->c))
			snprintf(why, wlen, "NCCL found no IB device: no RDMA "
				 "port here is ACTIVE");
		else
			snprintf(why, wlen, "NCCL found no IB device although "
				 "this host has ACTIVE ports (the container "
				 "sees them? NCCL_IB_* settings?)");
	}
}

/*
 * A log of one node's ranks whose channels all went via P2P or SHM: the
 * check still fails (it asks what NCCL would use across nodes), but says
 * the log's own traffic crossed no network.
 */
static void intra_clause(const struct nccl_log *l, char *out, size_t len)
{
	out[0] = '\0';
	if (nccl_log_intra_node(l, NULL, 0))
		snprintf(out, len, "; this log's traffic crossed no network "
			 "(every channel inside the node: %lu P2P, %lu SHM)",
			 l->paths[NCCL_PATH_P2P], l->paths[NCCL_PATH_SHM]);
}

static void judge_socket(struct judge *j)
{
	char why[FINDING_TEXT_LEN / 2], fix[FINDING_TEXT_LEN], intra[128];

	socket_reason(j, why, sizeof(why), fix, sizeof(fix));
	intra_clause(j->l, intra, sizeof(intra));
	findings_add(&j->c->rep, STEP, "nccl_net", j->subject, VERDICT_FAIL,
		     "NCCL fell back to Socket: %s (%sSocket on %s)%s", why,
		     j->l->ib_none ? "NET/IB : No device found; " : "",
		     j->l->sockets[0] ? j->l->sockets : "?", intra);
	findings_fix(&j->c->rep, "%s", fix);
}

static void judge_net(struct judge *j)
{
	const struct nccl_log *l = j->l;

	if (l->net == NCCL_NET_SOCKET) {
		judge_socket(j);
	} else if (l->net == NCCL_NET_IB) {
		findings_add(&j->c->rep, STEP, "nccl_net", j->subject,
			     VERDICT_PASS, "NCCL uses IB (%zu HCA port(s))%s%s",
			     l->n_hca, l->collnet[0] ? ", collnet plugin " : "",
			     l->collnet);
	} else if (l->net == NCCL_NET_PLUGIN) {
		findings_add(&j->c->rep, STEP, "nccl_net", j->subject,
			     VERDICT_PASS, "NCCL uses the net plugin '%s' "
			     "(network '%s')%s%s", l->plugin[0] ? l->plugin :
			     l->network, l->network, l->collnet[0] ?
			     ", collnet plugin " : "", l->collnet);
	} else {
		findings_add(&j->c->rep, STEP, "nccl_net", j->subject,
			     VERDICT_WARN, "no 'Using network' line: NCCL did "
			     "not get that far, or NCCL_DEBUG_SUBSYS leaves INIT "
			     "out");
		findings_fix(&j->c->rep, "capture the log with NCCL_DEBUG=INFO "
			     "and the default NCCL_DEBUG_SUBSYS");
	}
}

/* An HCA port NCCL uses, against this host: there, ACTIVE, same link. */
static const char *hca_problem(const struct chk_ctx *c,
			       const struct nccl_hca *h)
{
	const struct inv_dev *d = host_dev(c, h->name);
	size_t i;

	if (!d)
		return "is not on this host";
	for (i = 0; i < d->nports; i++) {
		const struct inv_port *p = &d->ports[i];

		if (p->num != h->port)
			continue;
		if (p->state != 4)
			return "is not ACTIVE here";
		return strcmp(inv_xport_str(p->xport), h->link) && h->link[0] ?
		       "has another link layer here" : NULL;
	}
	return "has no such port here";
}

static void judge_hcas(struct judge *j)
{
	char line[FINDING_TEXT_LEN] = "";
	const char *bad = NULL, *why;
	size_t i, n;

	if (!j->l->n_hca)
		return;
	for (i = 0; i < j->l->n_hca; i++) {
		const struct nccl_hca *h = &j->l->hcas[i];

		why = j->here ? hca_problem(j->c, h) : NULL;
		if (why && !bad)
			bad = why;
		n = strlen(line);
		snprintf(line + n, sizeof(line) - n, "%s%s:%u/%s%s%s",
			 i ? ", " : "", h->name, h->port, h->link,
			 why ? " " : "", why ? why : "");
	}
	findings_add(&j->c->rep, STEP, "nccl_hca", j->subject,
		     bad ? VERDICT_FAIL : j->here ? VERDICT_PASS :
		     VERDICT_SKIP, "NCCL's HCA ports: %s%s", line,
		     j->here ? "" : " (another host's: not compared)");
	if (bad)
		findings_fix(&j->c->rep, "ib_doctor's steps 1-4 on this host "
			     "say what the port lacks");
}

/* The channels' paths: "16 NET/IB/GDRDMA, 8 P2P". */
static void paths_text(const struct nccl_log *l, char *out, size_t len)
{
	size_t n;
	int p;

	out[0] = '\0';
	for (p = 0; p < NCCL_PATH_COUNT; p++) {
		if (!l->paths[p])
			continue;
		n = strlen(out);
		snprintf(out + n, len - n, "%s%lu %s", n ? ", " : "",
			 l->paths[p], nccl_path_name((enum nccl_path)p));
	}
}

static void judge_paths(struct judge *j)
{
	char text[FINDING_TEXT_LEN / 2];
	const struct nccl_log *l = j->l;

	paths_text(l, text, sizeof(text));
	if (!text[0]) {
		findings_add(&j->c->rep, STEP, "nccl_path", j->subject,
			     VERDICT_SKIP, "no 'Channel .. via ..' line: one "
			     "rank, or NCCL_DEBUG_SUBSYS leaves INIT out");
	} else if (l->paths[NCCL_PATH_SOCKET]) {
		findings_add(&j->c->rep, STEP, "nccl_path", j->subject,
			     VERDICT_FAIL, "channels: %s: %lu over TCP "
			     "sockets", text, l->paths[NCCL_PATH_SOCKET]);
		findings_fix(&j->c->rep, "see nccl_net: make NCCL use IB");
	} else if (l->paths[NCCL_PATH_IB]) {
		chk_nccl_gdr(j->c, l, j->subject, j->here, text);
	} else {
		findings_add(&j->c->rep, STEP, "nccl_path", j->subject,
			     VERDICT_PASS, "channels: %s", text);
	}
}

/* The subject of a log: its file's last part, what fits. */
static void log_subject(const char *path, char *out, size_t len)
{
	const char *slash = strrchr(path, '/');
	char raw[FINDING_SUBJECT_LEN];

	snprintf(raw, sizeof(raw), "%s", slash && slash[1] ? slash + 1 :
		 path);
	sanitize_text(out, len, raw, sizeof(raw));
}

/* Does the log's host name this host (NCCL cuts it at the first '.')? */
static bool same_host(const char *log_host, const char *host)
{
	size_t n = strcspn(host, ".\n");

	return log_host[0] && n && strlen(log_host) == n &&
	       !strncmp(log_host, host, n);
}

void chk_nccl_check(struct chk_ctx *c, const struct nccl_log *l,
		    const char *path, const char *host)
{
	char subject[FINDING_SUBJECT_LEN];
	struct judge j = { .c = c, .l = l, .subject = subject };

	log_subject(path, subject, sizeof(subject));
	if (!l->nccl_lines) {
		findings_add(&c->rep, STEP, "nccl_log", subject, VERDICT_FAIL,
			     "no NCCL INFO line in %lu line(s)", l->lines);
		findings_fix(&c->rep, "run the job with NCCL_DEBUG=INFO (NCCL "
			     "writes to stdout, or NCCL_DEBUG_FILE) and give "
			     "that output");
		return;
	}
	j.here = same_host(l->host, host);
	judge_log(&j, host);
	judge_env(&j);
	judge_ib_hca(&j);
	judge_net(&j);
	judge_hcas(&j);
	judge_paths(&j);
}

/* One log file ("-": stdin) into its findings. 0 or -errno, logged. */
static int nccl_file(struct chk_ctx *c, const char *path, const char *host)
{
	bool std = !strcmp(path, "-");
	FILE *f = std ? stdin : fopen(path, "r");
	struct nccl_log *l = malloc(sizeof(*l));
	int ret = -ENOMEM;

	if (l && f) {
		nccl_log_init(l);
		ret = nccl_log_read(l, f);
		if (!ret)
			chk_nccl_check(c, l, std ? "stdin" : path, host);
		else
			bench_err("--nccl-log %s: read error", path);
	} else if (!f) {
		ret = -errno;
		bench_err("--nccl-log %s: %s; give NCCL's log (NCCL_DEBUG="
			  "INFO output) or - for stdin", path, strerror(errno));
	}
	if (f && !std)
		fclose(f);
	free(l);
	return ret;
}

int chk_nccl_files(struct chk_ctx *c, const char *first, char *const *more,
		   int n_more, const char *host)
{
	int i, ret = inv_read(c->root, c->probe, &c->inv), r;

	if (ret) {
		c->rep.lost = true;
		return ret;
	}
	ret = nccl_file(c, first, host);
	for (i = 0; i < n_more; i++) {
		r = nccl_file(c, more[i], host);
		ret = ret ? ret : r;
	}
	return ret;
}
