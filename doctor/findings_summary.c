// SPDX-License-Identifier: BSD-2-Clause
/*
 * findings_summary - ib_doctor --summary (findings.h): one line of JSON
 * for a pod's termination message, which the container entrypoint used to
 * cut out of the table with awk.
 */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/findings.h"
#include "lib/afile.h"
#include "lib/json.h"

/* "WARN 3 mtu mlx5_0/1: RoCE MTU 1024 ...", cut at len (UTF-8 whole). */
static void summary_line(const struct finding *f, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s %u %s %s: %s",
				    findings_verdict_str(f->verdict), f->step,
				    f->check, f->subject, f->detail);

	if (n < len)
		return;
	n = len - 1;
	while (n && ((unsigned char)buf[n] & 0xc0) == 0x80)
		n--;
	buf[n] = '\0';
}

const char *findings_verdict_word(int exit_code)
{
	switch (exit_code) {
	case FINDINGS_EXIT_OK:
		return "pass";
	case FINDINGS_EXIT_WARN:
		return "warn";
	case FINDINGS_EXIT_FAIL:
		return "fail";
	default:
		return "error";
	}
}

/* The summary with the first k WARN/FAIL findings, into out. */
static void summary_render(const struct findings *rep, int exit_code,
			   size_t k, FILE *out)
{
	struct json_writer w;
	char line[FINDINGS_SUMMARY_LINE];
	size_t i, shown = 0, listed = 0;

	json_init(&w, out, 0);
	json_object_begin(&w);
	json_kv_i64(&w, "rdmabench_doctor", 1);
	json_kv_string(&w, "verdict", findings_verdict_word(exit_code));
	json_kv_i64(&w, "exit_code", exit_code);
	json_kv_array_begin(&w, "findings");
	for (i = 0; i < rep->n; i++) {
		if (rep->items[i].verdict != VERDICT_WARN &&
		    rep->items[i].verdict != VERDICT_FAIL)
			continue;
		listed++;
		if (shown == k)
			continue;
		summary_line(&rep->items[i], line, sizeof(line));
		json_string(&w, line);
		shown++;
	}
	json_array_end(&w);
	json_kv_bool(&w, "truncated", shown < listed);
	json_object_end(&w);
}

int findings_print_summary(const struct findings *rep, int exit_code,
			   FILE *out)
{
	size_t k = FINDINGS_SUMMARY_MAX, len = 0;
	char *buf = NULL;
	FILE *mem;

	for (;;) { /* drop whole findings from the end until it fits */
		free(buf);
		buf = NULL;
		mem = open_memstream(&buf, &len);
		if (!mem)
			return -ENOMEM;
		summary_render(rep, exit_code, k, mem);
		if (fclose(mem)) {
			free(buf);
			return -ENOMEM;
		}
		if (len <= FINDINGS_SUMMARY_BYTES || !k)
			break;
		k--;
	}
	if (fwrite(buf, 1, len, out) != len || fputc('\n', out) == EOF) {
		free(buf);
		return -EIO;
	}
	free(buf);
	return 0;
}

struct summary_job {
	const struct findings *rep;
	int exit_code;
};

static int summary_file_render(const void *arg, FILE *out)
{
	const struct summary_job *j = arg;

	return findings_print_summary(j->rep, j->exit_code, out);
}

int findings_write_summary(const struct findings *rep, int exit_code,
			   const char *path, FILE *std)
{
	struct summary_job job = { rep, exit_code };

	return afile_save(path, summary_file_render, &job, std);
}
