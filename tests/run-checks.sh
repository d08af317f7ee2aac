#!/bin/bash
# tests/run-checks.sh BUILD_DIR [NAME...] - what `make check` runs, the fast
# suite (no root, no VM): the layer check, the cycle check, the header
# check and the unit tests (tests/run-unit.sh): tests/test_*.sh and
# tests/FOLDER/test_*.{c,sh}, each in the folder of the code it tests.
# NAMEs (or ONLY, as in "make check ONLY=test_netdev") run just those: unit
# tests by name or path below tests/ (test_netdev, host/test_netdev; globs
# allowed: 'test_fabric*', 'host/*'), a folder's tests by its name (host,
# lib), or the checks layers, cycles, headers.
# Results: BUILD_DIR/test-results/checks.tap and unit.tap (TAP, one line a
# test); the end is tests/tap-sum.sh over them, whose last line is
# "N passed, N failed, N skipped".
set -u
B=${1:-build}
shift
cd "$(dirname "$0")/.." || exit 1
R=$B/test-results
mkdir -p "$B/tests" "$R" || exit 1
read -r -a only <<< "${*:-${ONLY:-}}"
unset ONLY # read: the tests must not take it for theirs (run-lab.sh does)
shopt -s nullglob extglob
# a C test in tests/ itself would never be built: say so rather than skip it
for t in tests/test_*.c; do
	echo "run-checks: $t: a C unit test lives in the folder of the code it tests (tests/lib/, tests/host/, ...: docs/testing.md), where make builds it" >&2
	exit 2
done

# wanted NAME: no names given, or one of them (a glob) matches NAME, its
# last part (host/test_netdev: test_netdev) or its folder (host)
# shellcheck disable=SC2053 # a pattern is a glob on purpose
wanted() {
	local p
	[ ${#only[@]} = 0 ] && return 0
	for p in "${only[@]}"; do
		[[ $1 == $p || ${1##*/} == $p ]] && return 0
		if [[ $1 == */* ]]; then [[ ${1%/*} == "$p" ]] && return 0
		elif [[ test_$1 == $p ]]; then return 0; fi
	done
	return 1
}

taps=()
n=0
: > "$R/checks.tap"
for c in "layers tests/check-layers.sh" "cycles tests/check-cycles.sh $B" \
	"headers tests/check-headers.sh $B"; do
	wanted "${c%% *}" || continue
	n=$((n + 1))
	t0=$SECONDS
	if ${c#* }; then echo "ok $n - ${c%% *} ($((SECONDS - t0)) s)"
	else echo "not ok $n - ${c%% *} ($((SECONDS - t0)) s)"; fi >> "$R/checks.tap"
done
if [ $n -gt 0 ]; then echo "1..$n" >> "$R/checks.tap"; taps+=("$R/checks.tap")
else rm -f "$R/checks.tap"; fi

tests=()
# each test as its path below tests/ without the suffix (host/test_netdev)
for t in tests/test_*.sh tests/*/test_*.@(c|sh); do
	t=${t#tests/}
	t=${t%.*}
	wanted "$t" && tests+=("$t")
done
if [ ${#tests[@]} -gt 0 ]; then
	RDMABENCH_TAP=$R/unit.tap tests/run-unit.sh "$B/tests" "${tests[@]}"
	taps+=("$R/unit.tap")
fi
if [ ${#taps[@]} = 0 ]; then
	echo "run-checks: no test named '${only[*]}': the checks are layers, cycles, headers; the unit tests are tests/test_*.sh and tests/*/test_*" >&2
	exit 2
fi
tests/tap-sum.sh "${taps[@]}"
