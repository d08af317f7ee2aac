# tests/lab/cases/netdev.sh - sourced by tests/lab/all.sh in the lab guest:
# ib_doctor and ib_write_bw --netdev IF map every netdev to the same RDMA
# device and port (one rule, common/host/netdev.c). Over rxe0's rxe_if the
# guest gets a VLAN (rxe_if.10) and a macvlan (rxe_mv), each with an IP,
# and a second Soft-RoCE device rxe1 over a dummy rxe1_if; all of it is
# removed again at the end, so that later cases see the usual guest.
# For each netdev: ib_doctor --peer <its IP> --json names "a local address
# on IF, DEV port N" (its route check, through doctor_inv_port_of), and a
# loopback ib_write_bw --oob tcp --netdev IF pair prints "data path: DEV
# port N" and the header's Device/Port. A plain dummy netdev without RDMA
# is found by neither.
# shellcheck shell=bash

NETDEV_PORT=18640

# netdev IF -> IP of the guest's extra netdevs (rxe_if keeps LAB_RXE_IP)
declare -A NETDEV_IP=([rxe_if.10]=198.18.10.1 [rxe_mv]=198.18.11.1
		      [rxe1_if]=198.18.12.1)

# Wait (bounded) for DEV's port 1 to be ACTIVE and to have a GID whose
# netdev is IF (the kernel adds it when the IP comes up).
netdev_wait_gid() { # DEV IF
	local f nd i
	for ((i = 0; i < 100; i++)); do
		for f in /sys/class/infiniband/$1/ports/1/gid_attrs/ndevs/*; do
			{ read -r nd < "$f"; } 2>/dev/null || continue
			[ "$nd" = "$2" ] && return 0
		done
		lab_sleep 0.1
	done
	return 1
}

netdev_setup() {
	modprobe -q 8021q; modprobe -q macvlan
	ip link add link rxe_if name rxe_if.10 type vlan id 10 &&
	ip link add link rxe_if name rxe_mv type macvlan mode bridge &&
	ip link add rxe1_if type dummy &&
	ip link set rxe1_if mtu "${LAB_MTU:-1500}" up &&
	ip link set rxe_if.10 up && ip link set rxe_mv up || return 1
	for nd in "${!NETDEV_IP[@]}"; do
		ip addr add "${NETDEV_IP[$nd]}/24" dev "$nd" || return 1
	done
	rdma link add rxe1 type rxe netdev rxe1_if || return 1
	netdev_wait_gid rxe0 rxe_if.10 && netdev_wait_gid rxe0 rxe_mv &&
		netdev_wait_gid rxe1 rxe1_if
}

netdev_teardown() {
	rdma link del rxe1 2>/dev/null
	ip link del rxe_mv 2>/dev/null
	ip link del rxe_if.10 2>/dev/null
	ip link del rxe1_if 2>/dev/null
	return 0
}

# What ib_doctor --json says of IP's netdev: "DEV port N" in NETDEV_DOC.
netdev_doctor() { # IF IP
	local json=${LAB_OUT:-/tmp}/netdev-doctor.json doc flat
	local re="\"check\": \"route\", \"subject\": \"$2\", \"verdict\": \"PASS\", \"detail\": \"a local address on $1, ([^ \"]+) port ([0-9]+)"
	rm -f "$json"
	"$B/ib_doctor" --peer "$2" --json "$json" > "$LAB_LOGDIR/netdev-doctor-$1.log" 2>&1
	NETDEV_DOC=
	[ -f "$json" ] || return 1
	IFS= read -r -d '' doc < "$json"
	flat=${doc//$'\n'/ }
	while [[ $flat == *"  "* ]]; do flat=${flat//  / }; done
	[[ $flat =~ $re ]] && NETDEV_DOC="${BASH_REMATCH[1]} port ${BASH_REMATCH[2]}"
}

netdev_check() { # IF IP
	local nd=$1 ip=$2 p=$((NETDEV_PORT++))
	netdev_doctor "$nd" "$ip"
	if [ -z "$NETDEV_DOC" ]; then
		lab_fail "netdev.$nd.doctor" "ib_doctor --json has no route finding naming $nd's device and port"
		return 1
	fi
	lab_pass "netdev.$nd.doctor" "$NETDEV_DOC"
	local dev=${NETDEV_DOC% port *} port=${NETDEV_DOC##* port }
	lab_pair "netdev.$nd.write_bw" -t 60 \
		-e "data path: $dev port $port, GID " \
		-e " Device +: $dev[[:space:]]" -e " Port +: $port[[:space:]]" \
		-E "data path: $dev port $port, GID " \
		"$B/ib_write_bw" --oob tcp -p "$p" --netdev "$nd" -- \
		"$B/ib_write_bw" --oob tcp -p "$p" --netdev "$nd" -n 20 127.0.0.1
}

if ! lab_have rxe; then
	lab_skip netdev "needs rxe0 in the guest"
elif ! netdev_setup; then
	lab_fail netdev.setup "VLAN/macvlan over rxe_if or rxe1 over rxe1_if did not come up"
	netdev_teardown
else
	lab_pass netdev.setup "rxe_if.10, rxe_mv over rxe_if; rxe1 over rxe1_if"
	netdev_check rxe_if "$LAB_RXE_IP"
	for nd in rxe_if.10 rxe_mv rxe1_if; do
		netdev_check "$nd" "${NETDEV_IP[$nd]}"
	done
	# the mapping itself, independent of the above: rxe1_if is rxe1's
	lab_assert netdev.rxe1_if.is_rxe1 '^rxe1 port 1$' "$NETDEV_DOC"
	# a netdev of no RDMA port: neither finds one
	if ip link add plain1 type dummy && ip link set plain1 up &&
	   ip addr add 203.0.113.1/24 dev plain1; then
		lab_case netdev.plain1.doctor -r 7 \
			-e "FAIL +5 +route +203\.0\.113\.1 +the route to 203\.0\.113\.1 leaves through plain1, which has no RDMA device" \
			"$B/ib_doctor" --peer 203.0.113.1
		lab_case netdev.plain1.write_bw -r 2 \
			-e "--netdev plain1: no RDMA device carries this interface" \
			"$B/ib_write_bw" --oob tcp --netdev plain1 -n 20 127.0.0.1
	else
		lab_fail netdev.plain1 "could not add a dummy plain1"
	fi
	ip link del plain1 2>/dev/null
	netdev_teardown
fi
