#!/bin/bash
# tests/run-lab.sh BUILD_DIR - what `make lab` runs: the lab tests (the
# project's binaries on real verbs, rxe and siw, in QEMU guests): the whole
# matrix, a two-NUMA-node boot and the two-node Kubernetes lab. Ends with
# the line "N passed, N failed, N skipped", summed over the boots.
#
# The lab layer is skipped (with the reason) only when QEMU truly cannot
# run here: no qemu-system-x86_64 or no lab kernel (scripts/lab/setup.sh).
set -u
B=${1:-build}
cd "$(dirname "$0")/.."
total_pass=0 total_fail=0 total_skip=0

count() { # LINE: add "X: N passed, N failed, N skipped" to the totals
	local p f s
	p=$(sed -n 's/.* \([0-9]*\) passed.*/\1/p' <<<"$1")
	f=$(sed -n 's/.* \([0-9]*\) failed.*/\1/p' <<<"$1")
	s=$(sed -n 's/.* \([0-9]*\) skipped.*/\1/p' <<<"$1")
	total_pass=$((total_pass + ${p:-0}))
	total_fail=$((total_fail + ${f:-0}))
	total_skip=$((total_skip + ${s:-0}))
}

# One lab boot: ENV... -- CASES...; its summary joins the totals.
run_lab() {
	local lab_log line lab_rc
	lab_log=$(mktemp)
	env "$@" 2>&1 | tee "$lab_log"
	lab_rc=${PIPESTATUS[0]}
	line=$(grep -a '^lab: [0-9]* passed' "$lab_log" | tail -n 1)
	if [ "$lab_rc" -eq 77 ]; then
		echo "lab: skipped: $(tail -n 1 "$lab_log")"
		total_skip=$((total_skip + 1))
	elif [ -n "$line" ]; then
		count "$line"
		# a guest that died after its summary still fails the run
		if [ "$lab_rc" -ne 0 ] && [[ "$line" == *", 0 failed"* ]]; then
			echo "lab: the guest exited $lab_rc after a clean summary"
			total_fail=$((total_fail + 1))
		fi
	else
		echo "lab: the guest gave no summary (exit $lab_rc)"
		total_fail=$((total_fail + 1))
	fi
	rm -f "$lab_log"
}

# the whole matrix takes ~10 minutes of TCG time: well inside CI's 90
export RDMABENCH_LAB_TIMEOUT=${RDMABENCH_LAB_TIMEOUT:-3600}
run_lab RDMABENCH_BUILD="$B" scripts/lab/run.sh tests/lab/all.sh
# NUMA pinning needs a guest with two nodes: a second, short boot
run_lab RDMABENCH_BUILD="$B" RDMABENCH_LAB_NUMA=2 \
	scripts/lab/run.sh tests/lab/all.sh numa
# Kubernetes: the manifests' entrypoint on two "nodes" (two guests, one link)
k8s_log=$(mktemp)
tests/k8s/lab-two-node.sh 2>&1 | tee "$k8s_log"
k8s_rc=${PIPESTATUS[0]}
line=$(grep -a '^k8s-lab: [0-9]* passed' "$k8s_log" | tail -n 1)
if [ -n "$line" ]; then
	count "$line"
elif [ "$k8s_rc" -ne 77 ]; then
	echo "k8s-lab: no summary (exit $k8s_rc)"
	total_fail=$((total_fail + 1))
fi
rm -f "$k8s_log"
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
