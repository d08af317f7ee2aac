/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/test.h - a minimal check harness, no framework. Each unit test
 * (tests/FOLDER/test_NAME.c) is its own program: checks never abort, so
 * one run reports every failure. Counters are static, i.e. private to the
 * one program including this.
 */
#ifndef RDMABENCH_TESTS_TEST_H
#define RDMABENCH_TESTS_TEST_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Exit status meaning "skipped" to automake-style runners. */
#define TEST_SKIP 77

static unsigned int test_checks_, test_failed_;

/* Count one check; on failure print where and what, then both values. */
#define TEST_CHECK_(ok, expr, fmt, ...)					\
	do {								\
		test_checks_++;						\
		if (!(ok)) {						\
			test_failed_++;					\
			fprintf(stderr, "%s:%d: FAIL %s: " fmt "\n",	\
				__FILE__, __LINE__, expr, __VA_ARGS__);	\
		}							\
	} while (0)

#define EXPECT_TRUE(cond)						\
	TEST_CHECK_((cond), "EXPECT_TRUE(" #cond ")", "%s", "false")

#define EXPECT_EQ_U64(a, b)						\
	do {								\
		uint64_t a_ = (a), b_ = (b);				\
		TEST_CHECK_(a_ == b_, "EXPECT_EQ_U64(" #a ", " #b ")",	\
			    "%" PRIu64 " != %" PRIu64, a_, b_);		\
	} while (0)

#define EXPECT_EQ_INT(a, b)						\
	do {								\
		long long a_ = (a), b_ = (b);				\
		TEST_CHECK_(a_ == b_, "EXPECT_EQ_INT(" #a ", " #b ")",	\
			    "%lld != %lld", a_, b_);			\
	} while (0)

#define EXPECT_NEAR(a, b, tol)						\
	do {								\
		double a_ = (a), b_ = (b), t_ = (tol);			\
		TEST_CHECK_(fabs(a_ - b_) <= t_,			\
			    "EXPECT_NEAR(" #a ", " #b ", " #tol ")",	\
			    "%.12g vs %.12g (tol %g)", a_, b_, t_);	\
	} while (0)

#define EXPECT_STREQ(a, b)						\
	do {								\
		const char *a_ = (a), *b_ = (b);			\
		TEST_CHECK_(a_ && b_ && !strcmp(a_, b_),		\
			    "EXPECT_STREQ(" #a ", " #b ")",		\
			    "\"%s\" != \"%s\"", a_ ? a_ : "(null)",	\
			    b_ ? b_ : "(null)");			\
	} while (0)

/* Print "<name>: N checks, N failed"; the value is main()'s exit status. */
static inline int test_finish(const char *name)
{
	printf("%s: %u checks, %u failed\n", name, test_checks_, test_failed_);
	return test_failed_ ? 1 : 0;
}

#endif
