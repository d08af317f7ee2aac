// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_pod - step 9 of ib_doctor: inside a Kubernetes pod, which
 * interface is the RDMA one. Multus writes the pod's networks into the
 * k8s.v1.cni.cncf.io/network-status annotation (seen in the pod through a
 * downward-API file); the SR-IOV device plugin passes the allocated PCI
 * functions as PCIDEVICE_<RESOURCE>=BDF,... A pod whose only network is
 * the default one, or whose VF has no RDMA device, has no RDMA path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/chk.h"
#include "lib/json_read.h"

#define POD_STATUS_DEFAULT "/etc/podinfo/network-status"
#define POD_ANNOTATION "k8s.v1.cni.cncf.io/network-status=\""
#define POD_FILE_MAX (64 * 1024)
#define POD_TOKENS_MAX 2048

static const char *pod_env(const struct chk_ctx *c, const char *name)
{
	size_t len = strlen(name);
	char *const *e;

	for (e = c->envp; e && *e; e++)
		if (!strncmp(*e, name, len) && (*e)[len] == '=')
			return *e + len + 1;
	return NULL;
}

static bool pod_has_pcidevice(const struct chk_ctx *c)
{
	char *const *e;

	for (e = c->envp; e && *e; e++)
		if (!strncmp(*e, "PCIDEVICE_", 10))
			return true;
	return false;
}

/*
 * The JSON inside buf: the file is the annotation's value when the volume
 * item selects that one annotation, or "key=\"escaped\"" lines when it
 * holds all of them (Go %q quoting: \" and \\ and \n).
 */
static char *pod_json_text(char *buf)
{
	char *start = strstr(buf, POD_ANNOTATION), *s, *o;

	if (!start)
		return buf + strspn(buf, " \t\r\n");
	start += strlen(POD_ANNOTATION);
	for (s = o = start; *s && *s != '"'; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*o++ = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
	return start;
}

struct pod_net {
	char name[96], ifname[PROBE_IFNAME_LEN], rdma_dev[INV_NAME_LEN];
	char ips[160];
	bool is_default;
};

/* The fields of network-status entry tok[e] that matter here. */
static void pod_net_read(const char *js, const struct json_read_tok *t, int n,
			 int e, struct pod_net *pn)
{
	int v, ips, di, pci;
	unsigned int k;
	size_t off = 0;
	char ip[64];

	memset(pn, 0, sizeof(*pn));
	if ((v = json_read_get(js, t, n, e, "name")) >= 0)
		json_read_str(js, &t[v], pn->name, sizeof(pn->name));
	if ((v = json_read_get(js, t, n, e, "interface")) >= 0)
		json_read_str(js, &t[v], pn->ifname, sizeof(pn->ifname));
	if ((v = json_read_get(js, t, n, e, "default")) >= 0)
		pn->is_default = json_read_true(js, &t[v]);
	ips = json_read_get(js, t, n, e, "ips");
	for (k = 0; ips >= 0 && (v = json_read_elem(t, n, ips, k)) >= 0; k++)
		if (json_read_str(js, &t[v], ip, sizeof(ip)) &&
		    off < sizeof(pn->ips))
			off += (size_t)snprintf(pn->ips + off,
						sizeof(pn->ips) - off, "%s%s",
						k ? ", " : "", ip);
	di = json_read_get(js, t, n, e, "device-info");
	pci = json_read_get(js, t, n, di, "pci");
	if ((v = json_read_get(js, t, n, pci, "rdma-device")) >= 0)
		json_read_str(js, &t[v], pn->rdma_dev, sizeof(pn->rdma_dev));
}

static bool pod_have_dev(const struct chk_ctx *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->inv.ndev; i++)
		if (!strcmp(c->inv.devs[i].name, name))
			return true;
	return false;
}

/* One secondary network: is there an RDMA device behind its interface? */
static void pod_net_verdict(struct chk_ctx *c, const struct pod_net *pn)
{
	const struct inv_dev *d = NULL;
	const struct inv_port *p = inv_port_of(&c->inv, pn->ifname,
							 &d);
	const char *sub = pn->ifname[0] ? pn->ifname : "?";

	if (pn->rdma_dev[0] && !pod_have_dev(c, pn->rdma_dev)) {
		findings_add(&c->rep, 9, "pod_network", sub, VERDICT_FAIL,
			   "network %s names RDMA device %s for %s, but the "
			   "pod does not see it", pn->name, pn->rdma_dev, sub);
		findings_fix(&c->rep, "request the device plugin resource of "
			   "this network in resources.limits (the NAD's "
			   "k8s.v1.cni.cncf.io/resourceName)");
	} else if (p) {
		findings_add(&c->rep, 9, "pod_network", sub, VERDICT_PASS,
			   "%s (%s, network %s) is the RDMA interface: %s port "
			   "%u; connect rdma_cm to this IP", sub, pn->ips,
			   pn->name, d->name, p->num);
	} else {
		findings_add(&c->rep, 9, "pod_network", sub, VERDICT_WARN,
			   "%s (%s, network %s) has no RDMA device: rdma_cm "
			   "over it fails", sub, pn->ips, pn->name);
		findings_fix(&c->rep, "attach an RDMA network (SR-IOV with "
			   "isRdma, host-device, or macvlan with the RDMA "
			   "shared device plugin) and request its resource");
	}
}

static void pod_nets(struct chk_ctx *c, const char *js,
		     const struct json_read_tok *t, int n)
{
	struct pod_net pn;
	unsigned int k, secondary = 0;
	int e;

	for (k = 0; (e = json_read_elem(t, n, 0, k)) >= 0; k++) {
		pod_net_read(js, t, n, e, &pn);
		if (pn.is_default)
			continue;
		secondary++;
		pod_net_verdict(c, &pn);
	}
	if (!secondary) {
		findings_add(&c->rep, 9, "pod_network", "pod", VERDICT_WARN,
			   "only the default pod network: rdma_cm needs the "
			   "IP of an RDMA netdev, and a Service name resolves "
			   "to the default one");
		findings_fix(&c->rep, "add the RDMA network to the pod: "
			   "annotation k8s.v1.cni.cncf.io/networks: <NAD>");
	}
}

/* Read, unwrap and tokenize the network-status file; findings on error. */
static void pod_status_file(struct chk_ctx *c, const char *path,
			    bool explicit_path)
{
	char *buf = malloc(POD_FILE_MAX), *js;
	struct json_read_tok *t = calloc(POD_TOKENS_MAX, sizeof(*t));
	int n, ret;

	ret = buf && t ? 0 : -ENOMEM;
	if (!ret)
		ret = fs_read(explicit_path ? "" : c->root, buf, POD_FILE_MAX,
			       "%s", path);
	if (ret) {
		findings_add(&c->rep, 9, "pod_network", "pod", VERDICT_FAIL,
			   "cannot read %s: %s", path, strerror(-ret));
		findings_fix(&c->rep, "mount the network-status annotation with "
			   "a downward-API volume, or fix --network-status");
		goto out;
	}
	js = pod_json_text(buf);
	n = json_read_parse(js, strlen(js), t, POD_TOKENS_MAX);
	if (n <= 0 || t[0].type != JSON_READ_ARRAY) {
		findings_add(&c->rep, 9, "pod_network", "pod", VERDICT_WARN,
			   "%s is not a network-status JSON list", path);
		findings_fix(&c->rep, "the downward-API item must be "
			   "metadata.annotations['k8s.v1.cni.cncf.io/"
			   "network-status']");
		goto out;
	}
	pod_nets(c, js, t, n);
out:
	free(buf);
	free(t);
}

/* One PCI function from PCIDEVICE_*: its RDMA device and netdev. */
static void pod_vf(struct chk_ctx *c, const char *var, const char *bdf)
{
	char **ib;
	size_t n, i;
	unsigned int p;

	if (!fs_exists(c->root, "/sys/bus/pci/devices/%s", bdf)) {
		findings_add(&c->rep, 9, "sriov", bdf, VERDICT_WARN,
			   "%s names %s, which /sys/bus/pci/devices does not "
			   "show", var, bdf);
		findings_fix(&c->rep, "mount /sys from the host (the default), "
			   "or check the device plugin's config");
		return;
	}
	fs_list(c->root, &ib, &n, "/sys/bus/pci/devices/%s/infiniband", bdf);
	if (!n) {
		findings_add(&c->rep, 9, "sriov", bdf, VERDICT_FAIL,
			   "%s: %s has no RDMA device", var, bdf);
		findings_fix(&c->rep, "set \"isRdma\": true in the SR-IOV device "
			   "plugin's selector for this resource (and enable "
			   "RoCE on the VFs)");
	}
	for (i = 0; i < n; i++) {
		const char *nd = "";

		for (p = 0; p < c->inv.ndev; p++)
			if (!strcmp(c->inv.devs[p].name, ib[i]) &&
			    c->inv.devs[p].nports)
				nd = c->inv.devs[p].ports[0].netdev;
		findings_add(&c->rep, 9, "sriov", bdf, VERDICT_PASS,
			   "%s: %s is RDMA device %s%s%s", var, bdf, ib[i],
			   nd[0] ? ", netdev " : "", nd);
	}
	free(ib);
}

static void pod_pcidevices(struct chk_ctx *c)
{
	char var[128], list[512], *save, *bdf;
	char *const *e;
	const char *eq;

	for (e = c->envp; e && *e; e++) {
		eq = strchr(*e, '=');
		if (strncmp(*e, "PCIDEVICE_", 10) || !eq ||
		    (size_t)(eq - *e) >= sizeof(var))
			continue;
		snprintf(var, sizeof(var), "%.*s", (int)(eq - *e), *e);
		/* PCIDEVICE_X_INFO is the JSON twin of PCIDEVICE_X */
		if (strlen(var) > 5 && !strcmp(var + strlen(var) - 5, "_INFO"))
			continue;
		fs_copy(list, sizeof(list), eq + 1);
		for (bdf = strtok_r(list, ",", &save); bdf;
		     bdf = strtok_r(NULL, ",", &save))
			pod_vf(c, var, bdf);
	}
}

void chk_pod_check(struct chk_ctx *c)
{
	const char *path = c->netstatus ? c->netstatus : POD_STATUS_DEFAULT;
	bool have_file = c->netstatus || fs_exists(c->root, "%s", path);
	bool in_pod = pod_env(c, "KUBERNETES_SERVICE_HOST") || have_file ||
		      pod_has_pcidevice(c);

	if (!in_pod) {
		findings_add(&c->rep, 9, "pod_network", "-", VERDICT_SKIP,
			   "not in a Kubernetes pod (no "
			   "KUBERNETES_SERVICE_HOST, %s or PCIDEVICE_*)",
			   POD_STATUS_DEFAULT);
		return;
	}
	if (have_file)
		pod_status_file(c, path, c->netstatus != NULL);
	else
		findings_add(&c->rep, 9, "pod_network", "pod", VERDICT_SKIP,
			   "in a pod, but no %s to tell the RDMA interface by "
			   "(mount the network-status annotation there with "
			   "the downward API, or pass --network-status FILE)",
			   POD_STATUS_DEFAULT);
	pod_pcidevices(c);
}
