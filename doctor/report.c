// SPDX-License-Identifier: BSD-2-Clause
/*
 * doctor_report - findings, exit code, text table and JSON (doctor_report.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/fs.h"
#include "doctor/report.h"

void doctor_add(struct doctor_report *rep, unsigned int step,
		const char *check, const char *subject,
		enum doctor_verdict verdict, const char *fmt, ...)
{
	struct doctor_finding *f;
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

void doctor_fix(struct doctor_report *rep, const char *fmt, ...)
{
	va_list ap;

	/* a fix must never land on the finding before a dropped one */
	if (!rep->n || rep->dropped)
		return;
	va_start(ap, fmt);
	vsnprintf(rep->items[rep->n - 1].fix, DOCTOR_TEXT_LEN, fmt, ap);
	va_end(ap);
}

void doctor_report_free(struct doctor_report *rep)
{
	free(rep->items);
	memset(rep, 0, sizeof(*rep));
}

size_t doctor_count(const struct doctor_report *rep, enum doctor_verdict v)
{
	size_t i, n = 0;

	for (i = 0; i < rep->n; i++)
		n += rep->items[i].verdict == v;
	return n;
}

int doctor_exit_code(const struct doctor_report *rep)
{
	if (rep->lost)
		return DOCTOR_EXIT_RUNTIME;
	if (doctor_count(rep, DOCTOR_FAIL))
		return DOCTOR_EXIT_FAIL;
	if (doctor_count(rep, DOCTOR_WARN))
		return DOCTOR_EXIT_WARN;
	return DOCTOR_EXIT_OK;
}

const char *doctor_verdict_str(enum doctor_verdict v)
{
	static const char *const s[] = { "PASS", "SKIP", "WARN", "FAIL" };

	return (unsigned int)v < 4 ? s[v] : "?";
}

const struct doctor_finding *doctor_find(const struct doctor_report *rep,
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

static const char *doctor_exit_word(int code)
{
	switch (code) {
	case DOCTOR_EXIT_OK:
		return "all passed";
	case DOCTOR_EXIT_WARN:
		return "warnings";
	case DOCTOR_EXIT_FAIL:
		return "failures";
	default:
		return "findings lost (out of memory)";
	}
}

void doctor_print_text(const struct doctor_report *rep, FILE *out)
{
	const struct doctor_finding *f;
	size_t i;
	int code = doctor_exit_code(rep);

	fprintf(out, "# %-6s %-4s %-13s %-15s %s\n", "result", "step",
		"check", "subject", "finding");
	for (i = 0; i < rep->n; i++) {
		f = &rep->items[i];
		fprintf(out, "  %-6s %-4u %-13s %-15s %s\n",
			doctor_verdict_str(f->verdict), f->step, f->check,
			f->subject, f->detail);
		if (f->fix[0])
			fprintf(out, "%14sfix: %s\n", "", f->fix);
	}
	fprintf(out, "# %zu PASS, %zu WARN, %zu FAIL, %zu SKIP: exit %d (%s)\n",
		doctor_count(rep, DOCTOR_PASS), doctor_count(rep, DOCTOR_WARN),
		doctor_count(rep, DOCTOR_FAIL), doctor_count(rep, DOCTOR_SKIP),
		code, doctor_exit_word(code));
}

/* A JSON string literal (RFC 8259 escapes; bytes >= 0x80 pass as UTF-8). */
static void doctor_json_str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static void doctor_json_finding(FILE *out, const struct doctor_finding *f)
{
	fprintf(out, "    {\"step\": %u, \"check\": ", f->step);
	doctor_json_str(out, f->check);
	fputs(", \"subject\": ", out);
	doctor_json_str(out, f->subject);
	fprintf(out, ", \"verdict\": \"%s\",\n     \"detail\": ",
		doctor_verdict_str(f->verdict));
	doctor_json_str(out, f->detail);
	fputs(",\n     \"fix\": ", out);
	doctor_json_str(out, f->fix[0] ? f->fix : NULL);
	fputc('}', out);
}

void doctor_print_json(const struct doctor_report *rep, const char *host,
		       const char *peer, FILE *out)
{
	size_t i;

	fputs("{\n  \"schema_version\": 1,\n  \"tool\": \"ib_doctor\",\n"
	      "  \"host\": ", out);
	doctor_json_str(out, host);
	fputs(",\n  \"peer\": ", out);
	doctor_json_str(out, peer);
	fprintf(out, ",\n  \"exit_code\": %d,\n  \"summary\": {\"pass\": %zu, "
		"\"warn\": %zu, \"fail\": %zu, \"skip\": %zu},\n"
		"  \"findings\": [\n", doctor_exit_code(rep),
		doctor_count(rep, DOCTOR_PASS), doctor_count(rep, DOCTOR_WARN),
		doctor_count(rep, DOCTOR_FAIL), doctor_count(rep, DOCTOR_SKIP));
	for (i = 0; i < rep->n; i++) {
		doctor_json_finding(out, &rep->items[i]);
		fputs(i + 1 < rep->n ? ",\n" : "\n", out);
	}
	fputs("  ]\n}\n", out);
}

int doctor_write_json(const struct doctor_report *rep, const char *host,
		      const char *peer, const char *path)
{
	char tmp[FS_PATH_MAX];
	FILE *f;
	int ret = 0;

	/* same folder as path: rename(2) is atomic only within one fs */
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	doctor_print_json(rep, host, peer, f);
	if (fflush(f) || fsync(fileno(f)))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}
