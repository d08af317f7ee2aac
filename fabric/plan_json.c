// SPDX-License-Identifier: BSD-2-Clause
/* plan_json - the plan as JSON (see plan_json.h). */
#include "fabric/plan_json.h"

#include "lib/json.h"

static void argv_array(struct json_writer *w, const char *key,
		       const char *const *argv)
{
	json_kv_array_begin(w, key);
	for (unsigned int i = 0; argv[i]; i++)
		json_string(w, argv[i]);
	json_array_end(w);
}

static int link_json(struct json_writer *w, const struct plan_link *l,
		     const struct linkcmd_ctx *x)
{
	struct linkcmd srv, cli;
	char file[HOSTLIST_NAME_LEN * 2 + 32];
	int err = linkcmd_build(&srv, x, l, true);

	err = err ? err : linkcmd_build(&cli, x, l, false);
	err = err ? err : linkcmd_file(file, sizeof(file), x->hosts, l);
	if (err)
		return err;
	json_object_begin(w);
	json_kv_u64(w, "round", l->round);
	json_kv_string(w, "client", x->hosts->h[l->client].name);
	json_kv_string(w, "server", x->hosts->h[l->server].name);
	json_kv_u64(w, "stream", l->stream);
	json_kv_u64(w, "port", l->port);
	json_kv_string(w, "result_file", file);
	argv_array(w, "server_command", srv.argv);
	argv_array(w, "client_command", cli.argv);
	return json_object_end(w);
}

static void nodes_json(struct json_writer *w, const struct plan *pl,
		       const struct hostlist *hl)
{
	json_kv_array_begin(w, "nodes");
	for (unsigned int i = 0; i < hl->n; i++) {
		json_object_begin(w);
		json_kv_u64(w, "rank", i);
		json_kv_string(w, "name", hl->h[i].name);
		json_kv_string(w, "address", hostlist_addr(hl, i));
		json_kv_bool(w, "idle", plan_idle(pl, i));
		json_object_end(w);
	}
	json_array_end(w);
}

int plan_json_write(FILE *out, const struct plan *pl,
		    const struct linkcmd_ctx *x, const char *engine)
{
	struct json_writer w;
	int err = 0;

	json_init(&w, out, 2);
	json_object_begin(&w);
	json_kv_u64(&w, "fabric_plan_version", PLAN_JSON_VERSION);
	json_kv_string(&w, "pattern", plan_pattern_name(pl->pattern));
	json_kv_string(&w, "engine", engine);
	json_kv_u64(&w, "streams", pl->streams);
	json_kv_u64(&w, "base_port", pl->base_port);
	json_kv_string(&w, "tool", x->tool);
	json_kv_array_begin(&w, "tool_args");
	for (unsigned int i = 0; i < x->nargs; i++)
		json_string(&w, x->args[i]);
	json_array_end(&w);
	json_kv_u64(&w, "rounds", pl->rounds);
	nodes_json(&w, pl, x->hosts);
	json_kv_array_begin(&w, "links");
	for (unsigned int i = 0; i < pl->nlinks && !err; i++)
		err = link_json(&w, &pl->links[i], x);
	json_array_end(&w);
	json_object_end(&w);
	return err ? err : json_finish(&w);
}
