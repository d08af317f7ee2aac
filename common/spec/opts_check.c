// SPDX-License-Identifier: BSD-2-Clause
/*
 * opts_check - the rules between options, after opts_parse(): what the
 * measure and the verb can do, what needs --oob tcp, duration margins,
 * perftest's -w/-y into our gates, --numa spellings. Each refusal says
 * what was wrong and what to do.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/afile.h"
#include "lib/http.h"
#include "lib/units.h"
#include "spec/budget.h"
#include "spec/opts.h"
#include "spec/opts_rate.h"

/* Placement options into one spelling: --numa auto|off|N. */
static int opts_check_numa(struct bench_cfg *cfg, char *err, size_t err_len)
{
	uint64_t node;

	if (cfg->disable_numa)
		snprintf(cfg->numa, sizeof(cfg->numa), "off");
	else if (cfg->has_numa_node)
		snprintf(cfg->numa, sizeof(cfg->numa), "%llu",
			 (unsigned long long)cfg->numa_node);
	if (!strcmp(cfg->numa, "auto") || !strcmp(cfg->numa, "off") ||
	    !units_parse_u64(cfg->numa, 0, 1023, &node))
		return 0;
	opts_err(err, err_len, "--numa '%s': must be auto, off or a node number",
		 cfg->numa);
	return -EINVAL;
}

/* What only bandwidth or only latency tests can do. */
static int opts_check_measure(const struct bench_cfg *cfg, bool is_bw,
			      char *err, size_t err_len)
{
	const char *what = NULL;

	if (!is_bw && cfg->use_cuda != OPTS_CUDA_HOST)
		what = "--use_cuda (latency tests poll the buffer from the CPU)";
	else if (is_bw && cfg->output == OPTS_OUTPUT_LATENCY)
		what = "--output latency";
	else if (!is_bw && (cfg->output == OPTS_OUTPUT_BW ||
			    cfg->output == OPTS_OUTPUT_MSGRATE))
		what = "--output bandwidth/message_rate";
	if (!what)
		return 0;
	opts_err(err, err_len, "%s is for %s tests: use the ib_*_%s tool",
		 what, is_bw ? "latency" : "bandwidth", is_bw ? "lat" : "bw");
	return -EINVAL;
}

/* What the verb cannot do (the verb table's columns). */
static int opts_check_verb(struct bench_cfg *cfg, const struct bench_desc *d,
			   char *err, size_t err_len)
{
	const struct bench_verb_info *v = bench_verb(d->verb);

	if (cfg->conn_type == OPTS_CONN_UC && !v->uc_ok) {
		opts_err(err, err_len, "-c UC: %s needs RC (UC has no %s)",
			 d->name, v->name);
		return -EINVAL;
	}
	if (v->fixed_size && (cfg->all_sizes ||
			      cfg->size_bytes != d->default_size)) {
		opts_err(err, err_len, "%s moves %u bytes per operation: drop "
			 "-s/--size and -a/--all", d->name, v->fixed_size);
		return -EINVAL;
	}
	return 0;
}

/*
 * Options that need another one (or its absence): each row a rule, its
 * message naming both and what to do. rdma_cm takes the MTU, SL and hop
 * limit from the path it resolves; only --oob tcp sets them by hand.
 */
static int opts_check_needs(const struct bench_cfg *cfg, char *err,
			    size_t err_len)
{
	bool cm = opts_oob(cfg) == OPTS_OOB_CM;
	const struct opts_rule rules[] = {
		{ cm && cfg->has_hop_limit,
		  "-L/--hop_limit: rdma_cm takes the hop limit from the route: "
		  "drop -R/--oob cm to set it" },
		{ cfg->oob == OPTS_OOB_TCP && cfg->rdma_cm,
		  "-R (rdma_cm) and --oob tcp contradict: drop one" },
		{ cfg->oob == OPTS_OOB_TCP && cfg->source_ip[0],
		  "-j/--source_ip: --oob tcp connects from the route's address: "
		  "drop it, or drop --oob tcp" },
		{ cfg->rails[0] && opts_oob(cfg) == OPTS_OOB_CM,
		  "--rails: each rail connects its own device over the TCP "
		  "control channel: drop -R/--oob cm/--source_ip" },
		{ cfg->rails[0] && (cfg->dev_name[0] || cfg->netdev[0]),
		  "--rails names the devices: drop -d/--netdev" },
		{ cfg->rails[0] && (afile_is_stdout(cfg->json_path) ||
				    afile_is_stdout(cfg->junit_path) ||
				    afile_is_stdout(cfg->prom_path) ||
				    afile_is_stdout(cfg->summary_path)),
		  "--rails writes the node's document to files only: name a "
		  "file instead of -" },
		{ cfg->expect_node_gbps > 0 && !cfg->rails[0],
		  "--expect-node-gbps gates the sum over --rails: add --rails "
		  "auto (or a list), or use --expect-gbps for one link" },
		{ cfg->use_cuda == OPTS_CUDA_AUTO && cfg->cuda_bus_id[0],
		  "--use_cuda auto picks the GPU itself: drop "
		  "--use_cuda_bus_id, or name the GPU with it and drop auto" },
		{ cfg->odp && cfg->conn_type == OPTS_CONN_UC,
		  "--odp with -c UC: on-demand paging is not for UC (perftest "
		  "refuses it too): use -c RC, or drop --odp" },
		{ cfg->odp && opts_wants_gpu(cfg),
		  "--odp with --use_cuda: GPU memory is registered through "
		  "peermem or dmabuf, never on demand: drop one" },
		{ cfg->mmap_path[0] && opts_wants_gpu(cfg),
		  "--mmap and --use_cuda: the buffers are either the file's "
		  "pages or GPU memory (perftest refuses both too): drop one" },
		{ cfg->cuda_mem_type && cfg->use_cuda == OPTS_CUDA_HOST,
		  "--cuda_mem_type is for --use_cuda runs: add --use_cuda N" },
		{ cfg->use_srq && cfg->validate && cfg->qps > 1,
		  "--use-srq with --validate and -q 2 or more: a message lands "
		  "in whichever QP's receive the SRQ hands out, so its pattern "
		  "cannot be told: use -q 1, or drop one of the two" },
		{ cfg->cuda_mem_type,
		  "--cuda_mem_type: only 0 (device memory, cuMemAlloc) is "
		  "supported: use 0, or perftest for managed (1) or malloc (4) "
		  "memory" },
	};

	return opts_rules_check(rules, sizeof(rules) / sizeof(rules[0]), err,
				err_len);
}

/* An MTU perftest's set_mtu() knows; another is the port's active MTU. */
static bool opts_mtu_known(uint64_t mtu)
{
	return mtu >= 256 && mtu <= 4096 && !(mtu & (mtu - 1));
}

/*
 * What perftest takes and ignores (issue 26: what perftest accepts, we
 * accept, with its meaning): the value dropped where it would change
 * something, a note for the header's " Changes nothing" line. Each row:
 * given, ignored in this run, the note; then the fields it clears.
 */
static void opts_check_ignored_rows(struct bench_cfg *cfg, bool is_bw,
				    bool srv, bool cm)
{
	const struct { bool hit; const char *note;
	} rows[] = {
		{ cfg->noop_xchg,
		  "--dont_xchg_versions (the HELLO always "
		  "carries and checks rdmabench's wire version)" },
		{ cfg->report_both && !cfg->bidir && !srv,
		  "--report-both "
		  "(without -b there is one figure)" },
		{ cfg->has_margin && !cfg->duration_s && !cfg->run_infinitely,
		  "-f/--margin (a margin is of a -D run)" },
		{ cm && cfg->has_mtu, "-m/--mtu (rdma_cm takes the path MTU)" },
		{ cfg->has_mtu && !opts_mtu_known(cfg->mtu),
		  "-m/--mtu (not "
		  "256..4096: the port's active MTU, as perftest)" },
		{ cm && cfg->has_sl, "-S/--sl (rdma_cm takes the SL from the "
				     "path)" },
		{ cm && cfg->has_flow_label, "--flow_label (rdma_cm takes the "
					     "path's)" },
		{ cm && cfg->has_pkey_index,
		  "--pkey_index (rdma_cm takes the "
		  "P_Key of the address's interface)" },
		{ cm && cfg->dlid, "--dlid (rdma_cm resolves the path)" },
		{ cfg->dlid > 0xffff, "--dlid past 16 bits (its low 16 bits, "
		  "as perftest; 0 is the peer's LID)" },
		{ cfg->flow_label > 0xfffff,
		  "--flow_label past 20 bits (its low "
		  "20 bits, the GRH's field, are used)" },
		{ cfg->has_post_list && !cfg->post_list,
		  "-l/--post_list 0 "
		  "(one WR a post, as -l 1)" },
		{ cfg->cpu_util && !cfg->duration_s && !cfg->run_infinitely,
		  "--cpu_util (works only with -D, as perftest)" },
		{ cfg->reversed && !is_bw,
		  "--reversed (a latency test's round trips are the same "
		  "whichever side starts them)" },
		{ cfg->reversed && is_bw && cfg->bidir && !srv,
		  "--reversed (with -b both sides send)" },
		{ cfg->reversed && is_bw && srv,
		  "--reversed on the server (the client's request says "
		  "which side sends)" },
		{ cfg->report_cycles && cfg->duration_s,
		  "-C/--report-cycles (-D's t_avg is in usec, as perftest's)" },
		{ srv && cfg->latency_gap_us, "--latency_gap (the client's "
					      "gap paces the samples)" },
		{ cfg->has_inline_recv,
		  "--inline_recv (no inline receive "
		  "is requested: receives land in the registered buffer)" },
		{ cfg->use_hugepages && opts_wants_gpu(cfg),
		  "--use_hugepages (the buffers are GPU memory: --use_cuda)" },
		{ cfg->use_hugepages && cfg->mmap_path[0],
		  "--use_hugepages (the buffers are --mmap's file pages)" },
		{ cfg->has_mmap_offset && !cfg->mmap_path[0],
		  "--mmap-offset (an offset in --mmap's file: none given)" },
		{ !is_bw && cfg->has_post_list && cfg->post_list == 1,
		  "-l/--post_list (a latency sample is one WR)" },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].hit)
			opts_note(cfg, rows[i].note);
}

/*
 * -p as perftest reads it: an int whose low 16 bits are the port (htons
 * of it, and getaddrinfo's service). 0: a server listens on a port the
 * kernel picks and says which; a client is told at run time to give the
 * server's (driver.c).
 */
static void opts_check_port(struct bench_cfg *cfg)
{
	uint64_t port = cfg->tcp_port & 0xffff;
	char note[96];

	if (port == cfg->tcp_port)
		return;
	snprintf(note, sizeof(note), "-p/--port %llu (TCP port %llu: its "
		 "low 16 bits, as perftest)",
		 (unsigned long long)cfg->tcp_port, (unsigned long long)port);
	opts_note(cfg, note);
	cfg->tcp_port = port;
}

/*
 * -c DC, SRD, XRC: perftest's refusals at its parse (its
 * force_dependecies), both sides; what it takes is refused at run time
 * (opts_check_conn_built).
 */
static int opts_check_conn_rules(const struct bench_cfg *cfg,
				 const struct bench_desc *d, char *err,
				 size_t err_len)
{
	uint64_t c = cfg->conn_type;
	const struct opts_rule rules[] = {
		{ c > OPTS_CONN_UD && cfg->rdma_cm,
		  "-R: perftest's DC, SRD and XRC QPs are not connected by "
		  "rdma_cm: drop -R" },
		{ c == OPTS_CONN_SRD && d->verb != BENCH_VERB_SEND &&
		  d->verb != BENCH_VERB_READ,
		  "-c SRD carries sends and reads only: use ib_send_* or "
		  "ib_read_*, or another -c" },
		{ c == OPTS_CONN_SRD && cfg->events,
		  "-c SRD has no completion events in perftest: drop -e" },
		{ c == OPTS_CONN_DC && cfg->old_post_send,
		  "-c DC posts with perftest's ibv_wr_* API: drop "
		  "--use_old_post_send" },
	};

	return opts_rules_check(rules, sizeof(rules) / sizeof(rules[0]), err,
				err_len);
}

/*
 * -O, --report-per-port, -g: perftest's refusals at its parse, so what it
 * refuses we refuse; what it takes is refused at run time
 * (opts_check_built).
 */
static int opts_check_port_rules(const struct bench_cfg *cfg, char *err,
				 size_t err_len)
{
	const struct opts_rule rules[] = {
		{ cfg->dualport && cfg->mcg,
		  "-O with -g: perftest's dual-port mode has no multicast: "
		  "drop one" },
		{ (cfg->dualport || cfg->mcg) && cfg->rdma_cm,
		  "-R: perftest connects neither dual-port (-O) nor multicast "
		  "(-g) QPs through rdma_cm: drop -R" },
		{ cfg->report_per_port && (!cfg->dualport || !cfg->duration_s),
		  "--report-per-port needs -O and -D, as perftest's: add them "
		  "or drop it" },
		{ cfg->mcg && cfg->bidir,
		  "-g with -b: perftest's multicast is one way: drop -b" },
		{ cfg->mcg && cfg->qps > 1,
		  "-g with -q above 1: perftest's multicast has one QP: "
		  "drop -q" },
	};

	return opts_rules_check(rules, sizeof(rules) / sizeof(rules[0]), err,
				err_len);
}

/* -O and -g (each taken only by the tools perftest takes it in). */
static int opts_check_built_modes(const struct bench_cfg *cfg,
				  const struct bench_desc *d, char *why,
				  size_t len)
{
	if (cfg->dualport) {
		snprintf(why, len, "-O: dual-port mode (half the QPs on "
			 "port 2 of one device) is not built in rdmabench: "
			 "run one pair per port (-i 1 -p P1, -i 2 -p P2), or "
			 "use perftest's %s -O on a two-port device", d->name);
		return -EOPNOTSUPP;
	}
	if (cfg->mcg) {
		snprintf(why, len, "-g: multicast (the server's QPs joined "
			 "to a group the client sends to) is not built in "
			 "rdmabench: use -c UD for one peer, or perftest's %s "
			 "-g (on InfiniBand it joins the group through the SM)",
			 d->name);
		return -EOPNOTSUPP;
	}
	return 0;
}

int opts_check_built(const struct bench_cfg *cfg, const struct bench_desc *d,
		     char *why, size_t len)
{
	static const char *const needs[] = {
		[OPTS_CONN_DC] = "DC (Dynamically Connected) QPs are mlx5's, "
				 "made through mlx5dv",
		[OPTS_CONN_SRD] = "SRD (Scalable Reliable Datagram) QPs are "
				  "EFA's, made through efadv",
		[OPTS_CONN_XRC] = "XRC QPs need an XRC domain and SRQs",
	};
	static const char *const where[] = {
		[OPTS_CONN_DC] = "an mlx5 device",
		[OPTS_CONN_SRD] = "an EFA device",
		[OPTS_CONN_XRC] = "a device with XRC (ibv_devinfo -v: XRC in "
				  "its capabilities)",
	};
	uint64_t c = cfg->conn_type;

	if (c <= OPTS_CONN_UD || c > OPTS_CONN_XRC)
		return opts_check_built_modes(cfg, d, why, len);
	snprintf(why, len, "-c %s: rdmabench builds RC, UC and UD QPs; %s: "
		 "use perftest's %s -c %s on %s, or -c RC",
		 opts_conn_name(c), needs[c], d->name, opts_conn_name(c),
		 where[c]);
	return -EOPNOTSUPP;
}

/* The notes, then the fields that would change something dropped. */
static void opts_check_ignored(struct bench_cfg *cfg, bool is_bw)
{
	bool srv = opts_is_server(cfg), cm;

	if (srv && cfg->source_ip[0]) { /* before cm: it would make it cm */
		opts_note(cfg, "-j/--source_ip (the server listens on every "
			  "address)");
		cfg->source_ip[0] = '\0';
	}
	cm = opts_oob(cfg) == OPTS_OOB_CM;
	opts_check_ignored_rows(cfg, is_bw, srv, cm);
	if (cm || (cfg->has_mtu && !opts_mtu_known(cfg->mtu)))
		cfg->has_mtu = false;
	if (cm)
		cfg->has_sl = false;
	if (srv)
		cfg->latency_gap_us = 0;
	if (!cfg->post_list)
		cfg->post_list = 1;
	if (!cfg->duration_s && !cfg->run_infinitely) /* the wire has it */
		cfg->margin_s = 0;
}

/*
 * The files asked for: none a directory, no two the same (issue #24: the
 * last write won, or two documents shared one stream). perftest's
 * --out_json_file only when named: its default is run/'s.
 */
int opts_check_outputs(const struct bench_cfg *cfg, char *err,
		       size_t err_len)
{
	const struct afile_opt outs[] = {
		{ "--json", cfg->json_path },
		{ "--junit", cfg->junit_path },
		{ "--prom", cfg->prom_path },
		{ "--summary", cfg->summary_path },
		{ "--out_json_file", cfg->out_json_path },
	};
	struct http_url u;

	if (cfg->push_url[0] &&
	    http_url_parse(cfg->push_url, &u, err, err_len))
		return -EINVAL;
	if (cfg->prom_textfile[0] && afile_is_stdout(cfg->prom_textfile)) {
		snprintf(err, err_len, "--prom-textfile names a directory "
			 "(node_exporter's --collector.textfile.directory), "
			 "not -: use --prom - for the text on stdout");
		return -EINVAL;
	}
	return afile_check_set(outs, sizeof(outs) / sizeof(outs[0]), err,
			       err_len);
}

/* Does tool d post its receives in lists (a send bandwidth test)? */
static bool opts_posts_recv_lists(const struct bench_desc *d)
{
	return d->measure == BENCH_MEASURE_BW &&
	       bench_verb(d->verb)->bw_end == BENCH_END_RECV;
}

/* --recv_post_list where no list is posted: noted, and not sent. */
static void opts_recv_ignored(struct bench_cfg *cfg,
			      const struct bench_desc *d)
{
	opts_note(cfg, bench_verb(d->verb)->bw_end == BENCH_END_RECV ?
		  "--recv_post_list (a latency sample is one receive)" :
		  "--recv_post_list (this tool posts no receives)");
	cfg->recv_post_list = 0;
}

/*
 * --recv_post_list N, perftest's meaning: a send test's receives posted
 * in lists of N. Bandwidth tests only; in iteration mode -n must be a
 * multiple of N (perftest refuses the rest too); a list must fit in the
 * receive queue (-r), or none is ever posted. 0 is 1, and a tool that
 * posts no receives takes it and ignores it, as perftest's parser does.
 */
static int opts_check_recv_list(struct bench_cfg *cfg,
				const struct bench_desc *d, char *err,
				size_t err_len)
{
	bool is_bw = d->measure == BENCH_MEASURE_BW;
	unsigned long long n = cfg->recv_post_list;

	if (!cfg->has_recv_post_list)
		return 0;
	if (!n) {
		opts_note(cfg, "--recv_post_list 0 (one receive a post, as 1)");
		n = cfg->recv_post_list = 1;
	}
	if (!is_bw && n > 1) {
		opts_err(err, err_len, "--recv_post_list %llu: a receive post "
			 "list is for bandwidth tests (perftest's latency tools "
			 "refuse it too): use the ib_*_bw tool, or drop it", n);
		return -EINVAL;
	}
	if (!cfg->duration_s && cfg->iters % n) {
		opts_err(err, err_len, "-n %llu is not a multiple of "
			 "--recv_post_list %llu (perftest refuses it too): give "
			 "-n a multiple of it, or run -D",
			 (unsigned long long)cfg->iters, n);
		return -EINVAL;
	}
	if (opts_posts_recv_lists(d) && n > cfg->rx_depth) {
		opts_err(err, err_len, "--recv_post_list %llu exceeds -r %llu: "
			 "a list must fit in the receive queue: raise -r or "
			 "lower --recv_post_list", n,
			 (unsigned long long)cfg->rx_depth);
		return -EINVAL;
	}
	if (!opts_posts_recv_lists(d)) /* perftest parses it, no list */
		opts_recv_ignored(cfg, d);
	return 0;
}

/* Duration modes: -D, -f, --run_infinitely. */
static int opts_check_duration(struct bench_cfg *cfg, char *err,
			       size_t err_len)
{
	if (cfg->run_infinitely && !cfg->duration_s)
		cfg->duration_s = 5; /* perftest: a line every 5 s */
	if (!cfg->duration_s)
		return 0;
	if (cfg->all_sizes && opts_is_server(cfg)) { /* perftest's takes it */
		opts_note(cfg, "-a/--all (the client's request sets the "
			  "sizes)");
		cfg->all_sizes = false;
	}
	if (cfg->all_sizes) {
		opts_err(err, err_len, "-a and -D do not mix: give -s with -D");
		return -EINVAL;
	}
	if (!cfg->has_margin)
		cfg->margin_s = cfg->run_infinitely ? 0 : cfg->duration_s / 4;
	if (cfg->duration_s <= 2 * cfg->margin_s) {
		opts_err(err, err_len, "-D %llu with -f %llu leaves nothing to "
			 "measure: -D must exceed twice the margin",
			 (unsigned long long)cfg->duration_s,
			 (unsigned long long)cfg->margin_s);
		return -EINVAL;
	}
	return 0;
}

/*
 * -l N on a bandwidth tool, perftest's rule: without -Q the CQ is
 * moderated at N, one signaled request a list ("Post List requested -
 * CQ moderation will be the size of the post list"); with -Q, N must be
 * a multiple of it (perftest refuses the rest).
 */
static int opts_check_post_list(struct bench_cfg *cfg, bool is_bw,
				char *err, size_t err_len)
{
	if (!is_bw || cfg->post_list <= 1)
		return 0;
	if (!cfg->has_cq_mod) {
		cfg->cq_mod = cfg->post_list;
		return 0;
	}
	if (cfg->post_list % cfg->cq_mod == 0)
		return 0;
	opts_err(err, err_len, "-l %llu with -Q %llu: a post list must be a "
		 "multiple of the CQ moderation (perftest refuses it too): "
		 "drop -Q (one completion a list) or give a divisor of -l",
		 (unsigned long long)cfg->post_list,
		 (unsigned long long)cfg->cq_mod);
	return -EINVAL;
}

int opts_check(struct bench_cfg *cfg, const struct bench_desc *desc,
	       char *err, size_t err_len)
{
	bool is_bw = desc->measure == BENCH_MEASURE_BW;
	int ret;

	if (!is_bw && cfg->post_list > 1) {
		opts_err(err, err_len, "-l/--post_list %llu: a post list is for "
			 "bandwidth tests (perftest's latency tools refuse it "
			 "too): use the ib_*_bw tool, or drop -l",
			 (unsigned long long)cfg->post_list);
		return -EINVAL;
	}
	/* both sides, as perftest's: a UD server of writes serves no one */
	if (cfg->conn_type == OPTS_CONN_UD && desc->verb != BENCH_VERB_SEND) {
		opts_err(err, err_len, "-c UD: %s needs %s (UD carries sends "
			 "only: ib_send_bw, ib_send_lat)", desc->name,
			 bench_verb(desc->verb)->uc_ok ? "RC or UC" : "RC");
		return -EINVAL;
	}
	opts_check_ignored(cfg, is_bw);
	opts_check_port(cfg);
	/* perftest's --run_infinitely replaces -a's mode, before any check */
	if (cfg->all_sizes && cfg->run_infinitely) {
		opts_note(cfg, "-a/--all (--run_infinitely runs one size, "
			  "-s's, as perftest's: its mode replaces -a's)");
		cfg->all_sizes = false;
	}
	ret = opts_check_numa(cfg, err, err_len);
	if (!ret && !opts_is_server(cfg))
		ret = opts_check_measure(cfg, is_bw, err, err_len);
	if (!ret && !opts_is_server(cfg))
		ret = opts_check_verb(cfg, desc, err, err_len);
	if (!ret)
		ret = opts_check_duration(cfg, err, err_len);
	if (!ret)
		ret = opts_check_rate(cfg, desc, err, err_len);
	if (!ret)
		ret = opts_check_recv_list(cfg, desc, err, err_len);
	if (!ret)
		ret = opts_check_post_list(cfg, is_bw, err, err_len);
	if (!ret)
		ret = opts_check_needs(cfg, err, err_len);
	if (!ret)
		ret = opts_check_outputs(cfg, err, err_len);
	if (!ret)
		ret = budget_of_cfg(cfg, (struct budget[BUDGET_KINDS]){ 0 },
				    err, err_len);
	if (ret)
		return ret;
	ret = opts_check_conn_rules(cfg, desc, err, err_len);
	if (!ret)
		ret = opts_check_port_rules(cfg, err, err_len);
	if (ret)
		return ret;
	if (cfg->conn_type != OPTS_CONN_RC && cfg->conn_type <= OPTS_CONN_UD &&
	    opts_oob(cfg) == OPTS_OOB_CM && !opts_is_server(cfg)) {
		opts_err(err, err_len, "-c %s: rdma_cm connects RC QPs only: "
			 "drop -R/--oob cm for %s (--oob tcp, the default's "
			 "path, exchanges the QPs)",
			 opts_conn_name(cfg->conn_type),
			 opts_conn_name(cfg->conn_type));
		return -EINVAL;
	}
	if (cfg->post_list > cfg->tx_depth) {
		opts_err(err, err_len, "-l %llu exceeds -t %llu: a post list "
			 "must fit in the send queue",
			 (unsigned long long)cfg->post_list,
			 (unsigned long long)cfg->tx_depth);
		return -EINVAL;
	}
	/* perftest's -w is in the report's unit: MiB/s unless --report_gbits */
	if (cfg->limit_bw > 0) {
		double gbps = cfg->report_gbits ? cfg->limit_bw :
			      cfg->limit_bw * 1048576.0 * 8 / 1e9;

		if (gbps > cfg->expect_gbps)
			cfg->expect_gbps = gbps;
	}
	if (cfg->limit_msgrate > cfg->expect_mpps)
		cfg->expect_mpps = cfg->limit_msgrate;
	return 0;
}
