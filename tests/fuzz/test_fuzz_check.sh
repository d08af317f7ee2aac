#!/bin/bash
# tests/fuzz/test_fuzz_check.sh - fuzz the server's checks of a HELLO and its
# resource plan (tests/fuzz/fuzz_check.c) for RDMABENCH_FUZZ_SECONDS (CI:
# 60, as the decoder's fuzzer), 10 s by default (make check): an accepted
# test above a cap, a crash or an ASan/UBSan report fails the test.
# Skipped (77) when clang or its libFuzzer runtime is missing.
cd "$(dirname "$0")/../.." || exit 1
exec tests/fuzz/run.sh --target check "${RDMABENCH_FUZZ_SECONDS:-10}"
