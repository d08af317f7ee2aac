// SPDX-License-Identifier: BSD-2-Clause
/*
 * findings - findings, exit code, text table and JSON (findings.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/afile.h"
#include "lib/fs.h"
#include "lib/json.h"
#include "doctor/findings.h"

void findings_add(struct findings *rep, unsigned int step,
		const char *check, const char *subject,
		enum verdict verdict, const char *fmt, ...)
{
	struct finding *f;
	va_list ap;

	if (rep->n == rep->cap) {
		size_t cap = rep->cap ? 2 * rep->cap : 32;
		void *p = realloc(rep->items, cap * sizeof(*rep->items));

		if (!p) {
			rep->lost = rep->dropped = true;
			return;
		}
		rep->items = p;
		rep->cap = cap;
	}
	rep->dropped = false;
	f = &rep->items[rep->n++];
	memset(f, 0, sizeof(*f));
	f->step = step;
	f->verdict = verdict;
	fs_copy(f->check, sizeof(f->check), check);
	fs_copy(f->subject, sizeof(f->subject), subject);
	va_start(ap, fmt);
	vsnprintf(f->detail, sizeof(f->detail), fmt, ap);
	va_end(ap);
}

void findings_fix(struct findings *rep, const char *fmt, ...)
{
	va_list ap;

	/* a fix must never land on the finding before a dropped one */
	if (!rep->n || rep->dropped)
		return;
	va_start(ap, fmt);
	vsnprintf(rep->items[rep->n - 1].fix, FINDING_TEXT_LEN, fmt, ap);
	va_end(ap);
}

void findings_free(struct findings *rep)
{
	free(rep->items);
	memset(rep, 0, sizeof(*rep));
}

size_t findings_count(const struct findings *rep, enum verdict v)
{
	size_t i, n = 0;

	for (i = 0; i < rep->n; i++)
		n += rep->items[i].verdict == v;
	return n;
}

int findings_exit_code(const struct findings *rep)
{
	if (rep->lost)
		return FINDINGS_EXIT_RUNTIME;
	if (findings_count(rep, VERDICT_FAIL))
		return FINDINGS_EXIT_FAIL;
	if (findings_count(rep, VERDICT_WARN))
		return FINDINGS_EXIT_WARN;
	return FINDINGS_EXIT_OK;
}

const char *findings_verdict_str(enum verdict v)
{
	static const char *const s[] = { "PASS", "SKIP", "WARN", "FAIL" };

	return (unsigned int)v < 4 ? s[v] : "?";
}

const struct finding *findings_find(const struct findings *rep,
					 const char *check,
					 const char *subject)
{
	size_t i;

	for (i = 0; i < rep->n; i++)
		if (!strcmp(rep->items[i].check, check) &&
		    (!subject || !strcmp(rep->items[i].subject, subject)))
			return &rep->items[i];
	return NULL;
}

static const char *findings_exit_word(int code)
{
	return code == FINDINGS_EXIT_OK ? "all passed" :
	       code == FINDINGS_EXIT_WARN ? "warnings" :
	       code == FINDINGS_EXIT_FAIL ? "failures" :
	       "findings lost (out of memory)";
}

void findings_print_text(const struct findings *rep, FILE *out)
{
	const struct finding *f;
	size_t i;
	int code = findings_exit_code(rep);

	fprintf(out, "# %-6s %-4s %-13s %-15s %s\n", "result", "step",
		"check", "subject", "finding");
	for (i = 0; i < rep->n; i++) {
		f = &rep->items[i];
		fprintf(out, "  %-6s %-4u %-13s %-15s %s\n",
			findings_verdict_str(f->verdict), f->step, f->check,
			f->subject, f->detail);
		if (f->fix[0])
			fprintf(out, "%14sfix: %s\n", "", f->fix);
	}
	fprintf(out, "# %zu PASS, %zu WARN, %zu FAIL, %zu SKIP: exit %d (%s)\n",
		findings_count(rep, VERDICT_PASS), findings_count(rep, VERDICT_WARN),
		findings_count(rep, VERDICT_FAIL), findings_count(rep, VERDICT_SKIP),
		code, findings_exit_word(code));
}

static void findings_json_finding(struct json_writer *w,
				const struct finding *f)
{
	json_object_begin(w);
	json_kv_u64(w, "step", f->step);
	json_kv_string(w, "check", f->check);
	json_kv_string(w, "subject", f->subject);
	json_kv_string(w, "verdict", findings_verdict_str(f->verdict));
	json_kv_string(w, "detail", f->detail);
	json_kv_string(w, "fix", f->fix[0] ? f->fix : NULL);
	json_object_end(w);
}

static void findings_json_summary(struct json_writer *w,
				const struct findings *rep)
{
	json_kv_object_begin(w, "summary");
	json_kv_u64(w, "pass", findings_count(rep, VERDICT_PASS));
	json_kv_u64(w, "warn", findings_count(rep, VERDICT_WARN));
	json_kv_u64(w, "fail", findings_count(rep, VERDICT_FAIL));
	json_kv_u64(w, "skip", findings_count(rep, VERDICT_SKIP));
	json_object_end(w);
}

int findings_print_json(const struct findings *rep, const char *host,
		      const char *peer, FILE *out)
{
	struct json_writer w;
	size_t i;

	json_init(&w, out, 2);
	json_object_begin(&w);
	json_kv_i64(&w, "schema_version", 1);
	json_kv_string(&w, "tool", "ib_doctor");
	json_kv_string(&w, "host", host);
	json_kv_string(&w, "peer", peer);
	json_kv_i64(&w, "exit_code", findings_exit_code(rep));
	findings_json_summary(&w, rep);
	json_kv_array_begin(&w, "findings");
	for (i = 0; i < rep->n; i++)
		findings_json_finding(&w, &rep->items[i]);
	json_array_end(&w);
	json_object_end(&w);
	return json_finish(&w);
}

/* afile's render callback: the document of one report. */
struct findings_job {
	const struct findings *rep;
	const char *host, *peer;
};

static int findings_render(const void *arg, FILE *out)
{
	const struct findings_job *j = arg;

	return findings_print_json(j->rep, j->host, j->peer, out);
}

int findings_write_json(const struct findings *rep, const char *host,
		      const char *peer, const char *path, FILE *std)
{
	struct findings_job job = { rep, host, peer };

	return afile_save(path, findings_render, &job, std);
}
