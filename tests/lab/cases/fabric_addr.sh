# tests/lab/cases/fabric_addr.sh - sourced by tests/lab/all.sh in the lab
# guest: ib_fabric checks, on each node, that the address its peers will
# use (its host list entry) is its RDMA interface's (common/fabric/
# selfaddr.c, issue 16). The guest's management interface (mgmt_if,
# LAB_MGMT_IP, no RDMA device; LAB_SERVER_NAME resolves to it through
# /etc/hosts) stands for a management hostname: by name or by address it
# is refused (exit 2) before the barrier, the fix naming rxe0's address;
# rxe0's address passes and the run goes on to the barrier (no peer
# comes: exit 5 after --timeout).
# shellcheck shell=bash

if [ -z "${LAB_MGMT_IP:-}" ] || ! lab_have rxe; then
	lab_skip fabric_addr "no management interface (mgmt_if) or no rxe0 in this guest"
else
	FA=${LAB_OUT:-/tmp}/fabric-addr
	rm -rf "$FA" && mkdir -p "$FA"
	fa_fix="this node's: (.*, )?rxe0 ${LAB_RXE_IP//./\\.}"
	lab_case fabric_addr.mgmt_name -t 30 -r 2 \
		-e "'$LAB_SERVER_NAME', this node's entry in the host list, is ${LAB_MGMT_IP//./\\.}, on an interface that no RDMA device owns" \
		-e "a line '$LAB_SERVER_NAME ADDRESS'; $fa_fix" \
		-n "this node's address:" \
		"$B/ib_fabric" -P pairs -H "$LAB_SERVER_NAME,fa-peer" --rank 0 \
		-o "$FA/name" --timeout 5
	printf 'node-a %s\nnode-b 198.18.0.2\n' "$LAB_MGMT_IP" > "$FA/hosts-mgmt"
	lab_case fabric_addr.mgmt_ip -t 30 -r 2 \
		-e "'node-a ${LAB_MGMT_IP//./\\.}', this node's entry in the host list, is ${LAB_MGMT_IP//./\\.}, on an interface that no RDMA device owns" \
		-e "$fa_fix" \
		"$B/ib_fabric" -P pairs -f "$FA/hosts-mgmt" --rank 0 \
		-o "$FA/ip" --timeout 5
	printf 'node-a %s\nnode-b 198.18.0.2\n' "$LAB_RXE_IP" > "$FA/hosts-rdma"
	lab_case fabric_addr.rdma_ip -t 60 -r 5 \
		-e "this node's address: node-a ${LAB_RXE_IP//./\\.} \(${LAB_RXE_IP//./\\.}\) is on rxe0" \
		"$B/ib_fabric" -P pairs -f "$FA/hosts-rdma" --rank 0 \
		-o "$FA/rdma" --timeout 3
fi
