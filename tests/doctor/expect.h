/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/doctor/expect.h - the doctor tests' checks on one finding of a
 * report: its verdict, and a piece of its detail or fix; where the fake
 * roots lie. Include after tests/test.h.
 */
#ifndef RDMABENCH_TESTS_DOCTOR_EXPECT_H
#define RDMABENCH_TESTS_DOCTOR_EXPECT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/findings.h"

/* The fake root tests/fixtures/doctor/TREE (below TEST_SRCDIR) in buf. */
static inline const char *doctor_tree(const char *tree, char *buf,
				      size_t len)
{
	const char *src = getenv("TEST_SRCDIR");

	snprintf(buf, len, "%s/tests/fixtures/doctor/%s",
		 src && src[0] ? src : ".", tree);
	return buf;
}

/* The finding (check, subject) of rep has verdict want. */
#define EXPECT_VERDICT(rep, check, subject, want)			\
	do {								\
		const struct finding *f_ =				\
			findings_find((rep), (check), (subject));	\
		TEST_CHECK_(f_ && f_->verdict == (want),		\
			    "EXPECT_VERDICT(" #check ", " #subject ")",	\
			    "got %s (%s), want %s",			\
			    f_ ? findings_verdict_str(f_->verdict) : "none", \
			    f_ ? f_->detail : "",			\
			    findings_verdict_str(want));		\
	} while (0)

/* The finding's detail (its fix, with in_fix = 1) contains text. */
#define EXPECT_TEXT(rep, check, subject, in_fix, text)			\
	do {								\
		const struct finding *f_ =				\
			findings_find((rep), (check), (subject));	\
		const char *t_ = f_ ? ((in_fix) ? f_->fix : f_->detail) : ""; \
		TEST_CHECK_(f_ && strstr(t_, (text)),			\
			    "EXPECT_TEXT(" #check ", " #text ")",	\
			    "\"%s\" lacks \"%s\"", t_, (text));		\
	} while (0)

#endif /* RDMABENCH_TESTS_DOCTOR_EXPECT_H */
