# tests/lab/cases/rails.sh - sourced by tests/lab/all.sh in the lab guest:
# --rails (common/run/rails/rails_run.c), every rail of a node in one process.
# The case adds a second rxe device itself (rxe1 on the dummy netdev
# rails_if, 198.18.6.1), so the guest has two rails: rxe0 and rxe1. Rails
# connect over a TCP control channel (the default --oob auto, or --oob
# tcp), each rail's QPs by hand on its own device.
# --use_cuda auto runs on the fake CUDA driver (tests/fakecuda): each rail
# on a GPU of its own. Placement and --rails auto are proven in a guest
# with two NUMA nodes and rxe only (rxe has no NUMA node in sysfs, so the
# pinning case names each rail's node, rxe0@0,rxe1@1; --rails auto's case
# proves the rows and the sum):
#   RDMABENCH_LAB_NUMA=2 RDMABENCH_LAB_PROVIDERS=rxe \
#       scripts/lab/run.sh tests/lab/all.sh rails
# elsewhere those parts skip.
# shellcheck shell=bash

# rails_watch CMD...: run CMD, collecting the CPU lists of its threads
# (/proc/PID/task/*/status, Cpus_allowed_list) every 0.1 s until it ends;
# then print "rails-watch: cpus=LIST|LIST|..." (each distinct list once,
# in the order seen) and, for each rail's thread (its comm is "railN",
# rails_run.c names them), "rails-watch: railN=LIST;" (the list it last
# had); return CMD's status. Bash builtins only.
rails_watch() {
	local pid rc line seen='|' t comm
	local -A rail=()
	"$@" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		for t in /proc/"$pid"/task/*; do
			comm=
			{ read -r comm < "$t/comm"; } 2>/dev/null
			while read -r line; do
				[[ $line == Cpus_allowed_list:* ]] || continue
				line=${line#Cpus_allowed_list:}
				line=${line//[[:space:]]/}
				[[ $seen == *"|$line|"* ]] || seen+="$line|"
				[[ $comm == rail[0-9]* ]] && rail[$comm]=$line
			done 2>/dev/null < "$t/status"
		done
		lab_sleep 0.1
	done
	wait "$pid"
	rc=$?
	echo "rails-watch: cpus=$seen"
	for t in "${!rail[@]}"; do
		echo "rails-watch: $t=${rail[$t]};"
	done
	return "$rc"
}

# rails_sum_ok NAME: the client's node row is the sum of its rail rows
# (within 5 %), and there are as many rail rows as wanted ($2)
rails_sum_ok() {
	local line sum=0 node='' rows=0 re_rail='^ [0-9]+ +[^ ]+ +.* ([0-9]+\.[0-9]+) +[0-9]+$'
	local re_node='^ node +sum +([0-9]+\.[0-9]+) +[0-9]+$'
	while IFS= read -r line; do
		if [[ $line =~ $re_node ]]; then
			node=${BASH_REMATCH[1]}
		elif [[ $line =~ $re_rail ]]; then
			rows=$((rows + 1))
			sum=$(awk -v a="$sum" -v b="${BASH_REMATCH[1]}" 'BEGIN { print a + b }')
		fi
	done <<< "$LAB_CLIENT_OUT"
	if [ "$rows" != "$2" ] || [ -z "$node" ]; then
		lab_fail "$1" "want $2 rail rows and a node row: $rows rows, node '${node:-none}'"
	elif awk -v s="$sum" -v n="$node" 'BEGIN { d = s - n; if (d < 0) d = -d; exit !(d <= 0.05 * s + 0.01) }'; then
		lab_pass "$1" "$rows rails, sum $sum, node $node Gb/s"
	else
		lab_fail "$1" "node $node Gb/s is not the rails' sum $sum (±5%)"
	fi
}

# rxe1 on rails_if, for this file only (rails_del_rxe1 takes them away,
# so that the cases after this file see the guest as it booted)
rails_add_rxe1() {
	[ -e /sys/class/infiniband/rxe1 ] && return 0
	ip link add rails_if type dummy 2>/dev/null
	ip link set rails_if mtu "${LAB_MTU:-1500}" up &&
		ip addr add 198.18.6.1/24 dev rails_if 2>/dev/null
	rdma link add rxe1 type rxe netdev rails_if || return 1
	local i st=
	for ((i = 0; i < 100; i++)); do
		{ read -r st < /sys/class/infiniband/rxe1/ports/1/state; } 2>/dev/null
		[ "$st" = "4: ACTIVE" ] && return 0
		lab_sleep 0.05
	done
	return 1
}

# rails_json NAME FILE VERDICT N [gpu]: FILE validates against the results
# schema as version 3, has the verdict, N "rails" entries and, with a node
# gate, the node_bw_gbps gate holding the sum of the rails' bw_gbps; with
# "gpu", rail i's buffers on GPU i (--use_cuda auto, a GPU per rail), else
# in host memory
rails_json() {
	local py out
	for py in /usr/bin/python3 python3; do
		"$py" -c 'import jsonschema' 2>/dev/null && break
		py=
	done
	[ -n "$py" ] || { lab_skip "$1" "no python3 with jsonschema"; return; }
	if out=$("$py" - "$2" "$3" "$4" "${5:-}" <<'PY' 2>&1
import json, sys
import jsonschema
path, want, n, gpu = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
schema = json.load(open("results/schema/rdmabench-result-v1.schema.json"))
doc = json.load(open(path))
errs = ["/".join(map(str, e.path)) + ": " + e.message
        for e in jsonschema.Draft202012Validator(schema).iter_errors(doc)]
rails = doc.get("rails", [])
if doc["verdict"] != want:
    errs.append(f"verdict {doc['verdict']}, want {want}")
if len(rails) != n:
    errs.append(f"{len(rails)} rails, want {n}")
if doc["schema_version"] != 4:
    errs.append(f"schema_version {doc['schema_version']}, want 4")
for i, r in enumerate(rails):
    g = r.get("gpu")
    if gpu and (not g or g["ordinal"] != i or not g["bus_id"]):
        errs.append(f"rail {i}: gpu {g}, want ordinal {i} with its bus id")
    elif not gpu and g is not None:
        errs.append(f"rail {i}: gpu {g}, want null (host memory)")
total = sum(r["bw_gbps"] or 0 for r in rails)
for g in doc["gates"]:
    if g["name"] == "node_bw_gbps" and abs(g["figure"] - total) > 1e-6:
        errs.append(f"node gate figure {g['figure']} != sum {total}")
print("; ".join(errs) if errs else f"{n} rails, sum {total:.3f} Gb/s")
sys.exit(1 if errs else 0)
PY
	); then
		lab_pass "$1" "$out"
	else
		lab_fail "$1" "$out"
	fi
}

rails_del_rxe1() {
	rdma link delete rxe1 2>/dev/null
	ip link del rails_if 2>/dev/null
	return 0
}

if ! lab_have rxe; then
	lab_skip rails "no rxe0 came up in this guest"
elif ! rails_add_rxe1; then
	lab_skip rails "could not add rxe1 on a dummy netdev (rdma link add)"
else
	ip=$LAB_RXE_IP
	S=("$B/ib_write_bw" --oob tcp)
	rails=(--rails "rxe0,rxe1")
	run=(--oob tcp -D 4 -f 1)
	RJ=${LAB_OUT:-/tmp}/rails-lab
	rm -rf "$RJ" && mkdir -p "$RJ"

	# two rails by name: two rail rows, a node row that is their sum
	lab_pair rails.two -t 180 -e "--- rail 0: rxe0 ---" \
		-e "--- rail 1: rxe1 ---" -e "Device +: rxe1" \
		-e "node verdict: pass \(2 rails\)" -E "node verdict: pass" \
		"$B/ib_write_bw" "${rails[@]}" -- \
		"$B/ib_write_bw" "${rails[@]}" -D 4 -f 1 --json "$RJ/two.json" \
		"$ip" &&
		rails_sum_ok rails.two.sum 2 &&
		rails_json rails.two.json "$RJ/two.json" pass 2

	# a per-rail gate above what is reached: exit 3, alone
	lab_pair rails.gate_rail -t 180 -r 3 \
		-e "gate failed: size 65536: $NUM Gb/s < expected 100000.00" \
		-e "node verdict: fail \(2 of 2 rails did not pass\)" \
		-n "expect-node-gbps" \
		"${S[@]}" "${rails[@]}" -- \
		"$B/ib_write_bw" "${rails[@]}" "${run[@]}" --expect-gbps 100000 \
		"$ip"

	# the node gate above the sum: exit 3, alone (each rail passes its own)
	lab_pair rails.gate_node -t 180 -r 3 \
		-e "node verdict: fail \(node: $NUM Gb/s over 2 rails < expected 100000.00 Gb/s \(--expect-node-gbps\)\)" \
		-n "gate failed" \
		"${S[@]}" "${rails[@]}" -- \
		"$B/ib_write_bw" "${rails[@]}" "${run[@]}" --expect-gbps 0.001 \
		--expect-node-gbps 100000 --json "$RJ/node.json" "$ip" &&
		rails_json rails.gate_node.json "$RJ/node.json" fail 2

	# --use_cuda auto with the fake CUDA driver (tests/fakecuda, two
	# "GPUs" that sysfs does not know, so PCIe and NUMA are unknown and
	# each rail takes a GPU of its own): the table before the run, each
	# rail's buffers allocated on its GPU (the fake's trace), and the
	# rails' GPU in the document
	rails_fake=$B/tests/fakecuda
	[[ $rails_fake == /* ]] || rails_fake=$PWD/$rails_fake
	if [ ! -e "$rails_fake/libcuda.so.1" ]; then
		lab_skip rails.gpu_auto "no fake CUDA driver in $rails_fake: make tools"
	else
		lab_pair rails.gpu_auto -t 180 \
			-e "--- GPU per rail \(--use_cuda auto\) ---" \
			-e " 0  rxe0 +0  0000:3b:00\.0  unknown +-/-" \
			-e " 1  rxe1 +1  0000:3c:00\.0  unknown +-/-" \
			-e "fake libcuda: cuMemAlloc [0-9]+ bytes on GPU 0 \(0000:3b:00\.0\)" \
			-e "fake libcuda: cuMemAlloc [0-9]+ bytes on GPU 1 \(0000:3c:00\.0\)" \
			-e "Memory +: cuda \(peermem\)" \
			-e "node verdict: pass \(2 rails\)" \
			"${S[@]}" "${rails[@]}" -- \
			env LD_LIBRARY_PATH="$rails_fake" \
			RDMABENCH_FAKE_CUDA=gpus=2,trace \
			"$B/ib_write_bw" "${rails[@]}" --use_cuda auto "${run[@]}" \
			--json "$RJ/gpu.json" "$ip" &&
			rails_json rails.gpu_auto.json "$RJ/gpu.json" pass 2 gpu
		# one link, no -d: the GPU nearest the device the route picks
		lab_pair rails.gpu_auto.one_link -t 90 \
			-e "--use_cuda auto: GPU 0 \(0000:3b:00\.0\), unknown to rxe0" \
			-e "Memory +: cuda \(peermem\)" \
			-e "fake libcuda: cuMemAlloc [0-9]+ bytes on GPU 0 " \
			"$B/ib_write_bw" --oob tcp -p 18540 -- \
			env LD_LIBRARY_PATH="$rails_fake" \
			RDMABENCH_FAKE_CUDA=gpus=2,trace \
			"$B/ib_write_bw" --oob tcp -p 18540 --use_cuda auto -n 200 "$ip"
		# no GPU: refused (exit 2) before any rail connects
		lab_case rails.gpu_auto.no_gpu -t 30 -r 2 \
			-e "the CUDA driver sees no GPU: CUDA_ERROR_NO_DEVICE" \
			-n "--- rail 0" \
			env LD_LIBRARY_PATH="$rails_fake" RDMABENCH_FAKE_CUDA=gpus=0 \
			"$B/ib_write_bw" "${rails[@]}" --use_cuda auto "${run[@]}" "$ip"
	fi

	# usage errors, before anything connects
	lab_case rails.refuses_cm -t 30 -r 2 \
		-e "--rails: each rail connects its own device over the TCP control channel: drop -R" \
		"$B/ib_write_bw" "${rails[@]}" -R "$ip"
	lab_case rails.node_needs_rails -t 30 -r 2 \
		-e "--expect-node-gbps gates the sum over --rails" \
		"$B/ib_write_bw" --expect-node-gbps 1 "$ip"
	lab_case rails.bad_node -t 30 -r 2 \
		-e "--rails: 'x' after 'rxe0@' is no NUMA node" \
		"$B/ib_write_bw" --rails rxe0@x --oob tcp "$ip"

	nodes=(/sys/devices/system/node/node[0-9]*)
	if [ "${#nodes[@]}" -lt 2 ] || [ ! -e "${nodes[1]}" ]; then
		lab_skip rails.numa "one NUMA node: run RDMABENCH_LAB_NUMA=2 RDMABENCH_LAB_PROVIDERS=rxe scripts/lab/run.sh tests/lab/all.sh rails"
	else
		read -r node0_cpus < /sys/devices/system/node/node0/cpulist
		read -r node1_cpus < /sys/devices/system/node/node1/cpulist
		# rxe has no NUMA node: NAME@NODE gives each rail its own;
		# the header says so, and so do the threads' CPU lists
		lab_pair rails.numa -t 180 \
			-e "NUMA node +: 0, CPUs $node0_cpus" \
			-e "NUMA node +: 1, CPUs $node1_cpus" \
			-e " 0 +rxe0 +0, CPUs $node0_cpus " \
			-e " 1 +rxe1 +1, CPUs $node1_cpus " \
			-e "rails-watch: cpus=.*\|$node0_cpus\|" \
			-e "rails-watch: cpus=.*\|$node1_cpus\|" \
			-e "rails-watch: rail0=$node0_cpus;" \
			-e "rails-watch: rail1=$node1_cpus;" \
			"${S[@]}" --rails rxe0@0,rxe1@1 -- \
			rails_watch "$B/ib_write_bw" --rails rxe0@0,rxe1@1 \
			"${run[@]}" "$ip"
	fi

	n_active=0
	for st in /sys/class/infiniband/*/ports/*/state; do
		read -r line < "$st" && [[ $line == *ACTIVE ]] &&
			n_active=$((n_active + 1))
	done
	if lab_have siw; then
		# siw0 would be a rail too, and iWARP has no --oob tcp: make
		# lab's rxe-only NUMA boot (tests/run-lab.sh) runs this one
		:
	else
		# every ACTIVE port: here rxe0 and rxe1
		lab_pair rails.auto -t 180 -e "--- rail 1: rxe1 ---" \
			"${S[@]}" --rails auto -- \
			"$B/ib_write_bw" --rails auto "${run[@]}" "$ip" &&
			rails_sum_ok rails.auto.sum "$n_active"
	fi
	rails_del_rxe1
fi
