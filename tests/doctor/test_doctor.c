// SPDX-License-Identifier: BSD-2-Clause
/*
 * ib_doctor's scenarios against the fake roots in tests/fixtures/doctor/
 * (made by make_trees.py there; found through TEST_SRCDIR): each asserts
 * the findings (check, subject, verdict) and the exit code, through the
 * checks and through the command line (--json FILE and --json -).
 */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doctor/doctor.h"
#include "doctor/chk.h"
#include "lib/json.h"
#include "lib/json_read.h"
#include "tests/test.h"
#include "tests/doctor/expect.h"
#include "tests/tree.h"

struct scenario {
	char root[PATH_MAX];
	struct probe probe;
	struct chk_ctx c;
};

/* Run every check on a tree; peer, dev and envp may be NULL. */
static const struct findings *run(struct scenario *s, const char *tree,
				       const char *peer, const char *dev,
				       char *const *envp)
{
	doctor_tree(tree, s->root, sizeof(s->root));
	fake_probe(s->root, &s->probe);
	s->c = (struct chk_ctx){ .root = s->root, .peer = peer,
				    .only_dev = dev, .envp = envp,
				    .probe = &s->probe };
	EXPECT_EQ_INT(cli_run(&s->c), 0);
	return &s->c.rep;
}

/* Count findings with verdict v. */
#define EXPECT_COUNT(rep, v, n) EXPECT_EQ_INT(findings_count((rep), (v)), (n))

/* The whole program on a tree: its exit code (stdout to /dev/null). */
static int cli_root(const char *root, const char *extra1,
		    const char *extra2, char *const *envp)
{
	char *argv[8] = { (char *)"ib_doctor", (char *)"--root", (char *)root };
	FILE *out = fopen("/dev/null", "w");
	int argc = 3, code;

	if (extra1)
		argv[argc++] = (char *)extra1;
	if (extra2)
		argv[argc++] = (char *)extra2;
	code = doctor_cli(argc, argv, envp, NULL, out ? out : stdout);
	if (out)
		fclose(out);
	return code;
}

static int cli(const char *tree, const char *extra1, const char *extra2,
	       char *const *envp)
{
	char root[PATH_MAX];

	return cli_root(doctor_tree(tree, root, sizeof(root)), extra1, extra2,
			envp);
}

static void test_healthy(void)
{
	struct scenario s;
	const struct findings *r = run(&s, "healthy", NULL, NULL, NULL);

	EXPECT_VERDICT(r, "devices", "host", VERDICT_PASS);
	EXPECT_VERDICT(r, "uverbs", "mlx5_0", VERDICT_PASS);
	EXPECT_VERDICT(r, "rdma_cm", "host", VERDICT_PASS);
	EXPECT_VERDICT(r, "provider", "mlx5_0", VERDICT_PASS);
	EXPECT_VERDICT(r, "port_state", "mlx5_0/1", VERDICT_PASS);
	EXPECT_VERDICT(r, "link_speed", "mlx5_0/1", VERDICT_PASS);
	EXPECT_VERDICT(r, "pcie", "mlx5_0", VERDICT_PASS);
	EXPECT_TEXT(r, "pcie", "mlx5_0", 0, "32.0 GT/s x16");
	EXPECT_VERDICT(r, "mtu", "mlx5_0/1", VERDICT_PASS);
	EXPECT_VERDICT(r, "netdev_map", "mlx5_0/1", VERDICT_PASS);
	EXPECT_TEXT(r, "netdev_map", "mlx5_0/1", 0, "ens1np0");
	EXPECT_VERDICT(r, "roce_gid", "mlx5_0/1", VERDICT_PASS);
	EXPECT_TEXT(r, "roce_gid", "mlx5_0/1", 0, "10.0.0.1 GID 3");
	EXPECT_VERDICT(r, "route", "-", VERDICT_SKIP);
	EXPECT_VERDICT(r, "memlock", "host", VERDICT_PASS);
	EXPECT_TEXT(r, "memlock", "host", 0, "the limit does not apply");
	EXPECT_VERDICT(r, "numa", "mlx5_0", VERDICT_PASS);
	EXPECT_VERDICT(r, "numa", "0000:18:00.0", VERDICT_PASS);
	EXPECT_VERDICT(r, "gpudirect", "host", VERDICT_PASS);
	EXPECT_VERDICT(r, "gpu_nic_path", "0000:18:00.0", VERDICT_PASS);
	EXPECT_TEXT(r, "gpu_nic_path", "0000:18:00.0", 0, "PIX");
	EXPECT_VERDICT(r, "pod_network", "-", VERDICT_SKIP);
	EXPECT_COUNT(r, VERDICT_WARN, 0);
	EXPECT_COUNT(r, VERDICT_FAIL, 0);
	EXPECT_EQ_INT(findings_exit_code(r), FINDINGS_EXIT_OK);
	cli_ctx_free(&s.c);
	EXPECT_EQ_INT(cli("healthy", NULL, NULL, NULL), 0);
}

static void test_peer(void)
{
	struct scenario s;
	const struct findings *r;

	/* routed through the RDMA netdev (/proc/net/route), cm resolves */
	r = run(&s, "healthy", "10.0.0.2", NULL, NULL);
	EXPECT_VERDICT(r, "route", "10.0.0.2", VERDICT_PASS);
	EXPECT_TEXT(r, "route", "10.0.0.2", 0, "ens1np0, mlx5_0 port 1");
	EXPECT_VERDICT(r, "cm_resolve", "10.0.0.2", VERDICT_PASS);
	EXPECT_EQ_INT(findings_exit_code(r), FINDINGS_EXIT_OK);
	cli_ctx_free(&s.c);

	/* the default route: out through eth0, no RDMA */
	r = run(&s, "healthy", "192.168.0.99", NULL, NULL);
	EXPECT_VERDICT(r, "route", "192.168.0.99", VERDICT_FAIL);
	EXPECT_TEXT(r, "route", "192.168.0.99", 0, "leaves through eth0");
	EXPECT_TEXT(r, "route", "192.168.0.99", 1, "ens1np0 (mlx5_0)");
	EXPECT_VERDICT(r, "cm_resolve", "192.168.0.99", VERDICT_FAIL);
	EXPECT_EQ_INT(findings_exit_code(r), FINDINGS_EXIT_FAIL);
	cli_ctx_free(&s.c);

	/* our own address: loopback through the device */
	r = run(&s, "healthy", "10.0.0.1", NULL, NULL);
	EXPECT_TEXT(r, "route", "10.0.0.1", 0, "a local address on ens1np0");
	cli_ctx_free(&s.c);

	EXPECT_EQ_INT(cli("healthy", "--peer", "192.168.0.99", NULL), 7);
	EXPECT_EQ_INT(cli("healthy", "--peer", "10.0.0.2", NULL), 0);
}

static void test_downtrained(void)
{
	struct scenario s;
	const struct findings *r = run(&s, "downtrained", NULL, NULL,
					    NULL);

	EXPECT_VERDICT(r, "pcie", "mlx5_0", VERDICT_WARN);
	EXPECT_TEXT(r, "pcie", "mlx5_0", 0, "x8 of 32.0 GT/s x16");
	EXPECT_TEXT(r, "pcie", "mlx5_0", 1, "x16 slot");
	EXPECT_VERDICT(r, "link_speed", "mlx5_0/1", VERDICT_WARN);
	EXPECT_TEXT(r, "link_speed", "mlx5_0/1", 0,
		    "runs at 200 Gb/s but supports 400 Gb/s");
	EXPECT_COUNT(r, VERDICT_WARN, 2);
	EXPECT_COUNT(r, VERDICT_FAIL, 0);
	EXPECT_EQ_INT(findings_exit_code(r), FINDINGS_EXIT_WARN);
	cli_ctx_free(&s.c);
	EXPECT_EQ_INT(cli("downtrained", NULL, NULL, NULL), 6);
}

/* The NIC's own link is full; the switch's uplink above it is not. */
static void test_uplink(void)
{
	struct scenario s;
	const struct findings *r = run(&s, "uplink", NULL, NULL, NULL);

	EXPECT_VERDICT(r, "pcie", "mlx5_0", VERDICT_WARN);
	EXPECT_TEXT(r, "pcie", "mlx5_0", 0, "the PCIe switch port 0000:16:00.0 "
		    "above 0000:19:00.0 runs 32.0 GT/s x8 of 32.0 GT/s x16");
	EXPECT_TEXT(r, "pcie", "mlx5_0", 1, "lspci -vv -s 0000:16:00.0");
	EXPECT_COUNT(r, VERDICT_WARN, 1);
	EXPECT_EQ_INT(findings_exit_code(r), FINDINGS_EXIT_WARN);
	cli_ctx_free(&s.c);
}

static void test_mtu1024(void)
{
	struct scenario s;
	const struct findings *r = run(&s, "mtu1024", NULL, NULL, NULL);

	EXPECT_VERDICT(r, "mtu", "mlx5_0/1", VERDICT_WARN);
	EXPECT_TEXT(r, "mtu", "mlx5_0/1", 0,
		    "RoCEv2 at MTU 1024 caps payload at ~92.6% of line rate");
	EXPECT_TEXT(r, "mtu", "mlx5_0/1", 0, "ens1np0 MTU 1500");
	EXPECT_TEXT(r, "mtu", "mlx5_0/1", 1, "ip link set ens1np0 mtu 9000");
	EXPECT_COUNT(r, VERDICT_WARN, 1);
	EXPECT_EQ_INT(findings_exit_code(r), FINDINGS_EXIT_WARN);
	cli_ctx_free(&s.c);
	EXPECT_EQ_INT(cli("mtu1024", NULL, NULL, NULL), 6);
}

static void test_nogid(void)
{
	struct scenario s;
	const struct findings *r = run(&s, "nogid", NULL, NULL, NULL);

	EXPECT_VERDICT(r, "roce_gid", "mlx5_0/1", VERDICT_FAIL);
	EXPECT_TEXT(r, "roce_gid", "mlx5_0/1", 0,
		    "no RoCEv2 GID carries 10.0.0.5 on ens1np0");
	EXPECT_TEXT(r, "roce_gid", "mlx5_0/1", 0, "10.0.0.1 GID 3");
	EXPECT_COUNT(r, VERDICT_FAIL, 1);
	EXPECT_EQ_INT(findings_exit_code(r), FINDINGS_EXIT_FAIL);
	cli_ctx_free(&s.c);
	EXPECT_EQ_INT(cli("nogid", NULL, NULL, NULL), 7);
}

static void test_memlock(void)
{
	struct scenario s;
	const struct findings *r = run(&s, "memlock", NULL, NULL, NULL);

	/* 8 MiB holds a default test (140 KiB), not an -a sweep */
	EXPECT_VERDICT(r, "memlock", "host", VERDICT_WARN);
	EXPECT_TEXT(r, "memlock", "host", 0, "RLIMIT_MEMLOCK 8 MiB, uid 1000 "
		    "without CAP_IPC_LOCK");
	EXPECT_TEXT(r, "memlock", "host", 1, "non-root containers lose "
		    "IPC_LOCK");
	EXPECT_EQ_INT(findings_exit_code(r), FINDINGS_EXIT_WARN);
	cli_ctx_free(&s.c);

	r = run(&s, "memlock64k", NULL, NULL, NULL);
	EXPECT_VERDICT(r, "memlock", "host", VERDICT_FAIL);
	EXPECT_TEXT(r, "memlock", "host", 0, "RLIMIT_MEMLOCK 64 KiB < the");
	EXPECT_TEXT(r, "memlock", "host", 0, "ENOMEM");
	EXPECT_EQ_INT(findings_exit_code(r), FINDINGS_EXIT_FAIL);
	cli_ctx_free(&s.c);
	EXPECT_EQ_INT(cli("memlock", NULL, NULL, NULL), 6);
	EXPECT_EQ_INT(cli("memlock64k", NULL, NULL, NULL), 7);
}

static void test_numa(void)
{
	struct scenario s;
	const struct findings *r = run(&s, "numa", NULL, NULL, NULL);

	EXPECT_VERDICT(r, "numa", "mlx5_0", VERDICT_PASS);
	EXPECT_VERDICT(r, "numa", "0000:cb:00.0", VERDICT_WARN);
	EXPECT_TEXT(r, "numa", "0000:cb:00.0", 0, "is on node 1, no RDMA NIC "
		    "is (mlx5_0: node 0)");
	EXPECT_VERDICT(r, "gpu_nic_path", "0000:cb:00.0", VERDICT_WARN);
	EXPECT_TEXT(r, "gpu_nic_path", "0000:cb:00.0", 0, "SYS");
	EXPECT_COUNT(r, VERDICT_WARN, 2);
	EXPECT_COUNT(r, VERDICT_FAIL, 0);
	EXPECT_EQ_INT(findings_exit_code(r), FINDINGS_EXIT_WARN);
	cli_ctx_free(&s.c);
	EXPECT_EQ_INT(cli("numa", NULL, NULL, NULL), 6);
}

static void test_nodevices(void)
{
	struct scenario s;
	const struct findings *r = run(&s, "nodevices", NULL, NULL,
					    NULL);

	EXPECT_VERDICT(r, "devices", "host", VERDICT_FAIL);
	EXPECT_TEXT(r, "devices", "host", 1, "modprobe");
	EXPECT_TEXT(r, "devices", "host", 1, "rdma_rxe");
	EXPECT_VERDICT(r, "rdma_cm", "host", VERDICT_SKIP);
	EXPECT_VERDICT(r, "gpudirect", "host", VERDICT_SKIP);
	EXPECT_TRUE(!findings_find(r, "port_state", NULL));
	EXPECT_COUNT(r, VERDICT_FAIL, 1);
	EXPECT_EQ_INT(findings_exit_code(r), FINDINGS_EXIT_FAIL);
	cli_ctx_free(&s.c);
	EXPECT_EQ_INT(cli("nodevices", NULL, NULL, NULL), 7);
}

/* -d DEV: only that device; a missing one is a failure. */
static void test_only_dev(void)
{
	struct scenario s;
	const struct findings *r = run(&s, "pod", NULL, "mlx5_3", NULL);

	EXPECT_TRUE(!findings_find(r, "port_state", "mlx5_0/1"));
	EXPECT_VERDICT(r, "port_state", "mlx5_3/1", VERDICT_PASS);
	cli_ctx_free(&s.c);
	r = run(&s, "healthy", NULL, "mlx5_9", NULL);
	EXPECT_VERDICT(r, "devices", "host", VERDICT_FAIL);
	EXPECT_TEXT(r, "devices", "host", 0, "-d mlx5_9: no such RDMA device");
	cli_ctx_free(&s.c);
	EXPECT_EQ_INT(cli("healthy", "-d", "mlx5_9", NULL), 7);
}

static void test_pod(void)
{
	char *env_ok[] = {
		(char *)"KUBERNETES_SERVICE_HOST=10.96.0.1",
		(char *)"PCIDEVICE_NVIDIA_COM_SRIOV_RDMA=0000:19:00.3",
		(char *)"PCIDEVICE_NVIDIA_COM_SRIOV_RDMA_INFO={}",
		NULL
	};
	char *env_gpu[] = { (char *)"PCIDEVICE_NVIDIA_COM_VF=0000:18:00.0",
			    NULL };
	struct scenario s;
	const struct findings *r = run(&s, "pod", NULL, NULL, env_ok);

	EXPECT_VERDICT(r, "pod_network", "net1", VERDICT_PASS);
	EXPECT_TEXT(r, "pod_network", "net1", 0, "10.56.217.5");
	EXPECT_TEXT(r, "pod_network", "net1", 0, "mlx5_3 port 1");
	EXPECT_TRUE(!findings_find(r, "pod_network", "eth0"));
	EXPECT_VERDICT(r, "sriov", "0000:19:00.3", VERDICT_PASS);
	EXPECT_TEXT(r, "sriov", "0000:19:00.3", 0, "RDMA device mlx5_3, "
		    "netdev net1");
	EXPECT_VERDICT(r, "pcie", "mlx5_3", VERDICT_PASS);
	EXPECT_EQ_INT(findings_exit_code(r), FINDINGS_EXIT_OK);
	cli_ctx_free(&s.c);

	/* a VF without RDMA (here: the GPU's address) */
	r = run(&s, "healthy", NULL, NULL, env_gpu);
	EXPECT_VERDICT(r, "sriov", "0000:18:00.0", VERDICT_FAIL);
	EXPECT_TEXT(r, "sriov", "0000:18:00.0", 1, "isRdma");
	cli_ctx_free(&s.c);

	/* in a pod with no network-status file: say how to mount one */
	r = run(&s, "healthy", NULL, NULL, env_ok);
	EXPECT_VERDICT(r, "pod_network", "pod", VERDICT_SKIP);
	cli_ctx_free(&s.c);
	EXPECT_EQ_INT(cli("pod", NULL, NULL, env_ok), 0);
}

/* network-status with only the default network, as a downward-API file
 * that holds all annotations ("key=\"escaped JSON\"" lines). */
static void test_pod_default_only(void)
{
	char path[] = "/tmp/test_doctor_ns.XXXXXX", root[PATH_MAX];
	const char *text = "kubernetes.io/config.seen=\"2026-11-29\"\n"
		"k8s.v1.cni.cncf.io/network-status=\"[{\\n    \\\"name\\\": "
		"\\\"cbr0\\\",\\n    \\\"interface\\\": \\\"eth0\\\",\\n    "
		"\\\"ips\\\": [\\\"10.244.1.7\\\"],\\n    \\\"default\\\": "
		"true\\n}]\"\n";
	struct probe probe;
	struct chk_ctx c;
	int fd = mkstemp(path);

	EXPECT_TRUE(fd >= 0);
	if (fd < 0)
		return;
	EXPECT_EQ_INT(write(fd, text, strlen(text)), (long long)strlen(text));
	close(fd);
	doctor_tree("healthy", root, sizeof(root));
	fake_probe(root, &probe);
	c = (struct chk_ctx){ .root = root, .netstatus = path,
				 .probe = &probe };
	cli_run(&c);
	EXPECT_VERDICT(&c.rep, "pod_network", "pod", VERDICT_WARN);
	EXPECT_TEXT(&c.rep, "pod_network", "pod", 1,
		    "k8s.v1.cni.cncf.io/networks");
	cli_ctx_free(&c);
	unlink(path);
}

/* Field of the first finding of check in a parsed --json document. */
static const char *json_finding(const char *js, const struct json_read_tok *tok,
				int n, const char *check, const char *field)
{
	static char val[256];
	char name[64];
	int list = json_read_get(js, tok, n, 0, "findings"), f, v;
	unsigned int k;

	for (k = 0; list > 0 && (f = json_read_elem(tok, n, list, k)) > 0; k++) {
		v = json_read_get(js, tok, n, f, "check");
		if (v < 0 || !json_read_str(js, &tok[v], name, sizeof(name)) ||
		    strcmp(name, check))
			continue;
		v = json_read_get(js, tok, n, f, field);
		return v > 0 && json_read_str(js, &tok[v], val, sizeof(val)) ?
		       val : "";
	}
	return "";
}

/* --json FILE: written whole, parseable, with the exit code in it. */
static void test_json_file(void)
{
	char path[] = "/tmp/test_doctor_json.XXXXXX", buf[16384];
	struct json_read_tok tok[1024];
	FILE *f;
	size_t n;
	int fd = mkstemp(path), ntok, v;

	EXPECT_TRUE(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	EXPECT_EQ_INT(cli("mtu1024", "--json", path, NULL), 6);
	f = fopen(path, "r");
	EXPECT_TRUE(f != NULL);
	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	ntok = json_read_parse(buf, n, tok, 1024);
	EXPECT_TRUE(ntok > 0);
	v = json_read_get(buf, tok, ntok, 0, "exit_code");
	EXPECT_TRUE(v > 0 && !strncmp(buf + tok[v].start, "6", 1));
	EXPECT_STREQ(json_finding(buf, tok, ntok, "mtu", "subject"),
		     "mlx5_0/1");
	EXPECT_STREQ(json_finding(buf, tok, ntok, "mtu", "verdict"), "WARN");
	unlink(path);
	/* an unwritable place: exit 1, never a half-written file */
	EXPECT_EQ_INT(cli("healthy", "--json", "/nonexistent/dir/x.json",
			  NULL), 1);
}

/* doctor_cli over argv, its stdout into *text (free it), stderr muted. */
static int cli_capture(int argc, char **argv, char **text, size_t *len)
{
	FILE *out = open_memstream(text, len);
	int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
	int code;

	if (!out || saved < 0 || null < 0)
		return -1;
	fflush(stderr);
	dup2(null, STDERR_FILENO);
	code = doctor_cli(argc, argv, NULL, NULL, out);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(null);
	fclose(out);
	return code;
}

/* --json -: the document alone on stdout (the table went to stderr), and
 * no file named "-". */
static void test_json_stdout(void)
{
	char root[PATH_MAX], *text = NULL;
	char *argv[] = { (char *)"ib_doctor", (char *)"--root", root,
			 (char *)"--json", (char *)"-", NULL };
	struct json_read_tok tok[1024];
	size_t len = 0;
	int ntok, v;

	doctor_tree("mtu1024", root, sizeof(root));
	EXPECT_EQ_INT(access("-", F_OK) != 0, 1);
	EXPECT_EQ_INT(cli_capture(5, argv, &text, &len), 6);
	ntok = text ? json_read_parse(text, len, tok, 1024) : -1;
	EXPECT_TRUE(ntok > 0); /* the whole of stdout is one document */
	v = ntok > 0 ? json_read_get(text, tok, ntok, 0, "exit_code") : -1;
	EXPECT_TRUE(v > 0 && !strncmp(text + tok[v].start, "6", 1));
	EXPECT_STREQ(ntok > 0 ? json_finding(text, tok, ntok, "mtu",
					     "verdict") : "", "WARN");
	EXPECT_EQ_INT(access("-", F_OK) != 0, 1);
	free(text);
}

/* Every byte of js is part of a valid UTF-8 sequence. */
static bool utf8_ok(const char *js, size_t n)
{
	size_t i, l;

	for (i = 0; i < n; i += l) {
		l = json_utf8_len((const unsigned char *)js + i, n - i);
		if (!l)
			return false;
	}
	return true;
}

/*
 * A device and a netdev whose names are not UTF-8 (sysfs names are bytes):
 * --json is still valid JSON, the bad bytes written as U+FFFD.
 */
static void test_json_bad_utf8(void)
{
	char root[] = "/tmp/test_doctor_utf8.XXXXXX", path[PATH_MAX];
	char buf[32768], cmd[PATH_MAX + 16];
	struct json_read_tok tok[2048];
	const char *ib = "sys/class/infiniband/rxe\xff\xc3(/ports/1/";
	char rel[256];
	size_t n = 0;
	FILE *f;

	EXPECT_TRUE(mkdtemp(root) != NULL);
	snprintf(rel, sizeof(rel), "%sstate", ib);
	tree_put(root, rel, "4: ACTIVE\n");
	snprintf(rel, sizeof(rel), "%slink_layer", ib);
	tree_put(root, rel, "Ethernet\n");
	snprintf(rel, sizeof(rel), "%sgids/0", ib);
	tree_put(root, rel, "fe80:0000:0000:0000:0000:00ff:fe00:0001\n");
	snprintf(rel, sizeof(rel), "%sgid_attrs/ndevs/0", ib);
	tree_put(root, rel, "eth\xfe\x80\x01\n");
	tree_put(root, "sys/class/net/eth\xfe\x80\x01/mtu", "1500\n");
	snprintf(path, sizeof(path), "%s/out.json", root);
	EXPECT_EQ_INT(cli_root(root, "--json", path, NULL) == 1, 0);
	f = fopen(path, "r");
	EXPECT_TRUE(f != NULL);
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	EXPECT_TRUE(json_read_parse(buf, n, tok, 2048) > 0);
	EXPECT_TRUE(utf8_ok(buf, n));
	EXPECT_TRUE(strstr(buf, "rxe\\ufffd\\ufffd(") != NULL);
	EXPECT_TRUE(strstr(buf, "eth\\ufffd\\ufffd\\u0001") != NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	EXPECT_EQ_INT(system(cmd), 0);
}

static void test_usage(void)
{
	EXPECT_EQ_INT(cli("healthy", "--bogus", NULL, NULL), 2);
	EXPECT_EQ_INT(cli("healthy", "--peer", "not-an-ip", NULL), 2);
	EXPECT_EQ_INT(cli("healthy", "stray", NULL, NULL), 2);
	EXPECT_EQ_INT(cli("healthy", "--json", NULL, NULL), 2);
	EXPECT_EQ_INT(cli("healthy", "-h", NULL, NULL), 0);
	EXPECT_EQ_INT(cli("no-such-tree", NULL, NULL, NULL), 2);
}

int main(void)
{
	test_healthy();
	test_peer();
	test_downtrained();
	test_uplink();
	test_mtu1024();
	test_nogid();
	test_memlock();
	test_numa();
	test_nodevices();
	test_only_dev();
	test_pod();
	test_pod_default_only();
	test_json_file();
	test_json_stdout();
	test_json_bad_utf8();
	test_usage();
	return test_finish("test_doctor");
}
