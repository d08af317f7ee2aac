// SPDX-License-Identifier: BSD-2-Clause
/*
 * results_junit - the JUnit XML rendering of a results document (see
 * results_junit.h and results/schema/junit.xsd): what CI systems display. They
 * do not fail a job on it, the exit code does; so the XML is made never to
 * look greener than that code.
 */
#include "lib/json.h"
#include "report/results_junit.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The entity for one ASCII byte, or NULL when it goes out as is. */
static const char *junit_entity(unsigned char c, bool attr)
{
	switch (c) {
	case '&':  return "&amp;";
	case '<':  return "&lt;";
	case '>':  return "&gt;";
	case '\r': return "&#13;";
	case '"':  return attr ? "&quot;" : NULL;
	case '\t': return attr ? "&#9;" : NULL;
	case '\n': return attr ? "&#10;" : NULL;
	}
	return NULL;
}

/*
 * XML 1.0 text: markup characters as entities; in attributes also quotes
 * and the whitespace that attribute normalisation would turn into spaces.
 * Bytes XML cannot carry (other controls, invalid UTF-8, U+FFFE/U+FFFF)
 * become U+FFFD, so the document always parses.
 */
static void junit_escape(FILE *out, const char *s, bool attr)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s), n;
	const char *ent;

	for (; left; p += n, left -= n) {
		n = json_utf8_len(p, left);
		if (!n || (n == 1 && *p < 0x20 && *p != '\t' && *p != '\n' &&
			   *p != '\r') ||
		    (n == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe)) {
			fputs("\xef\xbf\xbd", out);
			n = n ? n : 1;
		} else if (n == 1 && (ent = junit_entity(*p, attr))) {
			fputs(ent, out);
		} else {
			fwrite(p, 1, n, out);
		}
	}
}

/* name="value" with a leading space. */
static void junit_attr(FILE *out, const char *name, const char *value)
{
	fprintf(out, " %s=\"", name);
	junit_escape(out, value, true);
	fputc('"', out);
}

/*
 * Seconds for a time attribute: xs:decimal with 3 decimals (milliseconds,
 * as Ant and Surefire write it: the most every JUnit reader takes), never
 * an exponent.
 */
static void junit_time(FILE *out, double secs)
{
	fprintf(out, " time=\"%.3f\"", isfinite(secs) && secs > 0 ? secs : 0.0);
}

/* Client's elapsed time at a size (the server's without it), in s. */
static double junit_size_s(const struct results_doc *d, uint64_t size_bytes)
{
	unsigned int i;

	for (i = 0; i < d->n_rows; i++) {
		const struct results_row *r = &d->rows[i];

		if (r->size_bytes != size_bytes)
			continue;
		if (r->client.present)
			return (double)r->client.elapsed_ns / 1e9;
		if (r->server.present)
			return (double)r->server.elapsed_ns / 1e9;
	}
	return 0.0;
}

/*
 * "rdmabench.<tool>.<host>": CI trees show it as package.class, so the
 * host's own dots become '_' (a tree per tool, a class per host).
 */
static void junit_classname(const struct results_doc *d, char *buf,
			    size_t len)
{
	char *p;
	int n = snprintf(buf, len, "rdmabench.%s", d->tool);

	if (!d->host[0] || n < 0 || (size_t)n >= len)
		return;
	snprintf(buf + n, len - (size_t)n, ".%s", d->host);
	for (p = buf + n + 1; *p; p++)
		*p = *p == '.' ? '_' : *p;
}

/*
 * Open a <testcase> named "<name> (<host> -> <peer>)" ("<-" on a server;
 * without a peer "(<host>)"), the peer without its port (which changes
 * from run to run, and CI follows a test's history by its name): the
 * files of 500 nodes, each with its own peers, never collide in a CI's
 * test list. The caller closes it.
 */
static void junit_case_open(FILE *out, const struct results_doc *d,
			    const char *name, double secs)
{
	char classname[2 * RESULTS_NAME_LEN + 16], peer[RESULTS_NAME_LEN];
	char full[4 * RESULTS_NAME_LEN + 64];
	const char *host = d->host[0] ? d->host : "?";

	junit_classname(d, classname, sizeof(classname));
	results_peer_host(peer, sizeof(peer), d->device.peer_addr);
	if (peer[0])
		snprintf(full, sizeof(full), "%s (%s %s %s)", name, host,
			 d->role == RESULTS_ROLE_SERVER ? "<-" : "->", peer);
	else
		snprintf(full, sizeof(full), "%s (%s)", name, host);
	fputs("    <testcase", out);
	junit_attr(out, "classname", classname);
	junit_attr(out, "name", full);
	junit_time(out, secs);
}

/* <failure> or <error> with message and type; the body repeats it. */
static void junit_problem(FILE *out, const char *elem, const char *type,
			  const char *message, const char *body)
{
	fprintf(out, ">\n      <%s", elem);
	junit_attr(out, "message", message);
	junit_attr(out, "type", type);
	fputc('>', out);
	junit_escape(out, body, false);
	fprintf(out, "</%s>\n    </testcase>\n", elem);
}

static unsigned int junit_failed_gates(const struct results_doc *d)
{
	unsigned int i, n = 0;

	for (i = 0; i < d->n_gates; i++)
		n += !d->gates[i].passed;
	return n;
}

/*
 * "<tool>.run": did the run finish and were its data right. A "fail"
 * verdict with no failed gate in the document still fails here, so the
 * JUnit view can never be greener than the exit code.
 */
static void junit_run_case(FILE *out, const struct results_doc *d)
{
	char name[RESULTS_NAME_LEN + 8], type[32];
	const char *why = d->error[0] ? d->error : "(no reason recorded)";

	snprintf(name, sizeof(name), "%s.run", d->tool);
	junit_case_open(out, d, name, results_run_s(d));
	snprintf(type, sizeof(type), "exit_code %d", d->exit_code);
	if (d->verdict == RESULTS_ERROR)
		junit_problem(out, "error", type, why, why);
	else if (d->verdict == RESULTS_CORRUPT)
		junit_problem(out, "failure", "corrupt", why, why);
	else if (d->verdict == RESULTS_FAIL && !junit_failed_gates(d))
		junit_problem(out, "failure", type, why, why);
	else
		fputs("/>\n", out);
}

static void junit_gate_case(FILE *out, const struct results_doc *d,
			    const struct results_gate *g)
{
	char name[2 * RESULTS_NAME_LEN + 32], body[RESULTS_TEXT_LEN + 128];
	char fig[32] = "null", exp[32] = "null";

	snprintf(name, sizeof(name), "%s.%llu.%s", d->tool,
		 (unsigned long long)g->size_bytes, g->name);
	junit_case_open(out, d, name, junit_size_s(d, g->size_bytes));
	if (g->passed) {
		fputs("/>\n", out);
		return;
	}
	json_format_double(g->figure, fig, sizeof(fig));
	json_format_double(g->expected, exp, sizeof(exp));
	snprintf(body, sizeof(body), "%s at %llu bytes: measured %s %s, "
		 "expected %s %s", g->name, (unsigned long long)g->size_bytes,
		 fig, g->unit, exp, g->unit);
	junit_problem(out, "failure", "gate", g->reason[0] ? g->reason : body,
		      body);
}

/* "<tool>.rail<i>.<device>": a --rails run's rail, its own verdict. */
static void junit_rail_case(FILE *out, const struct results_doc *d,
			    unsigned int i)
{
	const struct results_rail *r = &d->rails[i];
	char name[2 * RESULTS_NAME_LEN + 16];
	const char *why = r->error[0] ? r->error : "(no reason recorded)";

	snprintf(name, sizeof(name), "%s.rail%u.%s", d->tool, i, r->device);
	junit_case_open(out, d, name, results_run_s(d));
	if (r->verdict == RESULTS_ERROR)
		junit_problem(out, "error", "rail", why, why);
	else if (r->verdict != RESULTS_PASS)
		junit_problem(out, "failure", results_verdict_name(r->verdict),
			      why, why);
	else
		fputs("/>\n", out);
}

static unsigned int junit_rails_in(const struct results_doc *d,
				   enum results_verdict v)
{
	unsigned int i, n = 0;

	for (i = 0; i < d->n_rails; i++)
		n += d->rails[i].verdict == v;
	return n;
}

static void junit_properties(FILE *out, const struct results_doc *d)
{
	const char *names[] = { "device", "peer", "role", "verdict",
				"tool_version" };
	const char *values[] = { d->device.name, d->device.peer_addr,
				 results_role_name(d->role),
				 results_verdict_name(d->verdict),
				 d->tool_version };
	size_t i;

	fputs("    <properties>\n", out);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		fputs("      <property", out);
		junit_attr(out, "name", names[i]);
		junit_attr(out, "value", values[i]);
		fputs("/>\n", out);
	}
	fputs("    </properties>\n", out);
}

/* tests="" failures="" errors="" for both the suites and the suite. */
static void junit_counts(FILE *out, const struct results_doc *d)
{
	unsigned int tests = 1 + (d->n_gates ? d->n_gates : d->n_rows);
	unsigned int failures = junit_failed_gates(d);
	unsigned int errors = d->verdict == RESULTS_ERROR;

	if (d->verdict == RESULTS_CORRUPT ||
	    (d->verdict == RESULTS_FAIL && !failures))
		failures++;
	tests += d->n_rails;
	failures += junit_rails_in(d, RESULTS_FAIL) +
		    junit_rails_in(d, RESULTS_CORRUPT);
	errors += junit_rails_in(d, RESULTS_ERROR);
	fprintf(out, " tests=\"%u\" failures=\"%u\" errors=\"%u\"", tests,
		failures, errors);
	junit_time(out, results_run_s(d));
}

static void junit_suite_open(FILE *out, const struct results_doc *d)
{
	char when[32], name[2 * RESULTS_NAME_LEN + 16];

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", out);
	junit_attr(out, "name", "rdmabench");
	junit_counts(out, d);
	fputs(">\n  <testsuite", out);
	/* one suite per tool and host: CI merges suites of one name */
	junit_classname(d, name, sizeof(name));
	junit_attr(out, "name", name);
	junit_counts(out, d);
	fputs(" skipped=\"0\"", out);
	/* Ant's schema: local time, no fraction, no zone */
	if (d->start_unix_ns) {
		results_format_local(d->start_unix_ns, when, sizeof(when));
		junit_attr(out, "timestamp", when);
	}
	if (d->host[0])
		junit_attr(out, "hostname", d->host);
	fputs(">\n", out);
	junit_properties(out, d);
}

int results_junit_write(const struct results_doc *d, FILE *out)
{
	char name[RESULTS_NAME_LEN + 32];
	unsigned int i;
	int ret = results_check(d);

	if (ret)
		return ret;
	junit_suite_open(out, d);
	junit_run_case(out, d);
	for (i = 0; i < d->n_gates; i++)
		junit_gate_case(out, d, &d->gates[i]);
	for (i = 0; i < d->n_rails; i++)
		junit_rail_case(out, d, i);
	/* without gates, each measured size still shows as a test */
	for (i = 0; !d->n_gates && i < d->n_rows; i++) {
		snprintf(name, sizeof(name), "%s.%llu", d->tool,
			 (unsigned long long)d->rows[i].size_bytes);
		junit_case_open(out, d, name,
				junit_size_s(d, d->rows[i].size_bytes));
		fputs("/>\n", out);
	}
	/* Ant's schema requires both, even empty: the text is on stderr */
	fputs("    <system-out/>\n    <system-err/>\n  </testsuite>\n"
	      "</testsuites>\n",
	      out);
	return fflush(out) || ferror(out) ? -EIO : 0;
}
