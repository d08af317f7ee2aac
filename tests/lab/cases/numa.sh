# tests/lab/cases/numa.sh - sourced by tests/lab/all.sh in the lab guest:
# NUMA placement (common/host/place.c) in a guest with two NUMA nodes. The usual
# guest has one, so this file skips there; run it with
#   RDMABENCH_LAB_NUMA=2 scripts/lab/run.sh tests/lab/all.sh numa
# (node 0: CPU 0 and half the memory; node 1: CPU 1 and the other half).
#
# What the process does is read from the kernel while it runs, not only
# from its header: /proc/PID/status (Cpus_allowed_list) and
# /proc/PID/numa_maps (a "bind:1" mapping whose pages are all on N1).
# shellcheck shell=bash

# numa_watch CMD...: run CMD, sampling its CPUs and its node-1-bound
# memory every 0.1 s until it ends; then print
#   numa-watch: cpus=LIST node1_pages=N
# (the last CPU list seen, the largest "bind:1" mapping with pages on node
# 1 only) and return CMD's status. Bash builtins only (TCG forks are slow).
numa_watch() {
	local pid rc line cpus='' pages=0 n maps IFS=$'\n'
	local -; set -f # the lines split on newlines only, never globbed
	"$@" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		while read -r line; do
			[[ $line == Cpus_allowed_list:* ]] &&
				cpus=${line#Cpus_allowed_list:}
		done 2>/dev/null < "/proc/$pid/status" # gone: nothing
		# numa_maps read in one pass: line by line, read seeks back
		# and the kernel walks the mappings again for every line
		# (seconds a sample for an ASan process on a loaded host)
		maps=''
		IFS= read -r -d '' maps 2>/dev/null < "/proc/$pid/numa_maps"
		n=0 # all of one sample's node-1-only bound mappings
		for line in $maps; do
			[[ $line == *bind:1* && $line != *N0=* &&
			   $line =~ N1=([0-9]+) ]] || continue
			n=$((n + BASH_REMATCH[1]))
		done
		[ "$n" -gt "$pages" ] && pages=$n
		lab_sleep 0.1
	done
	wait "$pid"
	rc=$?
	cpus=${cpus//[[:space:]]/}
	echo "numa-watch: cpus=${cpus:-unknown} node1_pages=$pages"
	return "$rc"
}

# a watch that saw at least 512 pages bound to node 1 (the client's two
# 1 MiB buffers); a watch can miss them when TCG stalls the watcher on a
# loaded host, so the cases that want them are rerun once (--retries 1)
NUMA_512='node1_pages=(5(1[2-9]|[2-9][0-9])|[6-9][0-9]{2}|[1-9][0-9]{3,})'

# numa_pages_at_least NAME MIN_PAGES: the last client's node-1 pages
numa_pages_at_least() {
	local re='node1_pages=([0-9]+)'
	if [[ $LAB_CLIENT_OUT =~ $re ]] && [ "${BASH_REMATCH[1]}" -ge "$2" ]; then
		lab_pass "$1" "${BASH_REMATCH[1]} pages bound to node 1"
	else
		lab_fail "$1" "want >= $2 pages bound to node 1: '${BASH_REMATCH[0]:-none}'"
	fi
}

nodes=(/sys/devices/system/node/node[0-9]*)
if [ "${#nodes[@]}" -lt 2 ] || [ ! -e "${nodes[1]}" ]; then
	lab_skip numa "the guest has one NUMA node: run RDMABENCH_LAB_NUMA=2 scripts/lab/run.sh tests/lab/all.sh numa"
elif ! lab_have rxe; then
	lab_skip numa "no rxe0 came up in this guest"
else
	ip=$LAB_RXE_IP
	read -r node0_cpus < /sys/devices/system/node/node0/cpulist
	read -r node1_cpus < /sys/devices/system/node/node1/cpulist
	read -r all_cpus < /sys/devices/system/cpu/online
	# 1 MiB messages: the two 1 MiB regions span 512 pages of 4 KiB; a 2 s
	# run (-D 3) keeps them mapped long enough to be watched every 0.1 s
	# (-n 50 was over in 0.3-0.5 s on an idle host: the watch missed it;
	# -D 2 was missed twice in a row with three boots on two cores)
	big=(-s 1M -D 3)

	# --numa 1: CPUs of node 1 only, buffers bound to node 1
	# and -D shorter than one round of 1 MiB posts on rxe: a real row
	# (it was 0.00 with an unset count), the whole run's
	lab_pair numa.node1 --retries 1 -t 180 -e "NUMA node +: 1, CPUs $node1_cpus" \
		-e "numa-watch: cpus=$node1_cpus $NUMA_512" \
		-n '1048576 +([0-9]+ +0\.00 +0\.00|[0-9]{13,})' \
		"$B/ib_write_bw" -- numa_watch "$B/ib_write_bw" --numa 1 \
		"${big[@]}" "$ip" &&
		numa_pages_at_least numa.node1.buffer 512

	# perftest's spelling of the same
	lab_pair numa.numa_node1 -t 180 -e "NUMA node +: 1, CPUs $node1_cpus" \
		-e "numa-watch: cpus=$node1_cpus " \
		"$B/ib_write_bw" -- numa_watch "$B/ib_write_bw" --numa_node=1 \
		"${big[@]}" "$ip"

	# rxe0 has no NUMA node: nothing is pinned, nothing is bound
	lab_pair numa.auto_rxe -t 180 -e "NUMA node +: unknown" \
		-e "numa-watch: cpus=$all_cpus node1_pages=0" \
		"$B/ib_write_bw" -- numa_watch "$B/ib_write_bw" "${big[@]}" "$ip"

	# --cpu 0 with --numa 1: the CPU list wins, the buffers stay on 1
	lab_pair numa.cpu0 --retries 1 -t 180 -e "NUMA node +: 1, CPUs $node0_cpus" \
		-e "numa-watch: cpus=$node0_cpus $NUMA_512" \
		"$B/ib_write_bw" -- numa_watch "$B/ib_write_bw" --numa 1 \
		--cpu "$node0_cpus" "${big[@]}" "$ip" &&
		numa_pages_at_least numa.cpu0.buffer 512

	# --numa off: neither
	lab_pair numa.off -t 180 -e "numa-watch: cpus=$all_cpus node1_pages=0" \
		"$B/ib_write_bw" -- numa_watch "$B/ib_write_bw" --numa off \
		"${big[@]}" "$ip"

	# requests that cannot be met: usage errors, before any server
	lab_case numa.no_such_node -t 60 -r 2 \
		-e "--numa 3: this host has no NUMA node 3 \(nodes: 0-1\)" \
		"$B/ib_write_bw" --numa 3 --connect-timeout 3 "$ip"
	lab_case numa.cpu_outside -t 60 -r 2 \
		-e "--cpu 7: CPU 7 is outside the CPUs this process may use \($all_cpus" \
		"$B/ib_write_bw" --cpu 7 --connect-timeout 3 "$ip"
fi
