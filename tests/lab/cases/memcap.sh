# tests/lab/cases/memcap.sh - sourced by tests/lab/all.sh in the lab guest:
# a --persistent server under a 512 MiB cgroup v2 memory limit derives its
# default --max-mem from it (half: 256 MiB), refuses a HELLO above that with
# the cap and its source on the client (exit 2), stays alive, and serves a
# good client next; over rdma_cm and --oob tcp (issue 14, OOM in a pod).
# shellcheck shell=bash

# A cgroup v2 folder limited to 512 MiB: its path in MEMCAP_CG, or 1.
memcap_cgroup() {
	local top=/sys/fs/cgroup
	if [ ! -e $top/cgroup.controllers ]; then
		mountpoint -q $top && return 1 # v1 or hybrid: not ours to change
		mount -t cgroup2 none $top || return 1
	fi
	grep -qw memory $top/cgroup.controllers || return 1
	grep -qw memory $top/cgroup.subtree_control ||
		echo +memory > $top/cgroup.subtree_control || return 1
	MEMCAP_CG=$top/rdmabench-memcap
	mkdir -p $MEMCAP_CG && echo 512M > $MEMCAP_CG/memory.max
}

# The server in that cgroup until the clients are done (tests/lab/serve.sh):
# this subshell moves there, the server inherits it.
source tests/lab/serve.sh
memcap_serve() { # PORT ARGS...
	echo $BASHPID > "$MEMCAP_CG/cgroup.procs" && serve_until_done "$@"
}

# 2 x 256 MiB of buffers: refused (exit 2); then a good client is served.
memcap_clients() { # PORT ADDR ARGS...
	local port=$1 addr=$2 rc=0
	shift 2
	"$B/ib_write_bw" -p "$port" "$@" "$addr" -s 256M -n 5
	[ $? = 2 ] || { echo "memcap: the big client was not refused"; rc=1; }
	"$B/ib_write_bw" -p "$port" "$@" "$addr" -n 100 || rc=1
	touch "/tmp/clients-done.$port"
	return $rc
}

if ! lab_have rxe; then
	lab_skip memcap "no rxe device"
elif ! memcap_cgroup; then
	lab_skip memcap "no cgroup v2 memory controller in the guest"
else
	for oob in cm tcp; do
		port=$((18640 + ${#oob}))
		addr=$LAB_RXE_IP
		[ $oob = tcp ] && addr=localhost
		lab_pair "memcap.$oob" -t 120 -R 0 -g 40 \
			-e 'this server allows 256\.0 MiB \(--max-mem: half the cgroup limit 512\.0 MiB \(memory\.max\)\)' \
			-e 'BW average' \
			-E 'max-mem 256\.0 MiB: half the cgroup limit 512\.0 MiB' \
			-E 'refused the client.s test' \
			-E 'waiting for the next client' \
			memcap_serve "$port" --oob "$oob" -- \
			memcap_clients "$port" "$addr" --oob "$oob"
	done
	rmdir "$MEMCAP_CG" 2>/dev/null
fi
