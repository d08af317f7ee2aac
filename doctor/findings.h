/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * findings - the findings of ib_doctor: one line each (check, subject,
 * verdict, what was found, the one-line fix), the exit code they add up
 * to, and their text table and JSON forms. Pure: no verbs headers.
 */
#ifndef RDMABENCH_DOCTOR_FINDINGS_H
#define RDMABENCH_DOCTOR_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Ordered by severity: the worst verdict decides the exit code. */
enum verdict { VERDICT_PASS, VERDICT_SKIP, VERDICT_WARN, VERDICT_FAIL };

/* Exit codes (the benches use 0-5; ib_doctor adds 6 and 7). */
#define FINDINGS_EXIT_OK 0        /* every check passed (SKIPs allowed) */
#define FINDINGS_EXIT_RUNTIME 1   /* could not run, or --json not written */
#define FINDINGS_EXIT_USAGE 2     /* bad option or value */
#define FINDINGS_EXIT_WARN 6      /* warnings, no failure */
#define FINDINGS_EXIT_FAIL 7      /* at least one failure */

#define FINDING_CHECK_LEN 16
#define FINDING_SUBJECT_LEN 48
#define FINDING_TEXT_LEN 400

struct finding {
	unsigned int step;              /* 1..9: the section of the checks */
	char check[FINDING_CHECK_LEN];   /* "mtu", "roce_gid", ... */
	char subject[FINDING_SUBJECT_LEN]; /* "rxe0/1", "host", "net1", ... */
	enum verdict verdict;
	char detail[FINDING_TEXT_LEN];   /* what was found, with the numbers */
	char fix[FINDING_TEXT_LEN];      /* "" when there is nothing to do */
};

struct findings {
	struct finding *items;
	size_t n, cap;
	bool lost;      /* an allocation failed: findings are missing */
	bool dropped;   /* the last findings_add was lost: no fix for it */
};

/*
 * Append a finding; detail is a printf format. When memory runs out the
 * finding is dropped and rep->lost set (the run then exits 1).
 */
void findings_add(struct findings *rep, unsigned int step,
		const char *check, const char *subject,
		enum verdict verdict, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Set the fix of the finding added last (a printf format). */
void findings_fix(struct findings *rep, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Free the findings; the report can be reused. */
void findings_free(struct findings *rep);

/* How many findings have verdict v. */
size_t findings_count(const struct findings *rep, enum verdict v);

/* FINDINGS_EXIT_OK, _WARN or _FAIL from the worst verdict; _RUNTIME if lost. */
int findings_exit_code(const struct findings *rep);

/* "PASS", "SKIP", "WARN", "FAIL". */
const char *findings_verdict_str(enum verdict v);

/* The first finding of check (and subject, unless NULL), or NULL. */
const struct finding *findings_find(const struct findings *rep,
					 const char *check,
					 const char *subject);

/* The table: one row per finding, its fix indented below, a summary. */
void findings_print_text(const struct findings *rep, FILE *out);

/*
 * The JSON document (schema_version 1): tool, host, peer (or null),
 * exit_code, summary counts and the findings in order. Written by
 * lib/json, so it is valid JSON whatever bytes a device or netdev name
 * holds (invalid UTF-8 becomes U+FFFD). 0, or -EIO on a write error.
 */
int findings_print_json(const struct findings *rep, const char *host,
		      const char *peer, FILE *out);

/*
 * Write the JSON document to path atomically (lib/afile: mkstemp in the
 * same folder, fsync, rename, fsync of the folder), or to std when path
 * is "-". 0 or -errno, logged.
 */
int findings_write_json(const struct findings *rep, const char *host,
		      const char *peer, const char *path, FILE *std);

/*
 * --summary: one line of JSON for a pod's termination message (the
 * kubelet keeps 4096 bytes; the entrypoint adds the pod's name and node):
 *   {"rdmabench_doctor":1,"verdict":"warn","exit_code":6,
 *    "findings":["WARN 3 mtu mlx5_0/1: RoCE MTU 1024 ..."],
 *    "truncated":false}
 * verdict: pass, warn, fail or error from exit_code (the run's, after the
 * --json file); findings: the first FINDINGS_SUMMARY_MAX WARN and FAIL
 * findings, FINDINGS_SUMMARY_LINE bytes each at most, the last ones
 * dropped whole while it is longer than FINDINGS_SUMMARY_BYTES
 * (truncated: some were). 0, -ENOMEM or -EIO.
 */
#define FINDINGS_SUMMARY_MAX 20
#define FINDINGS_SUMMARY_LINE 160
#define FINDINGS_SUMMARY_BYTES 3300
int findings_print_summary(const struct findings *rep, int exit_code,
			   FILE *out);

/* "pass", "warn", "fail", "error": the verdict of an exit code. */
const char *findings_verdict_word(int exit_code);

/* The summary into path (lib/afile), or std when path is "-". */
int findings_write_summary(const struct findings *rep, int exit_code,
			   const char *path, FILE *std);

#endif
