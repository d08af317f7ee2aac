#!/bin/bash
# scripts/test.sh [--build san|release] [--no-setup] [NAME...] - the tests
# on a fresh Debian 12 machine, as root: the README's test command, and
# what CI runs (.ci/run calls it), one path for both. Every suite runs
# once, under the build that finds the most:
#
#   setup    scripts/lab/setup.sh: packages, the lab kernel, siw (cached:
#            about a second once done)
#   build    build/ (release, WERROR=1), its Debian package (make deb,
#            lintian) and, with --build san (the default), build-san/
#            (ASan+UBSan, WERROR=1)
#   check    make check on the chosen build: layer, cycle and header
#            checks, the unit tests; each fuzzer runs RDMABENCH_FUZZ_SECONDS
#            (30 here), once
#   image    scripts/image.sh: the image from deploy/Dockerfile (podman;
#            its Debian base made by mmdebstrap), for the lab's k8s-image
#            boot
#   lab      make lab on the chosen build: every lab boot once
#            (tests/run-lab.sh), three at a time (RDMABENCH_LAB_JOBS,
#            default 3 here: a boot mostly waits), and what only a release build shows (the
#            package, valgrind's pairs, flat RSS) on build/
#
# --build release: everything on build/ (faster, finds less).
# NAMEs run only those: unit tests (test_netdev, host/test_netdev,
# 'test_fabric*'), the checks (layers, cycles, headers), lab cases or case
# files (address.rxe.hostname, address, fabric, k8s: tests/run-lab.sh says
# how they are matched); the package is built only when the lab's package
# case is among them.
#
# Each step prints its wall time; results are TAP files in
# BUILD/test-results/ (prove -e cat reads them). The end: the step times,
# tests/tap-sum.sh over every result (totals, failures, retried cases, the
# ten slowest) and, last, "N passed, N failed, N skipped". Exit 0 when
# nothing failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
mode=san setup=1 names=()
while [ $# -gt 0 ]; do
	case $1 in
	--build) mode=${2:-}; shift 2 || break ;;
	--build=*) mode=${1#*=}; shift ;;
	--no-setup) setup=0; shift ;;
	-h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "test.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
	*) names+=("$1"); shift ;;
	esac
done
case $mode in
san) B=build-san; san=(SAN=1) ;;
release) B=build; san=() ;;
*) echo "test.sh: --build '$mode': must be san or release" >&2; exit 2 ;;
esac
REL=build R=$B/test-results
T0=$SECONDS

# the names for make check and for the lab
unit=() lab=()
for n in "${names[@]}"; do
	case $n in
	test_* | */test_* | layers | cycles | headers) unit+=("$n") ;;
	*) lab+=("$n") ;;
	esac
done
want_check=1 want_lab=1 want_deb=1 want_image=1
if [ ${#names[@]} -gt 0 ]; then
	[ ${#unit[@]} -gt 0 ] || want_check=0
	[ ${#lab[@]} -gt 0 ] || want_lab=0
	want_deb=0 want_image=0
	for n in "${lab[@]}"; do
		[[ $n == package* ]] && want_deb=1
		[[ $n == k8s-image* ]] && want_image=1
	done
else
	export RDMABENCH_FUZZ_SECONDS=${RDMABENCH_FUZZ_SECONDS:-30}
fi

steps=() nstep=0
mkdir -p "$R" || exit 1
rm -f "$R"/*.tap
: > "$R/steps.tap"
# step [--cases] NAME CMD...: run CMD, print its wall time and record its
# result (--cases: a runner whose cases are in TAP files of their own, so
# the step is not counted again)
step() {
	local tally=1 name t0=$SECONDS rc
	[ "$1" = --cases ] && { tally=0; shift; }
	name=$1
	shift
	echo "=== step $name ==="
	"$@"
	rc=$?
	nstep=$((nstep + tally))
	steps+=("$(printf '%6d s  %s (exit %d)' $((SECONDS - t0)) "$name" "$rc")")
	echo "=== step $name: $((SECONDS - t0)) s, exit $rc ==="
	[ "$tally" = 1 ] || return "$rc"
	if [ "$rc" = 0 ]; then echo "ok $nstep - $name ($((SECONDS - t0)) s)"
	else printf 'not ok %d - %s (%d s)\n# exit %d\n' "$nstep" "$name" $((SECONDS - t0)) "$rc"; fi >> "$R/steps.tap"
	return "$rc"
}

[ "$setup" = 0 ] || step setup scripts/lab/setup.sh || {
	echo "1..$nstep" >> "$R/steps.tap"; tests/tap-sum.sh "$R/steps.tap"; exit 1; }
built=1
step "build release (build/)" make -s -j2 WERROR=1 all tools unit-build man completion || built=0
if [ "$want_deb" = 1 ] && [ "$built" = 1 ]; then
	step "package (make deb, lint-deb)" make -s deb lint-deb
fi
[ "$want_image" = 1 ] && step "image (scripts/image.sh)" scripts/image.sh
if [ "$mode" = san ]; then
	step "build san (build-san/)" make -s -j2 B=build-san "${san[@]}" WERROR=1 all tools unit-build man completion || built=0
fi
# through make, as a developer runs them (the build's knobs reach the tests
# that build again, such as test_install); the runners write their own TAP
# files into $R, which hold their results
if [ "$built" = 1 ]; then
	mk=(make -s --no-print-directory B="$B" "${san[@]}" WERROR=1)
	[ "$want_check" = 1 ] && step --cases "check ($B)" "${mk[@]}" check ONLY="${unit[*]}"
	export RDMABENCH_LAB_JOBS=${RDMABENCH_LAB_JOBS:-3}
	[ "$want_lab" = 1 ] && step --cases "lab ($B; release cases on $REL)" \
		"${mk[@]}" lab REL="$REL" ONLY="${lab[*]}"
fi
echo "1..$nstep" >> "$R/steps.tap"

echo
echo "=== step times (total $((SECONDS - T0)) s) ==="
printf '%s\n' "${steps[@]}"
[ -s "$R/unit.tap" ] || [ "$want_check" = 0 ] || [ "$built" = 0 ] ||
	printf 'not ok 1 - the unit runner wrote no results\n1..1\n' > "$R/unit.tap"
tests/tap-sum.sh "$R"
