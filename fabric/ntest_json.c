// SPDX-License-Identifier: BSD-2-Clause
/*
 * ntest_json - one rank's nccl-tests result as a document
 * (results/schema/fabric-nccl-v1.schema.json; see ntest_json.h).
 */
#include "fabric/ntest_json.h"

#include "lib/json.h"

static void half_json(struct json_writer *w, const char *key,
		      const struct ntest_half *h)
{
	if (!h->have) {
		json_kv_null(w, key);
		return;
	}
	json_kv_object_begin(w, key);
	json_kv_double(w, "time_us", h->time_us);
	json_kv_double(w, "algbw_gbps", h->algbw);
	json_kv_double(w, "busbw_gbps", h->busbw);
	if (h->wrong < 0)
		json_kv_null(w, "wrong");
	else
		json_kv_double(w, "wrong", h->wrong);
	json_object_end(w);
}

static void rows_json(struct json_writer *w, const struct ntest_out *o)
{
	json_kv_array_begin(w, "rows");
	for (size_t i = 0; i < o->nrows; i++) {
		const struct ntest_row *r = &o->rows[i];

		json_object_begin(w);
		json_kv_u64(w, "size", r->size);
		json_kv_u64(w, "count", r->count);
		json_kv_string(w, "type", r->type);
		json_kv_string(w, "redop", r->redop);
		json_kv_i64(w, "root", r->root);
		half_json(w, "out_of_place", &r->h[NTEST_OOP]);
		half_json(w, "in_place", &r->h[NTEST_IP]);
		json_object_end(w);
	}
	json_array_end(w);
}

static void transport_json(struct json_writer *w, const struct ntest_out *o,
			   const struct ntest_judgement *j)
{
	const struct nccl_log *l = &o->nccl;

	json_kv_object_begin(w, "transport");
	json_kv_string(w, "net", ntest_net_name(j->net));
	json_kv_string(w, "network", l->network);
	json_kv_string(w, "nccl_version", l->version);
	json_kv_bool(w, "ib_no_device", l->ib_none);
	json_kv_string(w, "sockets", l->sockets);
	json_kv_array_begin(w, "hcas");
	for (size_t i = 0; i < l->n_hca; i++) {
		json_object_begin(w);
		json_kv_string(w, "name", l->hcas[i].name);
		json_kv_u64(w, "port", l->hcas[i].port);
		json_kv_string(w, "link_layer", l->hcas[i].link);
		json_object_end(w);
	}
	json_array_end(w);
	json_kv_object_begin(w, "paths");
	for (int p = 0; p < NCCL_PATH_COUNT; p++)
		json_kv_u64(w, nccl_path_name((enum nccl_path)p), l->paths[p]);
	json_object_end(w);
	json_object_end(w);
}

static void gate_json(struct json_writer *w, const struct ntest_expect *e,
		      const struct ntest_judgement *j)
{
	json_kv_object_begin(w, "gate");
	if (e->busbw > 0)
		json_kv_double(w, "expect_busbw_gbps", e->busbw);
	else
		json_kv_null(w, "expect_busbw_gbps");
	json_kv_string(w, "expect_from", e->from ? e->from : "none");
	json_kv_double(w, "busbw_gbps", j->busbw);
	json_kv_u64(w, "at_size", j->at_size);
	json_kv_u64(w, "large_from", j->large_from);
	json_kv_double(w, "wrong", j->wrong);
	json_object_end(w);
}

static void summary_json(struct json_writer *w, const struct ntest_out *o)
{
	if (o->have_oob)
		json_kv_i64(w, "out_of_bounds", o->oob);
	else
		json_kv_null(w, "out_of_bounds");
	if (o->have_avg)
		json_kv_double(w, "avg_busbw_gbps", o->avg_busbw);
	else
		json_kv_null(w, "avg_busbw_gbps");
	json_kv_bool(w, "concluded", o->concluded);
	json_kv_u64(w, "rows_unread", o->dropped);
}

int ntest_json_write(FILE *out, const struct ntest_doc *d)
{
	struct json_writer w;

	json_init(&w, out, 2);
	json_object_begin(&w);
	json_kv_u64(&w, "fabric_nccl_version", 2);
	json_kv_u64(&w, "rank", d->rank);
	json_kv_u64(&w, "ranks_per_node",
		    d->ranks_per_node ? d->ranks_per_node : 1);
	json_kv_string(&w, "node", d->node);
	json_kv_array_begin(&w, "nodes");
	for (unsigned int i = 0; d->hl && i < d->hl->n; i++)
		json_string(&w, d->hl->h[i].name);
	json_array_end(&w);
	json_kv_string(&w, "engine", d->engine);
	json_kv_string(&w, "program", d->program);
	json_kv_string(&w, "log", d->log);
	json_kv_i64(&w, "exit_status", d->e->exit_status);
	json_kv_string(&w, "test", d->o->test);
	json_kv_string(&w, "nccl_tests_version", d->o->version);
	json_kv_u64(&w, "devices", d->o->ranks);
	json_kv_u64(&w, "gpus_per_process", d->o->ngpus);
	rows_json(&w, d->o);
	summary_json(&w, d->o);
	transport_json(&w, d->o, d->j);
	gate_json(&w, d->e, d->j);
	json_kv_string(&w, "verdict", ntest_verdict_name(d->j->verdict));
	json_kv_string(&w, "reason", d->j->reason);
	json_kv_u64(&w, "exit_code", (uint64_t)d->j->exit_code);
	json_object_end(&w);
	return json_finish(&w);
}
