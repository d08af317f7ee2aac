# tests/lab/cases/fabric_addr.sh - sourced by tests/lab/all.sh in the lab
# guest: ib_fabric decides, on each node, the address its peers will use
# for its links (fabric/selfaddr.c, issue 16). The guest's
# management interface (mgmt_if, LAB_MGMT_IP, no RDMA device;
# LAB_SERVER_NAME resolves to it through /etc/hosts) stands for a
# management hostname: by name, the node says so and offers rxe0's address
# instead (found here, handed to the peers through the barrier; no peer
# comes here: exit 5 after --timeout); written as ADDRESS in a hosts file,
# it is refused (exit 2) before the barrier, the fix naming rxe0's
# address; rxe0's address passes and the run goes on to the barrier.
# shellcheck shell=bash

if [ -z "${LAB_MGMT_IP:-}" ] || ! lab_have rxe; then
	lab_skip fabric_addr "no management interface (mgmt_if) or no rxe0 in this guest"
else
	FA=${LAB_OUT:-/tmp}/fabric-addr
	rm -rf "$FA" && mkdir -p "$FA"
	fa_fix="this node's: (.*, )?rxe0 ${LAB_RXE_IP//./\\.}"
	lab_case fabric_addr.mgmt_name -t 30 -r 5 \
		-e "this node's address: $LAB_SERVER_NAME is ${LAB_MGMT_IP//./\\.}, on an interface that no RDMA device owns \\(a management network\\?\\): its peers reach it at [0-9.]+ \\([a-z0-9]+\\), found here" \
		"$B/ib_fabric" -P pairs -H "$LAB_SERVER_NAME,fa-peer" --rank 0 \
		-o "$FA/name" --timeout 3
	printf 'node-a %s\nnode-b 198.18.0.2\n' "$LAB_MGMT_IP" > "$FA/hosts-mgmt"
	lab_case fabric_addr.mgmt_ip -t 30 -r 2 \
		-e "'node-a ${LAB_MGMT_IP//./\\.}', this node's entry in the host list, is ${LAB_MGMT_IP//./\\.}, on an interface that no RDMA device owns" \
		-e "$fa_fix" \
		"$B/ib_fabric" -P pairs -f "$FA/hosts-mgmt" --rank 0 \
		-o "$FA/ip" --timeout 5
	# two ranks here, both named by management names: each finds its
	# RDMA address, the barrier hands it on, the link goes there
	echo "$LAB_MGMT_IP fa-node-a fa-node-b" >> /etc/hosts
	fa_two() {
		"$B/ib_fabric" -P pairs -H fa-node-a,fa-node-b --rank 1 -p 18960 \
			-o "$FA/two" --timeout 60 -- -n 50 -s 4096 \
			> "$FA/two.rank1.log" 2>&1 &
		local pid=$! rc
		"$B/ib_fabric" -P pairs -H fa-node-a,fa-node-b --rank 0 -p 18960 \
			-o "$FA/two" --timeout 60 -- -n 50 -s 4096
		rc=$?
		wait "$pid" || rc=$?
		cat "$FA/two.rank1.log"
		return "$rc"
	}
	lab_case fabric_addr.found_here_run -t 120 \
		-e "fa-node-a is ${LAB_MGMT_IP//./\\.}, .*its peers reach it at [0-9.]+ \\([a-z0-9]+\\), found here" \
		-e "fa-node-b is ${LAB_MGMT_IP//./\\.}, .*its peers reach it at" \
		fa_two
	printf 'node-a %s\nnode-b 198.18.0.2\n' "$LAB_RXE_IP" > "$FA/hosts-rdma"
	lab_case fabric_addr.rdma_ip -t 60 -r 5 \
		-e "this node's address: node-a ${LAB_RXE_IP//./\\.} \(${LAB_RXE_IP//./\\.}\) is on rxe0" \
		"$B/ib_fabric" -P pairs -f "$FA/hosts-rdma" --rank 0 \
		-o "$FA/rdma" --timeout 3
fi
