# tests/lab/cases/doctor.sh - sourced by tests/lab/all.sh in the lab guest:
# ib_doctor on real rxe0/siw0. A healthy guest exits 6 (warnings), not 0:
# rxe_if is a dummy at MTU 1500, so rxe0 runs RoCE MTU 1024 and the MTU
# check must warn, and only that one (the PCIe checks read a real kernel's
# sysfs: rxe0 on a dummy netdev has no PCI function to judge). Then three ways to break the fabric,
# each restored before the next case: memlock without CAP_IPC_LOCK, the
# RDMA netdev down, and a --peer routed through an interface without RDMA.
# shellcheck shell=bash

# rxe0's port back to ACTIVE (bounded, builtins only: no fork under TCG)
doctor_wait_active() {
	local st i
	for ((i = 0; i < 100; i++)); do
		{ read -r st < /sys/class/infiniband/rxe0/ports/1/state; } \
			2>/dev/null || st=
		[ "$st" = "4: ACTIVE" ] && return 0
		lab_sleep 0.05
	done
	return 1
}

# ib_doctor with rxe_if down, which is put back up whatever happens
doctor_port_down() {
	local rc
	ip link set rxe_if down || return 99
	"$B/ib_doctor" -d rxe0
	rc=$?
	ip link set rxe_if up
	doctor_wait_active || echo "rxe0 did not come back ACTIVE"
	return $rc
}

# a dummy plain0 without RDMA, the peer in its subnet
doctor_peer_plain() {
	local rc
	ip link add plain0 type dummy || return 99
	ip link set plain0 up
	ip addr add 203.0.113.1/24 dev plain0
	"$B/ib_doctor" --peer 203.0.113.9
	rc=$?
	ip link del plain0
	return $rc
}

if ! lab_have rxe || ! lab_have siw; then
	lab_skip doctor "needs rxe0 and siw0 in the guest"
else
	json=${LAB_OUT:-/tmp}/doctor.json
	lab_case doctor.healthy -r 6 \
		-e "PASS +1 +devices +host +2 RDMA devices: rxe0 \(RoCE\), siw0 \(iWARP\)" \
		-e "PASS +1 +uverbs +rxe0 +/dev/infiniband/uverbs0 opens" \
		-e "PASS +1 +rdma_cm +host" \
		-e "PASS +1 +provider +rxe0 " -e "PASS +1 +provider +siw0 " \
		-e "PASS +2 +port_state +rxe0/1 +ACTIVE, LinkUp \(RoCE\)" \
		-e "PASS +2 +port_state +siw0/1 +ACTIVE, LinkUp \(iWARP\)" \
		-e "WARN +3 +mtu +rxe0/1 +RoCEv2 at MTU 1024 caps payload at ~92\.6% of line rate \(rxe_if MTU 1500 allows 1024\)" \
		-e "fix: set the netdev MTU to 4200 or 9000: ip link set rxe_if mtu 9000" \
		-e "PASS +4 +netdev_map +rxe0/1 +rxe_if, 198\.18\.0\.1" \
		-e "PASS +4 +netdev_map +siw0/1 +siw_if, 198\.18\.1\.1" \
		-e "PASS +4 +roce_gid +rxe0/1 +198\.18\.0\.1 GID 1 \(RoCE v2\)" \
		-e "PASS +5 +route +198\.18\.0\.1 +a local address on rxe_if, rxe0 port 1" \
		-e "PASS +5 +cm_resolve +198\.18\.0\.1 +.* via rxe0 port 1" \
		-e "PASS +6 +memlock +host +uid 0, RLIMIT_MEMLOCK unlimited, CAP_IPC_LOCK yes: the limit does not apply" \
		-e "SKIP +8 +maxreadreq +rxe0 +software device with no PCI NIC below it" \
		-e "# [0-9]+ PASS, 1 WARN, 0 FAIL, [0-9]+ SKIP: exit 6 \(warnings\)" \
		-n '  FAIL +[1-9] ' \
		"$B/ib_doctor" --peer "$LAB_RXE_IP" --json "$json"
	if [ -f "$json" ]; then
		IFS= read -r -d '' doctor_json < "$json"
		lab_assert doctor.json '"exit_code": 6,' "$doctor_json"
		lab_assert doctor.json_mtu '"check": "mtu",[[:space:]]+"subject": "rxe0/1",[[:space:]]+"verdict": "WARN"' \
			"$doctor_json"
	else
		lab_fail doctor.json "no $json written"
	fi

	# a peer on rxe0's subnet: out through rxe_if, rdma_cm resolves it
	lab_case doctor.peer_rdma -r 6 \
		-e "PASS +5 +route +198\.18\.0\.9 +the route leaves through rxe_if, rxe0 port 1 \(RoCE\)" \
		-e "PASS +5 +cm_resolve +198\.18\.0\.9 +rdma_cm resolves address and route to 198\.18\.0\.9 via rxe0 port 1" \
		"$B/ib_doctor" -d rxe0 --peer 198.18.0.9

	# non-root-like: 64 KiB of memlock and no CAP_IPC_LOCK (capsh drops
	# it from the bounding set, so the exec'd shell loses it)
	if command -v capsh >/dev/null; then
		lab_case doctor.memlock -r 7 \
			-e "FAIL +6 +memlock +host +RLIMIT_MEMLOCK 64 KiB < the 140 KiB a default bandwidth test pins \(2 x 64 KiB \+ control\), uid 0 without CAP_IPC_LOCK: ibv_reg_mr fails with ENOMEM" \
			-e "fix: give the process CAP_IPC_LOCK \(pod: securityContext\.capabilities\.add: \[IPC_LOCK\]\) or raise the limit: ulimit -l unlimited" \
			-e "# [0-9]+ PASS, [0-9]+ WARN, 1 FAIL" \
			bash -c "ulimit -l 64 && exec capsh --drop=cap_ipc_lock -- -c 'exec $B/ib_doctor -d rxe0'"
	else
		lab_skip doctor.memlock "no capsh (Debian: apt-get install libcap2-bin)"
	fi

	# the RDMA netdev down: the port is DOWN, and the fix says ip link up
	lab_case doctor.port_down -r 7 \
		-e "FAIL +2 +port_state +rxe0/1 +port is DOWN, physical state Disabled \(want ACTIVE, LinkUp\)" \
		-e "fix: its netdev rxe_if is down: ip link set rxe_if up" \
		-n "did not come back" \
		doctor_port_down

	# --peer through an interface that has no RDMA device
	lab_case doctor.peer_plain -r 7 \
		-e "FAIL +5 +route +203\.0\.113\.9 +the route to 203\.0\.113\.9 leaves through plain0, which has no RDMA device: rdma_cm fails" \
		-e "fix: use the peer's IP on the RDMA network, or route it through an RDMA netdev \(ip route add 203\.0\.113\.9 dev IF\): rxe_if \(rxe0\), siw_if \(siw0\)" \
		-e "FAIL +5 +cm_resolve +203\.0\.113\.9 +rdma_cm cannot resolve 203\.0\.113\.9" \
		doctor_peer_plain
fi
