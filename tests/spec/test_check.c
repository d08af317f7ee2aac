// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/spec/check.c: each refusal of a client's test, with
 * its reason, and a test that is accepted.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spec/bench.h"
#include "spec/check.h"
#include "tests/test.h"

static const struct bench_cfg caps = {
	.max_size_bytes = 1ULL << 20,
	.max_qps = 4,
	.max_duration_s = 60,
	.max_mem_bytes = 16ULL << 20,
};

/* A test well within the caps above. */
static struct test ok_test(void)
{
	return (struct test){
		.verb = BENCH_VERB_WRITE, .measure = BENCH_MEASURE_BW,
		.tx_depth = 128, .cq_mod = 100, .size_bytes = 65536,
		.max_size_bytes = 65536, .iters = 1000, .qps = 1,
		.post_list = 1, .outstanding = 16, .rx_depth = 512,
	};
}

static char why[200];

/* check_test's answer for t; why holds the reason. */
static int check(const struct test *t)
{
	why[0] = '\0';
	return check_test(t, &caps, why, sizeof(why));
}

static void expect_refused(const struct test *t, const char *reason)
{
	EXPECT_EQ_INT(check(t), -EINVAL);
	EXPECT_STREQ(why, reason);
}

static void test_accepted(void)
{
	struct test t = ok_test();

	EXPECT_EQ_INT(check(&t), 0);
	EXPECT_STREQ(why, "");
	t.measure = BENCH_MEASURE_LAT;
	t.verb = BENCH_VERB_COUNT - 1;
	t.qps = 4;
	t.duration_s = 60;
	t.size_bytes = t.max_size_bytes = 1ULL << 20;
	EXPECT_EQ_INT(check(&t), 0); /* every cap met exactly */
	t.margin_s = 29; /* the most a -D 60 run may keep for margins */
	EXPECT_EQ_INT(check(&t), 0);
}

/* -D 1 with a huge margin (-f): refused, whatever -D's cap. */
static void test_margin(void)
{
	struct test t = ok_test();

	t.duration_s = 1;
	t.margin_s = 86400;
	expect_refused(&t, "-f 86400 with -D 1: the margin must be less than "
		       "half of -D (each end of the run has one)");
	t.margin_s = 1;
	expect_refused(&t, "-f 1 with -D 1: the margin must be less than "
		       "half of -D (each end of the run has one)");
	t.margin_s = 0;
	EXPECT_EQ_INT(check(&t), 0);
}

/* --recv_post_list: a list within the receive queue, bandwidth only. */
static void test_recv_post_list(void)
{
	struct test t = ok_test();

	t.verb = BENCH_VERB_SEND;
	t.recv_post_list = 512;
	EXPECT_EQ_INT(check(&t), 0);
	t.recv_post_list = 513;
	expect_refused(&t, "--recv_post_list 513 with -r 512: a list of "
		       "receives must fit in the receive queue, and only "
		       "bandwidth tests post lists");
	t.recv_post_list = 2;
	t.measure = BENCH_MEASURE_LAT;
	expect_refused(&t, "--recv_post_list 2 with -r 512: a list of "
		       "receives must fit in the receive queue, and only "
		       "bandwidth tests post lists");
	t.recv_post_list = 1;
	EXPECT_EQ_INT(check(&t), 0);
}

static void test_unknown(void)
{
	struct test t = ok_test();

	t.verb = 200;
	expect_refused(&t, "unknown test (verb 200, measure 0): a newer "
		       "client?");
	t = ok_test();
	t.verb = BENCH_VERB_COUNT;
	EXPECT_EQ_INT(check(&t), -EINVAL);
	t = ok_test();
	t.measure = BENCH_MEASURE_LAT + 1;
	EXPECT_EQ_INT(check(&t), -EINVAL);
	EXPECT_TRUE(strstr(why, "unknown test") != NULL);
}

#define FIELD(f) offsetof(struct test, f), sizeof(((struct test *)0)->f)

/* One field of ok_test() changed, and the refusal that follows. */
static const struct {
	size_t off, bytes;
	uint64_t value;
	const char *why;
} refusals[] = {
	/* each count that must not be 0 */
	{ FIELD(tx_depth), 0, "invalid test parameters" },
	{ FIELD(cq_mod), 0, "invalid test parameters" },
	{ FIELD(qps), 0, "invalid test parameters" },
	{ FIELD(post_list), 0, "invalid test parameters" },
	{ FIELD(rx_depth), 0, "invalid test parameters" },
	{ FIELD(outstanding), 0, "invalid test parameters" },
	{ FIELD(iters), 0, "invalid test parameters" },
	{ FIELD(size_bytes), 0, "invalid test parameters" },
	/* each bound of one field by another, or by the protocol */
	{ FIELD(max_size_bytes), 65535, "invalid test parameters" },
	{ FIELD(tx_depth), 16385, "invalid test parameters" },
	{ FIELD(rx_depth), 16385, "invalid test parameters" },
	/* each cap of the server */
	{ FIELD(max_size_bytes), (1ULL << 20) + 1, "messages of 1048577 "
	  "bytes: this server allows 1048576 (--max-size)" },
	{ FIELD(qps), 5, "5 QPs: this server allows 4 (--max-qps)" },
	{ FIELD(duration_s), 61, "-D 61: this server allows 60 s "
	  "(--max-duration)" },
	/* a margin from the wire: never longer than the run it is part of */
	{ FIELD(margin_s), 4000000000ULL, "-f 4000000000 with -D 0: the "
	  "margin must be less than half of -D (each end of the run has "
	  "one)" },
};

static void test_refusals(void)
{
	struct test t;
	uint32_t v32;
	size_t i;

	for (i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		t = ok_test();
		v32 = (uint32_t)refusals[i].value;
		memcpy((char *)&t + refusals[i].off, refusals[i].bytes == 4 ?
		       (const void *)&v32 : (const void *)&refusals[i].value,
		       refusals[i].bytes);
		expect_refused(&t, refusals[i].why);
	}
}

/* --reversed: a one-way bandwidth test turned round, nothing else. */
static void test_reversed(void)
{
	static const char *const why_rev =
		"--reversed turns a one-way "
		"bandwidth test round, not a latency test or -b";
	struct test t = ok_test();

	t.reversed = true;
	EXPECT_EQ_INT(check(&t), 0);
	t.bidir = true;
	expect_refused(&t, why_rev);
	t.bidir = false;
	t.measure = BENCH_MEASURE_LAT;
	expect_refused(&t, why_rev);
}

/* --max-mem: both sides' regions, per QP, times the slots of --validate,
 * and the rings; the refusal names the cap and where it came from. */
static void test_mem(void)
{
	struct bench_cfg from = caps;
	struct test t = ok_test();

	t.qps = 4;
	t.size_bytes = t.max_size_bytes = 1ULL << 20; /* 8 MiB: fits */
	EXPECT_EQ_INT(check(&t), 0);
	t.validate = true; /* 512 slots, capped at 64 MiB */
	expect_refused(&t, "512.7 MiB of buffers and rings: this server "
		       "allows 16.0 MiB (--max-mem)");
	/* rings count: 256 KiB of buffers and 16 K receives do not fit 1 MiB */
	t = ok_test();
	t.qps = 2;
	t.size_bytes = t.max_size_bytes = 65536;
	from.max_mem_bytes = 1ULL << 20;
	snprintf(from.max_mem_from, sizeof(from.max_mem_from),
		 "half the cgroup limit 2.0 MiB (memory.max)");
	EXPECT_EQ_INT(check_test(&t, &from, why, sizeof(why)), -EINVAL);
	EXPECT_STREQ(why, "3.4 MiB of buffers and rings: this server allows "
		     "1.0 MiB (--max-mem: half the cgroup limit 2.0 MiB "
		     "(memory.max))");
}

/* UC only from a server started with -c UC (UC is never acknowledged) */
static void test_uc(void)
{
	struct bench_cfg uc_caps = caps;
	struct test t = ok_test();

	t.uc = true;
	expect_refused(&t, "UC (-c UC): this server takes RC only; start it "
		       "with -c UC to serve UC clients");
	uc_caps.conn_type = OPTS_CONN_UC;
	why[0] = '\0';
	EXPECT_EQ_INT(check_test(&t, &uc_caps, why, sizeof(why)), 0);
	t.uc = false; /* an RC client of a -c UC server */
	EXPECT_EQ_INT(check_test(&t, &uc_caps, why, sizeof(why)), 0);
}

/*
 * UD only from a server started with -c UD (never acknowledged either),
 * only sends, and a message of one packet at most (the largest MTU).
 */
static void test_ud(void)
{
	struct bench_cfg ud_caps = caps;
	struct test t = ok_test();

	t.ud = true;
	t.verb = BENCH_VERB_SEND;
	t.size_bytes = t.max_size_bytes = 1024;
	expect_refused(&t, "UD (-c UD): this server takes RC only; start it "
		       "with -c UD to serve UD clients");
	ud_caps.conn_type = OPTS_CONN_UD;
	why[0] = '\0';
	EXPECT_EQ_INT(check_test(&t, &ud_caps, why, sizeof(why)), 0);
	t.max_size_bytes = 4097;
	EXPECT_EQ_INT(check_test(&t, &ud_caps, why, sizeof(why)), -EINVAL);
	EXPECT_STREQ(why, "UD carries sends of one packet (4096 bytes at "
		     "most), not UC, other verbs or 4097 bytes");
	t.max_size_bytes = 4096;
	t.verb = BENCH_VERB_WRITE;
	EXPECT_EQ_INT(check_test(&t, &ud_caps, why, sizeof(why)), -EINVAL);
	t.verb = BENCH_VERB_SEND;
	t.uc = true;
	ud_caps.conn_type = OPTS_CONN_UD;
	EXPECT_EQ_INT(check_test(&t, &ud_caps, why, sizeof(why)), -EINVAL);
}

/* -c UD: -s and -a stop at the MTU, as perftest's (the note for -a). */
static void test_ud_clamp(void)
{
	struct test t = { .ud = true, .size_bytes = 65536,
			  .max_size_bytes = 65536 };
	uint64_t first, last;
	bool note;

	test_clamp_ud(&t, 1024, &note);
	EXPECT_EQ_U64(t.size_bytes, 1024);
	EXPECT_EQ_U64(t.max_size_bytes, 1024);
	EXPECT_TRUE(!note);
	t = (struct test){ .ud = true, .all_sizes = true, .size_bytes = 65536 };
	test_sizes(&t, &first, &last);
	t.max_size_bytes = last;
	test_clamp_ud(&t, 4096, &note);
	test_sizes(&t, &first, &last);
	EXPECT_EQ_U64(first, 2);
	EXPECT_EQ_U64(last, 4096);
	EXPECT_TRUE(note);
	t = (struct test){ .size_bytes = 65536, .max_size_bytes = 65536 };
	test_clamp_ud(&t, 1024, &note); /* RC: untouched */
	EXPECT_EQ_U64(t.size_bytes, 65536);
	t = (struct test){ .ud = true, .size_bytes = 64, .max_size_bytes = 64 };
	test_clamp_ud(&t, 1024, &note); /* within the MTU: untouched */
	EXPECT_EQ_U64(t.size_bytes, 64);
	EXPECT_TRUE(!note);
}

int main(void)
{
	test_accepted();
	test_uc();
	test_ud();
	test_ud_clamp();
	test_margin();
	test_recv_post_list();
	test_unknown();
	test_refusals();
	test_reversed();
	test_mem();
	return test_finish("check");
}
