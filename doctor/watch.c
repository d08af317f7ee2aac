// SPDX-License-Identifier: BSD-2-Clause
/*
 * watch - the byte proof's snapshots and their arithmetic. See watch.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/watch.h"

/* Where a direction's bytes come from, best first: the PMA's data words,
 * a driver's byte counter, then packets (x the MTU: an estimate). */
static const char *const watch_xmit_src[] = {
	"counters/port_xmit_data", "hw_counters/tx_bytes",
	"hw_counters/sent_pkts", NULL,
};
static const char *const watch_rcv_src[] = {
	"counters/port_rcv_data", "hw_counters/rx_bytes",
	"hw_counters/rcvd_pkts", NULL,
};
static const char *const watch_xmit_pkts[] = {
	"counters/port_xmit_packets", "hw_counters/sent_pkts",
	"hw_counters/tx_pkts", NULL,
};
static const char *const watch_rcv_pkts[] = {
	"counters/port_rcv_packets", "hw_counters/rcvd_pkts",
	"hw_counters/rx_pkts", NULL,
};

/* The port's active MTU in bytes from the probe; 0 when it cannot tell. */
static unsigned int watch_mtu(const struct chk_ctx *c,
			      const struct inv_dev *d,
			      const struct inv_port *p)
{
	struct probe_port_attr a = { 0 };

	if (!c->probe || !c->probe->port_query ||
	    c->probe->port_query(c->probe->priv, d->name, p->num, &a))
		return 0;
	return a.active_mtu_bytes;
}

static void watch_snap_ports(const struct chk_ctx *c, struct watch_snap *s)
{
	struct watch_port_snap *w;
	size_t i, j;

	for (i = 0; i < c->inv.ndev; i++) {
		const struct inv_dev *d = &c->inv.devs[i];

		if (chk_skip_dev(c, d))
			continue;
		for (j = 0; j < d->nports && s->nports < WATCH_PORTS_MAX; j++) {
			w = &s->ports[s->nports++];
			chk_dev_port_subject(w->subject, sizeof(w->subject), d,
					     &d->ports[j]);
			w->mtu = watch_mtu(c, d, &d->ports[j]);
			w->has = !counters_read(c->inv.sysfs, d->name,
						d->ports[j].num, &w->ctr);
		}
	}
}

int watch_snap_read(const struct chk_ctx *c, struct watch_snap *s)
{
	const struct inv_dev *d;
	const struct inv_port *p;
	struct watch_if_snap *w;
	char **names;
	size_t n, i;
	int ret;

	s->nports = s->nifs = 0;
	watch_snap_ports(c, s);
	ret = netstat_list(c->inv.sysfs, &names, &n);
	if (ret)
		return ret;
	for (i = 0; i < n && s->nifs < WATCH_IFS_MAX; i++) {
		w = &s->ifs[s->nifs++];
		fs_copy(w->name, sizeof(w->name), names[i]);
		w->port[0] = '\0';
		p = inv_port_of(&c->inv, names[i], &d);
		if (p)
			chk_dev_port_subject(w->port, sizeof(w->port), d, p);
		w->has = !netstat_read(c->inv.sysfs, names[i], &w->st);
	}
	free(names);
	return 0;
}

/* How far the counter called name moved: 1 moved (*v), 0 absent in
 * either snapshot, -ERANGE reset. */
static int watch_ctr(const struct watch_port_snap *a,
		     const struct watch_port_snap *b, const char *name,
		     uint64_t *v)
{
	uint64_t x, y;

	if (counters_get(&a->ctr, name, &x) || counters_get(&b->ctr, name, &y))
		return 0;
	return counters_moved(x, y, v) ? -ERANGE : 1;
}

/* The first of names both snapshots have: its move into *v, its name. */
static const char *watch_first(const struct watch_port_snap *a,
			       const struct watch_port_snap *b,
			       const char *const *names, uint64_t *v,
			       bool *reset)
{
	int ret;

	for (; *names; names++) {
		ret = watch_ctr(a, b, *names, v);
		*reset = ret < 0;
		if (ret)
			return *names;
	}
	*v = 0;
	return NULL;
}

/* One direction: bytes from the best counter, packets beside them. */
static void watch_dir(const struct watch_port_snap *a,
		      const struct watch_port_snap *b,
		      const char *const *src, const char *const *pkts,
		      struct watch_dir *d)
{
	const struct counters_unit *u;
	uint64_t v;
	bool reset;

	memset(d, 0, sizeof(*d));
	watch_first(a, b, pkts, &d->packets, &reset);
	d->reset = reset;
	d->src = watch_first(a, b, src, &v, &reset);
	d->reset |= reset;
	if (!d->src || reset)
		return;
	u = counters_unit_of(d->src);
	if (strcmp(u->unit, "packets")) {
		d->bytes = v * u->factor;
		return;
	}
	d->estimated = true;
	d->bytes = v * b->mtu;
	if (!b->mtu)
		d->src = NULL; /* packets without an MTU: bytes unknown */
}

/* The counters that moved, "name +N, ..." (counters_diff's order). */
static void watch_moved(const struct watch_port_snap *a,
			const struct watch_port_snap *b, char *out, size_t len)
{
	struct counters_delta *d = calloc(COUNTERS_MAX, sizeof(*d));
	unsigned int n = 0, i;
	size_t used = 0;
	int w;

	out[0] = '\0';
	if (!d)
		return;
	counters_diff(&a->ctr, &b->ctr, d, COUNTERS_MAX, &n);
	for (i = 0; i < n && used < len; i++) {
		if (!d[i].delta)
			continue;
		w = snprintf(out + used, len - used, "%s%s %+" PRId64,
			     used ? ", " : "", d[i].name, d[i].delta);
		used += w > 0 ? (size_t)w : 0;
	}
	free(d);
}

static void watch_port_diff(const struct watch_port_snap *a,
			    const struct watch_port_snap *b,
			    struct watch_port *p)
{
	fs_copy(p->subject, sizeof(p->subject), b->subject);
	p->mtu = b->mtu;
	p->has = a->has && b->has;
	if (!p->has)
		return;
	watch_dir(a, b, watch_xmit_src, watch_xmit_pkts, &p->xmit);
	watch_dir(a, b, watch_rcv_src, watch_rcv_pkts, &p->rcv);
	watch_moved(a, b, p->moved, sizeof(p->moved));
	p->crossed = p->xmit.bytes > p->rcv.bytes ? p->xmit.bytes :
		     p->rcv.bytes;
}

/* The interface called name in s, or NULL. */
static const struct watch_if_snap *watch_if_find(const struct watch_snap *s,
						 const char *name)
{
	unsigned int i;

	for (i = 0; i < s->nifs; i++)
		if (!strcmp(s->ifs[i].name, name))
			return &s->ifs[i];
	return NULL;
}

/* The port called subject in r, or NULL. */
static const struct watch_port *watch_port_find(const struct watch_result *r,
						const char *subject)
{
	unsigned int i;

	for (i = 0; i < r->nports; i++)
		if (!strcmp(r->ports[i].subject, subject))
			return &r->ports[i];
	return NULL;
}

/* Did the port's counters say how many RDMA bytes it moved, and none? */
static bool watch_port_idle(const struct watch_port *p)
{
	return p && p->has && (p->xmit.src || p->rcv.src) &&
	       !p->xmit.bytes && !p->rcv.bytes;
}

static void watch_if_diff(const struct watch_if_snap *a,
			  const struct watch_if_snap *b,
			  struct watch_result *r, struct watch_if *w)
{
	const struct watch_port *p;
	uint64_t tx, rx;

	fs_copy(w->name, sizeof(w->name), b->name);
	fs_copy(w->port, sizeof(w->port), b->port);
	w->reset = counters_moved(a->st.tx_bytes, b->st.tx_bytes, &tx) ||
		   counters_moved(a->st.rx_bytes, b->st.rx_bytes, &rx);
	w->tx_bytes = w->reset ? 0 : tx;
	w->rx_bytes = w->reset ? 0 : rx;
	w->crossed = w->tx_bytes > w->rx_bytes ? w->tx_bytes : w->rx_bytes;
	/* a port's own netdev is TCP when the port moved no RDMA bytes */
	p = w->port[0] ? watch_port_find(r, w->port) : NULL;
	w->port_counts = p && p->has && (p->xmit.src || p->rcv.src);
	w->tcp = !w->port[0] || watch_port_idle(p);
}

/* The totals and the busiest port and TCP interface. */
static void watch_sum(struct watch_result *r)
{
	uint64_t most = 0, b;
	unsigned int i;

	for (i = 0; i < r->nports; i++) {
		b = r->ports[i].crossed;
		r->rdma_bytes += b;
		r->estimated |= r->ports[i].xmit.estimated ||
				r->ports[i].rcv.estimated;
		if (b > most) {
			most = b;
			r->top_port = (int)i;
		}
	}
	for (i = 0, most = 0; i < r->nifs; i++) {
		b = r->ifs[i].crossed;
		if (!r->ifs[i].tcp)
			continue;
		r->tcp_bytes += b;
		if (b > most) {
			most = b;
			r->top_if = (int)i;
		}
	}
}

void watch_diff(const struct watch_snap *before,
		const struct watch_snap *after, struct watch_result *r)
{
	const struct watch_if_snap *a;
	unsigned int i, j;

	memset(r, 0, sizeof(*r));
	r->top_port = r->top_if = -1;
	for (i = 0; i < after->nports; i++)
		for (j = 0; j < before->nports; j++)
			if (!strcmp(before->ports[j].subject,
				    after->ports[i].subject))
				watch_port_diff(&before->ports[j],
						&after->ports[i],
						&r->ports[r->nports++]);
	for (i = 0; i < after->nifs; i++) {
		a = watch_if_find(before, after->ifs[i].name);
		if (a && a->has && after->ifs[i].has)
			watch_if_diff(a, &after->ifs[i], r,
				      &r->ifs[r->nifs++]);
	}
	watch_sum(r);
}
