# tests/lab/cases/lossless.sh - sourced by tests/lab/all.sh in the lab guest:
# ib_doctor's lossless-class and link-history checks (issue 29) against the
# guest's kernel, one planted misconfiguration each, each put back after:
#  - rdma_cm's configfs (modprobe configfs, mount it, mkdir rdma_cm/rxe0):
#    default_roce_tos 106 passes, 0 warns; default_roce_mode IB/RoCE v1
#    warns where the kernel takes it (rxe speaks RoCE v2 only: 6.1 refuses
#    it with EINVAL, and the case SKIPs saying so)
#  - the real DCB netlink op on rxe_if (a dummy: no dcbnl ops): pfc and
#    trust are SKIP "unknown", as is ecn (no ecn/ outside mlx5)
#  - a flap: a fresh rxe_lf on a veth pair, lf0 set down and up: its
#    carrier_up_count (link_flaps) and rxe's hw_counters/link_downed
#    (link_errors) both move. A fresh device, because doctor.port_down
#    already downed rxe_if (rxe0's link_downed is 1 by now).
# shellcheck shell=bash

LL_CM=/sys/kernel/config/rdma_cm
LL_MOUNTED=0 LL_MADE=0 LL_TOS= LL_MODE=

# configfs mounted, rxe0's folder made; the values found kept to restore
lossless_setup() {
	modprobe configfs 2>/dev/null
	modprobe rdma_cm 2>/dev/null
	if [ ! -d "$LL_CM" ]; then
		mount -t configfs none /sys/kernel/config && LL_MOUNTED=1
	fi
	[ -d "$LL_CM" ] || return 1
	if [ ! -d "$LL_CM/rxe0" ]; then
		mkdir "$LL_CM/rxe0" && LL_MADE=1
	fi
	LL_PORT=$LL_CM/rxe0/ports/1
	{ read -r LL_TOS < "$LL_PORT/default_roce_tos" &&
	  read -r LL_MODE < "$LL_PORT/default_roce_mode"; } 2>/dev/null
}

lossless_cleanup() {
	[ -n "$LL_TOS" ] && echo "$LL_TOS" > "$LL_PORT/default_roce_tos"
	[ -n "$LL_MODE" ] && echo "$LL_MODE" > "$LL_PORT/default_roce_mode"
	[ "$LL_MADE" = 1 ] && rmdir "$LL_CM/rxe0"
	[ "$LL_MOUNTED" = 1 ] && umount /sys/kernel/config
}

# ib_doctor -d rxe0 with ToS $1 and mode $2 planted
lossless_doctor() {
	echo "$1" > "$LL_PORT/default_roce_tos" || return 99
	echo "$2" > "$LL_PORT/default_roce_mode" || return 99
	"$B/ib_doctor" -d rxe0 --json "${LAB_OUT:-/tmp}/lossless.json"
}

# RoCE v1 where the kernel takes it; 77 (SKIP) where it refuses
lossless_v1() {
	if ! echo "IB/RoCE v1" 2>/dev/null > "$LL_PORT/default_roce_mode"; then
		echo "the kernel refuses IB/RoCE v1 for rxe0 (rxe speaks RoCE v2 only)"
		return 77
	fi
	"$B/ib_doctor" -d rxe0
}

# rxe_lf's port back to ACTIVE (bounded, builtins only)
lossless_wait_active() {
	local st i
	for ((i = 0; i < 100; i++)); do
		{ read -r st < /sys/class/infiniband/rxe_lf/ports/1/state; } \
			2>/dev/null || st=
		[ "$st" = "4: ACTIVE" ] && return 0
		lab_sleep 0.05
	done
	return 1
}

# rxe_lf on veth lf0: the doctor after lf0 went down and up (the PASS
# side is lossless.class's, on rxe0: one doctor run less under TCG)
lossless_flap() {
	local rc=0
	modprobe veth 2>/dev/null
	ip link add lf0 type veth peer name lf1 || return 99
	ip link set lf1 up && ip link set lf0 up &&
		rdma link add rxe_lf type rxe netdev lf0 || rc=99
	[ $rc = 0 ] && lossless_wait_active && {
		ip link set lf0 down && ip link set lf0 up &&
			lossless_wait_active || echo "rxe_lf did not come back"
		"$B/ib_doctor" -d rxe_lf
	}
	rdma link delete rxe_lf 2>/dev/null
	ip link del lf0
	return $rc
}

if ! lab_have rxe; then
	lab_skip lossless "needs rxe0 in the guest"
elif lab_wants lossless && ! lossless_setup; then
	lab_fail lossless "no $LL_CM/rxe0/ports/1 (configfs, rdma_cm)"
	lossless_cleanup
elif lab_wants lossless; then
	lab_case lossless.class -r 6 \
		-e "PASS +3 +roce_tos +rxe0/1 +rdma_cm's default ToS 106 \(DSCP 26\)" \
		-e "PASS +3 +roce_mode +rxe0/1 +rdma_cm's default RoCE mode: RoCE v2" \
		-e "SKIP +3 +pfc +rxe0/1 +unknown: rxe_if's driver has no DCB \(dcbnl\) ops" \
		-e "SKIP +3 +trust +rxe0/1 +unknown: rxe_if's driver" \
		-e "SKIP +3 +ecn +rxe0/1 +unknown: rxe_if has no ecn/" \
		-e "PASS +2 +link_flaps +rxe0/1 +rxe_if: no carrier flap since boot" \
		-e "(PASS|WARN) +2 +link_errors +rxe0/1 " \
		lossless_doctor 106 "RoCE v2"

	lab_case lossless.tos0 -r 6 \
		-e "WARN +3 +roce_tos +rxe0/1 +rdma_cm's default ToS 0 \(DSCP 0\), not the lossless class's 106 \(DSCP 26\)" \
		-e "fix: echo 106 > /sys/kernel/config/rdma_cm/rxe0/ports/1/default_roce_tos" \
		lossless_doctor 0 "RoCE v2"
	if lab_wants lossless.tos0 && [ -f "${LAB_OUT:-/tmp}/lossless.json" ]; then
		IFS= read -r -d '' ll_json < "${LAB_OUT:-/tmp}/lossless.json"
		lab_assert lossless.json '"check": "roce_tos",[[:space:]]+"subject": "rxe0/1",[[:space:]]+"verdict": "WARN"' \
			"$ll_json"
	fi

	lab_case lossless.rocev1 -r 6 \
		-e "WARN +3 +roce_mode +rxe0/1 +rdma_cm's default RoCE mode is IB/RoCE v1" \
		lossless_v1
	lossless_cleanup

	lab_case lossless.flap -r 0 \
		-e "WARN +2 +link_errors +rxe_lf/1 +since the counters were reset \(boot, or perfquery -R\): hw_counters/link_downed [1-9][[:space:]]" \
		-e "WARN +2 +link_flaps +rxe_lf/1 +lf0 lost its carrier 1 time since boot \(carrier_up_count 2, " \
		-n "did not come back" \
		lossless_flap
fi
