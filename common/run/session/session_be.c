// SPDX-License-Identifier: BSD-2-Clause
/*
 * session_be - what the backends share (session_ops.h): their state,
 * allocated for their ops; the defaults of the ops a backend leaves
 * NULL, all here; a server listener's --bind.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "run/ctx.h"
#include "run/session/session_ops.h"
#include "spec/trust.h"

static int be_nothing(struct session_be *be)
{
	(void)be;
	return 0;
}

static void be_nothing_void(struct session_be *be)
{
	(void)be;
}

/* What a backend cannot do: said, and -EOPNOTSUPP. */
static int be_cannot(struct session_be *be, const char *what)
{
	bench_err("the %s rendezvous cannot %s", be->ops.name, what);
	return -EOPNOTSUPP;
}

static int be_no_attempt(struct session_be *be, uint64_t deadline_ns)
{
	(void)deadline_ns;
	return be_cannot(be, "connect to a server");
}

static int be_no_connect_data(struct session_be *be)
{
	return be_cannot(be, "connect data QPs");
}

static int be_no_listen(struct session_be *be)
{
	return be_cannot(be, "listen");
}

static int be_no_accept_ctrl(struct session_be *be, uint64_t deadline_ns)
{
	(void)deadline_ns;
	return be_cannot(be, "take a client");
}

static int be_no_accept_data(struct session_be *be)
{
	return be_cannot(be, "take data QPs");
}

static struct session_be *be_self(struct session_be *be)
{
	return be;
}

static const struct session_ops session_be_defaults = {
	.init = be_nothing,
	.fini = be_nothing_void,
	.open = be_nothing,
	.attempt = be_no_attempt,
	.connect_data = be_no_connect_data,
	.listen = be_no_listen,
	.unlisten = be_nothing_void,
	.accept_ctrl = be_no_accept_ctrl,
	.accept_data = be_no_accept_data,
	.handoff = be_self,
};

#define BE_FILL(out, op) \
	((out)->op = (out)->op ? (out)->op : session_be_defaults.op)

/* ops with every NULL op taken from the defaults. */
static void session_be_fill(struct session_ops *out,
			    const struct session_ops *ops)
{
	*out = *ops;
	BE_FILL(out, init);
	BE_FILL(out, fini);
	BE_FILL(out, open);
	BE_FILL(out, attempt);
	BE_FILL(out, connect_data);
	BE_FILL(out, listen);
	BE_FILL(out, unlisten);
	BE_FILL(out, accept_ctrl);
	BE_FILL(out, accept_data);
	BE_FILL(out, handoff);
}

int session_be_new(struct session *s, const struct session_ops *ops,
		   struct session_be **out)
{
	char *state = calloc(1, ops->size);
	struct session_be *be;
	int ret;

	if (!state) {
		bench_err("the %s rendezvous: %s", ops->name, strerror(ENOMEM));
		return -ENOMEM;
	}
	be = (struct session_be *)(state + ops->be_off);
	session_be_fill(&be->ops, ops);
	be->s = s;
	ret = be->ops.init(be);
	if (ret) {
		free(state);
		return ret;
	}
	*out = be;
	return 0;
}

void session_be_free(struct session_be *be)
{
	if (!be)
		return;
	be->ops.fini(be);
	free((char *)be - be->ops.be_off);
}

/* ---- a server listener's --bind ---- */

int session_bind_addr(const struct bench_ctx *b, struct sockaddr_storage *sa,
		      const struct sockaddr **out)
{
	char why[WIRE_TEXT_MAX];
	socklen_t len;
	int ret;

	ret = trust_bind_addr(b->cfg.bind_addr, 0, sa, &len, why, sizeof(why));
	if (ret)
		bench_err("%s", why);
	*out = len ? (const struct sockaddr *)sa : NULL;
	return ret;
}

int session_bind_err(const struct bench_ctx *b, int err)
{
	return b->cfg.bind_addr[0] && (err == -EADDRNOTAVAIL ||
				       err == -ENODEV) ? -EINVAL : err;
}
