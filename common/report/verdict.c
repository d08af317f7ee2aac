// SPDX-License-Identifier: BSD-2-Clause
/*
 * verdict - the run's verdict and exit code. See verdict.h.
 */
#include "report/verdict.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "spec/bench.h"
#include "spec/wire.h"

struct verdict verdict_decide(int err, int exit_code, bool gate_failed)
{
	if (err == -EILSEQ || exit_code == BENCH_EXIT_CORRUPT)
		return (struct verdict){ RESULTS_CORRUPT, BENCH_EXIT_CORRUPT };
	if (err || (exit_code && exit_code != BENCH_EXIT_GATE))
		return (struct verdict){ RESULTS_ERROR, exit_code ? exit_code :
					 BENCH_EXIT_RUNTIME };
	if (gate_failed || exit_code == BENCH_EXIT_GATE)
		return (struct verdict){ RESULTS_FAIL, BENCH_EXIT_GATE };
	return (struct verdict){ RESULTS_PASS, BENCH_EXIT_OK };
}

int verdict_exit_code(int err)
{
	switch (err) {
	case 0:
		return BENCH_EXIT_OK;
	case -EINVAL:
	case -EOPNOTSUPP:
	case -WIRE_EPERFTEST: /* a mixed pair: the user's to fix */
	case -EKEYREJECTED:   /* --auth-key-file: no, or another key */
		return BENCH_EXIT_USAGE;
	case -EILSEQ:
		return BENCH_EXIT_CORRUPT;
	case -EINTR:
		return BENCH_EXIT_STOPPED;
	case -ETIMEDOUT:
	case -ECONNRESET:
	case -ECONNREFUSED:
	case -ECONNABORTED:
	case -EBUSY:          /* a server busy for all of --connect-timeout */
	case -EHOSTUNREACH:
	case -ENETUNREACH:
	case -ENETDOWN:
	case -EPIPE:
		return BENCH_EXIT_PEER;
	default:
		return BENCH_EXIT_RUNTIME;
	}
}

int verdict_stop_err(int err, bool stopped)
{
	return stopped && err && err != -EILSEQ ? -EINTR : err;
}

const char *verdict_exit_meaning(int exit_code)
{
	switch (exit_code) {
	case BENCH_EXIT_OK:
		return "ok";
	case BENCH_EXIT_USAGE:
		return "usage";
	case BENCH_EXIT_GATE:
		return "below an expectation";
	case BENCH_EXIT_CORRUPT:
		return "data corruption";
	case BENCH_EXIT_PEER:
		return "peer unreachable, lost or timed out";
	case BENCH_EXIT_STOPPED:
		return "stopped by a signal";
	default:
		return "runtime error";
	}
}

/* Errors whose strerror() would mislead: what they mean here. */
static const struct {
	int err;
	const char *text;
} verdict_err_texts[] = {
	{ -EINTR, "interrupted by a signal" },
	{ -WIRE_EPERFTEST, "the peer is perftest, not rdmabench" },
};

void verdict_error_text(int err, int exit_code, char *buf, size_t len)
{
	const char *text = strerror(-err);
	size_t i;

	for (i = 0;
	     i < sizeof(verdict_err_texts) / sizeof(verdict_err_texts[0]); i++)
		if (verdict_err_texts[i].err == err)
			text = verdict_err_texts[i].text;
	snprintf(buf, len, "%s (exit %d: %s)", text, exit_code,
		 verdict_exit_meaning(exit_code));
}

void verdict_fail_text(const struct gate_run *run, char *buf, size_t len)
{
	size_t n;

	n = (size_t)snprintf(buf, len, "%s", run->first_failure[0] ?
			     run->first_failure : "below an expectation");
	if (run->gates_failed > 1 && n < len)
		snprintf(buf + n, len - n, " (and %u more failed gate%s)",
			 run->gates_failed - 1,
			 run->gates_failed > 2 ? "s" : "");
}

/* How bad an exit code is: corrupt, then an error, then a gate. */
static int verdict_severity(int code)
{
	switch (code) {
	case BENCH_EXIT_OK:
		return 0;
	case BENCH_EXIT_GATE:
		return 1;
	case BENCH_EXIT_CORRUPT:
		return 3;
	default:
		return 2;
	}
}

int verdict_exit_worse(int a, int b)
{
	return verdict_severity(b) > verdict_severity(a) ? b : a;
}
