// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/host/counters.c: port counters read from a fake sysfs
 * tree built in a temporary folder, their deltas, the cap on how many
 * are kept and which names count errors (--expect-no-errors).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/counters.h"
#include "tests/test.h"

#define CAP 128	/* slots for changes, as in a results document */

static char root[PATH_MAX];

/* The changes of one run. */
struct diff {
	struct counters_delta c[CAP];
	unsigned int n;
};

/* ROOT/class/infiniband/DEV/ports/1/DIR/NAME holding text. */
static void put(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX + 128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/class/infiniband/dev0/ports/1/%s/%s",
		 root, dir, name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return;
	}
	fputs(text, f);
	fclose(f);
}

static int make_tree(void)
{
	static const char *const dirs[] = {
		"class", "class/infiniband", "class/infiniband/dev0",
		"class/infiniband/dev0/ports", "class/infiniband/dev0/ports/1",
		"class/infiniband/dev0/ports/1/counters",
		"class/infiniband/dev0/ports/1/hw_counters",
		"class/infiniband/dev1", "class/infiniband/dev1/ports",
		"class/infiniband/dev1/ports/1",
	};
	char path[PATH_MAX + 64];
	size_t i;

	snprintf(root, sizeof(root), "/tmp/test_counters.XXXXXX");
	if (!mkdtemp(root))
		return -errno;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		if (mkdir(path, 0755))
			return -errno;
	}
	return 0;
}

static void test_names(void)
{
	EXPECT_TRUE(counters_is_error("counters/symbol_error"));
	EXPECT_TRUE(counters_is_error("counters/port_rcv_errors"));
	EXPECT_TRUE(counters_is_error("counters/port_xmit_discards"));
	EXPECT_TRUE(counters_is_error("counters/VL15_dropped"));
	EXPECT_TRUE(counters_is_error("counters/link_downed"));
	EXPECT_TRUE(counters_is_error("hw_counters/out_of_buffer"));
	EXPECT_TRUE(counters_is_error("hw_counters/out_of_sequence"));
	EXPECT_TRUE(counters_is_error("hw_counters/local_ack_timeout_err"));
	EXPECT_TRUE(counters_is_error("hw_counters/roce_adp_retrans"));
	EXPECT_TRUE(counters_is_error("hw_counters/retry_exceeded_err"));
	/* flushed work requests: every QP's teardown */
	EXPECT_TRUE(!counters_is_error("hw_counters/req_cqe_flush_error"));
	EXPECT_TRUE(!counters_is_error("hw_counters/resp_cqe_flush_error"));
	EXPECT_TRUE(!counters_is_error("counters/port_xmit_data"));
	EXPECT_TRUE(!counters_is_error("counters/port_xmit_wait"));
	EXPECT_TRUE(!counters_is_error("hw_counters/sent_pkts"));
	EXPECT_TRUE(!counters_is_error("hw_counters/np_cnp_sent"));
	EXPECT_TRUE(!counters_is_error(NULL));
}

/* -W's names: a counter by its name under the port's folder. */
static void test_find(const struct counters_snap *s)
{
	uint64_t v = 42;

	EXPECT_EQ_INT(counters_find(s, "counters/port_xmit_data", &v), 0);
	EXPECT_EQ_U64(v, 1500);
	EXPECT_EQ_INT(counters_find(s, "hw_counters/new_one", &v), 0);
	EXPECT_EQ_U64(v, 7);
	v = 42;
	EXPECT_EQ_INT(counters_find(s, "port_xmit_data", &v), -ENOENT);
	EXPECT_EQ_INT(counters_find(s, "hw_counters/lifespan", &v), -ENOENT);
	EXPECT_EQ_INT(counters_find(s, "", &v), -ENOENT);
	EXPECT_EQ_INT(counters_find(s, NULL, &v), -ENOENT);
	EXPECT_EQ_U64(v, 42);
}

static void test_read_and_delta(struct counters_snap *a,
				struct counters_snap *b, struct diff *d)
{
	char text[256];
	int64_t sum;

	put("counters", "port_xmit_data", "1000\n");
	put("counters", "symbol_error", "0\n");
	put("counters", "unsupported", "");	/* reads nothing: left out */
	put("hw_counters", "send_err", "5\n");
	put("hw_counters", "lifespan", "10\n");	/* a setting, not a count */
	put("hw_counters", "sent_pkts", "18446744073709551615\n");
	EXPECT_EQ_INT(counters_read(root, "dev0", 1, a), 0);
	EXPECT_EQ_U64(a->n, 4);
	EXPECT_STREQ(a->c[0].name, "counters/port_xmit_data");
	EXPECT_STREQ(a->c[1].name, "counters/symbol_error");
	EXPECT_STREQ(a->c[2].name, "hw_counters/send_err");
	EXPECT_EQ_U64(a->c[3].value, UINT64_MAX);

	put("counters", "port_xmit_data", "1500\n");
	put("counters", "symbol_error", "2\n");
	put("hw_counters", "send_err", "5\n");
	put("hw_counters", "sent_pkts", "9\n");	/* wrapped past 2^64 */
	put("hw_counters", "new_one", "7\n");	/* not in the first snap */
	EXPECT_EQ_INT(counters_read(root, "dev0", 1, b), 0);
	EXPECT_EQ_U64(b->n, 5);
	EXPECT_EQ_U64(counters_diff(a, b, d->c, CAP, &d->n), 0);
	EXPECT_EQ_U64(d->n, 4);
	EXPECT_STREQ(d->c[0].name, "counters/port_xmit_data");
	EXPECT_EQ_INT(d->c[0].delta, 500);
	EXPECT_EQ_INT(d->c[1].delta, 2);
	EXPECT_EQ_INT(d->c[2].delta, 0);
	EXPECT_STREQ(d->c[3].name, "hw_counters/sent_pkts");
	EXPECT_EQ_INT(d->c[3].delta, 10);
	EXPECT_EQ_U64(counters_errors(d->c, d->n, text, sizeof(text), &sum),
		      1);
	EXPECT_STREQ(text, "counters/symbol_error +2");
	EXPECT_EQ_INT(sum, 2);
	test_find(b);
}

static void test_errors(void)
{
	EXPECT_EQ_INT(counters_read(root, "dev1", 1, NULL), -EINVAL);
	EXPECT_EQ_INT(counters_read(root, "", 1, NULL), -EINVAL);
	EXPECT_EQ_INT(counters_read(root, "../x", 1, NULL), -EINVAL);
}

/* More counters than the document holds: moved and error ones stay. */
static void test_cap(struct counters_snap *a, struct counters_snap *b,
		     struct diff *d)
{
	unsigned int i, n = CAP + 20;
	bool has_moved = false, has_err = false;
	char text[64];
	int64_t sum;

	a->n = b->n = n;
	for (i = 0; i < n; i++) {
		snprintf(a->c[i].name, sizeof(a->c[i].name),
			 "hw_counters/c%03u%s", i, i == 145 ? "_err" : "");
		b->c[i] = a->c[i];
		a->c[i].value = 1;
		b->c[i].value = i == 140 || i == 145 ? 4 : 1;
	}
	EXPECT_EQ_U64(counters_diff(a, b, d->c, CAP, &d->n), 20);
	EXPECT_EQ_U64(d->n, CAP);
	for (i = 0; i < d->n; i++) {
		has_moved |= !strcmp(d->c[i].name, "hw_counters/c140");
		has_err |= !strcmp(d->c[i].name, "hw_counters/c145_err");
	}
	EXPECT_TRUE(has_moved);
	EXPECT_TRUE(has_err);
	EXPECT_EQ_U64(counters_errors(d->c, d->n, text, sizeof(text), &sum),
		      1);
	EXPECT_STREQ(text, "hw_counters/c145_err +3");
}

int main(void)
{
	struct counters_snap *a = calloc(1, sizeof(*a));
	struct counters_snap *b = calloc(1, sizeof(*b));
	struct diff *d = calloc(1, sizeof(*d));
	char cmd[PATH_MAX + 16];
	int ret;

	if (!a || !b || !d || make_tree()) {
		fprintf(stderr, "test_counters: set-up failed\n");
		return 1;
	}
	test_names();
	test_read_and_delta(a, b, d);
	EXPECT_EQ_INT(counters_read(root, "dev1", 1, a), -ENOENT);
	EXPECT_EQ_INT(counters_read(root, "nodev", 1, a), -ENOENT);
	test_errors();
	test_cap(a, b, d);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "test_counters: could not remove %s\n", root);
	free(a);
	free(b);
	free(d);
	ret = test_finish("test_counters");
	return ret;
}
