/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test - arithmetic on what one run is (the client's configuration, which
 * the server adopts). Pure: no verbs headers.
 */
#ifndef RDMABENCH_SPEC_TEST_H
#define RDMABENCH_SPEC_TEST_H

#include <stdint.h>

#include "spec/wire.h"

/* The message sizes the run measures: first..last, doubling. */
void test_sizes(const struct wire_hello *t, uint64_t *first, uint64_t *last);

/*
 * Messages a region holds. Validation gives each operation in flight its
 * own slot (up to 64 MiB a region) so data is checked before its slot is
 * reused; otherwise every operation reuses one. At least 1.
 */
uint32_t test_slots(const struct wire_hello *t);

#endif
