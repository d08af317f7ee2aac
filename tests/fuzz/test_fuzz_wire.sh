#!/bin/bash
# tests/fuzz/test_fuzz_wire.sh - fuzz the wire decoder for 20 s
# (tests/fuzz/run.sh): any crash, ASan/UBSan report or broken round trip
# fails the test. Skipped (77) when clang or its libFuzzer runtime is
# missing.
cd "$(dirname "$0")/../.." || exit 1
exec tests/fuzz/run.sh "${RDMABENCH_FUZZ_SECONDS:-20}"
