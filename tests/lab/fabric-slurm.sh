#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/lab/fabric-slurm.sh - ib_fabric through Slurm on the lab fabric:
# runs on node-1 of scripts/lab/run-group.sh:
#   scripts/lab/run-group.sh tests/lab/fabric-slurm.sh [PATTERN...]
# Starts Debian's munge and Slurm in the guests (munged on every node with
# the host's /etc/munge/munge.key, which every guest sees; slurmctld on
# node-1, slurmd on each; one slurm.conf in $LAB_OUT), then for each
# pattern (default all six)
#   srun -N N --ntasks-per-node=1 ib_fabric -P PATTERN --out DIR -- ...
# (the node list from Slurm) and checks the report against the plan as
# tests/lab/fabric-group.sh does; then "nccl": ib_fabric --nccl-test
# through srun over a replaying STAND-IN (srun_nccl). Skips when
# slurmd/munged are missing.
# shellcheck disable=SC2086 # the tool arguments are split on purpose
source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"

B=${RDMABENCH_BUILD:-build}
ARGS=${RDMABENCH_FABRIC_ARGS:--D 2 -s 65536 -t 16 -u 19}
F=$LAB_OUT/slurm
export SLURM_CONF=$F/slurm.conf

slurm_conf() {
	cat <<-EOF
		ClusterName=lab
		SlurmctldHost=node-1
		SlurmUser=root
		SlurmdUser=root
		AuthType=auth/munge
		CredType=cred/munge
		MpiDefault=none
		ProctrackType=proctrack/linuxproc
		TaskPlugin=task/none
		SchedulerType=sched/builtin
		SelectType=select/linear
		JobAcctGatherType=jobacct_gather/none
		AccountingStorageType=accounting_storage/none
		ReturnToService=2
		SlurmctldPidFile=/run/slurmctld.pid
		SlurmdPidFile=/run/slurmd.pid
		SlurmdSpoolDir=/var/spool/slurmd
		StateSaveLocation=/var/spool/slurmctld
		SlurmctldLogFile=$F/slurmctld.log
		SlurmdLogFile=$F/slurmd-%n.log
		NodeName=node-[1-$LAB_NODES] CPUs=1 RealMemory=256 State=UNKNOWN
		PartitionName=lab Nodes=ALL Default=YES MaxTime=INFINITE State=UP
	EOF
}

# the daemons of one node (over ssh; node-1 also runs slurmctld)
slurm_start() {
	local ctld=
	[ "$1" = node-1 ] && ctld="slurmctld -f $SLURM_CONF &&"
	ssh "$1" "mkdir -p /run/munge /var/spool/slurmd /var/spool/slurmctld &&
		{ mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup; } &&
		echo '+cpuset +cpu +memory +pids' > /sys/fs/cgroup/cgroup.subtree_control &&
		mkdir -p /sys/fs/cgroup/system.slice &&
		echo '+cpuset +cpu +memory +pids' > /sys/fs/cgroup/system.slice/cgroup.subtree_control &&
		chown munge: /run/munge && runuser -u munge -- /usr/sbin/munged &&
		$ctld slurmd -f $SLURM_CONF"
}

# srun_fabric PATTERN: one run through srun, its report and its check
srun_fabric() {
	local d=$F/$1
	mkdir -p "$d" || return 1
	"$B/ib_fabric" -P "$1" -H "$LAB_HOSTS" --dry-run=json -- $ARGS > "$d.plan.json" || return 1
	srun --immediate=60 -N "$LAB_NODES" --ntasks-per-node=1 "$B/ib_fabric" -P "$1" --out "$d" \
		--timeout 120 -- $ARGS
	echo "srun: exit $?"
	/usr/bin/python3 scripts/fabric_report.py --slow-fraction 0.5 --out-dir "$d" "$d"
	/usr/bin/python3 tests/lab/fabric_check.py "$d.plan.json" "$d"
}

# srun_nccl: ib_fabric --nccl-test through srun with
# tests/fabric/nccl_replay.sh, a STAND-IN for an nccl-tests program that
# replays the real H200 capture (no GPU here; NCCL over Socket there):
# every rank collected, every rank fails on the transport
srun_nccl() {
	local d=$F/nccl
	mkdir -p "$d" || return 1
	srun --immediate=60 -N "$LAB_NODES" --ntasks-per-node=1 "$B/ib_fabric" \
		--nccl-test tests/fabric/nccl_replay.sh --out "$d" --timeout 60 \
		-- tests/fixtures/nccl/real-h200-nccl-tests-2.28.9-all_reduce.log -b 8 -e 128M
	echo "srun: exit $?"
	/usr/bin/python3 scripts/fabric_report.py "$d"
	/usr/bin/python3 tests/lab/nccl_check.py "$d" "$LAB_NODES" slurm fail
}

# slurm_up: every node IDLE in sinfo (at most 60 s)
slurm_up() {
	local i out
	for ((i = 0; i < 60; i++)); do
		out=$(sinfo -h -o '%D %t' 2>&1)
		echo "sinfo: $out"
		[ "$out" = "$LAB_NODES idle" ] && return 0
		lab_sleep 1
	done
	return 1
}

if [ -z "${LAB_NODES:-}" ] || ! command -v slurmd > /dev/null || ! command -v munged > /dev/null; then
	lab_skip slurm "needs scripts/lab/run-group.sh and Debian's slurmd, slurmctld, slurm-client, munge"
	lab_summary
fi
mkdir -p "$F" && slurm_conf > "$SLURM_CONF"
# slurmd needs its cgroup plugin even with proctrack/linuxproc: cgroup v2
# (mounted by slurm_start), made by slurmd itself (no systemd in the lab)
printf 'CgroupPlugin=cgroup/v2\nIgnoreSystemd=yes\n' > "$F/cgroup.conf"
for ((k = 1; k <= LAB_NODES; k++)); do
	lab_case "slurm.start.node-$k" -t 60 slurm_start "node-$k"
done
lab_case slurm.up -t 90 slurm_up
want=("$@")
[ ${#want[@]} -gt 0 ] || want=(pairs ring all-to-all bisection incast fan-out nccl)
for w in "${want[@]}"; do
	case $w in
	nccl) lab_case "slurm.$w" -t 120 -e 'nccl-check: .*: ok' -e 'srun: exit [1-9]' \
		-e 'NCCL used sockets' srun_nccl ;;
	*) lab_case "slurm.$w" -t 300 -e 'fabric-check: .*: ok' srun_fabric "$w" ;;
	esac
done
lab_summary
