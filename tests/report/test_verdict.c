// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tests for common/report/verdict.c: corrupt > error > fail > pass, each
 * pair of outcomes met in one run, the exit codes, and the texts; a run
 * stopped by a signal exits 130 whatever the stop cut short.
 */
#include <errno.h>
#include <string.h>

#include "report/verdict.h"
#include "spec/bench.h"
#include "tests/test.h"
#include "spec/wire.h"

/* What one kind of trouble looks like from the driver. */
struct cause {
	const char *name;
	int err, exit_code;
	bool gate_failed;
};

static const struct cause corrupt[] = {
	{ "EILSEQ", -EILSEQ, 0, false },
	{ "exit CORRUPT", 0, BENCH_EXIT_CORRUPT, false },
	{ "EILSEQ and exit RUNTIME", -EILSEQ, BENCH_EXIT_RUNTIME, false },
};
static const struct cause error[] = {
	{ "EIO", -EIO, 0, false },
	{ "exit PEER", 0, BENCH_EXIT_PEER, false },
	{ "EINTR, exit STOPPED", -EINTR, BENCH_EXIT_STOPPED, false },
	{ "ETIMEDOUT, exit GATE", -ETIMEDOUT, BENCH_EXIT_GATE, false },
};
static const struct cause fail[] = {
	{ "a gate failed", 0, 0, true },
	{ "exit GATE", 0, BENCH_EXIT_GATE, false },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Two causes met in one run: what the driver passes for both. A run has
 * one error and one exit code: where both causes set one, the first's
 * stands (the winner's: the driver keeps the worst).
 */
static struct verdict both(const struct cause *a, const struct cause *b)
{
	int err = a->err ? a->err : b->err;
	int exit_code = a->exit_code ? a->exit_code : b->exit_code;

	return verdict_decide(err, exit_code, a->gate_failed || b->gate_failed);
}

static void expect_wins(const struct cause *w, size_t nw,
			const struct cause *l, size_t nl,
			enum results_verdict want)
{
	struct verdict v;
	size_t i, j;

	for (i = 0; i < nw; i++) {
		v = verdict_decide(w[i].err, w[i].exit_code, w[i].gate_failed);
		EXPECT_EQ_INT(v.verdict, want);
		for (j = 0; l && j < nl; j++) {
			v = both(&w[i], &l[j]);
			if (v.verdict != want)
				fprintf(stderr, "%s with %s\n", w[i].name,
					l[j].name);
			EXPECT_EQ_INT(v.verdict, want);
		}
	}
}

/* Every pair: corrupt beats error, fail and pass; error beats fail... */
static void test_precedence(void)
{
	expect_wins(corrupt, N(corrupt), error, N(error), RESULTS_CORRUPT);
	expect_wins(corrupt, N(corrupt), fail, N(fail), RESULTS_CORRUPT);
	expect_wins(corrupt, N(corrupt), NULL, 0, RESULTS_CORRUPT);
	expect_wins(error, N(error), fail, N(fail), RESULTS_ERROR);
	expect_wins(error, N(error), NULL, 0, RESULTS_ERROR);
	expect_wins(fail, N(fail), NULL, 0, RESULTS_FAIL);
	EXPECT_EQ_INT(verdict_decide(0, 0, false).verdict, RESULTS_PASS);
}

static void test_exit_codes(void)
{
	struct verdict v;

	v = verdict_decide(-EILSEQ, BENCH_EXIT_RUNTIME, true);
	EXPECT_EQ_INT(v.exit_code, BENCH_EXIT_CORRUPT);
	/* an error keeps the driver's exit code, RUNTIME when it had none */
	v = verdict_decide(-EIO, 0, true);
	EXPECT_EQ_INT(v.exit_code, BENCH_EXIT_RUNTIME);
	v = verdict_decide(0, BENCH_EXIT_PEER, true);
	EXPECT_EQ_INT(v.exit_code, BENCH_EXIT_PEER);
	v = verdict_decide(-EINTR, BENCH_EXIT_STOPPED, false);
	EXPECT_EQ_INT(v.exit_code, BENCH_EXIT_STOPPED);
	v = verdict_decide(-EPIPE, BENCH_EXIT_GATE, false);
	EXPECT_EQ_INT(v.exit_code, BENCH_EXIT_GATE);
	v = verdict_decide(0, 0, true);
	EXPECT_EQ_INT(v.exit_code, BENCH_EXIT_GATE);
	v = verdict_decide(0, BENCH_EXIT_GATE, false);
	EXPECT_EQ_INT(v.exit_code, BENCH_EXIT_GATE);
	v = verdict_decide(0, 0, false);
	EXPECT_EQ_INT(v.exit_code, BENCH_EXIT_OK);
}

/* The driver's exit code of each error, and of a stopped run's. */
static void test_exit_of_err(void)
{
	/* what a stop cuts short, stage by stage, and what each would be */
	static const struct {
		const char *stage;
		int err, code;
	} cut[] = {
		{ "connect: a name not resolved yet", -EHOSTUNREACH,
		  BENCH_EXIT_PEER },
		{ "connect: refused, retried", -ECONNREFUSED, BENCH_EXIT_PEER },
		{ "connect: a busy server", -EBUSY, BENCH_EXIT_PEER },
		{ "a wait cut short", -EINTR, BENCH_EXIT_STOPPED },
		{ "set-up: a buffer's first touch", -EINTR,
		  BENCH_EXIT_STOPPED },
		{ "set-up: a registration", -ENOMEM, BENCH_EXIT_RUNTIME },
		{ "set-up: a data connection", -ETIMEDOUT, BENCH_EXIT_PEER },
		{ "measure: a work completion", -EIO, BENCH_EXIT_RUNTIME },
		{ "measure: the peer gone", -ECONNRESET, BENCH_EXIT_PEER },
		{ "server: a client's bad HELLO", -EINVAL, BENCH_EXIT_USAGE },
	};
	size_t i;

	EXPECT_EQ_INT(verdict_exit_code(0), BENCH_EXIT_OK);
	EXPECT_EQ_INT(verdict_exit_code(-EILSEQ), BENCH_EXIT_CORRUPT);
	EXPECT_EQ_INT(verdict_exit_code(-EKEYREJECTED), BENCH_EXIT_USAGE);
	EXPECT_EQ_INT(verdict_exit_code(-WIRE_EPERFTEST), BENCH_EXIT_USAGE);
	for (i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
		int err = verdict_stop_err(cut[i].err, true);

		if (verdict_exit_code(err) != BENCH_EXIT_STOPPED ||
		    verdict_exit_code(cut[i].err) != cut[i].code)
			fprintf(stderr, "stage: %s\n", cut[i].stage);
		EXPECT_EQ_INT(err, -EINTR);
		EXPECT_EQ_INT(verdict_exit_code(err), BENCH_EXIT_STOPPED);
		/* not stopped: the error stays the stage's */
		EXPECT_EQ_INT(verdict_stop_err(cut[i].err, false), cut[i].err);
		EXPECT_EQ_INT(verdict_exit_code(cut[i].err), cut[i].code);
	}
	/* a run that ended well, or found a wrong byte, stays so */
	EXPECT_EQ_INT(verdict_stop_err(0, true), 0);
	EXPECT_EQ_INT(verdict_stop_err(-EILSEQ, true), -EILSEQ);
}

static void test_texts(void)
{
	struct gate_run run;
	char buf[256];

	verdict_error_text(-ECONNREFUSED, BENCH_EXIT_PEER, buf, sizeof(buf));
	EXPECT_STREQ(buf, "Connection refused (exit 5: peer unreachable, "
		     "lost or timed out)");
	verdict_error_text(-EINTR, BENCH_EXIT_STOPPED, buf, sizeof(buf));
	EXPECT_STREQ(buf, "interrupted by a signal (exit 130: stopped by a "
		     "signal)");
	verdict_error_text(-WIRE_EPERFTEST, BENCH_EXIT_USAGE, buf, sizeof(buf));
	EXPECT_STREQ(buf, "the peer is perftest, not rdmabench (exit 2: "
			  "usage)");
	EXPECT_STREQ(verdict_exit_meaning(BENCH_EXIT_USAGE), "usage");
	EXPECT_STREQ(verdict_exit_meaning(77), "runtime error");
	gate_run_init(&run);
	verdict_fail_text(&run, buf, sizeof(buf));
	EXPECT_STREQ(buf, "below an expectation");
	snprintf(run.first_failure, sizeof(run.first_failure), "size 2: x");
	run.gates_failed = 2;
	verdict_fail_text(&run, buf, sizeof(buf));
	EXPECT_STREQ(buf, "size 2: x (and 1 more failed gate)");
	run.gates_failed = 4;
	verdict_fail_text(&run, buf, sizeof(buf));
	EXPECT_STREQ(buf, "size 2: x (and 3 more failed gates)");
	verdict_fail_text(&run, buf, 5);
	EXPECT_STREQ(buf, "size");
}

int main(void)
{
	test_precedence();
	test_exit_codes();
	test_exit_of_err();
	test_texts();
	return test_finish("test_verdict");
}
