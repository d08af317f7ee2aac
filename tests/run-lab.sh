#!/bin/bash
# tests/run-lab.sh BUILD_DIR - what `make lab` runs: the lab tests (the
# project's binaries on real verbs, rxe and siw, in QEMU guests): the whole
# matrix, a two-NUMA-node boot, a fabric of three guests (mpirun, srun) and the
# two-node Kubernetes lab. Ends with
# the line "N passed, N failed, N skipped", summed over the boots.
#
# The lab layer is skipped (with the reason) only when QEMU truly cannot
# run here: no qemu-system-x86_64 or no lab kernel (scripts/lab/setup.sh).
set -u
B=${1:-build}
cd "$(dirname "$0")/.." || exit 1
sums=$(mktemp)
trap 'rm -f "$sums"' EXIT

# One boot: ENV... -- CASES...; its last "lab: ..." line joins the sums
# (tests/sum-results.sh --last: none at all counts as one failure).
run_lab() {
	local lab_log lab_rc
	lab_log=$(mktemp)
	env "$@" 2>&1 | tee "$lab_log"
	lab_rc=${PIPESTATUS[0]}
	if [ "$lab_rc" -eq 77 ]; then
		echo "lab: skipped: $(tail -n 1 "$lab_log")"
		echo "lab: 0 passed, 0 failed, 1 skipped" >> "$sums"
	elif tests/sum-results.sh --last lab lab < "$lab_log" >> "$sums" &&
		[ "$lab_rc" -ne 0 ]; then
		# a guest that died after a clean summary still fails the run
		echo "lab: the guest exited $lab_rc after a clean summary"
		echo "lab: 0 passed, 1 failed, 0 skipped" >> "$sums"
	fi
	rm -f "$lab_log"
}

# the whole matrix takes ~10 minutes of TCG time: well inside CI's 90
export RDMABENCH_LAB_TIMEOUT=${RDMABENCH_LAB_TIMEOUT:-3600}
run_lab RDMABENCH_BUILD="$B" scripts/lab/run.sh tests/lab/all.sh
# NUMA pinning needs a guest with two nodes: a second, short boot (rxe
# only, so that --rails auto finds just the rails it can run over TCP)
run_lab RDMABENCH_BUILD="$B" RDMABENCH_LAB_NUMA=2 RDMABENCH_LAB_PROVIDERS=rxe \
	scripts/lab/run.sh tests/lab/all.sh numa rails
# Kubernetes: the manifests' entrypoint on two "nodes" (two guests, one link)
# two guests joined by a link: -T 106 on the wire (tcpdump on eth0)
run_lab RDMABENCH_BUILD="$B" scripts/lab/run-pair.sh "$B/ib_write_bw" -- \
	tests/lab/all.sh qpattr
# a fabric of three guests, two rails each: every ib_fabric pattern
# through mpirun, and a planted slow link (~3-5 minutes)
run_lab RDMABENCH_BUILD="$B" scripts/lab/run-group.sh tests/lab/fabric-group.sh
# the same fabric through Slurm (munge, slurmctld, slurmd in the guests)
run_lab RDMABENCH_BUILD="$B" scripts/lab/run-group.sh tests/lab/fabric-slurm.sh
k8s_log=$(mktemp)
# (it prints its summary even when it skips everything, exit 77)
tests/k8s/lab-two-node.sh 2>&1 | tee "$k8s_log"
tests/sum-results.sh --last k8s-lab k8s-lab < "$k8s_log" >> "$sums"
rm -f "$k8s_log"
tests/sum-results.sh < "$sums"
