// SPDX-License-Identifier: BSD-2-Clause
/*
 * log - the error line that is also the run's reason (see log.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "lib/log.h"

void bench_err_why(struct log_why *why, const char *fmt, ...)
{
	char text[1024]; /* the line printed whole; why keeps what fits */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	bench_err("%s", text);
	if (why && !why->text[0])
		snprintf(why->text, sizeof(why->text), "%.*s",
			 (int)sizeof(why->text) - 1, text);
}
