/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * doctor_report - the findings of ib_doctor: one line each (check, subject,
 * verdict, what was found, the one-line fix), the exit code they add up
 * to, and their text table and JSON forms. Pure: no verbs headers.
 */
#ifndef RDMABENCH_DOCTOR_REPORT_H
#define RDMABENCH_DOCTOR_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Ordered by severity: the worst verdict decides the exit code. */
enum doctor_verdict { DOCTOR_PASS, DOCTOR_SKIP, DOCTOR_WARN, DOCTOR_FAIL };

/* Exit codes (the benches use 0-5; ib_doctor adds 6 and 7). */
#define DOCTOR_EXIT_OK 0        /* every check passed (SKIPs allowed) */
#define DOCTOR_EXIT_RUNTIME 1   /* could not run, or --json not written */
#define DOCTOR_EXIT_USAGE 2     /* bad option or value */
#define DOCTOR_EXIT_WARN 6      /* warnings, no failure */
#define DOCTOR_EXIT_FAIL 7      /* at least one failure */

#define DOCTOR_CHECK_LEN 16
#define DOCTOR_SUBJECT_LEN 48
#define DOCTOR_TEXT_LEN 400

struct doctor_finding {
	unsigned int step;              /* 1..9: the section of the checks */
	char check[DOCTOR_CHECK_LEN];   /* "mtu", "roce_gid", ... */
	char subject[DOCTOR_SUBJECT_LEN]; /* "rxe0/1", "host", "net1", ... */
	enum doctor_verdict verdict;
	char detail[DOCTOR_TEXT_LEN];   /* what was found, with the numbers */
	char fix[DOCTOR_TEXT_LEN];      /* "" when there is nothing to do */
};

struct doctor_report {
	struct doctor_finding *items;
	size_t n, cap;
	bool lost;      /* an allocation failed: findings are missing */
	bool dropped;   /* the last doctor_add was lost: no fix for it */
};

/*
 * Append a finding; detail is a printf format. When memory runs out the
 * finding is dropped and rep->lost set (the run then exits 1).
 */
void doctor_add(struct doctor_report *rep, unsigned int step,
		const char *check, const char *subject,
		enum doctor_verdict verdict, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Set the fix of the finding added last (a printf format). */
void doctor_fix(struct doctor_report *rep, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Free the findings; the report can be reused. */
void doctor_report_free(struct doctor_report *rep);

/* How many findings have verdict v. */
size_t doctor_count(const struct doctor_report *rep, enum doctor_verdict v);

/* DOCTOR_EXIT_OK, _WARN or _FAIL from the worst verdict; _RUNTIME if lost. */
int doctor_exit_code(const struct doctor_report *rep);

/* "PASS", "SKIP", "WARN", "FAIL". */
const char *doctor_verdict_str(enum doctor_verdict v);

/* The first finding of check (and subject, unless NULL), or NULL. */
const struct doctor_finding *doctor_find(const struct doctor_report *rep,
					 const char *check,
					 const char *subject);

/* The table: one row per finding, its fix indented below, a summary. */
void doctor_print_text(const struct doctor_report *rep, FILE *out);

/*
 * The JSON document (schema_version 1): tool, host, peer (or null),
 * exit_code, summary counts and the findings in order. Written by
 * lib/json, so it is valid JSON whatever bytes a device or netdev name
 * holds (invalid UTF-8 becomes U+FFFD). 0, or -EIO on a write error.
 */
int doctor_print_json(const struct doctor_report *rep, const char *host,
		      const char *peer, FILE *out);

/*
 * Write the JSON document to path atomically (lib/afile: mkstemp in the
 * same folder, fsync, rename, fsync of the folder). 0 or -errno, logged.
 */
int doctor_write_json(const struct doctor_report *rep, const char *host,
		      const char *peer, const char *path);

#endif
