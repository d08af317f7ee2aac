#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/lab/fabric-group.sh - ib_fabric on a lab fabric of N guests through
# Open MPI: runs on node-1 of scripts/lab/run-group.sh (tests/run-lab.sh):
#   scripts/lab/run-group.sh tests/lab/fabric-group.sh [PATTERN...]
# Every pattern (default: all six, ring also with --streams 2, fan-out also
# with --rails auto over both rails, --auth-key-file and
# --allow-foreign-gid: a rail's data GID is not its control connection's
# address, so both sides want the flag, the key keeping strangers out)
# runs as
#   mpirun --map-by node -np N --host node-1,...,node-N ib_fabric ...
# then scripts/fabric_report.py, and tests/lab/fabric_check.py compares the
# report with the planner's plan (ib_fabric --dry-run=json): the same links,
# each measured; fabric.json valid, one JUnit case a link, a PNG heat map.
# Then "nccl" and "nccl-socket": ib_fabric --nccl-test through mpirun,
# the program tests/fabric/nccl_replay.sh, a STAND-IN replaying a
# captured nccl-tests output (no GPU in the lab): the stand-in fixture of
# two IB ranks (pass, --expect-busbw auto from the guests' rxe ports) and
# the real H200 capture (NCCL over Socket: every rank fails).
# Last, "planted": all-to-all with node-N's rail 0 limited by tc (plant(),
# RDMABENCH_FABRIC_PLANT_RATE, default 2mbit; RDMABENCH_FABRIC_PLANT_ARGS,
# default "-D 2 -s 65536 -t 4 -u 19": 256 KiB in flight): the report must
# name a node-N link the weakest and node-N the one suspect. CI's loaded
# guests move ~10 Mbit/s on a healthy link (0.01 Gb/s seen with three
# boots at once), so the planted rate sits well below that. Its fabric.png stays
# in $LAB_OUT/fabric/planted (RDMABENCH_LAB_OUT keeps it on the host).
# Tool arguments: RDMABENCH_FABRIC_ARGS (default "-D 2 -s 65536 -t 16 -u 19":
# 1 MiB in flight a link, and an ACK timeout of 2.1 s, since a guest may
# wait that long for the host's CPUs: rxe answers a write sent twice with
# "remote invalid request"). The report runs with --slow-fraction 0.5:
# healthy links differ by 2x here as the guests fight for 2 cores.
# shellcheck disable=SC2086,SC2087 # tool arguments split, tc lines made here on purpose
source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"

B=${RDMABENCH_BUILD:-build}
ARGS=${RDMABENCH_FABRIC_ARGS:--D 2 -s 65536 -t 16 -u 19}
RATE=${RDMABENCH_FABRIC_PLANT_RATE:-2mbit}
PLANT_ARGS=${RDMABENCH_FABRIC_PLANT_ARGS:--D 2 -s 65536 -t 4 -u 19}
F=$LAB_OUT/fabric
HOSTLIST=node-1
for ((i = 2; i <= ${LAB_NODES:-0}; i++)); do HOSTLIST+=,node-$i; done
LAST=node-${LAB_NODES:-0}

# fabric NAME PATTERN [IB_FABRIC_OPTS...]: one run through mpirun, its
# report, and the check against the planner's plan
fabric() {
	local pattern=$2 d=$F/$1
	shift 2
	mkdir -p "$d" || return 1
	"$B/ib_fabric" -P "$pattern" -H "$LAB_HOSTS" "$@" --dry-run=json -- $ARGS ${FABRIC_TOOL_ARGS:-} > "$d.plan.json" ||
		return 1
	echo "+ mpirun ib_fabric -P $pattern $* -- $ARGS ${FABRIC_TOOL_ARGS:-}"
	mpirun --bind-to none --map-by node -np "$LAB_NODES" --host "$HOSTLIST" \
		"$B/ib_fabric" -P "$pattern" -H "$LAB_HOSTS" --out "$d" --timeout 120 "$@" -- $ARGS ${FABRIC_TOOL_ARGS:-}
	echo "mpirun: exit $?"
	/usr/bin/python3 scripts/fabric_report.py --slow-fraction 0.5 --out-dir "$d" "$d"
	/usr/bin/python3 tests/lab/fabric_check.py "$d.plan.json" "$d" ${FABRIC_SLOW:+--slow "$FABRIC_SLOW"} \
		${FABRIC_RAILS:+--rails "$FABRIC_RAILS"}
}

# nccl NAME LOG VERDICT [IB_FABRIC_OPTS...]: ib_fabric --nccl-test through
# mpirun with tests/fabric/nccl_replay.sh, a STAND-IN for an nccl-tests
# program that replays LOG (a captured output: no GPU here), the report,
# and tests/lab/nccl_check.py: every rank collected and gated
nccl() {
	local d=$F/$1 log=$2 verdict=$3
	shift 3
	mkdir -p "$d" || return 1
	echo "+ mpirun ib_fabric --nccl-test tests/fabric/nccl_replay.sh $* -- $log -b 8 -e 128M"
	mpirun --bind-to none --map-by node -np "$LAB_NODES" --host "$HOSTLIST" \
		"$B/ib_fabric" --nccl-test tests/fabric/nccl_replay.sh -H "$LAB_HOSTS" --out "$d" \
		--timeout 60 "$@" -- "$log" -b 8 -e 128M
	echo "mpirun: exit $?"
	/usr/bin/python3 scripts/fabric_report.py "$d"
	/usr/bin/python3 tests/lab/nccl_check.py "$d" "$LAB_NODES" openmpi "$verdict"
}

# plant NODE: NODE's rail 0 sends its data frames at RATE (tbf), its short
# frames (RoCE ACKs, TCP) unlimited in a band of their own (prio, u32 on
# the IP length < 256): NODE's links as a client are slow, its links as a
# server are not, so the median stays the healthy links'. tbf holds 2 s
# (500 KB at 2 Mbit/s: more than PLANT_ARGS' 256 KiB in flight, so it
# never drops, drained in ~1 s, less than the 2.1 s ACK timeout, so
# nothing is sent twice).
plant() {
	ssh "$1" tc -b - <<-EOF
		qdisc add dev eth0 root handle 1: prio bands 2 priomap 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
		qdisc add dev eth0 parent 1:2 handle 20: tbf rate $RATE burst 32kb latency 2s
		filter add dev eth0 parent 1: protocol ip u32 match u16 0x0000 0xff00 at 2 flowid 1:1
	EOF
}

# strangers: a ring among strangers (issue 25), by hand only
# (RDMABENCH_FABRIC_STRANGERS=1; not in CI): from node-1, before and during
# the run, a silent connection and a claim of the last node's rank at rank
# 0's barrier (no key: the source decides), and a byte every 0.3 s to
# every node's link server port. Every link must still be measured against
# its genuine peer (fabric_check.py), the claiming stranger sent nothing
# but the challenge (never the table: rank 0 drops its claim, or the
# barrier closes first when the ranks join at once, as they do here), and
# a link server must have served on after a stranger's byte.
strangers() {
	local d=$F/strangers bport=$((18515 - 1)) pids=() h i n rc=0
	for i in $(seq 100); do
		for h in $(echo "$HOSTLIST" | tr , ' '); do
			(printf x > "/dev/tcp/$h/18515") 2> /dev/null
		done
		sleep 0.3
	done &
	pids+=($!)
	/usr/bin/python3 tests/fabric/fabric_stranger.py "node-1:$bport" silent > "$F/silent.txt" 2>&1 &
	pids+=($!)
	/usr/bin/python3 tests/fabric/fabric_stranger.py "node-1:$bport" claim "$((LAB_NODES - 1))" > "$F/claim.txt" 2>&1 &
	pids+=($!)
	fabric strangers ring || rc=1
	kill "${pids[@]}" 2> /dev/null
	wait "${pids[@]}" 2> /dev/null
	echo "silent stranger: $(cat "$F/silent.txt"); claiming stranger: $(cat "$F/claim.txt")"
	n=$(grep -l 'serving the next one' "$d"/*.server.log 2> /dev/null | wc -l)
	echo "link servers that served on after a stranger: $n"
	[ "$n" -gt 0 ] || rc=1
	return $rc
}

if [ -z "${LAB_NODES:-}" ] || [ ! -x "$B/ib_fabric" ] || ! command -v mpirun > /dev/null; then
	lab_skip fabric "needs scripts/lab/run-group.sh, $B/ib_fabric and mpirun (openmpi-bin)"
	lab_summary
fi
want=("$@")
[ ${#want[@]} -gt 0 ] || want=(pairs ring ring-streams all-to-all bisection incast fan-out fan-out-rails planted
	nccl nccl-socket)
[ "${RDMABENCH_FABRIC_STRANGERS:-0}" = 1 ] && want+=(strangers)
for w in "${want[@]}"; do
	case "$w" in
	ring-streams) lab_case "fabric.$w" -t 300 -e 'fabric-check: .*: ok' fabric "$w" ring --streams 2 ;;
	fan-out-rails) mkdir -p "$F" && head -c 32 /dev/urandom | base64 > "$F/rails.key" &&
		chmod 600 "$F/rails.key"
		FABRIC_TOOL_ARGS="--rails auto --auth-key-file $F/rails.key --allow-foreign-gid" FABRIC_RAILS=2 lab_case "fabric.$w" -t 300 \
		-e 'fabric-check: .*: ok' fabric "$w" fan-out ;;
	strangers) lab_case "fabric.$w" -t 300 -e 'fabric-check: .*: ok' \
		-e 'claiming stranger: bytes 16 ' \
		-e 'link servers that served on after a stranger: [1-9]' strangers ;;
	planted)
		plant "$LAST" || { lab_fail "fabric.$w" "tc on $LAST failed"; continue; }
		ARGS=$PLANT_ARGS FABRIC_SLOW=$LAST lab_case "fabric.$w" -t 300 \
			-e "fabric-check: .*: ok" fabric "$w" all-to-all
		ssh "$LAST" tc qdisc del dev eth0 root ;;
	nccl) lab_case "fabric.$w" -t 120 -e 'nccl-check: .*: ok' -e 'mpirun: exit 0' \
		nccl "$w" tests/fixtures/nccl-tests/stand-in-2.19.6-ib-pass.log pass --expect-busbw auto ;;
	nccl-socket) lab_case "fabric.$w" -t 120 -e 'nccl-check: .*: ok' -e 'mpirun: exit [1-9]' \
		-e 'NCCL used sockets' nccl "$w" tests/fixtures/nccl/real-h200-nccl-tests-2.28.9-all_reduce.log fail ;;
	*) lab_case "fabric.$w" -t 300 -e 'fabric-check: .*: ok' fabric "$w" "$w" ;;
	esac
done
lab_summary
