/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * results_junit - the results document as JUnit XML, for CI. Pure.
 *
 * One testsuite named after the tool; a testcase "<tool>.run" (error
 * element when the run did not finish, failure when corrupt or when the
 * verdict is fail with no failed gate listed), one per gate
 * "<tool>.<size_bytes>.<gate name>" (failure with the reason), and
 * without gates one per measured size "<tool>.<size_bytes>". Bytes XML
 * cannot carry become U+FFFD: the output always parses.
 */
#ifndef RDMABENCH_REPORT_RESULTS_JUNIT_H
#define RDMABENCH_REPORT_RESULTS_JUNIT_H

#include <stdio.h>

#include "report/results.h"

/*
 * Write d to out as one complete document. Returns 0, -EINVAL for a
 * document results_check() refuses, -EIO when out reported a write error.
 */
int results_junit_write(const struct results_doc *d, FILE *out);

#endif
