#!/bin/bash
# tests/fuzz/run.sh [--target T] [SECONDS] [-- LIBFUZZER_ARG...] - build a
# libFuzzer target (clang with ASan+UBSan) and fuzz it for SECONDS (default
# 60), starting from the seed corpus tests/fuzz/corpus/wire/ (read only) and
# the inputs earlier runs found ($RDMABENCH_BUILD/fuzz/corpus-T/, kept
# between runs). Targets (tests/fuzz/fuzz_T.c):
#   wire   (default) the wire decoder: any bytes -> wire_unpack, round trips
#   check  bytes as a HELLO's body -> the server's checks and resource plan
#          (check_test, plan_test): an accepted test never exceeds the caps
#   tests/fuzz/run.sh --regen   rewrite the seed corpus (tests/fuzz/gen_corpus.c)
# Exit: 0 no crash; 1 a crash, a leak, a timeout or a broken round trip (the
# input is saved as $RDMABENCH_BUILD/fuzz/crash-*; replay it with
# "$RDMABENCH_BUILD/fuzz/fuzz_T FILE"); 2 usage; 77 no clang or no
# libFuzzer runtime (apt-get install clang libclang-rt-14-dev).
# docs/fuzzing.md says how to run it longer and in parallel.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${RDMABENCH_BUILD:-build}
OUT=$B/fuzz
CC_FUZZ=${CLANG:-clang}
SEEDS=tests/fuzz/corpus/wire
# shellcheck disable=SC2054 # the commas belong to -fsanitize=
FLAGS=(-g -O1 -std=gnu11 -Wall -Wextra -Icommon -I.
       -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -fno-omit-frame-pointer)

secs=60
target=wire
if [ "${1:-}" = --target ]; then
	target=${2:-}
	shift 2 || { echo "usage: $0 --target wire|check ..." >&2; exit 2; }
fi
case $target in
wire | check) ;;
*) echo "fuzz: no target '$target' (wire, check)" >&2; exit 2 ;;
esac
if [ "${1:-}" = --regen ]; then
	mkdir -p "$OUT" || exit 1
	gcc -std=gnu11 -Wall -Wextra -Icommon -I. tests/fuzz/gen_corpus.c \
		common/spec/wire.c common/lib/sanitize.c -o "$OUT/gen_corpus" || exit 1
	rm -f "$SEEDS"/*
	mkdir -p "$SEEDS" && "$OUT/gen_corpus" "$SEEDS" || exit 1
	echo "fuzz: wrote $(find "$SEEDS" -type f | wc -l) seeds to $SEEDS"
	exit 0
fi
if [ $# -gt 0 ] && [ "$1" != -- ]; then
	secs=$1
	shift
fi
[ "${1:-}" = -- ] && shift
if ! [[ $secs =~ ^[0-9]+$ ]] || [ "$secs" -lt 1 ]; then
	echo "usage: $0 [SECONDS] [-- LIBFUZZER_ARG...] | --regen" >&2
	exit 2
fi

if ! command -v "$CC_FUZZ" >/dev/null 2>&1; then
	echo "fuzz: $CC_FUZZ not found (apt-get install clang libclang-rt-14-dev)"
	exit 77
fi
mkdir -p "$OUT/corpus-$target" || exit 1
# the runtime is a separate package on Debian: probe it with a stub
probe=$OUT/probe.c
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n);
int LLVMFuzzerTestOneInput(const char *d, unsigned long n)
{ (void)d; (void)n; return 0; }' > "$probe"
if ! "$CC_FUZZ" -fsanitize=fuzzer,address,undefined "$probe" \
	-o "$OUT/probe" 2>"$OUT/probe.log"; then
	echo "fuzz: $CC_FUZZ cannot link -fsanitize=fuzzer: $(head -n 1 "$OUT/probe.log")" \
		"(apt-get install libclang-rt-14-dev)"
	exit 77
fi
rm -f "$probe" "$OUT/probe" "$OUT/probe.log"
"$CC_FUZZ" "${FLAGS[@]}" "tests/fuzz/fuzz_$target.c" common/spec/wire.c \
	common/spec/test.c common/spec/check.c common/spec/plan.c \
	common/spec/limit.c common/lib/units.c common/lib/sanitize.c -o "$OUT/fuzz_$target" ||
	{ echo "fuzz: build failed"; exit 1; }

# new inputs go into the first folder only: the seeds stay untouched.
# -error_exitcode: libFuzzer's default, 77, would read as "skipped".
echo "fuzz: fuzz_$target for ${secs} s"
log=$OUT/fuzz_$target.log
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
"$OUT/fuzz_$target" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-max_len=1024 -error_exitcode=1 -timeout_exitcode=1 \
	-print_final_stats=1 -artifact_prefix="$OUT/" "$@" \
	"$OUT/corpus-$target" "$SEEDS" >"$log" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
	grep -E "ERROR|SUMMARY|fuzz_$target:|runtime error|Test unit written" "$log" |
		head -n 20
	echo "fuzz: FAILED (exit $rc): full log $log; replay a saved input" \
		"with $OUT/fuzz_$target $OUT/crash-..."
	exit 1
fi
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1)
echo "fuzz: fuzz_$target: ${runs:-?} inputs in ${secs} s, ${cov:-cov: ?}," \
	"no crash (corpus $(find "$OUT/corpus-$target" -type f | wc -l) found +" \
	"$(find "$SEEDS" -type f | wc -l) seeds)"
